//! A temp register reused for values of different kinds gets one typed
//! variable per live range (web, `dxbc_naga`'s liveness), not one variable
//! bitcast at every store and load. Webs must not change what runs: every
//! read must find the value the last write on its path stored. The
//! fixture runs on lavapipe through the live preview's plan; the truth is
//! D3D's definition of each instruction, worked by hand in the comments.

use preview_model::plan;
use preview_model::settings::Settings;
use preview_model::PreviewModel;
use shader_runner::gpu::Gpu;

const FIXTURE: &str = "//
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
const WANT: [f32; 4] = [3.0, 10.0, 5.0, 1.0];

#[test]
fn a_register_reused_across_blocks_computes_what_d3d_defines() {
    let bytes = dxbc::asm::assemble(FIXTURE).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = plan::translate(&s).unwrap();
    let m = PreviewModel::new(&s);
    let p = plan::build_from(&s, &t, &m, &m.defaults(), &Settings::default()).unwrap();
    let mut gpu = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let picture = shader_runner::preview::run(&mut gpu, &p).unwrap().remove(0);
    let pixels: Vec<[f32; 4]> = picture
        .chunks_exact(16)
        .map(|px| std::array::from_fn(|i| f32::from_le_bytes(px[i * 4..i * 4 + 4].try_into().unwrap())))
        .collect();
    let drawn: Vec<_> = pixels.iter().filter(|c| **c != [0.0; 4]).collect();
    assert!(drawn.len() > 1000, "only {} pixels drawn", drawn.len());
    assert!(drawn.iter().all(|c| **c == WANT), "{:?}, want {WANT:?}", drawn[0]);
}

/// The float and the counter are two variables, each of its own kind:
/// nothing is bitcast.
#[test]
fn each_live_range_has_a_variable_of_its_kind() {
    let bytes = dxbc::asm::assemble(FIXTURE).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).expect("translates");
    let wgsl = dxbc_naga::to_wgsl(&t).expect("WGSL");
    let vars: Vec<&str> = wgsl.lines().map(str::trim).filter(|l| l.starts_with("var r0_x")).collect();
    assert_eq!(vars.len(), 2, "{wgsl}");
    assert!(vars.iter().any(|v| v.contains(": f32")) && vars.iter().any(|v| v.contains(": i32")), "{wgsl}");
    assert!(!wgsl.contains("bitcast"), "{wgsl}");
}
