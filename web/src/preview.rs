//! The live preview's logic, apart from the GPU: preparing a plan from the
//! decoded shader and the user's choices, re-packing constant buffers when
//! a control moves, reading exact texel values under the pointer, turning
//! compute results into tables and pictures, comparing with a native
//! reference, and the preview's part of the permalink.
//!
//! Preparation comes in two slices (translation, then the plan) so the
//! page can yield between them and stay responsive on large shaders.

use preview_model::compute::GroupLimits;
use preview_model::compute::Table;
use preview_model::picture::Picture;
use preview_model::plan::Tolerance;
use preview_model::plan::{self, Plan, PlanError, Readback, Resource, Translated};
use preview_model::reference::{self, Comparison, Verdict};
use preview_model::settings::Settings;
use preview_model::textures::{Image, TextureFormat};
use preview_model::{PreviewModel, Value, Values};
use std::sync::Arc;

/// A shader ready to run.
#[derive(Debug)]
pub struct Prepared {
    /// Inputs derived from reflection.
    pub model: PreviewModel,
    /// The GPU work.
    pub plan: Plan,
    /// The plan as JSON for the JavaScript executor.
    pub plan_json: String,
    /// Vertex shaders: outputs that can be shown (location, scalar, components).
    pub vertex_outputs: Vec<(u32, String, u32)>,
}

/// Slice 1: the translation (or why there is none). The page runs this in
/// a worker when it can ([`translate_json`] is the worker's side).
pub fn translate(shader: &dxbc::Shader) -> Result<Translated, PlanError> {
    plan::translate(shader)
}

/// The worker's side of [`translate`]: file bytes in, JSON of
/// `Result<Translated, PlanError>` out.
pub fn translate_json(bytes: &[u8]) -> String {
    let r = match dxbc::Shader::decode(bytes) {
        Ok(s) => translate(&s),
        Err(e) => Err(PlanError::StageNotPreviewable(format!("the file does not decode: {e}"))),
    };
    serde_json::to_string(&r).unwrap_or_else(|e| format!("{{\"Err\":{{\"Unsupported\":\"{e}\"}}}}"))
}

/// Reads the worker's answer.
pub fn translated_from_json(json: &str) -> Result<Translated, PlanError> {
    serde_json::from_str::<Result<Translated, PlanError>>(json)
        .unwrap_or_else(|e| Err(PlanError::Unsupported(format!("the preview worker's answer did not read: {e}"))))
}

/// Slice 2: the plan for `values` and `settings`.
pub fn prepare(
    shader: &dxbc::Shader,
    t: &Translated,
    model: PreviewModel,
    values: &Values,
    settings: &Settings,
) -> Result<Prepared, PlanError> {
    let plan = plan::build_from(shader, t, &model, values, settings)?;
    let plan_json = serde_json::to_string(&plan).map_err(|e| PlanError::Unsupported(e.to_string()))?;
    Ok(Prepared { model, plan, plan_json, vertex_outputs: plan::vertex_outputs(t) })
}

/// A shader the user added to the previewed one to make a pipeline
/// (vertex + geometry, vertex + hull + domain …). Companions run with
/// their defaults and stay on the user's machine: links do not carry them.
#[derive(Clone, Debug, PartialEq)]
pub struct Companion {
    /// The file's name, as the user chose it.
    pub name: String,
    /// Its bytes.
    pub bytes: Arc<Vec<u8>>,
    /// Its stage.
    pub stage: preview_model::Stage,
}

/// Why a file cannot join a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompanionError {
    /// The bytes are not a shader container.
    Decode(String),
    /// Only vertex, hull, domain and geometry shaders chain.
    Stage(preview_model::Stage),
}

impl std::fmt::Display for CompanionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompanionError::Decode(e) => write!(f, "the file does not decode: {e}"),
            CompanionError::Stage(s) => {
                write!(f, "a {s:?} shader: only vertex, hull, domain and geometry shaders join a pipeline")
            }
        }
    }
}

/// `bytes` (a file named `name`) as a pipeline companion.
pub fn companion(name: &str, bytes: Vec<u8>) -> Result<Companion, CompanionError> {
    use preview_model::Stage as S;
    let shader = dxbc::Shader::decode(&bytes).map_err(|e| CompanionError::Decode(e.to_string()))?;
    match preview_model::Stage::of(&shader) {
        stage @ (S::Vertex | S::Hull | S::Domain | S::Geometry) => {
            Ok(Companion { name: name.to_string(), bytes: Arc::new(bytes), stage })
        }
        other => Err(CompanionError::Stage(other)),
    }
}

