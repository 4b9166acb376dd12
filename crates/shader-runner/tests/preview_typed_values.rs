//! Typed values must not change what runs. The lowering keeps each value
//! in the kind its instruction gives it; two of its rules are checked here
//! on lavapipe, through the live preview's plan, against D3D's definition
//! of each instruction, worked by hand in the comments:
//! - bit copies (`mov`, `movc`, `and` with a comparison's mask) whose lanes
//!   hold values of different kinds are one group of lanes per kind
//!   (`dxbc_naga`'s `kind_groups`): a later group must never read a lane an
//!   earlier group has already written;
//! - a temp register reused for values of different kinds gets one typed
//!   variable per live range (web, `dxbc_naga`'s liveness): every read must
//!   find the value the last write on its path stored.

use preview_model::plan;
use preview_model::settings::Settings;
use preview_model::PreviewModel;
use shader_runner::gpu::Gpu;

/// The pixels the preview draws for `listing`, on lavapipe: every drawn
/// (non-zero) one, at least a thousand of them.
fn drawn_pixels(listing: &str) -> Vec<[f32; 4]> {
    let bytes = dxbc::asm::assemble(listing).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = plan::translate(&s).unwrap();
    let m = PreviewModel::new(&s);
    let p = plan::build_from(&s, &t, &m, &m.defaults(), &Settings::default()).unwrap();
    let mut gpu = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let picture = shader_runner::preview::run(&mut gpu, &p).unwrap().remove(0);
    let drawn: Vec<[f32; 4]> = picture
        .chunks_exact(16)
        .map(|px| std::array::from_fn(|i| f32::from_le_bytes(px[i * 4..i * 4 + 4].try_into().unwrap())))
        .filter(|c| *c != [0.0; 4])
        .collect();
    assert!(drawn.len() > 1000, "only {} pixels drawn", drawn.len());
    drawn
}

/// The WGSL the CLI prints for `listing`.
fn wgsl(listing: &str) -> String {
    let bytes = dxbc::asm::assemble(listing).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).expect("translates");
    dxbc_naga::to_wgsl(&t).expect("WGSL")
}

const COPIES: &str = "//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_output o0.xyzw
dcl_temps 3
ftou r0.x, l(7.000000)
mul r0.y, l(1.500000), l(2.000000)
lt r1.x, l(0.000000), l(1.000000)
movc r1.yz, r1.xxxx, r0.xxyx, l(0,5,0.250000,0)
mov r2.xy, r0.yxyy
mov r0.xy, r0.yxyy
and r2.zw, r1.xxxx, r0.xxxy
utof o0.x, r1.y
add o0.y, r1.z, r0.x
utof o0.z, r0.y
utof r2.w, r2.w
add r2.z, r2.z, r2.w
add o0.w, r2.z, r2.x
ret
";

/// r0 = (7u, 3.0); r1.x = true, so r1.y = 7u and r1.z = 3.0 (a uint and a
/// float lane of one movc); r2.xy = (3.0, 7u) (a uint and a float lane of
/// one mov); the swap of r0.xy reads the lanes it writes, so it must not be
/// split: r0 = (3.0, 7u); r2.zw = (3.0, 7u) (and with a true mask keeps the
/// bits). o0 = (float(7u), 3.0 + 3.0, float(7u), 3.0 + float(7u) + 3.0).
const COPIES_WANT: [f32; 4] = [7.0, 6.0, 7.0, 13.0];

#[test]
fn copies_split_by_kind_compute_what_d3d_defines() {
    let drawn = drawn_pixels(COPIES);
    assert!(drawn.iter().all(|c| *c == COPIES_WANT), "{:?}, want {COPIES_WANT:?}", drawn[0]);
}

/// The movc's uint and float lanes are two selects in their own kinds
/// (each read once, so written where it is read): neither is bitcast.
#[test]
fn mixed_kind_copies_need_no_bitcast() {
    let wgsl = wgsl(COPIES);
    for select in ["select(5u, r0_x, r1_x)", "select(0.25f, r0_y, r1_x)"] {
        assert!(wgsl.contains(select), "no `{select}` in:\n{wgsl}");
        for kind in ["f32", "u32"] {
            assert!(!wgsl.contains(&format!("bitcast<{kind}>({select}")), "{select} bitcast in:\n{wgsl}");
        }
        // Nor reinterpreted as the other integer kind (WGSL spells it `i32(…)`).
        assert!(!wgsl.contains(&format!("i32({select}")), "{select} reinterpreted in:\n{wgsl}");
    }
}

