//! Runs the translator for the translation pane (in the worker only): lower
//! to naga IR and validate, run each backend, and link lines of WGSL back
//! to the DXBC instruction they came from.
//!
//! The link: naga's WGSL writer names a baked expression `_eN`, N being the
//! expression's index in its function's arena, and every expression of the
//! body function carries the byte span of its DXBC instruction (the body is
//! `dxbc_main`, or the entry point `main` when it is written into it). So
//! a line of the body belongs to the span of the first `_eN` it
//! mentions; a line that mentions none (`return;`, `}` of a block, a store
//! of a literal) inherits the previous line's span.

use crate::translation::{BindingRow, Failure, FailureKind, Outcome, Target, Translated, TARGETS};
use dxbc::Shader;
use std::sync::Arc;

/// File bytes in, the pane's [`Outcome`] as JSON out (the worker's entry).
pub fn translate_json(bytes: &[u8]) -> String {
    match Shader::decode(bytes) {
        Ok(s) => run(&s),
        Err(e) => Outcome::Failed(Failure::new(
            FailureKind::NotTranslated,
            "the file is not a readable container".into(),
            Some(e.offset()),
        )),
    }
    .to_json()
}

/// Lowers and validates only (the expensive part that may fail). Geometry,
/// hull and domain shaders take the form they run in on WebGPU, through
/// compute ([`dxbc_naga::StageForm::standalone`]): the CLI's `--form auto`.
pub fn lower(shader: &Shader) -> Result<dxbc_naga::Translation, Failure> {
    let form = dxbc_naga::StageForm::standalone(shader);
    dxbc_naga::translate_pipeline_stage(shader, &dxbc_naga::Options::default(), form).map_err(translate_failure)
}

/// Why a lowering failed, as the pane shows it.
fn translate_failure(e: dxbc_naga::TranslateError) -> Failure {
    use dxbc_naga::TranslateError as E;
    match e {
        E::Unsupported { limitation, detail, offset } => {
            Failure::new(FailureKind::Unsupported(limitation), detail, Some(offset))
        }
        E::Malformed { what, offset } => Failure::new(FailureKind::Malformed, what, Some(offset)),
        E::Validation { message, offset } => Failure::new(FailureKind::Validation, message, offset),
    }
}

/// A backend's refusal or failure, as the pane shows it (a refusal names
/// the target and carries its limitation).
fn output_failure(e: dxbc_naga::OutputError, target: Target) -> Failure {
    use dxbc_naga::OutputError as E;
    let mut f = match e {
        E::Refused { limitation, detail, offset, .. } => {
            Failure::new(FailureKind::Unsupported(limitation), detail, Some(offset))
        }
        e @ (E::Backend { .. } | E::Withheld { .. }) => Failure::new(FailureKind::Backend, e.to_string(), None),
        // The lowering this target is written from (software doubles) failed.
        E::SoftwareDoubles { error, .. } => translate_failure(error),
    };
    f.target = Some(target);
    f
}

fn text_lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// Runs one backend: its lines, or why this target has none.
pub fn emit(t: &dxbc_naga::Translation, target: Target) -> Result<Vec<String>, Failure> {
    let text = match target {
        Target::Wgsl => dxbc_naga::to_wgsl(t),
        Target::Glsl => dxbc_naga::to_glsl(t),
        Target::Msl => dxbc_naga::to_msl(t),
        Target::Hlsl => dxbc_naga::to_hlsl(t),
    };
    text.map(|s| text_lines(&s)).map_err(|e| output_failure(e, target))
}