/// [`prepare`] for the previewed shader with its companions: one plan
/// ([`plan::build_pipeline_from`]) in which `shader` keeps its values and
/// the companions run with their defaults. `translations`: [`translate`] of
/// `shader` then of each companion (made by the worker: the page itself
/// does not translate).
pub fn prepare_pipeline(
    shader: &dxbc::Shader,
    model: PreviewModel,
    values: &Values,
    settings: &Settings,
    companions: &[Companion],
    translations: &[Translated],
) -> Result<Prepared, PlanError> {
    let others: Vec<dxbc::Shader> = companions
        .iter()
        .map(|c| dxbc::Shader::decode(&c.bytes))
        .collect::<Result<_, _>>()
        .map_err(|e| PlanError::Pipeline(format!("a companion shader does not decode: {e}")))?;
    let models: Vec<PreviewModel> = others.iter().map(PreviewModel::new).collect();
    let defaults: Vec<Values> = models.iter().map(|m| m.defaults()).collect();
    let mut stages = vec![plan::PipelineShader { shader, model: &model, values }];
    for ((s, m), v) in others.iter().zip(&models).zip(&defaults) {
        stages.push(plan::PipelineShader { shader: s, model: m, values: v });
    }
    let plan = plan::build_pipeline_from(&stages, translations, settings)?;
    // What the draw's colour can show: the geometry shader's outputs.
    let gs = translations.iter().find(|t| t.geometry.is_some());
    let vertex_outputs = gs.map(plan::vertex_outputs).unwrap_or_default();
    let plan_json = serde_json::to_string(&plan).map_err(|e| PlanError::Unsupported(e.to_string()))?;
    Ok(Prepared { model, plan, plan_json, vertex_outputs })
}

/// The fingerprint a native reference for this preview carries
/// (`shader-runner preview FILE --with COMPANION …`).
pub fn fingerprint(p: &Prepared, bytes: &[u8], values: &Values, settings: &Settings, companions: &[Companion]) -> u64 {
    let (v, s) = p.model.link_state(values, settings);
    let others: Vec<&[u8]> = companions.iter().map(|c| c.bytes.as_slice()).collect();
    reference::pipeline_fingerprint(bytes, &v, &s, &others)
}

/// The uniform buffers' new bytes for `values`: (entry index, bytes).
pub fn uniform_updates(p: &Prepared, values: &Values) -> Vec<(u32, Vec<u8>)> {
    let mut out = Vec::new();
    for cb in &p.model.cbuffers {
        let Some(reg) = cb.register else { continue };
        let Some(i) = p.plan.uniform_entry(reg, cb.space) else { continue };
        if let Resource::Buffer { blob, .. } = &p.plan.entries[i].resource {
            let mut bytes = preview_model::pack(cb, values);
            bytes.resize(p.plan.blobs[*blob].len(), 0);
            out.push((i as u32, bytes));
        }
    }
    out
}

/// Index in `plan.readbacks` of colour target `index`.
pub fn target_readback(plan: &Plan, index: usize) -> Option<usize> {
    plan.readbacks.iter().position(|r| matches!(r, Readback::Target { index: i, .. } if *i == index))
}

/// The four words of texel (x, y) of a colour target read-back.
pub fn texel(plan: &Plan, data: &[u8], x: u32, y: u32) -> Option<[u32; 4]> {
    if x >= plan.width || y >= plan.height {
        return None;
    }
    let at = (y as usize * plan.width as usize + x as usize) * 16;
    let b = data.get(at..at + 16)?;
    Some([0, 1, 2, 3].map(|i| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])))
}

/// One component as text for a target `format` (floats with full precision).
pub fn component_text(format: &str, w: u32) -> String {
    match format {
        "rgba32uint" => w.to_string(),
        "rgba32sint" => (w as i32).to_string(),
        _ => {
            let f = f32::from_bits(w);
            if f.is_finite() && f == f.trunc() && f.abs() < 1e7 {
                format!("{f:.1}")
            } else {
                format!("{f:?}")
            }
        }
    }
}

/// Colour targets a pixel or vertex preview can show: (index, label).
pub fn target_choices(p: &Prepared) -> Vec<(usize, String)> {
    match &p.plan.draw {
        Some(d) if p.plan.stage == preview_model::Stage::Pixel => d
            .targets
            .iter()
            .enumerate()
            .map(|(i, t)| (i, format!("SV_Target{} ({})", t.location, t.format.trim_start_matches("rgba32"))))
            .collect(),
        _ => Vec::new(),
    }
}

