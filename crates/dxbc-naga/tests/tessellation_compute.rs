//! Hull and domain shaders of the corpus in their compute forms (see
//! `dxbc_naga::stages`, `hull.rs` and `domain.rs`): the counts the refusal
//! table reports, every module naga-validated (a translation is validated
//! before it is returned), its WGSL written and its SPIR-V passing
//! `spirv-val`.

use dxbc_naga::report::{dxbc_files, stage_of, ComputeFormCounts};
use dxbc_naga::{Limitation, Pass, StageForm, TranslateError};
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

/// The acceptance bar over fxc + blobs, as measured: all 56 hull shaders
/// (both passes) and all 23 domain shaders (the vertex form) translate, and
/// their WGSL and SPIR-V are written; the only refusals left among GS/HS/DS
/// are the two geometry shaders that emit to stream 1.
#[test]
fn hull_and_domain_shaders_of_fxc_and_blobs_translate_to_the_compute_forms() {
    let mut counts = ComputeFormCounts::default();
    for f in corpus(&["fxc", "blobs"]) {
        let Some(shader) = parse(&f) else { continue };
        if ComputeFormCounts::STAGES.contains(&stage_of(&shader)) {
            counts.add(&f, &shader);
        }
    }
    print!("{}", counts.render());
    for (f, e) in &counts.errors {
        println!("{}: {e}", f.display());
    }
    for (l, m) in &counts.refused {
        println!("{l:?}: {m:?}");
    }
    assert!(counts.errors.is_empty() && counts.failed.is_empty(), "{}", counts.render());
    assert_eq!(counts.count("hs"), (56, 0));
    assert_eq!(counts.count("ds"), (23, 0));
    assert_eq!(counts.wgsl_written.get("hs"), Some(&56));
    assert_eq!(counts.spirv_written.get("hs"), Some(&56));
    assert_eq!(counts.wgsl_written.get("ds"), Some(&23));
    assert_eq!(counts.spirv_written.get("ds"), Some(&23));
    assert_eq!(counts.refused, BTreeMap::from([(Limitation::GeometryStreams, BTreeMap::from([("gs", 2)]))]));
    // GS/HS/DS together: 115 of 117 (98.3 %).
    let total: usize = ComputeFormCounts::STAGES.iter().map(|s| counts.count(s).0).sum();
    assert_eq!(total, 115);
}