/// Everything the pane shows: every backend's lines, and the WGSL lines'
/// links, read from the module the WGSL was written from (built once).
pub fn finish(t: &dxbc_naga::Translation) -> Translated {
    let (wgsl, wgsl_spans) = match dxbc_naga::wgsl(t) {
        Ok(w) => {
            let lines = text_lines(&w.text);
            let spans = wgsl_line_spans(&w.module, &lines);
            (Ok(lines), spans)
        }
        Err(e) => (Err(output_failure(e, Target::Wgsl)), Vec::new()),
    };
    let mut outputs: Vec<_> =
        TARGETS.iter().map(|&k| if k == Target::Wgsl { Ok(Vec::new()) } else { emit(t, k) }).collect();
    outputs[Target::Wgsl.index()] = wgsl;
    let body = body_function(&t.module);
    let expressions = body.map_or(0, |(f, _)| f.expressions.len());
    Translated {
        stage: match t.stage {
            naga::ShaderStage::Vertex => "vertex",
            naga::ShaderStage::Fragment => "fragment",
            naga::ShaderStage::Compute => "compute",
            _ => "other",
        }
        .to_string(),
        outputs,
        wgsl_spans,
        bindings: t.bindings.iter().map(binding_row).collect(),
        expressions,
        passes: t.compute_form.as_ref().map_or(Vec::new(), |c| c.describe()),
    }
}

/// Translates `shader` to every target.
pub fn run(shader: &Shader) -> Outcome {
    match lower(shader) {
        Err(f) => Outcome::Failed(f),
        Ok(t) => Outcome::Ok(Arc::new(finish(&t))),
    }
}

/// The function holding the program, and the start of its WGSL header:
/// `dxbc_main`, or the entry point `main` when the body is written into
/// it (the translator does so unless the body returns early).
fn body_function(m: &naga::Module) -> Option<(&naga::Function, &'static str)> {
    match m.functions.iter().map(|(_, f)| f).find(|f| f.name.as_deref() == Some("dxbc_main")) {
        Some(f) => Some((f, "fn dxbc_main(")),
        None => m.entry_points.first().map(|e| (&e.function, "fn main(")),
    }
}

fn binding_row(b: &dxbc_naga::BindingEntry) -> BindingRow {
    use dxbc_naga::{BindingKind as K, RegisterClass as C};
    let reg = match b.class {
        C::ConstantBuffer => "cb",
        C::ShaderResource => "t",
        C::Sampler => "s",
        C::UnorderedAccess => "u",
    };
    // An SM5.1 range is one binding array: its registers as declared.
    let range = b.range_text().unwrap_or_default();
    let register = if b.kind == K::RasterizerSampleCount {
        "rasterizer".to_string()
    } else if matches!(b.kind, K::ClassInstances { .. }) {
        "interfaces".to_string()
    } else if b.space == 0 {
        format!("{reg}{}{range}", b.register)
    } else {
        format!("{reg}{}{range}, space{}", b.register, b.space)
    };
    let kind = match &b.kind {
        K::UniformBuffer { size_bytes } => format!("uniform buffer, {size_bytes} bytes"),
        K::ReadOnlyStorageBuffer { stride } => format!("read-only storage buffer (stride {stride})"),
        K::StorageBuffer { stride } => format!("storage buffer (stride {stride})"),
        K::SampledTexture { dimension, view_dimension, sample_type, multisampled } => {
            let of = match sample_type.as_str() {
                "f" => "float",
                "i" => "sint",
                "u" => "uint",
                "depth" => "depth",
                other => other,
            };
            format!(
                "{dimension}{}, {of}{}",
                emulated_view(dimension, view_dimension),
                if *multisampled { ", multisampled" } else { "" }
            )
        }
        K::TypedBuffer { writable, channels } => {
            format!(
                "{} typed buffer as words, {channels} per element",
                if *writable { "writable" } else { "read-only" }
            )
        }
        K::StorageTexture { dimension, view_dimension, sample_type } => {
            format!("storage {dimension}{}, {sample_type}", emulated_view(dimension, view_dimension))
        }
        K::Sampler { comparison: true } => "comparison sampler".to_string(),
        K::Sampler { comparison: false } => "sampler".to_string(),
        K::UavCounter => "UAV counter (emulated): storage buffer of one atomic u32, the count".to_string(),
        K::RasterizerSampleCount => {
            "sample count (emulated): uniform buffer, the render target's sample count in the first u32".to_string()
        }
        K::ClassInstances { slots, .. } => format!(
            "class instances (emulated): uniform buffer, {slots} slots' this words, then each slot's function table"
        ),
        K::StageBuffer { role, writable } => {
            format!("{} buffer of a compute pass ({})", role.name(), if *writable { "read-write" } else { "read-only" })
        }
    };
    BindingRow { register, group: b.group, binding: b.binding, kind }
}

