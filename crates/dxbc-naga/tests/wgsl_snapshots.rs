//! WGSL snapshots for a set of small corpus shaders (read in place from
//! ../shared/corpus), compared with the reviewed output kept in
//! tests/snapshots/. Set UPDATE_SNAPSHOTS=1 to rewrite them after a
//! deliberate change, then review the diff.

use std::path::PathBuf;

const CASES: &[(&str, &str)] = &[
    ("abs_ps", "vkd3d/abs/000_ps_4_0.dxbc"),
    ("switch_ps", "vkd3d/switch/000_ps_5_0.dxbc"),
    ("loop_ps", "vkd3d/loop/000_ps_5_0.dxbc"),
    ("sample_level_ps", "vkd3d/sample-level/003_ps_5_0.dxbc"),
    ("uav_atomics_cs", "vkd3d/uav-atomics/002_cs_5_0.dxbc"),
    ("tint_example_ps", ""),
    // Issue 14's reviewed kinds, from fxc's output.
    ("textures_cbuffer_ps", "fxc/dxdecompiler_transparencyaa10_1_transparencyaa10_1_ps.dxbc"),
    ("matrices_vs", "fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc"),
    ("groupshared_cs", "fxc/dxdecompiler_computeshadersort11_computeshadersort11_bitonicsort.dxbc"),
    ("loop_textures_ps", "fxc/slimshader_varianceshadows11_rendervariancescene_ps.dxbc"),
    ("bit_twiddling_cs", "fxc/xenia_dxbc_edram_store_color_32bpp_cs.dxbc"),
    ("stripped_ps", "fxc/directxtk_tonemap_psreinhard_srgb.dxbc"),
];

#[test]
fn wgsl_output_matches_reviewed_snapshots() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("../../../shared/corpus");
    assert!(corpus.is_dir(), "corpus directory {} is missing", corpus.display());
    let update = std::env::var("UPDATE_SNAPSHOTS").is_ok();
    let mut mismatches = Vec::new();
    for (name, rel) in CASES {
        let bytes = if rel.is_empty() {
            dxbc::examples::tint_pixel_shader()
        } else {
            std::fs::read(corpus.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
        };
        let shader = dxbc::Shader::parse(&bytes).unwrap();
        let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
        let path = root.join("tests/snapshots").join(format!("{name}.wgsl"));
        if update {
            std::fs::write(&path, &wgsl).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if expected != wgsl {
            mismatches.push(name.to_string());
        }
    }
    assert!(mismatches.is_empty(), "WGSL differs from the reviewed snapshot for {mismatches:?}");
}
