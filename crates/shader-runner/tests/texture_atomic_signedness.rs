//! Min and max on typed UAV textures compare as their opcode says, on a
//! texture of either signedness: D3D's `atomic_imax`/`imin` are signed and
//! `atomic_umax`/`umin` unsigned whether the texture is R32_UINT or
//! R32_SINT. naga's image atomics take the signedness from the image's
//! type, so the translator marks the other-signed ones and the SPIR-V
//! post-pass swaps the opcode (`dxbc_naga`'s `spirv_marks`).
//!
//! The test is a vkd3d-style test file written at run time (the bytecode
//! assembled from the listing below), run as `shader-runner` runs the
//! corpus: the CLI's SPIR-V words on lavapipe, and the interpreter. The
//! expected texels are D3D's, worked by hand; the unsigned reading of a
//! signed compare (or the reverse) gives another value for each of the
//! four other-signed atomics.

use shader_runner::{exec::ModuleSource, gpu::Gpu, manifest, run_test_cpu, run_test_with, RowResult, Status};
use std::path::PathBuf;

const LISTING: &str = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_texture2d (uint,uint,uint,uint) u1
dcl_uav_typed_texture2d (sint,sint,sint,sint) u2
dcl_thread_group 1, 1, 1
atomic_imax u1, l(0, 0, 0, 0), l(-3)
atomic_imin u1, l(1, 0, 0, 0), l(2)
atomic_umax u1, l(2, 0, 0, 0), l(9)
atomic_umax u2, l(0, 0, 0, 0), l(-3)
atomic_umin u2, l(1, 0, 0, 0), l(2)
atomic_imin u2, l(2, 0, 0, 0), l(9)
ret
";

/// u1 holds 5, 0xfffffff0 (-16 signed), 7; u2 5, -16, 7. Signed max(5, -3)
/// keeps 5 (unsigned: 0xfffffffd); signed min(-16, 2) keeps -16 (unsigned:
/// 2); unsigned max(5, 0xfffffffd) is -3 (signed: 5); unsigned
/// min(0xfffffff0, 2) is 2 (signed: -16). The third texel of each is an
/// atomic of the texture's own signedness.
const TEST: &str = "[require]
shader model >= 5.0

[uav 1]
format r32-uint
size (2d, 3, 1)

5 0xfffffff0 7

[uav 2]
format r32-sint
size (2d, 3, 1)

5 -16 7

[compute shader]
% The bytecode is assembled from the listing in texture_atomic_signedness.rs.

[test]
dispatch 1 1 1
probe uav 1 (0, 0) u32(5)
probe uav 1 (1, 0) u32(0xfffffff0)
probe uav 1 (2, 0) u32(9)
probe uav 2 (0, 0) i32(-3)
probe uav 2 (1, 0) i32(2)
probe uav 2 (2, 0) i32(7)
";

/// A corpus directory holding the one test file, its bytecode and its
/// manifest row (section 003: the fourth section, at line 16), under a
/// directory of its own per `run`.
fn fixture(run: &str) -> (PathBuf, Vec<manifest::Row>) {
    let root = std::env::temp_dir().join(format!("dxbc-texture-atomics-{}-{run}", std::process::id()));
    let dir = root.join("signedness");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("signedness.shader_test"), TEST).unwrap();
    let bytes = dxbc::asm::assemble(LISTING).expect("the listing assembles");
    std::fs::write(dir.join("003_cs_5_0.dxbc"), &bytes).unwrap();
    let manifest = format!(
        "test\tsection\tline\tstage\tprofile\tstatus\tsize\thas_probes\theader\tsm_range\trequire_caps\toptions\ttodo\n\
         signedness\t003\t16\tcs\tcs_5_0\tok\t{}\tyes:6/0todo\tcompute shader\t5.0..6.2\t\
         format_r32-sint_uav-load,format_r32-uint_uav-load\t-\t-\n",
        bytes.len()
    );
    std::fs::write(root.join("MANIFEST.tsv"), manifest).unwrap();
    let rows = manifest::read(&root.join("MANIFEST.tsv")).unwrap().remove("signedness").unwrap();
    (dir, rows)
}

fn passes_every_probe(rows: &[RowResult]) {
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r.status, Status::Pass, "{}", r.line_text());
    assert_eq!((r.probes_passed, r.probes), (6, 6), "{}", r.line_text());
}

#[test]
fn the_clis_spirv_on_lavapipe_compares_as_the_opcode_says() {
    let (dir, rows) = fixture("gpu");
    let mut gpu = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    assert!(gpu.features.contains(wgpu::Features::PASSTHROUGH_SHADERS), "the adapter takes SPIR-V as it is");
    let got = run_test_with(&mut gpu, &dir, &rows, &Default::default(), Default::default(), ModuleSource::Spirv);
    passes_every_probe(&got);
    // naga's own words cannot carry the swap: that run says so, typed.
    let naga = run_test_with(&mut gpu, &dir, &rows, &Default::default(), Default::default(), ModuleSource::Naga);
    assert!(
        matches!(naga[0].status, Status::Todo(shader_runner::RunnerTodo::SpirvPostPass)),
        "{}",
        naga[0].line_text()
    );
}

#[test]
fn the_interpreter_compares_as_the_opcode_says() {
    let (dir, rows) = fixture("cpu");
    passes_every_probe(&run_test_cpu(&dir, &rows, &Default::default()));
}