/// A storage texture read-back as a picture (layer or slice 0), for the canvas.
pub fn storage_picture(plan: &Plan, r: &Readback, data: &[u8]) -> Option<(u32, u32, Vec<u8>)> {
    let Readback::StorageTexture { entry } = r else { return None };
    let Resource::StorageTexture { format, width, height, .. } = &plan.entries[*entry].resource else { return None };
    let format = match *format {
        "r32uint" => TextureFormat::R32Uint,
        "r32sint" => TextureFormat::R32Sint,
        _ => TextureFormat::R32Float,
    };
    let n = *width as usize * *height as usize * 4;
    let img = Image { width: *width, height: *height, layers: 1, format, data: data.get(..n)?.to_vec() };
    Some((*width, *height, img.to_display_rgba8()))
}

/// A colour target read-back as the canvas shows it.
pub fn target_picture(plan: &Plan, r: &Readback, data: &[u8]) -> Option<(u32, u32, Vec<u8>)> {
    let Readback::Target { index, .. } = r else { return None };
    let format = plan.draw.as_ref()?.targets.get(*index)?.format;
    let n = plan.width as usize * plan.height as usize * 16;
    Some((plan.width, plan.height, display_rgba8(format, data.get(..n)?)))
}

/// Texels of 16 bytes (four 32-bit channels of `format`) as the display
/// pass draws them (`preview.js`, `DISPLAY_WGSL`): red, green and blue
/// clamped to [0, 1], integers divided by 255 first, alpha opaque, then
/// rounded to 8 bits as a unorm8 canvas stores them. NaN shows as 0.
pub fn display_rgba8(format: &str, texels: &[u8]) -> Vec<u8> {
    let channel = |w: u32| -> f32 {
        if format.ends_with("uint") {
            w as f32 / 255.0
        } else if format.ends_with("sint") {
            w as i32 as f32 / 255.0
        } else {
            f32::from_bits(w)
        }
    };
    let unorm8 = |x: f32| if x.is_nan() { 0 } else { (x.clamp(0.0, 1.0) * 255.0).round() as u8 };
    let mut out = Vec::with_capacity(texels.len() / 4);
    for t in texels.chunks_exact(16) {
        for c in 0..3 {
            out.push(unorm8(channel(u32::from_le_bytes([t[4 * c], t[4 * c + 1], t[4 * c + 2], t[4 * c + 3]]))));
        }
        out.push(255);
    }
    out
}

/// Index in the draw's targets of the one the canvas shows (`None`
/// without a draw): the target at `location` for a pixel shader (the first
/// when none is there), the first for the others.
pub fn shown_target(plan: &Plan, location: u32) -> Option<usize> {
    let d = plan.draw.as_ref()?;
    Some(if plan.stage == preview_model::Stage::Pixel {
        d.targets.iter().position(|t| t.location == location).unwrap_or(0)
    } else {
        0
    })
}

/// The RGBA8 pixels the canvas shows for a run's read-backs: the shown
/// colour target of a draw ([`shown_target`]), or a compute shader's first
/// storage texture.
pub fn canvas_picture(plan: &Plan, readbacks: &[Vec<u8>], location: u32) -> Option<(u32, u32, Vec<u8>)> {
    let index = shown_target(plan, location);
    plan.readbacks.iter().zip(readbacks).find_map(|(r, d)| match (r, index) {
        (Readback::Target { index: i, .. }, Some(want)) if *i == want => target_picture(plan, r, d),
        (Readback::StorageTexture { .. }, None) => storage_picture(plan, r, d),
        _ => None,
    })
}

