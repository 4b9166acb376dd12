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

/// The movc's uint and float lanes are two selects in their own kinds:
/// neither is bitcast.
#[test]
fn mixed_kind_copies_need_no_bitcast() {
    let wgsl = wgsl(COPIES);
    for reg in ["r1_y", "r1_z"] {
        let line = wgsl.lines().find(|l| l.trim_start().starts_with(&format!("let {reg} ")));
        let line = line.unwrap_or_else(|| panic!("no `let {reg}` in:\n{wgsl}"));
        assert!(!line.contains("bitcast"), "{line}\nin:\n{wgsl}");
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