/// How an emulated texture is bound: a 1D array is bound as a 2D array of
/// height 1 (the translator states the view it needs).
fn emulated_view(dimension: &str, view_dimension: &str) -> String {
    if dimension == "texture1darray" {
        format!(" (bind a {view_dimension} of height 1)")
    } else {
        String::new()
    }
}

/// The first `_eN` identifier on a line (N as a number).
pub fn first_baked(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while let Some(k) = line[i..].find("_e") {
        let at = i + k;
        let digits = b[at + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
        let end = at + 2 + digits;
        let clean_start = at == 0 || !ident(b[at - 1]);
        let clean_end = end == b.len() || !ident(b[end]);
        if digits > 0 && clean_start && clean_end {
            return line[at + 2..end].parse().ok();
        }
        i = at + 2;
    }
    None
}

/// The identifier a `let` line binds, if the line is one.
fn let_name(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("let ")?;
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The named expressions of `f` in the order naga's WGSL writer prints
/// them: each is written as its own `let` where its `Emit` statement
/// stands, and the writer walks the body in statement order. The printed name is the namer's (sanitised, made
/// unique), so lines are matched to handles by position, not by text.
fn named_in_print_order(f: &naga::Function) -> Vec<naga::Handle<naga::Expression>> {
    fn walk(f: &naga::Function, block: &naga::Block, out: &mut Vec<naga::Handle<naga::Expression>>) {
        use naga::Statement as S;
        for s in block.iter() {
            match s {
                S::Emit(range) => out.extend(range.clone().filter(|h| f.named_expressions.contains_key(h))),
                S::Block(b) => walk(f, b, out),
                S::If { accept, reject, .. } => {
                    walk(f, accept, out);
                    walk(f, reject, out);
                }
                S::Switch { cases, .. } => cases.iter().for_each(|c| walk(f, &c.body, out)),
                S::Loop { body, continuing, .. } => {
                    walk(f, body, out);
                    walk(f, continuing, out);
                }
                // Statement results (calls, atomics) are printed `_eN`
                // whatever their name.
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(f, &f.body, &mut out);
    out
}

/// For each WGSL line, the DXBC byte range of the instruction it came from
/// (only lines of the body function have one). A line that
/// binds a value names it either `_eN` (a baked value, N its handle) or
/// after the register it stands for (`r1_xyz`, the next named expression
/// in print order); a line that binds nothing belongs to the instruction
/// of the line before.
/// `module` is the one the WGSL was written from ([`dxbc_naga::Wgsl`]: with
/// software doubles, the software form; single-use reads of read-only
/// memory inline).
pub fn wgsl_line_spans(module: &naga::Module, lines: &[String]) -> Vec<Option<(u32, u32)>> {
    let mut out = vec![None; lines.len()];
    let Some((f, header)) = body_function(module) else { return out };
    let span_of = |h: naga::Handle<naga::Expression>| {
        let r = f.expressions.get_span(h).to_range()?;
        Some((r.start as u32, (r.end - r.start) as u32))
    };
    let spans: Vec<Option<(u32, u32)>> = f.expressions.iter().map(|(h, _)| span_of(h)).collect();
    let mut named = named_in_print_order(f).into_iter();
    let Some(first) = lines.iter().position(|l| l.starts_with(header)) else { return out };
    let mut cur = None;
    for (k, line) in lines.iter().enumerate().skip(first + 1) {
        if line.starts_with('}') {
            break; // the function's closing brace
        }
        let bound = match let_name(line) {
            Some(name) if first_baked(name).is_none() => named.next().and_then(span_of),
            _ => first_baked(line).and_then(|n| spans.get(n).copied().flatten()),
        };
        if let Some(span) = bound {
            cur = Some(span);
        }
        out[k] = cur;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    fn outcome(bytes: Vec<u8>) -> (Model, Outcome) {
        let m = Model::new(bytes);
        let o = run(m.shader.as_ref().unwrap());
        (m, o)
    }

    fn ok(o: &Outcome) -> &Translated {
        match o {
            Outcome::Ok(t) => t,
            Outcome::Failed(f) => panic!("did not translate: {f:?}"),
        }
    }

    /// The disassembly line of the instruction starting at `start`.
    fn listing_line(m: &Model, start: u32) -> &str {
        let p = m.program().unwrap();
        let k = p.instructions.iter().position(|i| i.offset == start).expect("an instruction starts there");
        &m.lines[m.ins_line[k] as usize]
    }

    #[test]
    fn emulated_bindings_are_stated_in_the_binding_rows() {
        // A 1D array texture: the library's view, bound with height 1.
        let (_, o) = outcome(crate::test_corpus::file("fxc/directxtex_ps1darray.dxbc"));
        let t = ok(&o);
        let row = t.bindings.iter().find(|r| r.kind.starts_with("texture1darray")).expect("a 1D array row");
        assert_eq!(row.kind, "texture1darray (bind a 2d-array of height 1), float");
        // A UAV counter: its own row, where the library places it.
        let (_, o) = outcome(crate::test_corpus::file("blobs/vkd3d_d3d12_cs_producer_code.dxbc"));
        let t = ok(&o);
        let (group, binding) = dxbc_naga::BindingScheme::GroupPerClass.place_counter(0, 0);
        let row = t.bindings.iter().find(|r| r.kind.starts_with("UAV counter")).expect("a counter row");
        assert_eq!((row.register.as_str(), row.group, row.binding), ("u0", group, binding));
        // Interfaces: the class instances of the listing's 6 slots, where the library places them.
        let (_, o) = outcome(crate::test_corpus::file("fxc/slimshader_ps5_interface_arrays.dxbc"));
        let t = ok(&o);
        let (group, binding) = dxbc_naga::BindingScheme::GroupPerClass.place_class_instances();
        let row = t.bindings.iter().find(|r| r.kind.starts_with("class instances")).expect("a class-instance row");
        assert_eq!((row.register.as_str(), row.group, row.binding), ("interfaces", group, binding));
        assert!(row.kind.contains("6 slots"), "{}", row.kind);
    }

    #[test]
    fn register_ranges_are_one_row_each_with_their_declared_range() {
        // vkd3d-shader's api test: T0[8:15], space=4 … S1[11:18], space=7 (its listing).
        let (_, o) = outcome(crate::test_corpus::file("blobs/vkd3d_vkd3d_shader_api_ps_5_1.dxbc"));
        let t = ok(&o);
        let mut regs: Vec<&str> = t.bindings.iter().map(|b| b.register.as_str()).collect();
        regs.sort();
        assert_eq!(regs, ["s10[10:13], space6", "s11[11:18], space7", "t8[8:15], space4", "t9[9:12], space5"]);
        // WGSL and naga's GLSL writer have no binding arrays; HLSL and MSL are written.
        use crate::translation::FailureKind;
        for target in [Target::Wgsl, Target::Glsl] {
            let f = t.outputs[target.index()].as_ref().expect_err("refused");
            assert_eq!(f.kind, FailureKind::Unsupported(dxbc_naga::Limitation::ResourceArrays), "{target:?}");
        }
        assert!(t.outputs[Target::Hlsl.index()].is_ok() && t.outputs[Target::Msl.index()].is_ok());
    }

    #[test]
    fn a_geometry_shader_shows_its_compute_form_and_its_passes() {
        // The GS example: WebGPU has no geometry stage, so the pane shows the
        // compute pass the preview and the CLI's `--form auto` run.
        let (_, o) = outcome(crate::test_corpus::file("fxc/angle63_buffertotexture11_gs.dxbc"));
        let t = ok(&o);
        assert_eq!(t.stage, "compute");
        assert!(t.passes[0].starts_with("Geometry shader as compute"), "{:?}", t.passes);
        let wgsl = t.outputs[Target::Wgsl.index()].as_ref().unwrap();
        assert!(wgsl.iter().any(|l| l.starts_with("@compute")));
        assert!(t.bindings.iter().any(|b| b.kind.starts_with("vertex count buffer")));
    }

    #[test]
    fn baked_names() {
        assert_eq!(first_baked("    let _e12 = v0_1;"), Some(12));
        assert_eq!(first_baked("o0_ = f(_e1 * _e5);"), Some(1));
        assert_eq!(first_baked("x_e1 = _e7;"), Some(7));
        assert_eq!(first_baked("let _ex = 1; _e"), None);
        assert_eq!(first_baked("_e3"), Some(3));
        assert_eq!(first_baked("v0_e3_ = _e30_;"), None);
    }

    #[test]
    fn tint_lines_map_to_their_instructions() {
        let (m, o) = outcome(dxbc::examples::tint_pixel_shader());
        let t = ok(&o);
        assert_eq!(t.stage, "fragment");
        let wgsl = t.outputs[Target::Wgsl.index()].as_ref().unwrap();
        assert!(wgsl.iter().any(|l| l.starts_with("@fragment")));
        assert_eq!(t.wgsl_spans.len(), wgsl.len());
        let mul = &m.program().unwrap().instructions[4];
        let mut linked = 0;
        for (l, s) in wgsl.iter().zip(&t.wgsl_spans) {
            if s.is_some() {
                linked += 1;
                // The tint example's body is a single mul: every linked line is it.
                assert_eq!(*s, Some((mul.offset, mul.length * 4)), "{l}");
                assert_eq!(listing_line(&m, mul.offset), "mul o0.xyzw, v0.xyzw, cb0[0].xyzw");
            }
        }
        // The body is written into the entry point, which reads its
        // argument and returns the product directly, the row read where it
        // is used: the product and the return are the body's two lines,
        // both linked; the declarations before it are not.
        assert_eq!(linked, 2, "{wgsl:#?}");
        let main_at = wgsl.iter().position(|l| l.starts_with("fn main(")).unwrap();
        assert!(t.wgsl_spans[..=main_at].iter().all(Option::is_none));
        assert!(t.wgsl_spans[main_at + 1..main_at + 3].iter().all(Option::is_some), "{wgsl:#?}");
        assert_eq!(
            t.bindings,
            vec![BindingRow { register: "cb0".into(), group: 0, binding: 0, kind: "uniform buffer, 16 bytes".into() }]
        );
    }

    /// `r12_xz_3` → ("r12", "xz"): the register and mask a value is named after.
    fn register_of(name: &str) -> Option<(String, String)> {
        let digits = name.strip_prefix('r')?;
        let n = digits.find(|c: char| !c.is_ascii_digit())?;
        let mask = digits[n..].strip_prefix('_')?;
        let mask: String = mask.chars().take_while(|c| "xyzw".contains(*c)).collect();
        (n > 0 && !mask.is_empty()).then(|| (format!("r{}", &digits[..n]), mask))
    }

    #[test]
    fn register_named_lines_map_to_the_instruction_that_writes_that_register() {
        // Outside truth: the listing. A WGSL `let r3_xy = …` must link to an
        // instruction whose printed destination is `r3` with a mask holding
        // `xy` (liveness, or lanes of different kinds built apart, can give a
        // value fewer lanes than the instruction writes).
        for name in [
            "fxc/dxdecompiler_cascadedshadowmaps11_rendercascadescene_ps.dxbc",
            "fxc/dxdecompiler_transparencyaa10_1_transparencyaa10_1_ps.dxbc",
        ] {
            let (m, o) = outcome(crate::test_corpus::file(name));
            let t = ok(&o);
            let wgsl = t.outputs[Target::Wgsl.index()].as_ref().unwrap();
            let mut checked = 0;
            for (l, s) in wgsl.iter().zip(&t.wgsl_spans) {
                let Some((reg, mask)) = let_name(l).and_then(register_of) else { continue };
                let (start, _) = s.unwrap_or_else(|| panic!("{name}: `{l}` is not linked"));
                let listing = listing_line(&m, start);
                // Destinations come first; `imul`, `udiv`, `sincos`, `swapc`… have two.
                let operands: Vec<&str> =
                    listing.split_whitespace().skip(1).take(2).map(|o| o.trim_end_matches(',')).collect();
                let writes =
                    |o: &&str| o.split_once('.').is_some_and(|(r, m)| r == reg && mask.chars().all(|c| m.contains(c)));
                assert!(operands.iter().any(writes), "{name}: `{l}` linked to `{listing}`");
                checked += 1;
            }
            assert!(checked >= 3, "{name}: {checked} register-named lines in {wgsl:#?}");
        }
    }

    #[test]
    fn textured_example_links_the_sample_line() {
        let (m, o) = outcome(dxbc::examples::textured_pixel_shader());
        let t = ok(&o);
        let wgsl = t.outputs[0].as_ref().unwrap();
        let k = wgsl.iter().position(|l| l.contains("textureSample")).expect("a sample line");
        let (start, len) = t.wgsl_spans[k].expect("linked");
        assert!(listing_line(&m, start).starts_with("sample_indexable(texture2d)"), "{}", listing_line(&m, start));
        let p = m.program().unwrap();
        let ins = p.instructions.iter().find(|i| i.offset == start).unwrap();
        assert_eq!(len, ins.length * 4);
        // Every linked line starts at an instruction.
        for s in t.wgsl_spans.iter().flatten() {
            assert!(p.instructions.iter().any(|i| i.offset == s.0 && i.length * 4 == s.1), "{s:?}");
        }
        let regs: Vec<&str> = t.bindings.iter().map(|b| b.register.as_str()).collect();
        assert!(regs.contains(&"t0") && regs.contains(&"s0") && regs.contains(&"cb0"), "{regs:?}");
        let t0 = t.bindings.iter().find(|b| b.register == "t0").unwrap();
        assert_eq!((t0.group, t0.binding, t0.kind.as_str()), (1, 0, "texture2d, float"));
        for out in &t.outputs {
            assert!(out.as_ref().is_ok_and(|l| !l.is_empty()), "{out:?}");
        }
    }

    #[test]
    fn gallery_outcomes() {
        for ex in crate::gallery::EXAMPLES {
            let (m, o) = outcome((ex.build)());
            match (&ex.profile[..2], &o) {
                ("ps" | "vs" | "cs", Outcome::Ok(t)) => {
                    assert!(t.wgsl_spans.iter().any(Option::is_some), "{}", ex.id);
                    let wgsl = t.outputs[0].as_ref().unwrap();
                    let attr = match &ex.profile[..2] {
                        "ps" => "@fragment",
                        "vs" => "@vertex",
                        _ => "@compute",
                    };
                    assert!(wgsl.iter().any(|l| l.starts_with(attr)), "{}", ex.id);
                }
                // Stages WebGPU lacks: their compute form (a DS: its vertex
                // form over domain points), with the passes described.
                ("gs" | "hs" | "ds", Outcome::Ok(t)) => {
                    let (stage, attr) = match &ex.profile[..2] {
                        "ds" => ("vertex", "@vertex"),
                        _ => ("compute", "@compute"),
                    };
                    assert_eq!(t.stage, stage, "{}", ex.id);
                    assert!(!t.passes.is_empty(), "{}", ex.id);
                    let wgsl = t.outputs[0].as_ref().unwrap();
                    assert!(wgsl.iter().any(|l| l.starts_with(attr)), "{}", ex.id);
                    let _ = &m;
                }
                _ => panic!("{}: unexpected {o:?}", ex.id),
            }
        }
    }

    /// What the translator library (which the CLI runs) answers for `file`
    /// in `language`: Ok, or the refusal's limitation and offset.
    fn library_outcome(file: &str, language: dxbc_naga::Language) -> Result<(), (dxbc_naga::Limitation, usize)> {
        use dxbc_naga::{Language as Lang, OutputError};
        let shader = dxbc::Shader::parse(&crate::test_corpus::file(file)).unwrap();
        let t = dxbc_naga::translate(&shader, &dxbc_naga::Options::default()).unwrap();
        let r = match language {
            Lang::Wgsl => dxbc_naga::to_wgsl(&t).map(drop),
            Lang::Spirv => dxbc_naga::to_spirv(&t).map(drop),
            Lang::Hlsl => dxbc_naga::to_hlsl(&t).map(drop),
            Lang::Msl => dxbc_naga::to_msl(&t).map(drop),
            Lang::Glsl => dxbc_naga::to_glsl(&t).map(drop),
        };
        match r {
            Ok(()) => Ok(()),
            Err(OutputError::Refused { language: l, limitation, offset, .. }) if l == language => {
                Err((limitation, offset))
            }
            Err(e) => panic!("{file}: {e}"),
        }
    }

    #[test]
    fn a_uav_in_a_vertex_shader_refuses_wgsl_only() {
        use dxbc_naga::Limitation as L;
        let file = "vkd3d/depth-bounds/004_vs_5_0.dxbc";
        let (_, o) = outcome(crate::test_corpus::file(file));
        let t = ok(&o);
        let f = t.outputs[Target::Wgsl.index()].as_ref().expect_err("WGSL has no writable storage in a vertex shader");
        assert_eq!((f.kind, f.target), (FailureKind::Unsupported(L::UavInVertexShader), Some(Target::Wgsl)));
        assert_eq!(f.why(), L::UavInVertexShader.why_in(dxbc_naga::Language::Wgsl));
        // The translator the CLI runs refuses WGSL at the same offset and writes HLSL.
        assert_eq!(library_outcome(file, dxbc_naga::Language::Wgsl), Err((L::UavInVertexShader, f.offset.unwrap())));
        for k in [Target::Glsl, Target::Msl, Target::Hlsl] {
            let lines = t.outputs[k.index()].as_ref().unwrap_or_else(|e| panic!("{k:?}: {e:?}"));
            assert!(lines.iter().any(|l| l.contains("main")), "{k:?}");
        }
        assert_eq!(library_outcome(file, dxbc_naga::Language::Hlsl), Ok(()));
    }

    #[test]
    fn doubles_are_written_in_every_tab() {
        use dxbc_naga::{Language, Limitation as L};
        let file = "fxc/dxdecompiler_basiccompute11_basiccompute11_raw_double.dxbc";
        let (_, o) = outcome(crate::test_corpus::file(file));
        let t = ok(&o);
        for k in TARGETS {
            let lines = t.outputs[k.index()].as_ref().unwrap_or_else(|e| panic!("{k:?}: {e:?}"));
            // The text targets call the software binary64 functions.
            if k.language() != Language::Spirv {
                assert!(lines.iter().any(|l| l.contains("f64_add")), "{k:?}");
            }
            assert!(L::Doubles.why_in(k.language()).is_none());
        }
        for l in Language::ALL {
            assert_eq!(library_outcome(file, l), Ok(()), "{l:?}");
        }
    }
}
