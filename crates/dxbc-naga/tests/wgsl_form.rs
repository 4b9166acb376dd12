//! The module the WGSL writer gets (`wgsl_form`). Reads of read-only memory
//! written where they are used (`wgsl_loads`):
//! a load from a constant buffer or a read-only buffer that one expression
//! reads is printed inside it, not as a `let`; a load used twice, or from
//! memory the shader writes, keeps its `let` where it stands; a variable's
//! load moves to its uses only past stores to other variables (a
//! register's, to each of its uses; one at a computed index, only to its
//! one use). And the
//! `derivative_uniformity` diagnostic only where a derivative is taken.

mod common;
use common::{body_of, wgsl_of};

fn ps(decls: &str, body: &str) -> String {
    wgsl_of(&format!(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         {decls}\
         dcl_input_ps linear v0.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_temps 2\n\
         {body}"
    ))
}

fn reparses(wgsl: &str) {
    let module = naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
}

#[test]
fn a_constant_buffer_row_read_once_is_written_at_its_use() {
    let w = ps(
        "dcl_constantbuffer CB0[2], immediateIndexed\n",
        "mul o0.xyzw, v0.xyzw, cb0[0].xyzw\n\
         mov o1.xyzw, cb0[1].yyyy\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("(v0_ * cb0_[0])"), "{w}");
    assert!(body.contains("let o1_ = cb0_[1].yyyy;"), "{w}");
    assert!(!body.contains("let cb0_"), "{w}");
    reparses(&w);
}

#[test]
fn a_row_read_twice_keeps_its_let() {
    let w = ps(
        "dcl_constantbuffer CB0[1], immediateIndexed\n",
        "mul o0.xyzw, v0.xyzw, cb0[0].xyzw\n\
         add o1.xyzw, v0.xyzw, cb0[0].xyzw\n\
         ret\n",
    );
    let body = body_of(&w);
    assert_eq!(body.matches("cb0_[0]").count(), 1, "{w}");
    assert!(body.contains("let cb0_0_ = cb0_[0];"), "{w}");
    reparses(&w);
}

/// A read of a buffer the shader also writes must happen where it stands,
/// before the store after it; a read-only buffer's read may move.
#[test]
fn a_read_of_writable_memory_keeps_its_place() {
    let w = wgsl_of(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_resource_raw t0\n\
         dcl_uav_raw u0\n\
         dcl_temps 1\n\
         dcl_thread_group 1, 1, 1\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), u0.xxxx\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.y, l(0), t0.xxxx\n\
         store_raw u0.x, l(0), l(7)\n\
         store_raw u0.x, l(4), r0.x\n\
         store_raw u0.x, l(8), r0.y\n\
         ret\n",
    );
    let body = body_of(&w);
    let read = body.find("u0_[min(0u,").unwrap_or_else(|| panic!("the UAV read: {w}"));
    let store = body.find("u0_[0u] = 7u").unwrap_or_else(|| panic!("the store: {w}"));
    assert!(read < store, "the UAV read stays before the store: {w}");
    // The SRV's word is read inside the select that guards it.
    assert!(!body.contains("= t0_[min(0u,"), "{w}");
    assert!(body.contains(", t0_[min(0u,"), "{w}");
    reparses(&w);
}

#[test]
fn only_a_shader_taking_derivatives_turns_off_their_uniformity_check() {
    let plain = ps("", "mul o0.xyzw, v0.xyzw, l(2.0, 2.0, 2.0, 2.0)\nmov o1.xyzw, v0.xyzw\nret\n");
    assert!(!plain.contains("diagnostic("), "{plain}");
    let derivative = ps("", "deriv_rtx o0.xyzw, v0.xyzw\nmov o1.xyzw, v0.xyzw\nret\n");
    assert!(derivative.starts_with("diagnostic(off, derivative_uniformity);"), "{derivative}");
    let sampled = ps(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n",
        "sample_indexable(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0\n\
         sample_l_indexable(texture2d)(float,float,float,float) o1.xyzw, v0.xyxx, t0.xyzw, s0, l(0)\n\
         ret\n",
    );
    assert!(sampled.starts_with("diagnostic(off, derivative_uniformity);"), "{sampled}");
    let explicit = ps(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n",
        "sample_l_indexable(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)\n\
         mov o1.xyzw, v0.xyzw\n\
         ret\n",
    );
    assert!(!explicit.contains("diagnostic("), "{explicit}");
    for w in [plain, derivative, sampled, explicit] {
        reparses(&w);
    }
}

