//! Bit copies (`mov`, `movc`, `and` with a comparison's mask) whose lanes
//! hold values of different kinds are lowered one group of lanes per kind
//! (`dxbc_naga`'s `kind_groups`), so no lane is bitcast only to share a
//! vector. Splitting must not change what runs: a later group must never
//! read a lane an earlier group has already written. The fixture below
//! runs on lavapipe through the live preview's plan; the truth is D3D's
//! definition of each instruction, worked by hand in the comments.

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
const WANT: [f32; 4] = [7.0, 6.0, 7.0, 13.0];

#[test]
fn copies_split_by_kind_compute_what_d3d_defines() {
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

/// The movc's uint and float lanes are two selects in their own kinds:
/// neither is bitcast.
#[test]
fn mixed_kind_copies_need_no_bitcast() {
    let bytes = dxbc::asm::assemble(FIXTURE).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).expect("translates");
    let wgsl = dxbc_naga::to_wgsl(&t).expect("WGSL");
    for reg in ["r1_y", "r1_z"] {
        let line = wgsl.lines().find(|l| l.trim_start().starts_with(&format!("let {reg} ")));
        let line = line.unwrap_or_else(|| panic!("no `let {reg}` in:\n{wgsl}"));
        assert!(!line.contains("bitcast"), "{line}\nin:\n{wgsl}");
    }
}