/// Texel (x, y) of layer 0 of the first storage texture: its entry index and word.
pub fn storage_texel(plan: &Plan, readbacks: &[Vec<u8>], x: u32, y: u32) -> Option<(usize, u32)> {
    let (k, entry) = plan.readbacks.iter().enumerate().find_map(|(k, r)| match r {
        Readback::StorageTexture { entry } => Some((k, *entry)),
        _ => None,
    })?;
    let Resource::StorageTexture { width, height, .. } = &plan.entries[entry].resource else { return None };
    if x >= *width || y >= *height {
        return None;
    }
    let at = (y as usize * *width as usize + x as usize) * 4;
    let b = readbacks.get(k)?.get(at..at + 4)?;
    Some((entry, u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
}

/// A storage texel as text for its format.
pub fn storage_text(format: &str, w: u32) -> String {
    match format {
        "r32uint" => w.to_string(),
        "r32sint" => (w as i32).to_string(),
        _ => component_text("rgba32float", w),
    }
}

/// A buffer read-back as a table (at most `max_rows` rows), titled by its register and name.
pub fn buffer_table(p: &Prepared, r: &Readback, data: &[u8], max_rows: usize) -> Option<(String, Table)> {
    let Readback::Buffer { entry, .. } = r else { return None };
    let e = &p.plan.entries[*entry];
    let slot =
        plan::slot_of(&p.model, e).cloned().unwrap_or_else(|| preview_model::compute::BufferSlot::fallback(true));
    let title = if e.name.is_empty() { e.register.clone() } else { format!("{} ({})", e.register, e.name) };
    Some((title, slot.table(data, max_rows, None)))
}

/// Label of read-back `i` for the compare summary.
pub fn readback_label(plan: &Plan, i: usize) -> String {
    match &plan.readbacks[i] {
        Readback::Target { location, .. } if plan.stage == preview_model::Stage::Pixel => {
            format!("SV_Target{location}")
        }
        Readback::Target { .. } => "colour".into(),
        Readback::Buffer { entry, .. } | Readback::StorageTexture { entry } => plan.entries[*entry].register.clone(),
    }
}

/// Compares every read-back with the reference's.
pub fn compare_all(plan: &Plan, got: &[Vec<u8>], reference: &reference::Reference) -> Vec<(String, Comparison)> {
    (0..plan.readbacks.len())
        .map(|i| {
            let label = readback_label(plan, i);
            let c = reference::compare(
                plan,
                i,
                got.get(i).map_or(&[][..], |v| v),
                reference.readbacks.get(i).map_or(&[][..], |v| v),
            );
            (label, c)
        })
        .collect()
}

/// What the compare read-out says overall, from the comparisons' verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOutcome {
    /// Every read-back identical or within the tolerance.
    Matches,
    /// Within the tolerance but for pixels at mesh edges, no more than allowed.
    MatchesButEdges,
    /// Some read-back differs beyond the tolerance, or in size.
    Differs,
}

impl CompareOutcome {
    /// The outcome of a set of comparisons.
    pub fn of(rows: &[(String, Comparison)]) -> CompareOutcome {
        let mut out = CompareOutcome::Matches;
        for (_, c) in rows {
            match c.verdict() {
                Verdict::Identical | Verdict::WithinTolerance { .. } => {}
                Verdict::EdgePixels { .. } => out = CompareOutcome::MatchesButEdges,
                Verdict::Differs { .. } | Verdict::SizeMismatch { .. } => return CompareOutcome::Differs,
            }
        }
        out
    }

    /// A name for the `data-outcome` attribute.
    pub fn name(self) -> &'static str {
        match self {
            CompareOutcome::Matches => "matches",
            CompareOutcome::MatchesButEdges => "matches-but-edges",
            CompareOutcome::Differs => "differs",
        }
    }
}

/// The tolerance in words, e.g. `floats within 64 ulps or 1/128 of the value, other words exactly`.
pub fn tolerance_text(t: &Tolerance) -> String {
    let mut s = format!("floats within {} ulps", t.ulps);
    if t.relative > 0.0 {
        s.push_str(&format!(" or 1/{} of the value", (1.0 / t.relative).round()));
    }
    s.push_str(", integers and untyped words exactly");
    if t.edge_fraction > 0.0 {
        s.push_str(&format!(
            "; up to {}% of a picture's pixels may differ outright (mesh edges)",
            t.edge_fraction * 100.0
        ));
    }
    s
}

/// What computed a reference, from the adapter it names: the native
/// renderer on that adapter, or the page's own CPU interpreter.
pub fn reference_source(adapter: &str) -> String {
    if adapter == preview_model::cpu::ADAPTER {
        "the CPU interpreter (dxbc-interp)".into()
    } else {
        format!("the native renderer ({adapter})")
    }
}

/// The headline of the compare read-out.
pub fn compare_headline(outcome: CompareOutcome, adapter: &str, t: &Tolerance) -> String {
    let tol = tolerance_text(t);
    let source = reference_source(adapter);
    match outcome {
        CompareOutcome::Matches => format!("✓ Matches {source} within the tolerance: {tol}."),
        CompareOutcome::MatchesButEdges => {
            format!("≈ Matches {source} but for pixels at mesh edges, within the allowance. Tolerance: {tol}.")
        }
        CompareOutcome::Differs => format!("✗ Differs from {source}. Tolerance: {tol}."),
    }
}

/// One line per comparison, stating what was compared and what the figures are.
pub fn comparison_text(label: &str, c: &Comparison) -> String {
    match c.verdict() {
        Verdict::SizeMismatch { got, expected } => {
            format!("{label}: sizes differ ({got} bytes here, {expected} in the reference); nothing else compared")
        }
        Verdict::Identical => format!("{label}: all {} words bit for bit identical", c.words),
        Verdict::WithinTolerance { inexact, max_ulps } => format!(
            "{label}: all {} words within the tolerance; {inexact} not bit for bit identical, the largest float difference {max_ulps} ulps",
            c.words
        ),
        Verdict::EdgePixels { pixels_off, pixels_allowed } => format!(
            "{label}: {pixels_off} pixels outside the tolerance ({} words, the largest {} ulps), within the {pixels_allowed} allowed at mesh edges; the other words agree within {} ulps",
            c.mismatches, c.max_ulps, c.max_ulps_within
        ),
        Verdict::Differs { mismatches, first: (i, g, e) } => format!(
            "{label}: {mismatches} of {} words outside the tolerance ({} pixels, {} allowed); first at word {i}: {g:#010x} here, {e:#010x} in the reference; the largest float difference {} ulps",
            c.words, c.pixels_off, c.pixels_allowed, c.max_ulps
        ),
    }
}