const REUSED: &str = "//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_output o0.xyzw
dcl_temps 2
mov r0.x, l(1.500000)
lt r1.x, l(0.000000), r0.x
if_nz r1.x
  mul r0.x, r0.x, l(2.000000)
endif
mov o0.x, r0.x
mov r0.x, l(0)
mov r1.y, l(0)
loop
  ige r1.z, r0.x, l(5)
  breakc_nz r1.z
  iadd r1.y, r1.y, r0.x
  iadd r0.x, r0.x, l(1)
endloop
itof o0.y, r1.y
itof o0.z, r0.x
mov o0.w, l(1.000000)
ret
";

/// r0.x = 1.5; 0 < 1.5 holds, so r0.x = 1.5 * 2 = 3.0 (a float crossing
/// the `if`): o0.x = 3.0. Then r0.x is a counter 0..5 (an integer crossing
/// the loop's back edge) and r1.y sums 0 + 1 + 2 + 3 + 4 = 10:
/// o0 = (3.0, 10.0, 5.0, 1.0).
const REUSED_WANT: [f32; 4] = [3.0, 10.0, 5.0, 1.0];

#[test]
fn a_register_reused_across_blocks_computes_what_d3d_defines() {
    let drawn = drawn_pixels(REUSED);
    assert!(drawn.iter().all(|c| *c == REUSED_WANT), "{:?}, want {REUSED_WANT:?}", drawn[0]);
}

/// The float and the counter are two variables, each of its own kind:
/// nothing is bitcast.
#[test]
fn each_live_range_has_a_variable_of_its_kind() {
    let wgsl = wgsl(REUSED);
    let vars: Vec<&str> = wgsl.lines().map(str::trim).filter(|l| l.starts_with("var r0_x")).collect();
    assert_eq!(vars.len(), 2, "{wgsl}");
    assert!(vars.iter().any(|v| v.contains(": f32")) && vars.iter().any(|v| v.contains(": i32")), "{wgsl}");
    assert!(!wgsl.contains("bitcast"), "{wgsl}");
}

/// After [`WITH_POSITION`]: r0.x is computed from the pixel's x, so it is no
/// constant (a constant `1 << 30` would be folded to the float `2f`).
const CONVERTED_ONCE: &str = "ftou r0.x, v0.x
and r0.x, r0.x, l(0)
iadd r0.x, r0.x, l(0x40000000)
add r1.x, r0.x, l(1.000000)
mul r1.y, r0.x, r0.x
add r1.z, r0.x, l(-0.500000)
mul r0.y, l(2.000000), l(8.000000)
ushr r0.z, r0.y, l(23)
ushr r0.w, r0.y, l(24)
iadd r0.z, r0.z, r0.w
utof r1.w, r0.z
mov o0.xyzw, r1.xyzw
ret
";

/// r0.x = (uint(x) & 0) + 0x40000000, the bits of 2.0, read as a float three
/// times: r1.xyz = (2 + 1, 2 * 2, 2 - 0.5). r0.y = 16.0 = 0x41800000, read
/// as bits twice: 0x41800000 >> 23 = 0x83 = 131, >> 24 = 0x41 = 65, so
/// r1.w = float(131 + 65). o0 = (3.0, 4.0, 1.5, 196.0).
const CONVERTED_ONCE_WANT: [f32; 4] = [3.0, 4.0, 1.5, 196.0];

#[test]
fn a_value_converted_where_it_is_written_computes_what_d3d_defines() {
    let drawn = drawn_pixels(&with_position(CONVERTED_ONCE));
    assert!(drawn.iter().all(|c| *c == CONVERTED_ONCE_WANT), "{:?}, want {CONVERTED_ONCE_WANT:?}", drawn[0]);
}

/// The integer read as a float three times, and the float read as bits
/// twice, are each converted once, where they are written (not at every
/// read): two bitcasts in all.
#[test]
fn a_value_read_in_another_kind_is_bitcast_once() {
    let wgsl = wgsl(&with_position(CONVERTED_ONCE));
    assert_eq!(wgsl.matches("bitcast<").count(), 2, "{wgsl}");
}

/// A pixel shader reading the pixel's x: values computed from it are
/// not constants, as the listings after this header need.
const WITH_POSITION: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_POSITION              0   xyzw        0      POS   float   x   
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps_siv linear noperspective v0.x, position
dcl_output o0.xyzw
dcl_temps 2
";

/// `body` after [`WITH_POSITION`].
fn with_position(body: &str) -> String {
    format!("{WITH_POSITION}{body}")
}

