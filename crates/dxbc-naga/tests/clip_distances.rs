//! SV_ClipDistance outputs of vertex shaders become one `clip_distances`
//! built-in array, in every target (WGSL through `enable clip_distances;`).
//! The oracle is the fxc-identical listing: the number of clip-distance
//! components its `dcl_output_siv … clip_distance` lines declare.

use dxbc_naga::Language;
use std::path::PathBuf;

const FILES: &[&str] = &[
    "fxc/dxdecompiler_generic_clipping_vs.dxbc",
    "blobs/vkd3d_d3d12_vs_multiple_code_dxbc.dxbc",
    "blobs/vkd3d_d3d12_vs_code_dxbc_3.dxbc",
];

/// Clip-distance components the listing declares: `o3.x` is one, `o2.xy` two.
fn declared(listing: &str) -> u32 {
    listing
        .lines()
        .filter(|l| l.starts_with("dcl_output_siv") && l.ends_with(", clip_distance"))
        .map(|l| {
            let reg = l.split_whitespace().nth(1).unwrap().trim_end_matches(',');
            reg.split('.').nth(1).map_or(4, |m| m.len() as u32)
        })
        .sum()
}

#[test]
fn clip_distances_are_one_builtin_array_in_every_target() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    for f in FILES {
        let bytes = std::fs::read(corpus.join(f)).unwrap_or_else(|e| panic!("corpus file {f} missing: {e}"));
        let shader = dxbc::Shader::parse(&bytes).unwrap();
        let n = declared(&dxbc::listing::disassemble(&shader));
        assert!(n > 0, "{f}: the listing declares no clip distance");
        let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{f}: {e}"));
        let io: Vec<_> = t.outputs.iter().filter(|o| o.builtin.as_deref() == Some("clip_distances")).collect();
        assert_eq!(io.len(), 1, "{f}");
        assert_eq!(io[0].components, n, "{f}");
        for l in Language::ALL {
            assert!(t.refusal(l).is_none(), "{f}: {l:?}");
        }
        let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
        assert!(wgsl.contains("enable clip_distances;"), "{f}");
        assert!(wgsl.contains(&format!("@builtin(clip_distances) clip_distances: array<f32, {n}>")), "{f}\n{wgsl}");
        assert!(dxbc_naga::to_glsl(&t).unwrap().contains("gl_ClipDistance"), "{f}");
        assert!(dxbc_naga::to_hlsl(&t).unwrap().contains("SV_ClipDistance"), "{f}");
        dxbc_naga::to_spirv(&t).unwrap();
        dxbc_naga::to_msl(&t).unwrap();
    }
}