/// Whether the shown colour target has anything to see (`None` before a
/// read-back, and for compute, whose picture is a storage texture).
pub fn shown_picture(p: &Prepared, readbacks: &[Vec<u8>], target_location: u32) -> Option<Picture> {
    let index = shown_target(&p.plan, target_location)?;
    Some(preview_model::picture::classify_target(&p.plan, readbacks, index))
}

/// The device's workgroup limits from `[x, y, z, invocations]` as the
/// JavaScript side reports them (`None` when they are not four numbers).
pub fn group_limits(v: &[f64]) -> Option<GroupLimits> {
    let n = |x: f64| (x.is_finite() && x >= 1.0).then(|| x.min(u32::MAX as f64) as u32);
    match v {
        [x, y, z, i] => Some(GroupLimits { size: [n(*x)?, n(*y)?, n(*z)?], invocations: n(*i)? }),
        _ => None,
    }
}

/// `value` with component `i` set from `text`; `None` when the text is not a number of the right kind.
pub fn set_component(value: &Value, i: usize, text: &str) -> Option<Value> {
    let t = text.trim();
    let mut v = value.clone();
    match &mut v {
        Value::Floats(x) => *x.get_mut(i)? = t.parse::<f32>().ok()?,
        Value::Ints(x) => *x.get_mut(i)? = t.parse::<i32>().ok()?,
        Value::Uints(x) => *x.get_mut(i)? = t.parse::<u32>().ok()?,
        Value::Bools(x) => *x.get_mut(i)? = matches!(t, "true" | "1" | "on"),
    }
    Some(v)
}

/// `#rrggbb` for the first three components of a colour (clamped 0..1).
pub fn hex_colour(v: &Value) -> String {
    let c = |i: usize| match v {
        Value::Floats(x) => (x.get(i).copied().unwrap_or(0.0).clamp(0.0, 1.0) * 255.0).round() as u8,
        _ => 0,
    };
    format!("#{:02x}{:02x}{:02x}", c(0), c(1), c(2))
}

