//! Every VS/PS/CS of the corpus either translates to a module naga
//! validates, or is refused with a typed [`dxbc_naga::Limitation`]; the
//! refusal table (`--example refusals`) is checked against the containers.

use dxbc_naga::report::{dxbc_files, stage_of, RefusalTable};
use dxbc_naga::{Language, Limitation, OutputError, TranslateError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn walk(d: &Path, out: &mut Vec<PathBuf>) {
    out.extend(dxbc_files(d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())));
}

#[test]
fn corpus_translates_or_is_refused_by_a_typed_limitation() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["fxc", "blobs", "vkd3d"] {
        walk(&root.join(sub), &mut files);
    }
    files.sort();
    let table = RefusalTable::of_files(&files).expect("corpus readable");
    print!("{}", table.render());
    // Not refusals: malformed input or naga validation (translator bugs).
    assert!(table.errors.is_empty(), "{} errors that are not typed refusals", table.errors.len());
    assert_eq!(table.files, files.len());

    // The stage refusals are exactly the containers of those stages.
    let mut per_stage: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wgsl_fail = 0;
    // Every translated shader is written in every text language.
    let mut backend_fail: Vec<(PathBuf, dxbc_naga::OutputError)> = Vec::new();
    let mut written: BTreeMap<&str, usize> = BTreeMap::new();
    let mut target_refused: BTreeMap<&str, usize> = BTreeMap::new();
    // Per limitation a translation carries: how many carry it, and per
    // language how many of those the language refuses (for it, or for
    // another limitation the shader carries that it meets first).
    let mut carrying: BTreeMap<Limitation, usize> = BTreeMap::new();
    let mut refused_carrying: BTreeMap<(Limitation, Language), usize> = BTreeMap::new();
    for f in &files {
        let Ok(shader) = dxbc::Shader::parse(&std::fs::read(f).unwrap()) else { continue };
        *per_stage.entry(stage_of(&shader)).or_default() += 1;
        match dxbc_naga::translate(&shader, &dxbc_naga::Options::default()) {
            Ok(t) => {
                // Every target refusal is typed, names its target, points at
                // the bytes of the feature, and only languages that lack it refuse.
                for r in &t.target_refusals {
                    assert!(r.offset < std::fs::metadata(f).unwrap().len() as usize, "{}", f.display());
                    assert!(Language::ALL.iter().any(|&l| r.limitation.why_in(l).is_none()), "{}", f.display());
                    *carrying.entry(r.limitation).or_default() += 1;
                    for l in Language::ALL {
                        if t.refusal(l).is_some() {
                            *refused_carrying.entry((r.limitation, l)).or_default() += 1;
                        }
                    }
                }
                match dxbc_naga::to_wgsl(&t) {
                    Ok(_) => assert!(t.refusal(Language::Wgsl).is_none(), "{}", f.display()),
                    Err(OutputError::Refused { language: Language::Wgsl, limitation, offset, .. }) => {
                        let r = t.refusal(Language::Wgsl).expect("a WGSL refusal is recorded");
                        assert_eq!((r.limitation, r.offset), (limitation, offset));
                        assert!(limitation.why_in(Language::Wgsl).is_some());
                    }
                    Err(_) => wgsl_fail += 1,
                }
                for (name, r) in
                    [("glsl", dxbc_naga::to_glsl(&t)), ("msl", dxbc_naga::to_msl(&t)), ("hlsl", dxbc_naga::to_hlsl(&t))]
                {
                    match r {
                        Ok(text) if !text.is_empty() => *written.entry(name).or_default() += 1,
                        Ok(_) => panic!("{}: empty {name} output", f.display()),
                        // A language that cannot express a feature refuses it, typed.
                        Err(OutputError::Refused { language, limitation, .. })
                            if limitation.why_in(language).is_some()
                                && t.refusal(language).map(|r| r.limitation) == Some(limitation) =>
                        {
                            *target_refused.entry(name).or_default() += 1
                        }
                        Err(e) => backend_fail.push((f.clone(), e)),
                    }
                }
            }
            Err(TranslateError::Unsupported { limitation, detail, offset }) => {
                // An instruction's refusal points at that instruction, and
                // its opcode is of the refused family.
                if let Some(name) = detail.strip_prefix("instruction ") {
                    let p = shader.program.as_ref().unwrap();
                    let ins = p.instructions.iter().find(|i| i.offset as usize == offset);
                    let ins = ins.unwrap_or_else(|| panic!("{}: no instruction at {offset:#x}", f.display()));
                    let code = dxbc::spec::Opcode::from_u32(u32::from(ins.opcode())).unwrap();
                    assert_eq!(code.info().asm, name, "{}", f.display());
                    assert_eq!(Limitation::of_opcode(code), Some(limitation), "{}", f.display());
                }
                assert!(detail.len() < 200 && !detail.is_empty(), "{}: {detail}", f.display());
            }
            Err(e) => panic!("{}: {e}", f.display()),
        }
    }
    for (stage, limitation) in
        [("gs", Limitation::GeometryStage), ("hs", Limitation::HullStage), ("ds", Limitation::DomainStage)]
    {
        let by_stage = table.refused.get(&limitation).cloned().unwrap_or_default();
        assert_eq!(by_stage.keys().copied().collect::<Vec<_>>(), vec![stage], "{limitation}");
        assert_eq!(by_stage[stage], per_stage[stage], "{limitation}");
        assert_eq!(table.translated.get(stage), None);
    }
    // Stage rules hold in the table: no vertex-only refusal outside VS, …
    for (limitation, only) in [(Limitation::UavInVertexShader, "vs")] {
        if let Some(m) = table.refused.get(&limitation) {
            assert!(m.keys().all(|s| *s == only), "{limitation}: {m:?}");
        }
    }
    let translated: usize = table.translated.values().sum();
    let refused: usize = table.refused.values().flat_map(|m| m.values()).sum();
    assert_eq!(translated + refused + table.undecodable, files.len());
    for (f, e) in &backend_fail {
        println!("{}: {e}", f.display());
    }
    assert!(backend_fail.is_empty(), "{} GLSL/MSL/HLSL outputs failed", backend_fail.len());
    for lang in ["glsl", "msl", "hlsl"] {
        let refused = target_refused.get(lang).copied().unwrap_or(0);
        assert_eq!(written.get(lang).copied().unwrap_or(0) + refused, translated, "{lang} outputs");
    }
    assert_eq!(wgsl_fail, 0, "the WGSL writer rejected validated modules");
    assert!(translated >= 2900, "only {translated} shaders translate");

    // Per target, over VS/PS/CS: each language either writes the shader or
    // refuses it with a typed limitation; the SPIR-V and WGSL writers never fail.
    let vpc = ["vs", "ps", "cs"];
    let total = table.count(&vpc);
    let total = total.0 + total.1;
    let spirv = &table.targets[&Language::Spirv];
    let wgsl = &table.targets[&Language::Wgsl];
    assert!(spirv.failed.is_empty() && wgsl.failed.is_empty(), "{:?} {:?}", spirv.failed, wgsl.failed);
    for l in Language::ALL {
        let (ok, not) = table.targets[&l].count(&vpc);
        assert_eq!(ok + not, total, "{l:?}");
    }
    // A language refuses beyond the whole-shader refusals only for what it
    // cannot express.
    let whole = |l: Limitation| -> usize {
        table.refused.get(&l).map_or(0, |m| m.iter().filter(|(st, _)| vpc.contains(st)).map(|(_, n)| n).sum())
    };
    for l in Language::ALL {
        for &lim in Limitation::ALL {
            let n = table.targets[&l].refused_in(lim, &vpc);
            assert!(n >= whole(lim), "{lim} in {l:?}");
            assert!(n == whole(lim) || lim.why_in(l).is_some(), "{lim} refused by {l:?}, which expresses it");
        }
    }
    // Texture atomics: native targets only (6 corpus shaders; 2 of them read
    // the old value or compare, which only SPIR-V writes, below).
    let texture_atomics = Limitation::TypedUavAtomics;
    assert_eq!(table.targets[&Language::Wgsl].refused_in(texture_atomics, &vpc), whole(texture_atomics) + 6);
    assert_eq!(table.targets[&Language::Spirv].refused_in(texture_atomics, &vpc), whole(texture_atomics));
    // The floors reached (SPIR-V: written, naga-validated; spirv-val below).
    assert!(spirv.count(&vpc).0 >= 3229, "SPIR-V: {:?} of {total}", spirv.count(&vpc));
    // Multisampled texture arrays: WGSL has no such type (naga's writer printed
    // `texture_multisampled_2d_array`, which no WGSL parser takes; 8 corpus shaders).
    let ms_arrays = Limitation::MultisampledTextureArrays;
    assert_eq!(table.targets[&Language::Wgsl].refused_in(ms_arrays, &vpc), whole(ms_arrays) + 8);
    assert!(wgsl.count(&vpc).0 >= 3146, "WGSL: {:?} of {total}", wgsl.count(&vpc));
    for (l, floor) in [(Language::Hlsl, 3173), (Language::Msl, 3184), (Language::Glsl, 3164)] {
        assert!(table.targets[&l].count(&vpc).0 >= floor, "{l:?}: {:?} of {total}", table.targets[&l].count(&vpc));
    }
    // Interfaces (5 VS/PS with fcall) are a switch over the selected table
    // on every target: none is refused any more.
    for l in Language::ALL {
        assert_eq!(table.targets[&l].refused_in(Limitation::Interfaces, &vpc), 0, "interfaces in {l:?}");
    }
    assert_eq!(table.refused_total(Limitation::Interfaces), 0);
    // `[earlydepthstencil]` pixel shaders that write UAVs (2): WGSL only.
    let early = Limitation::ForcedEarlyDepthTest;
    assert_eq!(table.targets[&Language::Wgsl].refused_in(early, &vpc), 2);
    assert_eq!(table.targets[&Language::Spirv].refused_in(early, &vpc), 0);
    // Doubles: native in SPIR-V, software binary64 everywhere else; no target refuses them.
    for l in Language::ALL {
        assert_eq!(table.targets[&l].refused_in(Limitation::Doubles, &vpc), 0, "doubles in {l:?}");
    }
    // UAVs in a vertex shader: everywhere but WGSL.
    // LOD clamps, eval_*, a compared texture sampled with a bias or a level,
    // texture atomics that return the old value or exchange, UAV fences
    // outside compute, oStencilRef, vInnerCoverage and a pixel shader's
    // SV_ClipDistance input: SPIR-V only (MinLod, InterpolateAt*, Bias, Lod,
    // OpAtomic* results, OpMemoryBarrier, FragStencilRefEXT, FullyCoveredEXT
    // and ClipDistance from the post-pass); naga's IR gives the text writers
    // none of them. (Clip-distance outputs every target writes.)
    let text = &[Language::Wgsl, Language::Hlsl, Language::Msl, Language::Glsl][..];
    for (limitation, refused_by) in [
        (Limitation::UavInVertexShader, &[Language::Wgsl][..]),
        (Limitation::LodClamp, text),
        (Limitation::PullModelInterpolation, text),
        (Limitation::ComparisonBiasOrGradient, text),
        (Limitation::TypedUavAtomicResults, text),
        (Limitation::BarrierOutsideCompute, text),
        (Limitation::StencilExport, text),
        (Limitation::InnerCoverage, text),
        (Limitation::ClipDistance, text),
    ] {
        assert!(table.refused_total(limitation) == 0, "{limitation} still refuses whole shaders");
        let n = carrying.get(&limitation).copied().unwrap_or(0);
        assert!(n > 0, "{limitation}: no corpus shader exercises it");
        for l in Language::ALL {
            if refused_by.contains(&l) {
                let refused = refused_carrying.get(&(limitation, l)).copied().unwrap_or(0);
                assert_eq!(refused, n, "{limitation} in {l:?}");
            } else {
                assert_eq!(table.targets[&l].refused_in(limitation, &vpc), 0, "{limitation} in {l:?}");
            }
        }
    }
}