/// Every pass of every hull and domain shader of all corpora: translated
/// (or refused, typed), WGSL written, SPIR-V through spirv-val; the
/// metadata a caller needs to run the tessellator is there.
#[test]
fn hull_and_domain_passes_validate_and_pass_spirv_val() {
    let dir = std::env::temp_dir().join(format!("dxbc-hsds-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = Vec::new();
    let mut per_form: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut refusals: BTreeMap<Limitation, usize> = BTreeMap::new();
    for f in corpus(&["fxc", "blobs", "vkd3d"]) {
        let Some(shader) = parse(&f) else { continue };
        let forms: &[(&str, StageForm)] = match stage_of(&shader) {
            "hs" => &[("control points", StageForm::Compute), ("patch constants", StageForm::PatchConstant)],
            "ds" => &[("vertex", StageForm::DrawFromBuffer), ("compute", StageForm::Compute)],
            _ => continue,
        };
        for &(name, form) in forms {
            let e = per_form.entry((stage_of(&shader), name)).or_default();
            match dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), form) {
                Ok(t) => {
                    e.0 += 1;
                    let c = t.compute_form.as_ref().expect("a compute form is described");
                    let tess = c.tessellation.as_ref().expect("tessellation parameters are reported");
                    match c.pass {
                        Pass::HullControlPoints | Pass::HullPatchConstants => {
                            assert!(tess.domain.is_some() && tess.partitioning.is_some(), "{}", f.display())
                        }
                        _ => assert!(tess.domain.is_some(), "{}", f.display()),
                    }
                    dxbc_naga::to_wgsl(&t).unwrap_or_else(|e| panic!("{} ({name}): {e}", f.display()));
                    let words = dxbc_naga::to_spirv(&t).unwrap_or_else(|e| panic!("{} ({name}): {e}", f.display()));
                    let out = dir.join(format!("{}.spv", modules.len()));
                    std::fs::write(&out, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
                    modules.push((f.clone(), out));
                }
                Err(TranslateError::Unsupported { limitation, .. }) => {
                    e.1 += 1;
                    *refusals.entry(limitation).or_default() += 1;
                }
                Err(err) => panic!("{} ({name}): {err}", f.display()),
            }
        }
    }
    println!("{per_form:?}\n{refusals:?}");
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
    // All corpora (vkd3d included): every pass of 79 hull and 28 domain
    // shaders translates.
    assert_eq!(per_form[&("hs", "control points")], (79, 0));
    assert_eq!(per_form[&("hs", "patch constants")], (79, 0));
    assert_eq!(per_form[&("ds", "vertex")], (28, 0));
    assert_eq!(per_form[&("ds", "compute")], (28, 0));
    assert!(refusals.is_empty(), "{refusals:?}");
    assert_eq!(modules.len(), 2 * 79 + 2 * 28);
    println!("{} SPIR-V modules pass spirv-val", modules.len());
}

/// The patch-constant pass runs each fork and join phase of the fxc
/// listing, in its order, as many times as its
/// `dcl_hs_fork_phase_instance_count` says (1 without one): the calls of
/// the pass's body, read from the naga module, against the listing.
#[test]
fn the_patch_constant_pass_calls_every_phase_of_the_listing_per_instance() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    for name in ["dxdecompiler_pntriangles11_pntriangles11_hs", "dxdecompiler_apps_tesselation_hs"] {
        let listing = std::fs::read_to_string(root.join(format!("{name}.asm"))).expect("corpus listing");
        let mut want: Vec<(String, u32)> = Vec::new();
        let (mut forks, mut joins) = (0, 0);
        for line in listing.lines().map(str::trim) {
            match line {
                "hs_fork_phase" => {
                    want.push((format!("fork_phase_{}", forks + joins), 1));
                    forks += 1;
                }
                "hs_join_phase" => {
                    want.push((format!("join_phase_{}", forks + joins), 1));
                    joins += 1;
                }
                _ => {
                    let count = line
                        .strip_prefix("dcl_hs_fork_phase_instance_count ")
                        .or_else(|| line.strip_prefix("dcl_hs_join_phase_instance_count "));
                    if let (Some(n), Some(last)) = (count, want.last_mut()) {
                        last.1 = n.parse().unwrap();
                    }
                }
            }
        }
        assert!(forks > 0, "{name}: no fork phase in the listing");
        let shader = parse(&root.join(format!("{name}.dxbc"))).unwrap();
        let t = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), StageForm::PatchConstant).unwrap();
        let main = t.module.functions.iter().find(|(_, f)| f.name.as_deref() == Some("dxbc_main")).unwrap().1;
        let mut got: Vec<(String, u32)> = Vec::new();
        for s in main.body.iter() {
            if let naga::Statement::Call { function, .. } = s {
                let n = t.module.functions[*function].name.clone().unwrap();
                match got.last_mut() {
                    Some((last, k)) if *last == n => *k += 1,
                    _ => got.push((n, 1)),
                }
            }
        }
        assert_eq!(got, want, "{name}");
    }
}