/// Temps that cross a loop live in variables. A load of one read once is
/// written at its use when nothing stores to that variable in between; a
/// load read after a store to its variable keeps its `let` before the store.
#[test]
fn a_variable_read_once_is_written_at_its_use_unless_stored_to_before() {
    let w = ps(
        "",
        "mov r0.xy, l(0, 0, 0, 0)\n\
         loop\n\
           ige r0.z, r0.y, l(4)\n\
           breakc_nz r0.z\n\
           mov r1.x, r0.x\n\
           mov r0.x, v0.x\n\
           if_nz r0.y\n\
             mov r0.x, v0.z\n\
           endif\n\
           add r0.x, r0.x, r1.x\n\
           iadd r0.y, r0.y, l(1)\n\
         endloop\n\
         mov o0.xyzw, r0.xxxx\n\
         mov o1.xyzw, v0.xyzw\n\
         ret\n",
    );
    let body = body_of(&w);
    let line_of = |text: &str| body.lines().position(|l| l.contains(text)).unwrap_or_else(|| panic!("{text}: {w}"));
    // The old r0.x, read before a branch may store to r0.x's web, keeps
    // its `let` before the branch; the counter, read twice, keeps its own.
    assert!(line_of(" = r0_x;") < line_of("if (u32("), "{w}");
    assert!(body.contains(" = r0_y;"), "{w}");
    // The branch's result, read once after it by the store, is read there;
    // the old r0.x, a load printed as a `let` anyway, is named after the
    // register it was moved into.
    assert!(body.contains("let r1_x = r0_x;"), "{w}");
    assert!(body.contains("r0_x = (r0_x_1 + r1_x);"), "{w}");
    assert!(!body.contains(" = r0_x_1;"), "{w}");
    reparses(&w);
}

/// Between i32 and u32, WGSL's conversion is the reinterpretation of the
/// bits: an integer read as the other kind is `u32(…)`/`i32(…)`; a float's
/// bits read as an integer (or back) stay a `bitcast`.
#[test]
fn integer_reinterpretations_are_conversions_and_float_bits_stay_bitcasts() {
    let w = ps(
        "dcl_constantbuffer CB0[4], dynamicIndexed\n",
        "ftoi r0.x, v0.x\n\
         ishl r0.y, r0.x, l(1)\n\
         ushr r0.y, r0.y, l(1)\n\
         mov o0.xyzw, cb0[r0.y + 0].xyzw\n\
         and r1.x, v0.y, l(0x7fffffff)\n\
         mov o1.xyzw, r1.xxxw\n\
         ret\n",
    );
    let body = body_of(&w);
    // ushr reads the i32 from ishl as u32, and its result indexes the array.
    assert!(body.contains("cb0_[(u32((r0_x << 1u)) >> 1u)]"), "{w}");
    assert!(!body.contains("bitcast<u32>(r") && !body.contains("bitcast<i32>("), "{w}");
    // `and` of a float with a mask looks at its bits: a bitcast.
    assert!(body.contains("bitcast<vec4<u32>>(v0_)"), "{w}");
    reparses(&w);
}

