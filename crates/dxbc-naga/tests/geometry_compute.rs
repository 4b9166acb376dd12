//! Geometry shaders of the corpus in their compute form (see
//! `dxbc_naga::stages`): the counts the refusal table reports, every
//! module naga-validated (a translation is validated before it is
//! returned) and its SPIR-V passing `spirv-val`; the draw that pulls the
//! pass's output, and every vertex shader's compute form, likewise.

use dxbc_naga::report::{dxbc_files, stage_of, ComputeFormCounts};
use dxbc_naga::{Limitation, StageForm, TranslateError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus(subs: &[&str]) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in subs {
        let d = root.join(sub);
        files.extend(dxbc_files(&d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())));
    }
    files.sort();
    files
}

fn parse(f: &Path) -> Option<dxbc::Shader> {
    dxbc::Shader::parse(&std::fs::read(f).unwrap()).ok()
}

/// The acceptance bar over fxc + blobs, as measured: 36 of 38 geometry
/// shaders translate to the WGSL compute form (94.7 %); the other two emit
/// to stream 1. (Hull and domain shaders: `tessellation_compute.rs`.)
#[test]
fn geometry_shaders_of_fxc_and_blobs_translate_to_the_compute_form() {
    let mut counts = ComputeFormCounts::default();
    for f in corpus(&["fxc", "blobs"]) {
        let Some(shader) = parse(&f) else { continue };
        if ComputeFormCounts::STAGES.contains(&stage_of(&shader)) {
            counts.add(&f, &shader);
        }
    }
    print!("{}", counts.render());
    assert!(counts.errors.is_empty() && counts.failed.is_empty(), "{}", counts.render());
    assert_eq!(counts.count("gs"), (36, 2));
    assert_eq!(counts.wgsl_written.get("gs"), Some(&36));
    assert_eq!(counts.spirv_written.get("gs"), Some(&36));
    let refused: BTreeMap<Limitation, BTreeMap<&str, usize>> = counts.refused.clone();
    assert_eq!(refused[&Limitation::GeometryStreams], BTreeMap::from([("gs", 2)]));
    assert_eq!(refused.len(), 1);
}

/// Every geometry shader of all corpora: the compute pass and the draw
/// translate (or are refused, typed), and the SPIR-V of both passes spirv-val.
#[test]
fn compute_passes_and_draws_validate_and_pass_spirv_val() {
    let dir = std::env::temp_dir().join(format!("dxbc-gs-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = Vec::new();
    let mut per_form: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut wgsl_refused: BTreeMap<&str, usize> = BTreeMap::new();
    for f in corpus(&["fxc", "blobs", "vkd3d"]) {
        let Some(shader) = parse(&f) else { continue };
        let forms: &[(&str, StageForm)] = match stage_of(&shader) {
            "gs" => &[("compute", StageForm::Compute), ("draw", StageForm::DrawFromBuffer)],
            "vs" => &[("compute", StageForm::Compute)],
            _ => continue,
        };
        for &(name, form) in forms {
            let e = per_form.entry((stage_of(&shader), name)).or_default();
            match dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), form) {
                Ok(t) => {
                    e.0 += 1;
                    let c = t.compute_form.as_ref().expect("a compute form is described");
                    assert!(c.output_registers.iter().all(|&r| r < dxbc_naga::stages::REGISTER_STRIDE));
                    // WGSL has no layer or viewport output: refused per target.
                    match dxbc_naga::to_wgsl(&t) {
                        Ok(_) => {}
                        Err(dxbc_naga::OutputError::Refused {
                            limitation: Limitation::RenderTargetArrayIndex | Limitation::ViewportArrayIndex,
                            ..
                        }) => *wgsl_refused.entry(name).or_default() += 1,
                        Err(e) => panic!("{}: {e}", f.display()),
                    }
                    let words = match dxbc_naga::to_spirv(&t) {
                        Ok(w) => w,
                        // Per-target refusals (doubles in WGSL only) keep SPIR-V.
                        Err(e) => panic!("{}: {e}", f.display()),
                    };
                    let out = dir.join(format!("{}.spv", modules.len()));
                    std::fs::write(&out, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
                    modules.push((f.clone(), out));
                }
                Err(TranslateError::Unsupported { .. }) => e.1 += 1,
                Err(err) => panic!("{} ({name}): {err}", f.display()),
            }
        }
    }
    println!("{per_form:?}");
    let mut bad = Vec::new();
    for (src, spv) in &modules {
        let o = std::process::Command::new("spirv-val")
            .args(["--target-env", "vulkan1.1"])
            .arg(spv)
            .output()
            .expect("spirv-val is missing: install Debian's spirv-tools");
        if !o.status.success() {
            bad.push(format!("{}: {}", src.display(), String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bad.is_empty(), "{} modules fail spirv-val: {bad:#?}", bad.len());
    // Geometry passes over all corpora: 36 + 38 translate, 6 emit to another stream.
    assert_eq!(per_form[&("gs", "compute")], (74, 6));
    // Draws: 78 translate (SV_PrimitiveID as a flat varying); the 8 writing
    // SV_RenderTargetArrayIndex / SV_ViewportArrayIndex are refused by WGSL
    // only (SPIR-V gets the Layer / ViewportIndex built-ins).
    assert_eq!(per_form[&("gs", "draw")], (78, 2));
    assert_eq!(wgsl_refused.get("draw"), Some(&8));
    // Vertex shaders as compute: all of them (the one with interfaces was
    // refused before `fcall` became a switch).
    assert_eq!(per_form[&("vs", "compute")], (284, 0));
    println!("{} SPIR-V modules pass spirv-val", modules.len());
}
