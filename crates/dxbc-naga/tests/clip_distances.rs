//! SV_ClipDistance outputs of vertex shaders become one `clip_distances`
//! built-in array, in every target (WGSL through `enable clip_distances;`).
//! SV_CullDistance outputs likewise become `cull_distances`, in the targets
//! that have them. The oracle is the fxc-identical listing: the number of
//! components its `dcl_output_siv … clip_distance` (`cull_distance`) lines
//! declare.

use dxbc_naga::Language;
use std::path::PathBuf;

const FILES: &[&str] = &[
    "fxc/dxdecompiler_generic_clipping_vs.dxbc",
    "blobs/vkd3d_d3d12_vs_multiple_code_dxbc.dxbc",
    "blobs/vkd3d_d3d12_vs_code_dxbc_3.dxbc",
];

/// Clip-distance components the listing declares: `o3.x` is one, `o2.xy` two.
fn declared(listing: &str) -> u32 {
    declared_as(listing, "clip_distance")
}

/// Components the listing declares with the system value `name`.
fn declared_as(listing: &str, name: &str) -> u32 {
    listing
        .lines()
        .filter(|l| l.starts_with("dcl_output_siv") && l.ends_with(&format!(", {name}")))
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

#[test]
fn clip_and_cull_distances_in_one_register_are_two_builtin_arrays() {
    // o1.x is SV_ClipDistance0 and o1.y SV_CullDistance0.
    let f = "fxc/dxdecompiler_3dmigoto_signatures_vs.dxbc";
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let bytes = std::fs::read(corpus.join(f)).unwrap_or_else(|e| panic!("corpus file {f} missing: {e}"));
    let shader = dxbc::Shader::parse(&bytes).unwrap();
    let listing = dxbc::listing::disassemble(&shader);
    let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{f}: {e}"));
    for (builtin, name) in [("clip_distances", "clip_distance"), ("cull_distances", "cull_distance")] {
        let n = declared_as(&listing, name);
        assert!(n > 0, "{f}: the listing declares no {name}");
        let io: Vec<_> = t.outputs.iter().filter(|o| o.builtin.as_deref() == Some(builtin)).collect();
        assert_eq!(io.iter().map(|o| o.components).collect::<Vec<_>>(), [n], "{f}: {builtin}");
    }
    // SPIR-V and HLSL have cull distances; WGSL has none, and naga's MSL and
    // GLSL writers cannot write them.
    for l in [Language::Wgsl, Language::Msl, Language::Glsl] {
        assert_eq!(t.refusal(l).map(|r| r.limitation), Some(dxbc_naga::Limitation::CullDistance), "{l:?}");
    }
    assert!(dxbc_naga::to_hlsl(&t).unwrap().contains("float cull_distances[1] : SV_CullDistance;"));
    let words = dxbc_naga::to_spirv(&t).unwrap();
    // OpDecorate %var BuiltIn(11) ClipDistance(3) / CullDistance(4).
    let decorates = |built_in: u32| words.windows(4).any(|w| w == [(4 << 16) | 71, w[1], 11, built_in]);
    assert!(decorates(3) && decorates(4));
}
