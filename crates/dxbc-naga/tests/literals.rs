//! Literals read in another kind than their value's are written in that
//! kind (`1065353216u` read as a float is `1f`), not bitcast; bits that are
//! no finite float keep their detour through a variable, since WGSL
//! refuses a constant expression that evaluates to NaN or infinity; so do
//! a subnormal's (a small integer's) bits, which WGSL lets an
//! implementation flush to zero as a constant.

mod common;
use common::wgsl_of as wgsl;

#[test]
fn literals_take_the_kind_they_are_read_in() {
    let wgsl = wgsl(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.x\n\
         dcl_output o0.xyzw\n\
         dcl_temps 2\n\
         ftou r0.x, v0.x\n\
         movc r0.yzw, r0.xxxx, l(0, 1065353216, 0x7fc00000, 4), l(0, 0, 0, 0)\n\
         ilt r1.x, l(0), r0.x\n\
         and r1.y, r1.x, r0.y\n\
         add o0.x, r1.y, l(0.5)\n\
         add o0.y, r0.z, l(0.5)\n\
         add o0.z, r0.w, l(0.5)\n\
         mov o0.w, l(0)\n\
         ret\n",
    );
    let body = common::body_of(&wgsl);
    // Each literal in its reader's kind: no bitcast of a literal or of a
    // splat of one (`bitcast<vec2<f32>>(vec2(0u))` was the `mov`'s zeros).
    let bitcast_args = body.split("bitcast<").skip(1).map(|s| s.split_once(">(").map_or("", |(_, arg)| arg));
    for arg in bitcast_args {
        let arg = arg.strip_prefix("vec2(").or_else(|| arg.strip_prefix("vec4(")).unwrap_or(arg);
        assert!(!arg.starts_with(|c: char| c.is_ascii_digit()), "a literal bitcast: {arg}\nin:\n{wgsl}");
    }
    // The quiet NaN's bits reach the float through a variable.
    assert!(wgsl.contains("bits_7fc00000"), "{wgsl}");
    // So do the subnormal's (4u), never a decimal literal such as 6e-45f.
    assert!(wgsl.contains("bits_00000004") && !wgsl.contains("e-45"), "{wgsl}");
    let module = naga::front::wgsl::parse_str(&wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
}

/// A subnormal read twice in a function is one variable, read twice: it is
/// never stored to.
#[test]
fn a_subnormal_read_twice_is_one_variable() {
    let wgsl = wgsl(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xy\n\
         dcl_output o0.xy\n\
         dcl_temps 1\n\
         lt r0.x, l(0), v0.x\n\
         if_nz r0.x\n\
           add o0.x, v0.y, l(4)\n\
         else\n\
           mul o0.x, v0.y, l(4)\n\
         endif\n\
         mov o0.y, l(0)\n\
         ret\n",
    );
    assert_eq!(wgsl.matches("var bits_00000004").count(), 1, "{wgsl}");
    assert_eq!(wgsl.matches("bitcast<f32>(bits_00000004_)").count(), 2, "{wgsl}");
}

/// Addresses made of immediates are folded to the word they name:
/// `u1_[14u]`, not `u1_[((3u * 4u) + 2u)]` (the u32 arithmetic WGSL would do at
/// run time, done once here).
#[test]
fn immediate_addresses_fold_to_word_indices() {
    let wgsl = wgsl(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_uav_raw u0\n\
         dcl_uav_structured u1, 16\n\
         dcl_temps 1\n\
         dcl_thread_group 1, 1, 1\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(20), u0.xxxx\n\
         store_structured u1.x, l(3), l(8), r0.x\n\
         ret\n",
    );
    // Raw: byte 20 is word 5 (the load clamps it to the buffer). Structured:
    // element 3 of 4 words, byte 8: word 14.
    assert!(wgsl.contains("u0_[min(5u,") && wgsl.contains("(5u < "), "{wgsl}");
    assert!(wgsl.contains("u1_[14u]"), "{wgsl}");
    assert!(!wgsl.contains("20u / 4u") && !wgsl.contains("3u * 4u"), "{wgsl}");
}

/// `udiv` by a literal with no zero lane among those written is a plain
/// division (D3D's 0xffffffff for a zero divisor cannot happen); a zero
/// lane keeps the guard. Only the written result is computed.
#[test]
fn udiv_by_a_nonzero_literal_needs_no_guard() {
    let listing = |divisor: &str| {
        format!(
            "ps_5_0\n\
             dcl_globalFlags refactoringAllowed\n\
             dcl_input_ps constant v0.xyz\n\
             dcl_output o0.xyzw\n\
             dcl_temps 1\n\
             udiv r0.xyz, null, v0.xyzx, {divisor}\n\
             mov o0.xyz, r0.xyzx\n\
             mov o0.w, l(0)\n\
             ret\n"
        )
    };
    // The w lane's 0 is not read: x, y and z are 31.
    let w = wgsl(&listing("l(31, 31, 31, 0)"));
    assert!(w.contains("/ vec3(31u))") && !w.contains("0xffffffffu") && !w.contains(" % "), "{w}");
    let w = wgsl(&listing("l(31, 0, 31, 0)"));
    assert!(w.contains("0xffffffffu") && !w.contains(" % "), "{w}");
}

/// Literal indices are folded into runtime-sized buffers and group-shared
/// memory, not into other fixed-size arrays: naga's validator refuses a
/// literal index past the end of a fixed-size array (a fuzzer finding: the
/// translation failed validation), so an indexable temp's index stays
/// computed. A literal group-shared word past the end is no access at all:
/// D3D leaves such a write undefined, and it is dropped. Known, and older
/// than the folding: the WGSL front end evaluates `x0_[(16384u + 2u)]` as
/// a constant and refuses it too.
#[test]
fn literal_indices_past_fixed_arrays_still_translate() {
    let bytes = dxbc::asm::assemble(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_temps 1\n\
         dcl_indexableTemp x0[6], 4\n\
         dcl_tgsm_raw g0, 16\n\
         dcl_thread_group 1, 1, 1\n\
         mov r0.x, l(16384)\n\
         mov x0[r0.x + 2].xy, l(1, 1, 0, 0)\n\
         store_raw g0.x, l(99996), r0.x\n\
         store_raw g0.x, l(12), r0.x\n\
         ret\n",
    )
    .expect("the fixture assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let w = dxbc_naga::to_wgsl(&t).expect("WGSL");
    // The group-shared store past the end is dropped; the one inside names its word.
    assert!(!w.contains("99996") && !w.contains("24999"), "{w}");
    assert!(w.contains("g0_[3u] = 16384u;"), "{w}");
}

/// An addition of a negative literal is a subtraction, as a person writes
/// it (`x - 24u` for fxc's `iadd r0.x, r0.x, l(-24)`, `(a * b) - 16f` for a
/// `mad` by -16): the same value in IEEE arithmetic and in wrapping integer
/// arithmetic. A literal of mixed signs, or a sum of two constants (which
/// WGSL evaluates when the shader is created), stays an addition.
#[test]
fn adding_a_negative_literal_is_a_subtraction() {
    let w = wgsl(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps constant v0.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_temps 2\n\
         ftou r0.xyzw, v0.xyzw\n\
         iadd r1.xyzw, r0.xyzw, l(-24, -24, -24, -24)\n\
         iadd r1.x, r1.x, l(-1)\n\
         iadd r1.y, l(-7), r1.y\n\
         iadd r1.zw, r1.zzzw, l(0, 0, 5, -5)\n\
         utof o0.xyzw, r1.xyzw\n\
         mad o1.x, v0.x, l(256.000000), l(-16.000000)\n\
         add o1.y, v0.y, l(-0.5)\n\
         mov r0.x, l(3)\n\
         iadd r0.x, r0.x, l(-1)\n\
         utof o1.z, r0.x\n\
         mov o1.w, l(0)\n\
         ret\n",
    );
    let body = common::body_of(&w);
    for text in ["- vec4(24u)", "- 1u)", "- 7u)", "- 16f)", "(v0_.y - 0.5f)"] {
        assert!(body.contains(text), "{text}: {w}");
    }
    // Mixed signs: an addition of the literal as it is.
    assert!(body.contains("+ vec2<u32>(5u, 4294967291u)"), "{w}");
    assert!(!body.contains("+ -") && !body.contains("+ vec4(4294967272u)"), "{w}");
    // Two constants: WGSL folds the sum as written.
    assert!(body.contains("(3u + 0xffffffffu)"), "{w}");
}

/// `itof`/`utof` of a literal is the float literal where each value
/// converts exactly (`vec4(3f)`, `vec4<f32>(16777216f, …)`); a value that
/// would round (2^24 + 1) keeps its conversion, whose rounding is the
/// GPU's.
#[test]
fn an_integer_literal_converted_exactly_is_a_float_literal() {
    let wgsl = wgsl(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_temps 2\n\
         utof r0.xyzw, l(3, 3, 3, 3)\n\
         itof r1.xyzw, l(-2, 16777216, 0, 7)\n\
         add o0.xyzw, r0.xyzw, v0.xyzw\n\
         add r1.xyzw, r1.xyzw, v0.xyzw\n\
         utof r0.x, l(16777217)\n\
         add o1.xyzw, r1.xyzw, r0.xxxx\n\
         ret\n",
    );
    let body = common::body_of(&wgsl);
    assert!(body.contains("(vec4(3f) + v0_)"), "{wgsl}");
    assert!(body.contains("vec4<f32>(-2f, 16777216f, 0f, 7f)"), "{wgsl}");
    assert!(body.contains("f32(16777217u)"), "{wgsl}");
    assert!(!body.contains("vec4<f32>(vec4"), "{wgsl}");
}