const NEGATED: &str = "ftou r0.x, v0.x
and r0.x, r0.x, l(0)
iadd r0.x, r0.x, l(8)
iadd r0.y, -r0.x, l(3)
itof r1.x, r0.y
umad r0.z, -r0.x, l(2), l(20)
utof r1.y, r0.z
mul r0.w, l(2.000000), l(3.000000)
add r1.z, l(10.000000), -r0.w
iadd r0.x, -l(1), l(3)
itof r1.w, r0.x
mov o0.xyzw, r1.xyzw
ret
";

/// r0.x = (uint(x) & 0) + 8 = 8, unsigned and not a constant; r0.y = 3 - 8 = -5 as two's
/// complement; r0.z = -8 * 2 + 20 = 4 (wrapping, unsigned); r1.z = 10 - 6;
/// r0.x = -1 + 3 = 2 (two constants). o0 = (-5.0, 4.0, 4.0, 2.0).
const NEGATED_WANT: [f32; 4] = [-5.0, 4.0, 4.0, 2.0];

#[test]
fn negated_sources_compute_what_d3d_defines() {
    let drawn = drawn_pixels(&with_position(NEGATED));
    assert!(drawn.iter().all(|c| *c == NEGATED_WANT), "{:?}, want {NEGATED_WANT:?}", drawn[0]);
}

/// A negated unsigned source is `0u - x`, and `iadd`/`add` with one negated
/// source a subtraction, so nothing is bitcast but the two `itof` inputs'
/// sign (the negation of two constants keeps its exact detour through
/// i32: WGSL refuses `1u - 3u` as a constant expression).
#[test]
fn negated_unsigned_sources_need_no_signed_detour() {
    let wgsl = wgsl(&with_position(NEGATED));
    let body = body_of(&wgsl);
    assert!(body.contains("(3u - r0_x") && body.contains("(0u - r0_x"), "{wgsl}");
    assert!(body.contains("(10f - "), "{wgsl}");
    assert!(!body.contains("-(bitcast<i32>(r0_x") && !body.contains("-(i32(r0_x"), "{wgsl}");
}

const TIED: &str = "ftou r0.x, v0.x
and r0.x, r0.x, l(0)
iadd r0.x, r0.x, l(8)
ftoi r0.y, v0.x
and r0.y, r0.y, l(0)
iadd r0.y, r0.y, l(-3)
iadd r1.x, r0.x, r0.y
ishr r1.y, r1.x, l(1)
ilt r1.z, r1.x, l(10)
itof o0.x, r1.x
itof o0.y, r1.y
movc o0.z, r1.z, l(1.000000), l(0)
mov o0.w, l(1.000000)
ret
";

/// r0.x = (uint(x) & 0) + 8 = 8u and r0.y = (int(x) & 0) - 3 = -3i, not
/// constants; r1.x = 8 + -3 = 5, r1.y = 5 >> 1 = 2, 5 < 10 holds:
/// o0 = (5.0, 2.0, 1.0, 1.0).
const TIED_WANT: [f32; 4] = [5.0, 2.0, 1.0, 1.0];

#[test]
fn a_sum_of_a_uint_and_an_int_computes_what_d3d_defines() {
    let drawn = drawn_pixels(&with_position(TIED));
    assert!(drawn.iter().all(|c| *c == TIED_WANT), "{:?}, want {TIED_WANT:?}", drawn[0]);
}

/// The `iadd` of a uint and an int source is done as int, the kind its
/// three readers take (`ishr`, `ilt`, `itof`): one reinterpretation, of the
/// uint source, where taking the first source's kind cost two. (WGSL spells
/// an i32 reading of a u32's bits `i32(…)`.)
#[test]
fn a_tie_between_source_kinds_goes_to_the_readers_kind() {
    let wgsl = wgsl(&with_position(TIED));
    let body = body_of(&wgsl);
    assert_eq!(body.matches("bitcast<").count(), 0, "{wgsl}");
    // The uint source (r0.x's `iadd`, read once, written inside the sum),
    // and the int source as it is.
    assert!(body.contains("(i32(((r0_x & 0u) + 8u)) + ((r0_y & 0i) - 3i))"), "{wgsl}");
}

/// The WGSL from the function holding the program on: `fn dxbc_main`, or
/// the entry point `fn main(` when the body is written into it (panics on
/// neither, so that no check passes on an empty text).
fn body_of(wgsl: &str) -> &str {
    let start = wgsl.find("fn dxbc_main").or_else(|| wgsl.find("fn main(")).expect("the body function");
    &wgsl[start..]
}
