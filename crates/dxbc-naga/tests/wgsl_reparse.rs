//! The WGSL written for every translatable corpus shader is WGSL a browser
//! takes: naga's WGSL front end parses it back and the validator accepts
//! the module. naga's writer checks the IR, not the text, so only a parser
//! sees what WGSL forbids: a const-expression evaluating to NaN or infinity
//! (browsers refused such a shader before), a type WGSL lacks
//! (`texture_multisampled_2d_array`, now refused for WGSL).
//! The same pass counts issue 14's readability figures (`readability`)
//! over fxc and blobs and holds them to the README's rows.
//!
//! Speed: the whole corpus (fxc, blobs, vkd3d; about 3,300 shaders that
//! translate), no sampling, in the dev profile: about as long as
//! `corpus_translate` (both near two minutes on a loaded two-core machine).

use dxbc_naga::readability::Figures;
use dxbc_naga::report::dxbc_files;
use std::path::PathBuf;

#[test]
fn corpus_wgsl_parses_and_validates_again() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for (k, sub) in ["fxc", "blobs", "vkd3d"].into_iter().enumerate() {
        let dir = root.join(sub);
        let found = dxbc_files(&dir).unwrap_or_else(|e| panic!("corpus {} missing: {e}", dir.display()));
        files.extend(found.into_iter().map(|f| (k, f)));
    }
    files.sort();
    // Issue 14's readability figures of fxc and blobs (the example
    // `readability` prints them; the README reports them).
    let mut figures = [Figures::default(); 3];
    let options = dxbc_naga::Options::default();
    let mut checked = 0;
    let mut structs = 0;
    let mut failures = Vec::new();
    for (k, f) in &files {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Ok(shader) = dxbc::Shader::parse(&bytes) else { continue };
        // Refusals are corpus_translate's subject; here only what translates,
        // in every form that holds the shader's code (a hull shader's two passes).
        let Ok(forms) = dxbc_naga::readability::code_forms(&shader)
            .into_iter()
            .map(|form| {
                let t = dxbc_naga::translate_pipeline_stage(&shader, &options, form).ok()?;
                let wgsl = dxbc_naga::to_wgsl(&t).ok()?;
                Some((t, wgsl))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or(())
        else {
            continue;
        };
        checked += 1;
        let pairs: Vec<(&naga::Module, &str)> = forms.iter().map(|(t, w)| (&t.module, w.as_str())).collect();
        figures[*k] += Figures::of(&shader, &pairs);
        for (t, wgsl) in &forms {
            let module = match naga::front::wgsl::parse_str(wgsl) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{}: {}", f.display(), e.emit_to_string(wgsl)));
                    continue;
                }
            };
            let mut validator =
                naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
            if let Err(e) = validator.validate(&module) {
                failures.push(format!("{}: {}", f.display(), e.emit_to_string(wgsl)));
            }
            if let Some(why) = uniform_layouts_differ(&t.module, &module) {
                failures.push(format!("{}: {why}", f.display()));
            }
            structs += uniform_structs(&t.module);
        }
    }
    assert!(checked > 1500, "only {checked} corpus shaders translated to WGSL");
    // Constant buffers with RDEF variables are structs (`cbuffer_struct`).
    assert!(structs > 500, "only {structs} constant buffers are structs");
    assert!(
        failures.is_empty(),
        "{} of {checked} WGSL outputs do not parse back:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Per DXBC instruction, in thousandths as printed: no worse than the
    // README's rows (bitcasts, lines, raw-integer floats), and the members named.
    let per_mille = |f: &Figures, x: u64| (f.per_instruction(x) * 1000.0).round() as u64;
    // Pooled: the two corpora as one set of files (the README's "all" row).
    let mut pooled = figures[0];
    pooled += figures[1];
    for (f, name, [bitcasts, lines, raw], named) in [
        (&figures[0], "fxc", [76, 1278, 1], 534),
        (&figures[1], "blobs", [54, 3480, 3], 0),
        (&pooled, "fxc and blobs", [74, 1469, 1], 534),
    ] {
        let got = [per_mille(f, f.bitcasts), per_mille(f, f.lines), per_mille(f, f.raw_floats)];
        assert!(
            got[0] <= bitcasts && got[1] <= lines && got[2] <= raw && f.members_named >= named,
            "{name}: per 1,000 instructions {got:?} bitcasts, lines, raw floats (README: {:?}), members named {}",
            [bitcasts, lines, raw],
            f.members_named
        );
    }
}

/// Uniform buffers declared as structs in the translation.
fn uniform_structs(m: &naga::Module) -> usize {
    m.global_variables
        .iter()
        .filter(|(_, g)| g.space == naga::AddressSpace::Uniform)
        .filter(|(_, g)| matches!(m.types[g.ty].inner, naga::TypeInner::Struct { .. }))
        .count()
}

/// naga's WGSL writer prints struct members without offsets, so the
/// parser lays them out by WGSL's rules: the offsets and size it finds for
/// each uniform struct must be the ones the translation gave (D3D's).
fn uniform_layouts_differ(ours: &naga::Module, parsed: &naga::Module) -> Option<String> {
    for (_, g) in ours.global_variables.iter().filter(|(_, g)| g.space == naga::AddressSpace::Uniform) {
        let naga::TypeInner::Struct { members, span } = &ours.types[g.ty].inner else { continue };
        let Some((_, back)) = parsed.global_variables.iter().find(|(_, p)| p.binding == g.binding) else {
            return Some(format!("uniform {:?} is missing after parsing", g.name));
        };
        let naga::TypeInner::Struct { members: parsed_members, span: parsed_span } = &parsed.types[back.ty].inner
        else {
            return Some(format!("uniform {:?} is no struct after parsing", g.name));
        };
        let offsets = |ms: &[naga::StructMember]| ms.iter().map(|m| m.offset).collect::<Vec<_>>();
        if offsets(members) != offsets(parsed_members) || span != parsed_span {
            return Some(format!(
                "uniform {:?}: offsets {:?} size {span}, parsed back as {:?} size {parsed_span}",
                g.name,
                offsets(members),
                offsets(parsed_members)
            ));
        }
    }
    None
}