/// Groupshared memory: a load moves to its use past nothing but `Emit`s,
/// never past a barrier (other invocations' stores are ordered against it
/// there).
#[test]
fn a_groupshared_read_moves_to_its_use_but_never_past_a_barrier() {
    let w = wgsl_of(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_uav_raw u0\n\
         dcl_tgsm_raw g0, 16\n\
         dcl_temps 2\n\
         dcl_thread_group 4, 1, 1\n\
         ld_raw r0.x, l(0), g0.xxxx\n\
         ld_raw r0.y, l(4), g0.xxxx\n\
         sync_g_t\n\
         iadd r1.x, r0.x, l(1)\n\
         store_raw u0.x, l(0), r1.x\n\
         iadd r1.y, r0.y, l(2)\n\
         ld_raw r0.z, l(8), g0.xxxx\n\
         iadd r1.z, r0.z, r1.y\n\
         store_raw u0.x, l(4), r1.z\n\
         ret\n",
    );
    let body = body_of(&w);
    let barrier = body.find("workgroupBarrier()").unwrap_or_else(|| panic!("the barrier: {w}"));
    // Both reads before the barrier keep their `let`s there, named after
    // their registers; a literal address names its word.
    assert!(body[..barrier].contains("let r0_x = g0_[0u];"), "{w}");
    assert!(body[..barrier].contains("let r0_y = g0_[1u];"), "{w}");
    assert!(!body[barrier..].contains(" = g0_["), "{w}");
    // The read after it, used once with nothing between, is read in its sum.
    assert!(body[barrier..].contains("let r1_z = (g0_[2u] + (r0_y + 2u));"), "{w}");
    reparses(&w);
}

/// D3D leaves group-shared memory past its end undefined (a read's value;
/// all shared memory after a write), where a buffer's reads past the end
/// are zero and its writes dropped. So a group-shared word is indexed with
/// no guard: clamped to the last word in the module every backend shares,
/// and in WGSL as written, since WGSL keeps any index into a fixed-size
/// array inside it. A buffer's store stays guarded. The loads of one
/// `ld_structured`, read after a store they cannot pass, stay one line.
#[test]
fn group_shared_words_are_indexed_as_written() {
    let listing = "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_uav_raw u0\n\
         dcl_tgsm_structured g0, 16, 8\n\
         dcl_input vThreadID.x\n\
         dcl_temps 2\n\
         dcl_thread_group 8, 1, 1\n\
         ld_structured r0.xyzw, vThreadID.x, l(0), g0.xyzw\n\
         store_structured g0.xy, vThreadID.x, l(4), l(7, 9, 0, 0)\n\
         iadd r1.xyzw, r0.xyzw, l(1, 2, 3, 4)\n\
         store_raw u0.xyzw, l(0), r1.xyzw\n\
         ret\n";
    let w = wgsl_of(listing);
    let body = body_of(&w);
    assert!(body.contains("let r0_xyzw = vec4<u32>(g0_[_e"), "{w}");
    let at = body.find("] = 7u;").unwrap_or_else(|| panic!("the first word's store: {w}"));
    let word = &body[body[..at].rfind("g0_[").expect("its index") + 4..at];
    assert!(body.contains(&format!("g0_[({word} + 1u)] = 9u;")), "{w}");
    assert!(!body.contains("min(") && !body.contains("select("), "{w}");
    assert_eq!(body.matches("if (").count(), 4, "the four buffer words' guards: {w}");
    reparses(&w);
    // The shared module clamps every group-shared index (GLSL shows it).
    let bytes = dxbc::asm::assemble(listing).expect("the fixture assembles");
    let shader = dxbc::Shader::parse(&bytes).expect("parses");
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).expect("translates");
    let glsl = dxbc_naga::to_glsl(&t).expect("GLSL");
    assert_eq!(glsl.matches(", 31u)]").count(), 6, "four loads and two stores clamped to word 31: {glsl}");
}