/// No panic on damaged hull and domain shaders: every word of the program
/// of a few corpus shaders (phases, control-point phase, join phases,
/// domain shader) replaced in turn by 0, all ones and 33, and every pass
/// translated. Each outcome is a validated translation or a refusal or
/// malformed-input error (a damaged cb register once overflowed the binding
/// arithmetic).
#[test]
fn damaged_hull_and_domain_shaders_translate_or_fail_typed() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let names = [
        "dxdecompiler_apps_tesselation_hs",
        "dxdecompiler_apps_tesselation_ds",
        "dxdecompiler_pntriangles11_pntriangles11_hs",
        "xenia_discrete_quad_1cp_hs",
    ];
    let forms = [StageForm::Compute, StageForm::PatchConstant, StageForm::DrawFromBuffer];
    // Translated; refused or malformed; rejected by naga's validator.
    let mut outcomes = [0usize; 3];
    for name in names {
        let bytes = std::fs::read(root.join(format!("{name}.dxbc"))).expect("corpus file");
        let shader = dxbc::Shader::parse(&bytes).unwrap();
        let p = shader.program.as_ref().unwrap();
        let last = p.instructions.last().unwrap();
        let (start, end) = (p.offset, last.offset as usize + last.length as usize * 4);
        for at in (start..end.min(bytes.len())).step_by(4) {
            for value in [0u32, u32::MAX, 33] {
                let mut damaged = bytes.clone();
                damaged[at..at + 4].copy_from_slice(&value.to_le_bytes());
                let Ok(s) = dxbc::Shader::parse(&damaged) else { continue };
                for form in forms {
                    match dxbc_naga::translate_pipeline_stage(&s, &Default::default(), form) {
                        Ok(_) => outcomes[0] += 1,
                        Err(TranslateError::Validation { .. }) => outcomes[2] += 1,
                        Err(_) => outcomes[1] += 1,
                    }
                }
            }
        }
    }
    println!("translated {}, refused or malformed {}, naga validation {}", outcomes[0], outcomes[1], outcomes[2]);
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
    // Every module built from a damaged shader still passes naga's validator.
    assert_eq!(outcomes[2], 0, "{outcomes:?}");
}

/// From a patch-constant record to the tessellator and back to domain
/// points: the factor words sit where the fxc listing's patch-constant
/// signature puts them (tesselation: QUADEDGE o0–o3.x, QUADINT o4–o5.x;
/// pntriangles: TRIEDGE o0–o2.x, TRIINT o3.x), and the mode is the
/// listing's (integer ccw triangles; fractional_odd cw triangles).
#[test]
fn patch_constant_records_feed_the_tessellator() {
    use tessellator::{OutputPrimitive as O, Partitioning as P, TessFactors};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let cases = [
        (
            "dxdecompiler_apps_tesselation_hs",
            (P::Integer, O::TriangleCcw),
            TessFactors::Quad { edges: [1.0, 2.0, 3.0, 4.0], inside: [5.0, 6.0] },
        ),
        (
            "dxdecompiler_pntriangles11_pntriangles11_hs",
            (P::FractionalOdd, O::TriangleCw),
            TessFactors::Tri { edges: [1.0, 2.0, 3.0], inside: 4.0 },
        ),
    ];
    for (name, mode, want) in cases {
        let shader = parse(&root.join(format!("{name}.dxbc"))).unwrap();
        let t = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), StageForm::PatchConstant).unwrap();
        let tess = t.compute_form.unwrap().tessellation.unwrap();
        assert_eq!(tess.tessellator_mode(), Some(mode), "{name}");
        // Register r's x holds r + 1.
        let mut record = vec![0u32; dxbc_naga::stages::REGISTER_STRIDE as usize * 4];
        for r in 0..6 {
            record[4 * r] = (r as f32 + 1.0).to_bits();
        }
        assert_eq!(tess.factors_of(&record), Some(want), "{name}");
        let out = tessellator::tessellate(mode.0, mode.1, &want).unwrap();
        let records = dxbc_naga::stages::domain_point_records(7, &out.points);
        assert_eq!(records.len(), out.points.len());
        for (rec, p) in records.iter().zip(&out.points) {
            assert_eq!(*rec, [p.u.to_bits(), p.v.to_bits(), p.w.to_bits(), 7]);
        }
    }
}