/// Every SPIR-V module we emit for the corpus passes `spirv-val` (Debian's
/// spirv-tools; the test fails if the tool is missing).
#[test]
fn spirv_output_passes_spirv_val() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["fxc", "blobs", "vkd3d"] {
        walk(&root.join(sub), &mut files);
    }
    files.sort();
    let dir = std::env::temp_dir().join(format!("dxbc-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = Vec::new();
    for f in &files {
        let Ok(shader) = dxbc::Shader::parse(&std::fs::read(f).unwrap()) else { continue };
        let Ok(t) = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()) else { continue };
        let words = match dxbc_naga::to_spirv(&t) {
            Ok(w) => w,
            Err(dxbc_naga::OutputError::Withheld { .. }) => continue,
            Err(OutputError::Refused { language: Language::Spirv, .. }) => continue,
            Err(e) => panic!("{}: SPIR-V writer: {e}", f.display()),
        };
        let out = dir.join(format!("{}.spv", modules.len()));
        std::fs::write(&out, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
        modules.push((f.clone(), out));
    }
    // Validate in two parallel streams.
    let half = modules.len() / 2;
    let (a, b) = modules.split_at(half);
    let run = |set: &[(PathBuf, PathBuf)]| -> Vec<String> {
        let mut bad = Vec::new();
        for (src, spv) in set {
            let o = std::process::Command::new("spirv-val")
                .args(["--target-env", "vulkan1.1"])
                .arg(spv)
                .output()
                .expect("spirv-val is missing: install Debian's spirv-tools");
            if !o.status.success() {
                bad.push(format!(
                    "{}: {}",
                    src.display(),
                    String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("")
                ));
            }
        }
        bad
    };
    let (bad_a, bad_b) = std::thread::scope(|s| {
        let h = s.spawn(|| run(a));
        let r = run(b);
        (h.join().unwrap(), r)
    });
    let bad: Vec<String> = bad_a.into_iter().chain(bad_b).collect();
    let _ = std::fs::remove_dir_all(&dir);
    println!("{}/{} SPIR-V modules pass spirv-val", modules.len() - bad.len(), modules.len());
    for b in bad.iter().take(20) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} modules fail spirv-val", bad.len());
}
