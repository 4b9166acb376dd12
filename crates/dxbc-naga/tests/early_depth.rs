//! Depth-test placement of pixel shaders: `[earlydepthstencil]` in the HLSL
//! source (fxc's `forceEarlyDepthStencil` flag) forces the tests before the
//! shader; `SV_DepthGreaterEqual`/`SV_DepthLessEqual` (fxc's `oDepthGE` and
//! `oDepthLE` in its own listing) promise a direction. The oracles are the
//! HLSL sources and fxc's listings, not our decoder.

use naga::{ConservativeDepth, EarlyDepthTest};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    let c = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(c.join("fxc").is_dir(), "corpus missing at {}", c.display());
    c
}

/// The entry point's depth-test placement, or None when the shader is
/// refused for a typed limitation (nothing to check then).
fn early_depth_test(dxbc: &Path) -> Option<Option<EarlyDepthTest>> {
    let bytes = std::fs::read(dxbc).unwrap_or_else(|e| panic!("{}: {e}", dxbc.display()));
    let shader = dxbc::Shader::parse(&bytes).unwrap();
    match dxbc_naga::translate(&shader, &dxbc_naga::Options::default()) {
        Ok(t) => Some(t.module.entry_points[0].early_depth_test),
        Err(e) if e.limitation().is_some() => None,
        Err(e) => panic!("{}: {e}", dxbc.display()),
    }
}

/// Pixel shaders of the HLSL-sourced corpora: (source, compiled containers).
fn pixel_shaders_with_sources() -> Vec<(String, Vec<PathBuf>)> {
    let c = corpus();
    let mut out = Vec::new();
    for e in std::fs::read_dir(c.join("blobs")).unwrap().flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("_ps_") && name.ends_with(".hlsl") {
            let dxbc = p.with_extension("dxbc");
            out.push((std::fs::read_to_string(&p).unwrap(), vec![dxbc]));
        }
    }
    for test in std::fs::read_dir(c.join("vkd3d")).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for e in std::fs::read_dir(test.path()).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix("_ps.hlsl") {
                let compiled: Vec<PathBuf> = std::fs::read_dir(test.path())
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|q| {
                        let n = q.file_name().unwrap().to_string_lossy();
                        n.starts_with(&format!("{stem}_ps_")) && n.ends_with(".dxbc")
                    })
                    .collect();
                out.push((std::fs::read_to_string(&p).unwrap(), compiled));
            }
        }
    }
    out
}

#[test]
fn earlydepthstencil_forces_the_tests_before_the_shader() {
    let mut forced = 0;
    for (source, compiled) in pixel_shaders_with_sources() {
        if !source.to_ascii_lowercase().contains("[earlydepthstencil]") {
            continue;
        }
        for dxbc in compiled {
            if let Some(got) = early_depth_test(&dxbc) {
                assert_eq!(got, Some(EarlyDepthTest::Force), "{}", dxbc.display());
                forced += 1;
            }
        }
    }
    // blobs' ps_code_26 and vkd3d's early-depth-stencil and depth-bounds shaders.
    assert_eq!(forced, 3);
}

#[test]
fn conservative_depth_outputs_promise_their_direction() {
    let fxc = corpus().join("fxc");
    let mut seen = 0;
    for e in std::fs::read_dir(&fxc).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "asm") {
            continue;
        }
        let listing = std::fs::read_to_string(&p).unwrap();
        let declares = |reg: &str| listing.lines().any(|l| l.starts_with("dcl_output") && l.contains(reg));
        let want = if declares("oDepthGE") {
            ConservativeDepth::GreaterEqual
        } else if declares("oDepthLE") {
            ConservativeDepth::LessEqual
        } else {
            continue;
        };
        if let Some(got) = early_depth_test(&p.with_extension("dxbc")) {
            assert_eq!(got, Some(EarlyDepthTest::Allow { conservative: want }), "{}", p.display());
            seen += 1;
        }
    }
    // Three fxc shaders declare them, and all three translate.
    assert_eq!(seen, 3);
}