/// A vector of one literal read twice is written at each use, as a literal
/// is, not bound to a `let _eN = vec4(0x1fu);` (here in `ubfe`, which masks
/// its width and its offset with `vec4(0x1fu)`).
#[test]
fn a_literal_vector_read_twice_is_written_at_each_use() {
    let w = ps(
        "",
        "ubfe r0.xyzw, v0.xyzw, v0.yzwx, v0.zwxy\n\
         mov o0.xyzw, r0.xyzw\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(!body.contains(" = vec4("), "{w}");
    assert_eq!(body.matches("vec4(0x1fu)").count(), 2, "{w}");
    reparses(&w);
}

/// A bit field's immediate width is its mask, a literal: `bfi` with width 7
/// at a register offset inserts under `(0x7fu << offset)`, not under
/// `((1u << (7u & 0x1fu)) - 1u) << offset`, and a base of 0 keeps nothing.
#[test]
fn an_immediate_bit_field_width_is_a_literal_mask() {
    let w = ps(
        "",
        "bfi r0.xyzw, l(7, 7, 7, 7), v0.xyzw, v0.yzwx, l(0, 0, 0, 0)\n\
         ubfe r0.x, l(5), v0.y, r0.x\n\
         mov o0.xyzw, r0.xyzw\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("(vec4(0x7fu) << "), "{w}");
    assert!(!body.contains("vec4(1u)") && !body.contains("~("), "{w}");
    // ubfe of width 5: 32 - 5 is decided, and no lane has width 0.
    assert!(body.contains("27u") && !body.contains("5u & 0x1fu") && !body.contains("== 0u"), "{w}");
    reparses(&w);
}

/// Immediate widths of which some lanes are 0: those lanes still give 0
/// (the select on width 0 stays), and none shifts by a constant 32, which
/// naga rejects (found by the `translate` fuzz target).
#[test]
fn a_bit_field_with_a_zero_width_lane_keeps_its_select() {
    let w = ps(
        "",
        "ibfe r0.xy, l(0, 5, 0, 0), v0.xy, v0.zw\n\
         mov o0.xy, r0.xy\n\
         mov o0.zw, l(0, 0, 0, 0)\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("vec2<u32>(0u, 27u)") && !body.contains("32u, 27u"), "{w}");
    assert!(body.contains("vec2(0i), (") && body.contains(" == vec2(0u))"), "{w}");
    reparses(&w);
}

/// All of a vector's lanes in order are the vector: a coordinate computed
/// into `r0.xy` and read as `r0.xyxx` is `r0_xy`, not `r0_xy.xy`.
#[test]
fn all_lanes_in_order_are_the_vector_itself() {
    let w = ps(
        "dcl_sampler s0, mode_default\n\
         dcl_resource_texture2d (float,float,float,float) t0\n",
        "mul r0.xy, v0.xyxx, l(0.500000, 0.250000, 0.000000, 0.000000)\n\
         sample_indexable(texture2d)(float,float,float,float) r1.xyzw, r0.xyxx, t0.xyzw, s0\n\
         sample_l_indexable(texture2d)(float,float,float,float) r0.xyzw, r0.xyxx, t0.xyzw, s0, l(1.000000)\n\
         add o0.xyzw, r0.xyzw, r1.xyzw\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("textureSample(t0_, s0_, r0_xy)"), "{w}");
    assert!(!body.contains("r0_xy.xy"), "{w}");
    reparses(&w);
}

/// Lanes of a swizzle that are the swizzle are not swizzled again (a
/// sample's `.xxxx` read as `r0.xxxx` is `_e.xxxx`, not `_e.xxxx.xxxx`), and
/// a literal array layer is picked here, rounded to even as D3D and WGSL
/// round it (2.5 is layer 2), not `i32(max(round(2.5f), 0f))`.
#[test]
fn a_swizzle_is_not_swizzled_again_and_a_literal_layer_is_an_integer() {
    let w = ps(
        "dcl_sampler s0, mode_default\n\
         dcl_resource_texture2darray (float,float,float,float) t0\n",
        "mov r0.xy, v0.xyxx\n\
         mov r0.z, l(2.500000)\n\
         sample_l_indexable(texture2darray)(float,float,float,float) r0.x, r0.xyzx, t0.xxxx, s0, l(0.000000)\n\
         mov o0.xyzw, r0.xxxx\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("v0_.xy, 2i, 0f)"), "{w}");
    assert!(!body.contains("round(") && !body.contains(".xxxx.xxxx") && body.contains(".xxxx;"), "{w}");
    reparses(&w);
}

/// A buffer's last index, which every clamped load reads, is computed once
/// per function, after its length, and named after the buffer when read
/// more than once (`u0_last`); before, each load had its own `len - 1u`.
/// Likewise two accesses at one address compute its word once.
#[test]
fn a_buffer_last_index_is_computed_once() {
    let w = wgsl_of(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_uav_raw u0\n\
         dcl_input vThreadID.x\n\
         dcl_temps 2\n\
         dcl_thread_group 64, 1, 1\n\
         ishl r0.x, vThreadID.x, l(3)\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.x, u0.xxxx\n\
         iadd r0.y, r0.x, l(4)\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.y, r0.y, u0.xxxx\n\
         iadd r1.x, r1.y, r1.x\n\
         store_raw u0.x, r0.x, r1.x\n\
         ret\n",
    );
    let body = body_of(&w);
    // The store at the first load's address uses that load's word.
    assert_eq!(body.matches("(r0_x / 4u)").count(), 1, "{w}");
    assert_eq!(body.matches("- 1u)").count(), 1, "{w}");
    assert!(body.contains("let u0_last = (u0_len - 1u);"), "{w}");
    assert_eq!(body.matches(", u0_last)]").count(), 2, "{w}");
    reparses(&w);
}

/// `f16tof32` of a literal is the half's value: 0x3c00 is 1.0, and 1 is the
/// smallest subnormal half, 2^-24 (a conversion keeps it).
#[test]
fn a_literal_half_is_converted_in_place() {
    let w = wgsl_of(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_output o0.xyzw\n\
         f16tof32 o0.xyzw, l(0x00003c00, 1, 0x0000c000, 0)\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(!body.contains("unpack2x16float"), "{w}");
    assert!(body.contains("1f, 5.9604645e-8f, -2f, 0f"), "{w}");
    reparses(&w);
}

/// Distinct lanes of a vector built of scalars are the vector of those
/// scalars, and a swizzle when they are one vector's components: a
/// texture array's coordinate is `texcoord.xy` (D3D gives the array index
/// in its z), not `vec4<f32>(texcoord.x, texcoord.y, texcoord.z, texcoord.x).xy`.
#[test]
fn lanes_of_a_built_vector_are_its_scalars() {
    let w = ps(
        "dcl_sampler s0, mode_default\n\
         dcl_resource_texture2darray (float,float,float,float) t0\n",
        "sample_indexable(texture2darray)(float,float,float,float) o0.xyzw, v0.xyzx, t0.xyzw, s0\n\
         sample_l_indexable(texture2darray)(float,float,float,float) o1.xyzw, l(0.5, 0.25, 1.0, 0.0), t0.xyzw, s0, l(0.0)\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("textureSample(t0_, s0_, v0_.xy, "), "{w}");
    assert!(body.contains("vec2<f32>(0.5f, 0.25f), "), "{w}");
    assert!(!body.contains(").xy,"), "{w}");
    reparses(&w);
}

/// A register's load read by several expressions, each evaluated before
/// anything stores to it, is written at each of them: `(r0_x * v0_.w)`,
/// not `let _e9 = r0_x;` first. A load at a computed index (a sample
/// position from the emulation's table) keeps its `let` however often it
/// is read.
#[test]
fn a_register_read_twice_before_a_store_is_written_at_each_use() {
    let w = ps(
        "dcl_resource_texture2dms(4) (float,float,float,float) t0\n",
        "lt r1.x, v0.y, l(0.5)\n\
         mov r0.x, v0.x\n\
         if_nz r1.x\n\
           mov r0.x, v0.z\n\
         endif\n\
         mul r1.y, r0.x, v0.w\n\
         add r1.z, r0.x, l(1.0)\n\
         ftou r1.w, v0.w\n\
         samplepos r0.yz, t0.xxyx, r1.w\n\
         mov o0.xyzw, r1.yzyz\n\
         mov o1.xyzw, r0.yzyz\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("(r0_x * v0_.w)") && body.contains("(r0_x + 1f)"), "{w}");
    assert!(!body.contains(" = r0_x;"), "{w}");
    assert_eq!(body.matches("d3d_sample_positions[").count(), 1, "{w}");
    reparses(&w);
}