/// A colour value with its first three components from `#rrggbb` (alpha kept).
pub fn from_hex_colour(v: &Value, hex: &str) -> Option<Value> {
    let h = hex.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let ch = |k: usize| u8::from_str_radix(&h[2 * k..2 * k + 2], 16).ok().map(|b| b as f32 / 255.0);
    let mut v = v.clone();
    if let Value::Floats(x) = &mut v {
        for k in 0..3.min(x.len()) {
            x[k] = ch(k)?;
        }
        Some(v)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tint() -> (Vec<u8>, dxbc::Shader) {
        let bytes = dxbc::examples::textured_pixel_shader();
        let s = dxbc::Shader::decode(&bytes).unwrap();
        (bytes, s)
    }

    #[test]
    fn the_canvas_shows_colour_texels_as_the_display_pass_draws_them() {
        let texel = |ws: [u32; 4]| ws.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        let f = |xs: [f32; 4]| texel(xs.map(f32::to_bits));
        // Floats: clamped to [0, 1], rounded to nearest 8-bit level; alpha opaque.
        let mut t = f([0.5, 2.0, -1.0, 0.25]);
        t.extend(f([f32::NAN, f32::INFINITY, 0.2, 0.0]));
        assert_eq!(display_rgba8("rgba32float", &t), [128, 255, 0, 255, 0, 255, 51, 255]);
        // Integers: divided by 255 first, so 0..=255 map to themselves.
        assert_eq!(display_rgba8("rgba32uint", &texel([7, 255, 4096, 1])), [7, 255, 255, 255]);
        assert_eq!(display_rgba8("rgba32sint", &texel([(-5i32) as u32, 128, 300, 0])), [0, 128, 255, 255]);
        // A partial texel is not a pixel.
        assert!(display_rgba8("rgba32float", &[0; 15]).is_empty());
    }

    #[test]
    fn prepares_the_example_and_repacks_its_constants() {
        let (_, s) = tint();
        let t = translate(&s).unwrap();
        let model = PreviewModel::new(&s);
        let values = model.defaults();
        let p = prepare(&s, &t, model, &values, &Settings::default()).unwrap();
        assert_eq!(p.plan.stage, preview_model::Stage::Pixel);
        assert!(p.plan_json.contains("\"topology\":\"triangle-strip\""), "{}", p.plan_json);
        assert_eq!(target_choices(&p), vec![(0, "SV_Target0 (float)".to_string())]);
        // Moving a control changes exactly its bytes.
        let c = &p.model.cbuffers[0].controls[0];
        let mut v2 = values.clone();
        let nv = set_component(&c.default, 0, "0.25").unwrap();
        v2.insert(c.id.clone(), nv);
        let before = uniform_updates(&p, &values);
        let after = uniform_updates(&p, &v2);
        assert_eq!(before.len(), 1);
        let at = c.component_offsets[0] as usize;
        assert_eq!(&after[0].1[at..at + 4], &0.25f32.to_le_bytes());
        let diff: Vec<usize> = (0..before[0].1.len()).filter(|&i| before[0].1[i] != after[0].1[i]).collect();
        assert!(diff.iter().all(|&i| i >= at && i < at + 4), "{diff:?}");
    }

    #[test]
    fn link_state_round_trips_and_fingerprints_change_with_values() {
        let (bytes, s) = tint();
        let model = PreviewModel::new(&s);
        let mut values = model.defaults();
        let settings = Settings { target: 0, ..Settings::default() };
        let f0 = model.fingerprint(&bytes, &values, &settings);
        let c = &model.cbuffers[0].controls[0];
        values.insert(c.id.clone(), set_component(&c.default, 0, "0.5").unwrap());
        let (v, st) = model.link_state(&values, &settings);
        let (rv, rs) = model.restore_state(Some(&v), Some(&st)).unwrap();
        assert_eq!((rv, rs), (values.clone(), settings.clone()));
        assert_ne!(model.fingerprint(&bytes, &values, &settings), f0);
        // Byte 0 of the values record is its version.
        let e = model.restore_state(Some(&[9]), None).unwrap_err();
        assert!(
            matches!(e, preview_model::RestoreError::Values(preview_model::payload::PayloadError { offset: 0, .. })),
            "{e}"
        );
    }

    #[test]
    fn texels_and_their_text() {
        let (_, s) = tint();
        let t = translate(&s).unwrap();
        let model = PreviewModel::new(&s);
        let p = prepare(&s, &t, model, &Values::new(), &Settings::default()).unwrap();
        let mut data = vec![0u8; 256 * 256 * 16];
        let at = (3 * 256 + 2) * 16;
        data[at..at + 4].copy_from_slice(&0.5f32.to_le_bytes());
        assert_eq!(texel(&p.plan, &data, 2, 3), Some([0.5f32.to_bits(), 0, 0, 0]));
        assert_eq!(texel(&p.plan, &data, 256, 0), None);
        assert_eq!(component_text("rgba32float", 0.5f32.to_bits()), "0.5");
        assert_eq!(component_text("rgba32float", 2.0f32.to_bits()), "2.0");
        assert_eq!(component_text("rgba32sint", (-3i32) as u32), "-3");
        assert_eq!(component_text("rgba32float", 0.1f32.to_bits()), "0.1");
    }

    #[test]
    fn colours_convert_both_ways() {
        let v = Value::Floats(vec![1.0, 0.5, 0.0, 0.25]);
        assert_eq!(hex_colour(&v), "#ff8000");
        let w = from_hex_colour(&v, "#00ff80").unwrap();
        assert_eq!(w, Value::Floats(vec![0.0, 1.0, 128.0 / 255.0, 0.25]));
        assert_eq!(from_hex_colour(&v, "00ff80"), None);
        assert_eq!(set_component(&Value::Ints(vec![1, 2]), 1, " -7 "), Some(Value::Ints(vec![1, -7])));
        assert_eq!(set_component(&Value::Uints(vec![1]), 0, "-7"), None);
    }

    #[test]
    fn the_worker_answer_round_trips() {
        let (bytes, s) = tint();
        let direct = translate(&s).unwrap();
        assert_eq!(translated_from_json(&translate_json(&bytes)), Ok(direct));
        // A geometry shader's answer carries its draw form too.
        let gs = dxbc::examples::point_to_triangle_geometry_shader();
        let direct = translate(&dxbc::Shader::decode(&gs).unwrap()).unwrap();
        assert!(direct.geometry.is_some());
        assert_eq!(translated_from_json(&translate_json(&gs)), Ok(direct));
        // A hull shader's carries its patch-constant pass.
        let hs = dxbc::examples::constant_tessellation_hull_shader();
        let direct = translate(&dxbc::Shader::decode(&hs).unwrap()).unwrap();
        assert!(direct.hull.is_some());
        assert_eq!(translated_from_json(&translate_json(&hs)), Ok(direct));
        // A domain shader's carries its pass description (the tessellator's inputs).
        let ds = dxbc::examples::barycentric_domain_shader();
        let direct = translate(&dxbc::Shader::decode(&ds).unwrap()).unwrap();
        assert!(direct.domain.as_ref().is_some_and(|f| f.tessellation.is_some()));
        assert_eq!(translated_from_json(&translate_json(&ds)), Ok(direct));
        assert!(
            matches!(translated_from_json(&translate_json(b"junk")), Err(PlanError::StageNotPreviewable(m)) if m.contains("does not decode"))
        );
        assert!(matches!(translated_from_json("{"), Err(PlanError::Unsupported(_))));
    }

    fn comparison(words: usize, mismatches: usize, pixels_off: usize, pixels_allowed: usize) -> Comparison {
        Comparison {
            words,
            mismatches,
            pixels_off,
            pixels_allowed,
            max_ulps: if mismatches > 0 { 1065353216 } else { 3 },
            max_ulps_within: 3,
            inexact: mismatches + 10,
            first: (mismatches > 0).then_some((8, 0x3f80_0000, 0)),
            size_mismatch: None,
        }
    }

    #[test]
    fn the_compare_summary_says_what_its_figures_say() {
        let t = Tolerance { ulps: 64, relative: 1.0 / 1024.0, edge_fraction: 0.02 };
        let within = ("SV_Target0".to_string(), comparison(100, 0, 0, 2));
        let edges = ("colour".to_string(), comparison(100, 4, 1, 2));
        let off = ("u0".to_string(), comparison(100, 12, 3, 2));
        assert_eq!(CompareOutcome::of(std::slice::from_ref(&within)), CompareOutcome::Matches);
        assert_eq!(CompareOutcome::of(&[within.clone(), edges.clone()]), CompareOutcome::MatchesButEdges);
        assert_eq!(CompareOutcome::of(&[within.clone(), edges.clone(), off.clone()]), CompareOutcome::Differs);
        // The huge distance of an edge pixel is never reported next to "matches" as if it agreed.
        assert_eq!(
            comparison_text(&edges.0, &edges.1),
            "colour: 1 pixels outside the tolerance (4 words, the largest 1065353216 ulps), within the 2 allowed at mesh edges; the other words agree within 3 ulps"
        );
        assert_eq!(
            comparison_text(&within.0, &within.1),
            "SV_Target0: all 100 words within the tolerance; 10 not bit for bit identical, the largest float difference 3 ulps"
        );
        assert!(comparison_text(&off.0, &off.1).starts_with("u0: 12 of 100 words outside the tolerance (3 pixels, 2 allowed); first at word 8: 0x3f800000 here, 0x00000000 in the reference"));
        let exact = Comparison { inexact: 0, max_ulps: 0, max_ulps_within: 0, ..comparison(100, 0, 0, 0) };
        assert_eq!(comparison_text("b0", &exact), "b0: all 100 words bit for bit identical");
        let sized = Comparison { size_mismatch: Some((4, 8)), ..exact };
        assert_eq!(CompareOutcome::of(&[("b0".into(), sized)]), CompareOutcome::Differs);
        assert_eq!(
            compare_headline(CompareOutcome::Matches, "llvmpipe", &t),
            "✓ Matches the native renderer (llvmpipe) within the tolerance: floats within 64 ulps or 1/1024 of the value, integers and untyped words exactly; up to 2% of a picture's pixels may differ outright (mesh edges)."
        );
        assert!(compare_headline(CompareOutcome::Differs, "x", &t).starts_with("✗ Differs"));
        assert!(compare_headline(CompareOutcome::Matches, preview_model::cpu::ADAPTER, &t)
            .starts_with("✓ Matches the CPU interpreter (dxbc-interp) within the tolerance: floats within 64 ulps"));
        assert!(compare_headline(CompareOutcome::MatchesButEdges, "x", &t).starts_with("≈ Matches"));
    }

    #[test]
    fn limits_read_from_javascript_numbers() {
        assert_eq!(
            group_limits(&[256.0, 256.0, 64.0, 256.0]),
            Some(GroupLimits { size: [256, 256, 64], invocations: 256 })
        );
        assert_eq!(group_limits(&[256.0, f64::NAN, 64.0, 256.0]), None);
        assert_eq!(group_limits(&[256.0, 256.0, 64.0]), None);
        assert_eq!(group_limits(&[0.0, 1.0, 1.0, 1.0]), None);
    }

    #[test]
    fn a_blank_picture_is_found_in_the_shown_target() {
        let (_, s) = tint();
        let t = translate(&s).unwrap();
        let model = PreviewModel::new(&s);
        let p = prepare(&s, &t, model, &Values::new(), &Settings::default()).unwrap();
        let n = (p.plan.width * p.plan.height) as usize;
        let mut nan: Vec<u8> = (0..n).flat_map(|_| [f32::NAN, 0.0, 0.0, 1.0]).flat_map(|f| f.to_le_bytes()).collect();
        let want = Picture::Blank { nan: n, infinite: 0, zero: 0 };
        assert_eq!(shown_picture(&p, std::slice::from_ref(&nan), 0), Some(want));
        nan[16 * 7..16 * 7 + 4].copy_from_slice(&0.5f32.to_le_bytes());
        assert_eq!(shown_picture(&p, &[nan], 0), Some(Picture::Visible));
        assert_eq!(shown_picture(&p, &[], 0), Some(Picture::Empty));
    }

    #[test]
    fn companions_are_vertex_hull_domain_or_geometry_shaders_and_make_one_plan() {
        use crate::test_corpus::file;
        let ps = file("fxc/angle930_clearfloat11ps.dxbc");
        assert_eq!(companion("ps.dxbc", ps).unwrap_err(), CompanionError::Stage(preview_model::Stage::Pixel));
        assert!(matches!(companion("junk", b"junk".to_vec()), Err(CompanionError::Decode(_))));
        let vs = companion("vs.dxbc", file("fxc/dxdecompiler_fluidcs11_fluidrender_vs.dxbc")).unwrap();
        assert_eq!(vs.stage, preview_model::Stage::Vertex);
        let gs_bytes = file("fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc");
        let gs = dxbc::Shader::decode(&gs_bytes).unwrap();
        let model = PreviewModel::new(&gs);
        let values = model.defaults();
        let settings = Settings::default();
        let translations = [translate(&gs).unwrap(), translate(&dxbc::Shader::decode(&vs.bytes).unwrap()).unwrap()];
        let p = prepare_pipeline(&gs, model, &values, &settings, std::slice::from_ref(&vs), &translations).unwrap();
        assert_eq!(p.plan.shaders, [preview_model::Stage::Geometry, preview_model::Stage::Vertex]);
        // The colour choices are the geometry shader's outputs (COLOR in o1, TEXCOORD in o2).
        assert_eq!(p.vertex_outputs.iter().map(|o| o.0).collect::<Vec<_>>(), [1, 2]);
        // The reference fingerprint covers the companion: a lone GS's differs.
        let alone = p.model.fingerprint(&gs_bytes, &values, &settings);
        assert_eq!(fingerprint(&p, &gs_bytes, &values, &settings, &[]), alone);
        assert_ne!(fingerprint(&p, &gs_bytes, &values, &settings, &[vs]), alone);
    }

    #[test]
    fn a_file_without_a_program_is_refused_with_a_reason() {
        // The example domain shader's input signature alone: no program, no RDEF.
        let ds = dxbc::examples::barycentric_domain_shader();
        let c = dxbc::container::Container::parse(&ds).unwrap();
        let isgn = &ds[c.find(b"ISGN").unwrap().data_range()];
        let bytes = dxbc::container::write_container(1, &[(*b"ISGN", isgn)]);
        let e = translate(&dxbc::Shader::decode(&bytes).unwrap()).unwrap_err();
        assert!(matches!(e, PlanError::StageNotPreviewable(_)), "{e:?}");
        assert!(e.to_string().contains("only pixel, vertex, compute, geometry, hull and domain shaders"), "{e}");
    }

    #[test]
    fn a_geometry_shader_runs_its_passes_before_the_draw() {
        // The gallery's GS: points in, one triangle (a strip of 3) out each.
        let bytes = dxbc::examples::point_to_triangle_geometry_shader();
        let s = dxbc::Shader::decode(&bytes).unwrap();
        let t = translate(&s).unwrap();
        let p = prepare(&s, &t, PreviewModel::new(&s), &Values::new(), &Settings::default()).unwrap();
        let passes = p.plan.passes.as_ref().unwrap();
        let labels: Vec<_> = passes.compute.iter().map(|c| c.label).collect();
        assert_eq!(labels, ["vertex", "geometry"]);
        let d = p.plan.draw.as_ref().unwrap();
        assert_eq!(d.topology, "triangle-list");
        // One point per mesh vertex; every invocation appends at most one triangle.
        let mesh = Settings::default().mesh.build();
        assert_eq!(d.vertex_count as usize, mesh.positions.len() * 3);
        // The draw reads the geometry pass's output buffer.
        let out = passes.compute[1].buffers.iter().find(|b| b.writable && !passes.buffers[b.buffer].reset).unwrap();
        assert_eq!(passes.draw_buffers[0].buffer, out.buffer);
    }
}
