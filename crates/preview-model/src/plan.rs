//! A preview as one plain description of GPU work, run unchanged by the
//! browser (WebGPU from JavaScript) and by the native reference renderer
//! (wgpu on Vulkan), so both compute from exactly the same inputs.
//!
//! [`build`] translates the shader, joins its bindings (`Translation::bindings`,
//! by register and space) with the model's slots, and writes:
//!
//! * the WGSL modules: the translated shader plus our side of the pipeline
//!   (the quad's pass-through vertex stage for pixel shaders, a one-output
//!   fragment stage for vertex shaders);
//! * every bind group entry with its layout type and initial bytes;
//! * the draw (vertex layout, vertex and index bytes, topology, colour
//!   targets) or the dispatch;
//! * what to read back: every colour target and every writable buffer or
//!   storage texture, in order.
//!
//! Byte payloads (vertex data, buffer contents, texels) live in
//! [`Plan::blobs`], referenced by index, so the rest serialises to small JSON
//! for the JavaScript side while the bytes cross as typed arrays.
//!
//! Every colour target is a 32-bit-per-channel format of the output's
//! component type (`rgba32float`, `rgba32uint`, `rgba32sint`), so a read-back
//! texel is the shader's exact output, not a rounded display value.

use crate::compute::BufferSlot;
use crate::mesh::MeshKind;
use crate::settings::{Settings, VertexView, DEFAULT_SIZE};
use crate::textures::{Image, Pattern, TextureFormat, TextureSource};
use crate::{vertex, PreviewModel, Stage, Values};
use dxbc_naga::{BindingEntry, BindingKind, IoEntry, RegisterClass, StageBufferRole, Translation};
use serde::{Deserialize, Serialize};

/// Why a shader cannot be previewed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlanError {
    /// Geometry, hull and domain shaders (and files without a program).
    StageNotPreviewable(String),
    /// The translator refused: its message and the byte offset of the instruction.
    Translation {
        /// The translator's message.
        message: String,
        /// Byte offset in the file, when known.
        offset: Option<usize>,
        /// The typed reason of a refusal (None for other errors).
        #[serde(default)]
        limitation: Option<dxbc_naga::Limitation>,
    },
    /// Something the preview cannot feed yet (e.g. a multisampled texture input).
    Unsupported(String),
    /// A pipeline of user shaders whose stages do not form one the preview
    /// runs (vertex + geometry, vertex + hull + domain, hull + domain).
    Pipeline(String),
    /// A pipeline stage reads an input the stage before does not write at
    /// that register.
    Link {
        /// What does not match.
        message: String,
        /// Byte offset of the input's signature element in its file.
        offset: usize,
    },
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::StageNotPreviewable(s) => write!(f, "{s}"),
            PlanError::Translation { message, offset: Some(o), .. } => write!(f, "{message} (at offset {o:#x})"),
            PlanError::Translation { message, offset: None, .. } => write!(f, "{message}"),
            PlanError::Unsupported(s) => write!(f, "{s}"),
            PlanError::Pipeline(s) => write!(f, "{s}"),
            PlanError::Link { message, offset } => write!(f, "{message} (at offset {offset:#x})"),
        }
    }
}

/// A WGSL module and its entry point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Module {
    /// `vertex`, `fragment` or `compute`.
    pub stage: &'static str,
    /// WGSL source.
    pub code: String,
    /// Entry point name.
    pub entry: String,
    /// True when this is the user's (translated) shader rather than our glue.
    pub translated: bool,
}

/// One vertex attribute (WebGPU `GPUVertexAttribute`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attribute {
    /// `GPUVertexFormat`, e.g. `float32x4`.
    pub format: &'static str,
    /// Byte offset within a vertex.
    pub offset: u32,
    /// `@location`.
    pub location: u32,
}

/// A colour target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Target {
    /// Fragment output `@location`.
    pub location: u32,
    /// `rgba32float`, `rgba32uint` or `rgba32sint`.
    pub format: &'static str,
}

/// The draw of a pixel or vertex shader.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Draw {
    /// Index into [`Plan::modules`] of the vertex stage.
    pub vertex_module: usize,
    /// Index into [`Plan::modules`] of the fragment stage.
    pub fragment_module: usize,
    /// `triangle-strip`, `triangle-list`, `line-list` or `line-strip`.
    pub topology: &'static str,
    /// Bytes per vertex.
    pub stride: u32,
    /// Attributes (none: no vertex buffer is bound).
    pub attributes: Vec<Attribute>,
    /// Blob of the vertex data.
    pub vertex_blob: usize,
    /// Vertices in the blob.
    pub vertex_count: u32,
    /// Blob of `uint32` indices, when indexed.
    pub index_blob: Option<usize>,
    /// Indices drawn.
    pub index_count: u32,
    /// Colour targets, by location.
    pub targets: Vec<Target>,
    /// Depth test against a `depth32float` buffer cleared to 1: `less` for
    /// meshes, `always` for pixel shaders that write `SV_Depth`; `None`
    /// for no depth buffer (a geometry or hull preview: primitive order
    /// decides what covers what).
    pub depth: Option<&'static str>,
}

/// What a bind group entry holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Resource {
    /// A buffer: `kind` is `uniform`, `storage` or `read-only-storage`.
    Buffer {
        /// Binding type.
        kind: &'static str,
        /// Initial contents (its length is the buffer size, a multiple of 16).
        blob: usize,
    },
    /// A sampled texture.
    Texture {
        /// Texels, rows tight (`bytes_per_row`), layers one after another.
        blob: usize,
        /// `GPUTextureFormat`.
        format: &'static str,
        /// `1d`, `2d` or `3d`.
        dimension: &'static str,
        /// `GPUTextureViewDimension`.
        view_dimension: &'static str,
        /// `float`, `uint`, `sint` or `depth`.
        sample_type: &'static str,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// Array layers, cube faces or depth.
        depth_or_layers: u32,
        /// Bytes per row in the blob.
        bytes_per_row: u32,
        /// 1, or 4 for a multisampled texture. Texels cannot be written to
        /// one, so the blob goes into a one-sample texture of
        /// `source_format` and module `fill` (entry points `vs`, `fs`)
        /// draws it into every sample of this one.
        samples: u32,
        /// Format of the blob's texture when it is not `format`.
        source_format: Option<&'static str>,
        /// Index in [`Plan::modules`] of the fill pass for a multisampled texture.
        fill: Option<usize>,
    },
    /// A read-write storage texture (one 32-bit channel).
    StorageTexture {
        /// Initial texels.
        blob: usize,
        /// `r32float`, `r32uint` or `r32sint`.
        format: &'static str,
        /// `1d`, `2d` or `3d`.
        dimension: &'static str,
        /// `GPUTextureViewDimension`.
        view_dimension: &'static str,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// Array layers or depth.
        depth_or_layers: u32,
        /// Bytes per row in the blob.
        bytes_per_row: u32,
    },
    /// A sampler.
    Sampler {
        /// `nearest` or `linear` (min, mag and mipmap).
        filter: &'static str,
        /// `repeat`, `clamp-to-edge` or `mirror-repeat` on every axis.
        address: &'static str,
        /// `less-equal` for comparison samplers.
        compare: Option<&'static str>,
    },
}

/// One bind group entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// Bind group.
    pub group: u32,
    /// Binding.
    pub binding: u32,
    /// The D3D register it stands for, e.g. `b0`, `t3`, `u1`.
    pub register: String,
    /// The HLSL name when RDEF has one.
    pub name: String,
    /// What it holds.
    pub resource: Resource,
    /// Whose resource it is: index in [`Plan::shaders`] (0, the previewed
    /// shader, unless the plan is a pipeline of several).
    pub shader: u32,
}

/// Something read back after the work.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Readback {
    /// Colour target `index` of [`Draw::targets`]: `width × height` texels of 16 bytes.
    Target {
        /// Index in `Draw::targets`.
        index: usize,
        /// Its location.
        location: u32,
    },
    /// The buffer of entry `entry` (its whole size).
    Buffer {
        /// Index in [`Plan::entries`].
        entry: usize,
        /// Bytes per element of the table.
        stride: u32,
        /// Words of an element that hold floats (compared with a tolerance).
        float_words: Vec<u32>,
    },
    /// The storage texture of entry `entry` (rows tight, layers one after another).
    StorageTexture {
        /// Index in [`Plan::entries`].
        entry: usize,
    },
}

/// How closely two executions of a plan must agree (see [`crate::reference`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tolerance {
    /// Floats may differ by this many units in the last place…
    pub ulps: u32,
    /// …or by this fraction of `max(1, |expected|)`: 0 when every float is
    /// computed exactly as written; 2⁻¹⁰ when a mesh is drawn (perspective
    /// interpolation is not specified bit for bit); 2⁻⁷ when textures are
    /// filtered linearly (filter weights may carry as few as 8 fractional
    /// bits, and 2D/3D filtering compounds two or three of them).
    pub relative: f32,
    /// Fraction of a target's pixels allowed outside the above: triangle
    /// edges of a mesh, where sub-pixel precision decides coverage (0 for
    /// full-viewport quads and compute).
    pub edge_fraction: f32,
}

/// A storage buffer of the passes through compute: vertex records or the
/// geometry pass's vertex count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageBuffer {
    /// What it holds (a label).
    pub label: &'static str,
    /// Size in bytes (a multiple of 16).
    pub size: u64,
    /// Initial contents, when not zeros (its length is `size`).
    pub blob: Option<usize>,
    /// Cleared to zeros before every frame: the count the geometry pass's
    /// appends reserve from.
    pub reset: bool,
    /// A uniform buffer (the tessellator's parameters); otherwise storage,
    /// usable as an index buffer and as indirect draw arguments too.
    pub uniform: bool,
}

/// A stage buffer bound for one pass, where the translator placed its role
/// ([`dxbc_naga::BindingScheme::place_stage_buffer`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageBinding {
    /// Bind group.
    pub group: u32,
    /// Binding.
    pub binding: u32,
    /// Index in [`Passes::buffers`].
    pub buffer: usize,
    /// Bound read-write (else read-only storage).
    pub writable: bool,
    /// Bound as a uniform buffer (its [`StageBuffer::uniform`] is set).
    pub uniform: bool,
}

/// A compute pass run before the draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComputePass {
    /// What it is (`vertex`, `geometry`).
    pub label: &'static str,
    /// Index into [`Plan::modules`].
    pub module: usize,
    /// Its entry point (the tessellator's module has three).
    pub entry: String,
    /// Workgroups dispatched.
    pub workgroups: [u32; 3],
    /// Binds the entries of user shader [`ComputePass::shader`] too.
    pub shader_entries: bool,
    /// Whose entries (index in [`Plan::shaders`]).
    pub shader: u32,
    /// Its stage buffers.
    pub buffers: Vec<StageBinding>,
}

/// A stage WebGPU lacks, run through compute before the draw: for a
/// geometry shader, the vertex pass over the mesh's assembled vertices, the
/// geometry pass per primitive and instance, then the draw pulls the
/// geometry pass's output records ([`dxbc_naga::stages`]). The draw covers
/// the whole output buffer: records no emit wrote stay zero, so their
/// primitives have w = 0 everywhere and cover no pixel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Passes {
    /// Every stage buffer.
    pub buffers: Vec<StageBuffer>,
    /// The compute passes, in order.
    pub compute: Vec<ComputePass>,
    /// The stage buffers the draw's vertex stage reads.
    pub draw_buffers: Vec<StageBinding>,
    /// The stage buffer of `uint32` indices the draw uses (the tessellator's).
    pub draw_indices: Option<usize>,
    /// The stage buffer holding the draw's indexed-indirect arguments
    /// (index count, instance count, first index, base vertex, first
    /// instance), written by a pass: the draw's count is known only on the GPU.
    pub draw_indirect: Option<usize>,
    /// The draw binds [`Plan::entries`] too, visible to its vertex stage:
    /// the user's domain shader is the draw's vertex stage and reads its
    /// own constant buffers and textures.
    pub draw_entries: bool,
    /// Whose entries the draw binds (index in [`Plan::shaders`]).
    pub draw_shader: u32,
}

/// A complete preview job.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// Stage of the shader (of a pipeline: the stage its passes are built
    /// around, the geometry or hull shader).
    pub stage: Stage,
    /// The user shaders' stages, by shader index: one for a lone shader;
    /// for a pipeline, the previewed shader first, then its companions.
    pub shaders: Vec<Stage>,
    /// Render size (square), for draws.
    pub width: u32,
    /// Render size (square), for draws.
    pub height: u32,
    /// Shader modules.
    pub modules: Vec<Module>,
    /// The draw, for pixel and vertex shaders.
    pub draw: Option<Draw>,
    /// The compute module and groups, for compute shaders.
    pub dispatch: Option<(usize, [u32; 3])>,
    /// Compute passes before the draw, for a geometry shader.
    pub passes: Option<Passes>,
    /// Bind group entries, sorted by group and binding. Groups without
    /// entries between used ones get an empty layout.
    pub entries: Vec<Entry>,
    /// What is read back, in order.
    pub readbacks: Vec<Readback>,
    /// How closely another implementation's read-backs must agree.
    pub tolerance: Tolerance,
    /// Byte payloads referenced by index.
    #[serde(skip)]
    pub blobs: Vec<Vec<u8>>,
}

impl Plan {
    /// Number of bind groups (highest used group + 1).
    pub fn group_count(&self) -> u32 {
        self.entries.iter().map(|e| e.group + 1).max().unwrap_or(0)
    }

    /// Index in [`Plan::entries`] of the uniform buffer for `b{register}` in `space`.
    /// (The previewed shader's: the one whose controls the user changes.)
    pub fn uniform_entry(&self, register: u32, space: u32) -> Option<usize> {
        let want = if space == 0 { format!("b{register}") } else { format!("b{register}, space{space}") };
        self.entries.iter().position(|e| e.shader == 0 && e.register == want)
    }

    /// Bytes read back for `readback` (what an executor must return).
    pub fn readback_size(&self, r: &Readback) -> usize {
        match r {
            Readback::Target { .. } => self.width as usize * self.height as usize * 16,
            Readback::Buffer { entry, .. } => match &self.entries[*entry].resource {
                Resource::Buffer { blob, .. } => self.blobs[*blob].len(),
                _ => 0,
            },
            Readback::StorageTexture { entry } => match &self.entries[*entry].resource {
                Resource::StorageTexture { width, height, depth_or_layers, .. } => {
                    *width as usize * *height as usize * *depth_or_layers as usize * 4
                }
                _ => 0,
            },
        }
    }
}

/// WebGPU's default `maxBindingsPerBindGroup`: binding numbers stay below it.
pub const MAX_BINDING: u32 = 1000;
/// WebGPU's default `maxBindGroups`.
pub const MAX_GROUPS: u32 = 4;

/// Samples of a multisampled texture input (the count WebGPU guarantees).
pub const MULTISAMPLE_COUNT: u32 = 4;

/// The pass that copies a one-sample texture into every sample of a
/// multisampled one: a full-screen triangle, one texel per pixel.
pub fn fill_wgsl(kind: &str) -> String {
    let (src, out, body) = match kind {
        "depth" => ("f32", "@builtin(frag_depth) f32", "textureLoad(src, vec2<u32>(p.xy), 0).r"),
        k => (k, "@location(0) vec4<KIND>", "textureLoad(src, vec2<u32>(p.xy), 0)"),
    };
    let out = out.replace("KIND", src);
    format!(
        "@group(0) @binding(0) var src: texture_2d<{src}>;\n\n\
         @vertex\nfn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {{\n\
         \x20   let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));\n\
         \x20   return vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);\n}}\n\n\
         @fragment\nfn fs(@builtin(position) p: vec4<f32>) -> {out} {{\n\
         \x20   return {body};\n}}\n"
    )
}

/// Translator options the preview uses (the defaults: one group per register class).
pub fn options() -> dxbc_naga::Options {
    dxbc_naga::Options::default()
}

/// What a plan needs of a translation: the expensive part (lowering, naga
/// validation, the WGSL writer), small enough to cross from a worker as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Translated {
    /// The WGSL of the translated shader (entry point `main`).
    pub wgsl: String,
    /// Where each register went.
    pub bindings: Vec<BindingEntry>,
    /// Entry point inputs.
    pub inputs: Vec<IoEntry>,
    /// Entry point outputs.
    pub outputs: Vec<IoEntry>,
    /// Compute workgroup size.
    pub workgroup_size: [u32; 3],
    /// A geometry shader's other forms (its `wgsl` is the compute pass).
    #[serde(default)]
    pub geometry: Option<GeometryForms>,
    /// A hull shader's other pass (its `wgsl` is the control-point pass).
    #[serde(default)]
    pub hull: Option<HullForms>,
    /// A domain shader's pass description (its `wgsl` is the vertex shader
    /// over domain points).
    #[serde(default)]
    pub domain: Option<dxbc_naga::ComputeForm>,
    /// A vertex shader's form as compute, what a pipeline preview runs
    /// before a geometry or hull shader (made with the native form, so a
    /// worker's one answer serves both previews), or why it has none.
    #[serde(default)]
    pub as_compute: Option<Result<Box<Translated>, PlanError>>,
}

/// What a hull preview needs besides the control-point pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HullForms {
    /// How the control-point pass runs, with the tessellator's parameters.
    pub form: dxbc_naga::ComputeForm,
    /// The patch-constant pass (fork and join phases).
    pub patch_constant_wgsl: String,
    /// Its bindings.
    pub patch_constant_bindings: Vec<BindingEntry>,
}

impl Translated {
    /// Every binding of the passes that bind the shader's resources: the
    /// main translation's and, for a hull shader, the patch-constant
    /// pass's (one entry per group and binding).
    fn all_bindings(&self) -> Vec<BindingEntry> {
        let mut all = self.bindings.clone();
        for b in self.hull.iter().flat_map(|h| &h.patch_constant_bindings) {
            if !all.iter().any(|a| (a.group, a.binding) == (b.group, b.binding)) {
                all.push(b.clone());
            }
        }
        all
    }
}

/// What a geometry preview needs besides the geometry pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeometryForms {
    /// How the geometry pass runs.
    pub form: dxbc_naga::ComputeForm,
    /// Bindings of the draw that pulls the pass's output.
    pub draw_bindings: Vec<BindingEntry>,
    /// The draw's vertex shader (`StageForm::DrawFromBuffer`).
    pub draw_wgsl: String,
    /// Its outputs (the GS output signature, stream 0).
    pub draw_outputs: Vec<IoEntry>,
}

impl Translated {
    /// The parts of `t` a plan uses, writing its WGSL.
    pub fn from_translation(t: &Translation) -> Result<Translated, PlanError> {
        Ok(Translated {
            // The preview runs WebGPU: a WGSL refusal (a feature only native
            // targets express) is the preview's refusal, typed.
            wgsl: dxbc_naga::to_wgsl(t).map_err(|e| PlanError::Translation {
                message: e.to_string(),
                offset: match &e {
                    dxbc_naga::OutputError::Refused { offset, .. } => Some(*offset),
                    _ => None,
                },
                limitation: e.limitation(),
            })?,
            bindings: t.bindings.clone(),
            inputs: t.inputs.clone(),
            outputs: t.outputs.clone(),
            workgroup_size: t.workgroup_size,
            geometry: None,
            hull: None,
            domain: None,
            as_compute: None,
        })
    }
}

/// Translates `shader` for a preview, or says why it has none.
pub fn translate(shader: &dxbc::Shader) -> Result<Translated, PlanError> {
    match Stage::of(shader) {
        Stage::Other => {
            let name = shader.profile().unwrap_or_else(|| "this file".into());
            Err(PlanError::StageNotPreviewable(format!(
                "{name}: only pixel, vertex, compute, geometry, hull and domain shaders can be previewed"
            )))
        }
        Stage::Domain => {
            let ds = dxbc_naga::translate_pipeline_stage(shader, &options(), dxbc_naga::StageForm::DrawFromBuffer)
                .map_err(translate_error)?;
            let form = ds
                .compute_form
                .clone()
                .ok_or_else(|| PlanError::Unsupported("the domain shader has no pass description".into()))?;
            let mut t = Translated::from_translation(&ds)?;
            t.domain = Some(form);
            Ok(t)
        }
        Stage::Hull => {
            use dxbc_naga::StageForm;
            let cp =
                dxbc_naga::translate_pipeline_stage(shader, &options(), StageForm::Compute).map_err(translate_error)?;
            let pc = dxbc_naga::translate_pipeline_stage(shader, &options(), StageForm::PatchConstant)
                .map_err(translate_error)?;
            let form = cp
                .compute_form
                .clone()
                .ok_or_else(|| PlanError::Unsupported("the control-point pass has no compute form".into()))?;
            let p = Translated::from_translation(&pc)?;
            let mut t = Translated::from_translation(&cp)?;
            t.hull = Some(HullForms { form, patch_constant_wgsl: p.wgsl, patch_constant_bindings: p.bindings });
            Ok(t)
        }
        Stage::Geometry => {
            use dxbc_naga::StageForm;
            let gs =
                dxbc_naga::translate_pipeline_stage(shader, &options(), StageForm::Compute).map_err(translate_error)?;
            let draw = dxbc_naga::translate_pipeline_stage(shader, &options(), StageForm::DrawFromBuffer)
                .map_err(translate_error)?;
            let form = gs
                .compute_form
                .clone()
                .ok_or_else(|| PlanError::Unsupported("the geometry pass has no compute form".into()))?;
            let d = Translated::from_translation(&draw)?;
            let mut t = Translated::from_translation(&gs)?;
            t.geometry =
                Some(GeometryForms { form, draw_bindings: d.bindings, draw_wgsl: d.wgsl, draw_outputs: d.outputs });
            Ok(t)
        }
        Stage::Vertex => {
            let mut t =
                Translated::from_translation(&dxbc_naga::translate(shader, &options()).map_err(translate_error)?)?;
            let compute = dxbc_naga::translate_pipeline_stage(shader, &options(), dxbc_naga::StageForm::Compute)
                .map_err(translate_error)
                .and_then(|c| Translated::from_translation(&c));
            t.as_compute = Some(compute.map(Box::new));
            Ok(t)
        }
        _ => Translated::from_translation(&dxbc_naga::translate(shader, &options()).map_err(translate_error)?),
    }
}

fn translate_error(e: dxbc_naga::TranslateError) -> PlanError {
    let limitation = e.limitation();
    let (message, offset) = match e {
        dxbc_naga::TranslateError::Unsupported { limitation, detail, offset } => {
            (format!("unsupported: {detail} ({})", limitation.why()), Some(offset))
        }
        dxbc_naga::TranslateError::Malformed { what, offset } => (format!("malformed: {what}"), Some(offset)),
        dxbc_naga::TranslateError::Validation { message, offset } => (format!("naga validation: {message}"), offset),
    };
    PlanError::Translation { message, offset, limitation }
}

/// The plan for `shader` with `values` and `settings`, translating it first.
pub fn build(
    shader: &dxbc::Shader,
    model: &PreviewModel,
    values: &Values,
    settings: &Settings,
) -> Result<Plan, PlanError> {
    build_from(shader, &translate(shader)?, model, values, settings)
}

/// [`build`] for a translation already made (e.g. by a worker).
pub fn build_from(
    shader: &dxbc::Shader,
    t: &Translated,
    model: &PreviewModel,
    values: &Values,
    settings: &Settings,
) -> Result<Plan, PlanError> {
    let wgsl = t.wgsl.clone();
    if wgsl.contains("enable primitive_index;") {
        return Err(PlanError::Unsupported(
            "SV_PrimitiveID in a pixel shader needs WGSL's primitive_index extension, which WebGPU does not offer by default".into(),
        ));
    }
    let mut plan = Plan {
        stage: model.stage,
        shaders: vec![model.stage],
        width: DEFAULT_SIZE,
        height: DEFAULT_SIZE,
        modules: Vec::new(),
        draw: None,
        dispatch: None,
        passes: None,
        entries: Vec::new(),
        readbacks: Vec::new(),
        tolerance: Tolerance { ulps: crate::reference::DEFAULT_ULPS, relative: 0.0, edge_fraction: 0.0 },
        blobs: Vec::new(),
    };
    let stage_name = match model.stage {
        Stage::Pixel => "fragment",
        Stage::Vertex | Stage::Domain => "vertex",
        _ => "compute",
    };
    plan.modules.push(Module { stage: stage_name, code: wgsl, entry: "main".into(), translated: true });
    bind(&mut plan, t, model, values, settings, 0)?;
    match model.stage {
        Stage::Pixel => pixel_draw(&mut plan, t, model),
        Stage::Vertex => vertex_draw(&mut plan, shader, t, settings),
        Stage::Geometry => geometry_draw(&mut plan, shader, t, settings, None)?,
        Stage::Hull => hull_draw(&mut plan, shader, t, settings, None, None)?,
        Stage::Domain => domain_draw(&mut plan, shader, t, settings)?,
        _ => {
            let d = model
                .dispatch
                .clone()
                .unwrap_or(crate::compute::Dispatch { workgroup_size: t.workgroup_size, groups: [1, 1, 1] });
            let groups = if settings.groups == crate::settings::AUTO_GROUPS { d.groups } else { settings.groups };
            plan.dispatch = Some((0, d.clamp_groups(groups)));
        }
    }
    finish(&mut plan, &[model]);
    Ok(plan)
}

/// The tolerance and the read-backs of every writable entry, once the
/// work is planned (`models`: each user shader's, by shader index).
fn finish(plan: &mut Plan, models: &[&PreviewModel]) {
    if plan.entries.iter().any(|e| matches!(e.resource, Resource::Sampler { filter: "linear", .. })) {
        plan.tolerance.relative = 1.0 / 128.0;
    }
    if matches!(plan.stage, Stage::Vertex | Stage::Geometry | Stage::Hull | Stage::Domain) {
        plan.tolerance.relative = plan.tolerance.relative.max(1.0 / 1024.0);
        plan.tolerance.edge_fraction = 0.02;
    }
    for (i, e) in plan.entries.iter().enumerate() {
        let Some(model) = models.get(e.shader as usize) else { continue };
        match &e.resource {
            Resource::Buffer { kind: "storage", .. } => {
                let slot = slot_of(model, e);
                let stride = slot.map_or(16, |s| s.stride.max(4));
                let float_words = slot.map_or(Vec::new(), |s| {
                    s.columns
                        .iter()
                        .filter(|c| c.format == crate::compute::CellFormat::F32)
                        .map(|c| c.offset / 4)
                        .collect()
                });
                plan.readbacks.push(Readback::Buffer { entry: i, stride, float_words })
            }
            Resource::StorageTexture { .. } => plan.readbacks.push(Readback::StorageTexture { entry: i }),
            _ => {}
        }
    }
}

/// The model's buffer slot behind a buffer entry.
pub fn slot_of<'a>(model: &'a PreviewModel, e: &Entry) -> Option<&'a BufferSlot> {
    let writable = e.register.starts_with('u');
    let (reg, space) = parse_register(&e.register)?;
    model.buffers.iter().find(|s| s.register == reg && s.space == space && s.writable == writable)
}

/// `t3` / `u1, space2` → (3, 0) / (1, 2).
fn parse_register(r: &str) -> Option<(u32, u32)> {
    let (reg, space) = match r.split_once(", space") {
        Some((a, b)) => (a, b.parse().ok()?),
        None => (r, 0),
    };
    Some((reg.get(1..)?.parse().ok()?, space))
}

fn add_blob(plan: &mut Plan, bytes: Vec<u8>) -> usize {
    plan.blobs.push(bytes);
    plan.blobs.len() - 1
}

/// The D3D register letter of a class.
fn class_letter(c: RegisterClass) -> char {
    match c {
        RegisterClass::ConstantBuffer => 'b',
        RegisterClass::ShaderResource => 't',
        RegisterClass::Sampler => 's',
        RegisterClass::UnorderedAccess => 'u',
    }
}

fn register_name(prefix: char, register: u32, space: u32) -> String {
    if space == 0 {
        format!("{prefix}{register}")
    } else {
        format!("{prefix}{register}, space{space}")
    }
}

/// The top row of each layer of `image`: a 1D array bound as a 2D array
/// of height 1.
fn one_row_per_layer(image: Image) -> Image {
    let row = image.bytes_per_row() as usize;
    let layer = row * image.height as usize;
    let data = image.data.chunks(layer.max(1)).flat_map(|l| l[..row.min(l.len())].to_vec()).collect();
    Image { height: 1, data, ..image }
}

/// Texture and view dimension for a D3D dimension name from the translator.
fn dimensions(d3d: &str) -> Option<(&'static str, &'static str)> {
    Some(match d3d {
        "texture1d" => ("1d", "1d"),
        "texture2d" | "texture2dms" => ("2d", "2d"),
        "texture2darray" | "texture2dmsarray" => ("2d", "2d-array"),
        // The translator emulates 1D arrays as 2D arrays of height 1.
        "texture1darray" => ("2d", "2d-array"),
        "texture3d" => ("3d", "3d"),
        "texturecube" => ("2d", "cube"),
        "texturecubearray" => ("2d", "cube-array"),
        _ => return None,
    })
}

fn bind(
    plan: &mut Plan,
    t: &Translated,
    model: &PreviewModel,
    values: &Values,
    settings: &Settings,
    shader: u32,
) -> Result<(), PlanError> {
    let mut bindings = t.all_bindings();
    bindings.sort_by_key(|b| (b.group, b.binding));
    for b in &bindings {
        if b.binding >= MAX_BINDING || b.group >= MAX_GROUPS {
            return Err(PlanError::Unsupported(format!(
                "register {} lands at @group({}) @binding({}), past WebGPU's default limits ({MAX_GROUPS} groups, bindings below {MAX_BINDING})",
                register_name(class_letter(b.class), b.register, b.space),
                b.group,
                b.binding
            )));
        }
        let (name, resource) = match (&b.class, &b.kind) {
            // The passes' own buffers: bound per pass ([`Passes`]).
            (_, BindingKind::StageBuffer { .. }) => continue,
            (RegisterClass::ConstantBuffer, BindingKind::UniformBuffer { size_bytes }) => {
                let cb = model.cbuffers.iter().find(|c| c.register == Some(b.register) && c.space == b.space);
                let mut bytes = cb.map(|c| crate::pack(c, values)).unwrap_or_default();
                let size = (*size_bytes as usize).max(bytes.len()).max(16).div_ceil(16) * 16;
                bytes.resize(size, 0);
                let name = cb.map(|c| c.name.clone()).unwrap_or_default();
                (name, Resource::Buffer { kind: "uniform", blob: add_blob(plan, bytes) })
            }
            // The rasterizer's sample count: the preview renders single-sampled.
            (_, BindingKind::RasterizerSampleCount) => (
                "rasterizer sample count".to_string(),
                Resource::Buffer {
                    kind: "uniform",
                    blob: add_blob(plan, [1u32, 0, 0, 0].iter().flat_map(|w| w.to_le_bytes()).collect()),
                },
            ),
            // The interface slots' class instances: the translator's default
            // selection (dxbc_naga::default_class_instances, from IFCE).
            (_, BindingKind::ClassInstances { default_words, .. }) => (
                "class instances".to_string(),
                Resource::Buffer {
                    kind: "uniform",
                    blob: add_blob(plan, default_words.iter().flat_map(|w| w.to_le_bytes()).collect()),
                },
            ),
            // The translator's emulated UAV counter: one u32, D3D's initial count 0.
            (_, BindingKind::UavCounter) => (
                format!("counter of u{}", b.register),
                Resource::Buffer { kind: "storage", blob: add_blob(plan, vec![0; 4]) },
            ),
            (_, BindingKind::ReadOnlyStorageBuffer { .. })
            | (_, BindingKind::StorageBuffer { .. })
            | (_, BindingKind::TypedBuffer { .. }) => {
                let writable = b.class == RegisterClass::UnorderedAccess;
                let slot = model
                    .buffers
                    .iter()
                    .find(|s| s.register == b.register && s.space == b.space && s.writable == writable);
                let bytes = match slot {
                    Some(s) => s.initial_data(),
                    None => BufferSlot::fallback(writable).initial_data(),
                };
                let name = slot.map(|s| s.name.clone()).unwrap_or_default();
                let kind = if writable { "storage" } else { "read-only-storage" };
                (name, Resource::Buffer { kind, blob: add_blob(plan, bytes) })
            }
            (_, BindingKind::SampledTexture { dimension, sample_type, multisampled, .. }) => {
                let (dim, view) = dimensions(dimension)
                    .ok_or_else(|| PlanError::Unsupported(format!("texture of dimension {dimension}")))?;
                if *multisampled && view != "2d" {
                    return Err(PlanError::Unsupported(format!(
                        "multisampled texture array {}: WebGPU has no multisampled arrays",
                        register_name('t', b.register, b.space)
                    )));
                }
                let slot = model.textures.iter().find(|s| s.register == b.register && s.space == b.space);
                let (format, sample) = match sample_type.as_str() {
                    "u" => (TextureFormat::Rgba32Uint, "uint"),
                    "i" => (TextureFormat::Rgba32Sint, "sint"),
                    "depth" => (TextureFormat::Rgba8Unorm, "depth"),
                    _ => (TextureFormat::Rgba8Unorm, "float"),
                };
                let dflt = crate::textures::TextureDimension::D2.default_extent();
                let (w, h, l) = match view {
                    "1d" => (256, 1, 1),
                    "2d" => (dflt.0, dflt.1, 1),
                    "2d-array" => (dflt.0, dflt.1, 4),
                    "3d" => (32, 32, 32),
                    "cube" => (128, 128, 6),
                    _ => (128, 128, 12),
                };
                let (w, h, l) = slot.map_or((w, h, l), |s| {
                    // The slot's extent when it has the same shape (RDEF and the program agree).
                    if (s.extent.2 == 1) == (l == 1) {
                        (s.extent.0, s.extent.1, s.extent.2)
                    } else {
                        (w, h, l)
                    }
                });
                let pattern = settings.pattern(b.register).or_else(|| match slot.map(|s| &s.source) {
                    Some(TextureSource::Pattern(p)) => Some(*p),
                    _ => None,
                });
                let image = match (settings.image(b.register), slot, pattern) {
                    // A 3D texture takes the picture as its first slice, repeated through the depth.
                    (Some(user), _, _) => user.convert(format, if view == "1d" { 1 } else { l }),
                    (None, Some(s), None) => s.image(&s.source).convert(format, l),
                    (None, _, p) => crate::textures::generate(p.unwrap_or(Pattern::Checker), w, h, l, format),
                };
                // 1D textures are one row: a picture gives its top row.
                let image = if view == "1d" && image.height > 1 {
                    let row = image.bytes_per_row() as usize;
                    Image { height: 1, layers: 1, data: image.data[..row].to_vec(), ..image }
                } else if dimension == "texture1darray" && image.height > 1 {
                    // The translator binds a 1D array as a 2D array of height 1:
                    // each layer keeps its top row.
                    one_row_per_layer(image)
                } else {
                    image
                };
                let name = slot.map(|s| s.name.clone()).unwrap_or_default();
                if *multisampled {
                    let (blob_bytes, target, source, kind, bpr) = match sample {
                        // Depth: the red channel as f32, drawn as the fragment depth.
                        "depth" => {
                            let mut d = Vec::with_capacity(image.data.len());
                            for px in image.data.chunks_exact(4) {
                                d.extend((px[0] as f32 / 255.0).to_le_bytes());
                            }
                            (d, "depth32float", "r32float", "depth", image.width * 4)
                        }
                        // 32-bit four-channel formats cannot be multisampled; the patterns' integers fit 16 bits.
                        "uint" => (image.data, "rgba16uint", "rgba32uint", "u32", image.width * 16),
                        "sint" => (image.data, "rgba16sint", "rgba32sint", "i32", image.width * 16),
                        _ => (image.data, "rgba8unorm", "rgba8unorm", "f32", image.width * 4),
                    };
                    let blob = add_blob(plan, blob_bytes);
                    plan.modules.push(Module {
                        stage: "fill",
                        code: fill_wgsl(kind),
                        entry: "fs".into(),
                        translated: false,
                    });
                    let fill = Some(plan.modules.len() - 1);
                    let sample = match sample {
                        "float" => "unfilterable-float",
                        s => s,
                    };
                    plan.entries.push(Entry {
                        shader,
                        group: b.group,
                        binding: b.binding,
                        register: register_name('t', b.register, b.space),
                        name,
                        resource: Resource::Texture {
                            blob,
                            format: target,
                            dimension: dim,
                            view_dimension: view,
                            sample_type: sample,
                            width: image.width,
                            height: image.height,
                            depth_or_layers: 1,
                            bytes_per_row: bpr,
                            samples: MULTISAMPLE_COUNT,
                            source_format: Some(source),
                            fill,
                        },
                    });
                    continue;
                }
                let (blob_bytes, fmt, bpr) = if sample == "depth" {
                    // Comparison sampling needs a depth format; depth16unorm is
                    // the one WebGPU lets us write texels to. Depth = red channel.
                    let mut d = Vec::with_capacity(image.data.len() / 2);
                    for px in image.data.chunks_exact(4) {
                        d.extend(((px[0] as u32 * 65535 + 127) / 255).to_le_bytes()[..2].iter());
                    }
                    (d, "depth16unorm", image.width * 2)
                } else {
                    let bpr = image.bytes_per_row();
                    (image.data, format.webgpu_name(), bpr)
                };
                let blob = add_blob(plan, blob_bytes);
                (
                    name,
                    Resource::Texture {
                        blob,
                        format: fmt,
                        dimension: dim,
                        view_dimension: view,
                        sample_type: sample,
                        width: image.width,
                        height: image.height,
                        depth_or_layers: image.layers,
                        bytes_per_row: bpr,
                        samples: 1,
                        source_format: None,
                        fill: None,
                    },
                )
            }
            (_, BindingKind::StorageTexture { dimension, sample_type, .. }) => {
                let (dim, view) = dimensions(dimension)
                    .ok_or_else(|| PlanError::Unsupported(format!("storage texture of dimension {dimension}")))?;
                let format = match sample_type.as_str() {
                    "r32uint" => TextureFormat::R32Uint,
                    "r32sint" => TextureFormat::R32Sint,
                    _ => TextureFormat::R32Float,
                };
                let slot = model.storage_textures.iter().find(|s| s.register == b.register && s.space == b.space);
                let (w, h, l) = match (slot, view) {
                    // A 1D array is bound as a 2D array of height 1 (see the binding's view).
                    (Some(s), _) if dimension == "texture1darray" => (s.extent.0, 1, s.extent.2),
                    (None, _) if dimension == "texture1darray" => (256, 1, 4),
                    (Some(s), _) => s.extent,
                    (None, "1d") => (256, 1, 1),
                    (None, "3d") => (16, 16, 16),
                    (None, "2d-array") => (64, 64, 4),
                    (None, _) => (64, 64, 1),
                };
                let image = Image {
                    width: w,
                    height: h,
                    layers: l,
                    format,
                    data: vec![0; (w * h * l) as usize * format.bytes_per_pixel()],
                };
                let name = slot.map(|s| s.name.clone()).unwrap_or_default();
                let bpr = image.bytes_per_row();
                let blob = add_blob(plan, image.data);
                (
                    name,
                    Resource::StorageTexture {
                        blob,
                        format: format.webgpu_name(),
                        dimension: dim,
                        view_dimension: view,
                        width: w,
                        height: h,
                        depth_or_layers: l,
                        bytes_per_row: bpr,
                    },
                )
            }
            (_, BindingKind::Sampler { comparison }) => {
                let slot = model.samplers.iter().find(|s| s.register == b.register && s.space == b.space);
                let filter = match slot.map(|s| s.filter) {
                    Some(crate::textures::Filter::Nearest) => "nearest",
                    _ => "linear",
                };
                let address = match slot.map(|s| s.address) {
                    Some(crate::textures::AddressMode::Clamp) => "clamp-to-edge",
                    Some(crate::textures::AddressMode::Mirror) => "mirror-repeat",
                    _ => "repeat",
                };
                let name = slot.map(|s| s.name.clone()).unwrap_or_default();
                (name, Resource::Sampler { filter, address, compare: comparison.then_some("less-equal") })
            }
            (class, kind) => {
                return Err(PlanError::Unsupported(format!("binding {class:?} {kind:?}")));
            }
        };
        plan.entries.push(Entry {
            group: b.group,
            binding: b.binding,
            register: register_name(class_letter(b.class), b.register, b.space),
            name,
            resource,
            shader,
        });
    }
    Ok(())
}

fn target_format(scalar: &str) -> &'static str {
    match scalar {
        "u32" => "rgba32uint",
        "i32" => "rgba32sint",
        _ => "rgba32float",
    }
}

fn vertex_format(ty: vertex::ComponentType, n: u8) -> &'static str {
    use vertex::ComponentType::*;
    match (ty, n) {
        (Float, 1) => "float32",
        (Float, 2) => "float32x2",
        (Float, 3) => "float32x3",
        (Float, _) => "float32x4",
        (Uint, 1) => "uint32",
        (Uint, 2) => "uint32x2",
        (Uint, 3) => "uint32x3",
        (Uint, _) => "uint32x4",
        (Sint, 1) => "sint32",
        (Sint, 2) => "sint32x2",
        (Sint, 3) => "sint32x3",
        (Sint, _) => "sint32x4",
    }
}

fn pixel_draw(plan: &mut Plan, t: &Translated, model: &PreviewModel) {
    let quad = model.quad.clone().unwrap_or_else(|| vertex::QuadInputs {
        layout: vertex::VertexLayout { stride: 8, attributes: Vec::new() },
        position_location: 0,
        interpolation: Vec::new(),
        data: Vec::new(),
        vertex_count: 4,
    });
    plan.modules.push(Module { stage: "vertex", code: quad.vertex_wgsl(), entry: "main".into(), translated: false });
    let vertex_module = plan.modules.len() - 1;
    let mut attributes = vec![Attribute { format: "float32x2", offset: 0, location: quad.position_location }];
    for a in &quad.layout.attributes {
        attributes.push(Attribute {
            format: vertex_format(a.format.ty, 4),
            offset: a.offset,
            location: a.shader_location,
        });
    }
    let targets: Vec<Target> = t
        .outputs
        .iter()
        .filter_map(|o| o.location.map(|l| Target { location: l, format: target_format(&o.scalar) }))
        .collect();
    let vertex_blob = add_blob(plan, quad.data.clone());
    let writes_depth = t.outputs.iter().any(|o| o.builtin.as_deref().is_some_and(|b| b.contains("depth")));
    for (i, tg) in targets.iter().enumerate() {
        plan.readbacks.push(Readback::Target { index: i, location: tg.location });
    }
    plan.draw = Some(Draw {
        vertex_module,
        fragment_module: 0,
        topology: "triangle-strip",
        stride: quad.layout.stride,
        attributes,
        vertex_blob,
        vertex_count: quad.vertex_count,
        index_blob: None,
        index_count: 0,
        // A pipeline needs an attachment: a depth buffer when the shader
        // writes depth or has no colour output at all.
        depth: (writes_depth || targets.is_empty()).then_some("always"),
        targets,
    });
}

/// The user outputs of a vertex shader that can be shown (location, scalar, components).
pub fn vertex_outputs(t: &Translated) -> Vec<(u32, String, u32)> {
    match &t.geometry {
        // A geometry preview shows what its draw outputs (the GS's stream 0).
        Some(g) => located(&g.draw_outputs),
        None => located(&t.outputs),
    }
}

fn located(outputs: &[IoEntry]) -> Vec<(u32, String, u32)> {
    outputs.iter().filter_map(|o| o.location.map(|l| (l, o.scalar.clone(), o.components))).collect()
}

/// Most vertex records a geometry preview assembles, and most it lets the
/// geometry pass write (512 bytes each).
pub const MAX_GEOMETRY_INPUT_RECORDS: u64 = 1 << 16;
/// See [`MAX_GEOMETRY_INPUT_RECORDS`].
pub const MAX_GEOMETRY_OUTPUT_RECORDS: u64 = 1 << 18;

/// The vertex pass of a geometry preview: a pass-through vertex shader as
/// compute, record `i` of the stage input buffer to record `i` of its
/// output, bound where the translator places stage buffers.
pub fn pass_through_vertex_wgsl() -> String {
    use dxbc_naga::stages::{REGISTER_STRIDE, WORKGROUP_SIZE};
    let (ig, ib) = options().bindings.place_stage_buffer(StageBufferRole::Input);
    let (og, ob) = options().bindings.place_stage_buffer(StageBufferRole::Output);
    format!(
        "// Pass-through vertex shader as compute: the geometry shader's inputs\n\
         // are the mesh attributes their semantics name.\n\
         @group({ig}) @binding({ib}) var<storage, read> records_in: array<vec4<u32>>;\n\
         @group({og}) @binding({ob}) var<storage, read_write> records_out: array<vec4<u32>>;\n\n\
         @compute @workgroup_size({WORKGROUP_SIZE})\n\
         fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   let first = id.x * {REGISTER_STRIDE}u;\n\
         \x20   if (first >= arrayLength(&records_in)) {{\n\
         \x20       return;\n\
         \x20   }}\n\
         \x20   for (var r = 0u; r < {REGISTER_STRIDE}u; r++) {{\n\
         \x20       records_out[first + r] = records_in[first + r];\n\
         \x20   }}\n\
         }}\n"
    )
}

/// The stage buffers of a translation, bound to the plan's buffers by role.
fn stage_bindings(
    bindings: &[BindingEntry],
    buffer_of: impl Fn(StageBufferRole) -> Option<usize>,
) -> Result<Vec<StageBinding>, PlanError> {
    bindings
        .iter()
        .filter_map(|b| match b.kind {
            BindingKind::StageBuffer { role, writable } => Some(
                buffer_of(role)
                    .map(|buffer| StageBinding { group: b.group, binding: b.binding, buffer, writable, uniform: false })
                    .ok_or_else(|| PlanError::Unsupported(format!("a {} buffer in a geometry preview", role.name()))),
            ),
            _ => None,
        })
        .collect()
}

/// A geometry shader over the chosen mesh: the pass-through vertex pass
/// over the assembled vertices, the geometry pass, then the draw of its
/// output with the built-in fragment stage of a vertex preview.
fn geometry_draw(
    plan: &mut Plan,
    shader: &dxbc::Shader,
    t: &Translated,
    settings: &Settings,
    vs: Option<&Companion>,
) -> Result<(), PlanError> {
    use dxbc_naga::stages::{REGISTER_STRIDE, WORKGROUP_SIZE};
    let g =
        t.geometry.as_ref().ok_or_else(|| PlanError::Unsupported("a geometry shader without its draw form".into()))?;
    let form = &g.form;
    let mesh = match settings.mesh {
        MeshKind::Sphere { segments } => MeshKind::Sphere { segments: segments.clamp(3, 256) },
        m => m,
    }
    .build();
    let n = form.vertices_per_primitive;
    // Primitive assembly of the mesh's triangle list, as the GS input primitive asks.
    let order: Vec<u32> = match n {
        1 => (0..mesh.positions.len() as u32).collect(),
        2 => mesh.indices.chunks_exact(3).flat_map(|k| [k[0], k[1], k[1], k[2], k[2], k[0]]).collect(),
        3 => mesh.indices.chunks_exact(3).flatten().copied().collect(),
        _ => {
            return Err(PlanError::Unsupported(format!(
            "a geometry shader of {n}-vertex input primitives (with adjacency): the example meshes have no adjacency"
        )))
        }
    };
    let records = order.len() as u64;
    let invocations = records / n as u64 * form.instances as u64;
    let capacity = invocations * form.max_list_vertices() as u64;
    if records > MAX_GEOMETRY_INPUT_RECORDS || capacity > MAX_GEOMETRY_OUTPUT_RECORDS {
        return Err(PlanError::Unsupported(format!(
            "{records} assembled vertices and up to {capacity} output vertices (the preview takes at most {MAX_GEOMETRY_INPUT_RECORDS} and {MAX_GEOMETRY_OUTPUT_RECORDS}): choose a smaller mesh"
        )));
    }
    let record_bytes = REGISTER_STRIDE as u64 * 16;
    // The mesh as the first shader's inputs: the user's vertex shader, else the GS (through the pass-through).
    let words = vertex::geometry_input_records(vs.map_or(shader, |v| v.shader), &mesh, &order);
    let input = add_blob(plan, words.iter().flat_map(|w| w.to_le_bytes()).collect());
    let buffer = |label, size: u64, blob, reset| StageBuffer { label, size: size.max(16), blob, reset, uniform: false };
    let buffers = vec![
        buffer("vertex records in", records * record_bytes, Some(input), false),
        buffer("vertex records out", records * record_bytes, None, false),
        buffer("geometry records out", capacity * record_bytes, None, false),
        buffer("geometry vertex count", 16, None, true),
    ];
    let vertex_pass = vertex_pass_module(plan, vs);
    plan.modules.push(Module { stage: "vertex", code: g.draw_wgsl.clone(), entry: "main".into(), translated: true });
    let vertex_module = plan.modules.len() - 1;
    let (code, format, _) = shown_fragment(&located(&g.draw_outputs), settings);
    plan.modules.push(Module { stage: "fragment", code, entry: "main".into(), translated: false });
    let fragment_module = plan.modules.len() - 1;
    let place = |role| options().bindings.place_stage_buffer(role);
    let ((ig, ib), (og, ob)) = (place(StageBufferRole::Input), place(StageBufferRole::Output));
    let groups = |invocations: u64| [invocations.div_ceil(WORKGROUP_SIZE as u64).max(1) as u32, 1, 1];
    let compute = vec![
        ComputePass {
            label: "vertex",
            module: vertex_pass,
            entry: "main".into(),
            workgroups: groups(records),
            shader_entries: vs.is_some(),
            shader: vs.map_or(0, |v| v.index),
            buffers: vertex_pass_bindings(vs, (ig, ib), (og, ob), (0, 1))?,
        },
        ComputePass {
            label: "geometry",
            module: 0,
            entry: "main".into(),
            workgroups: groups(invocations),
            shader_entries: true,
            shader: plan_shader_index(plan, Stage::Geometry),
            buffers: stage_bindings(&t.bindings, |role| match role {
                StageBufferRole::Input => Some(1),
                StageBufferRole::Output => Some(2),
                StageBufferRole::VertexCount => Some(3),
                _ => None,
            })?,
        },
    ];
    let draw_buffers = stage_bindings(&g.draw_bindings, |role| (role == StageBufferRole::Input).then_some(2))?;
    plan.passes = Some(Passes {
        buffers,
        compute,
        draw_buffers,
        draw_indices: None,
        draw_indirect: None,
        draw_entries: false,
        draw_shader: 0,
    });
    plan.readbacks.push(Readback::Target { index: 0, location: 0 });
    let vertex_blob = add_blob(plan, Vec::new());
    plan.draw = Some(Draw {
        vertex_module,
        fragment_module,
        topology: form.output_topology.map_or("triangle-list", |o| o.webgpu_name()),
        stride: 4,
        attributes: Vec::new(),
        vertex_blob,
        vertex_count: capacity as u32,
        index_blob: None,
        index_count: 0,
        targets: vec![Target { location: 0, format }],
        // No depth test: GS output is often coplanar (sprites facing the
        // camera, an extrusion of 0), and which of two coplanar primitives
        // passes `less` is decided by the last bits of interpolated depth,
        // which no API specifies (SwiftShader and lavapipe differ on 68 % of
        // the fluid particles' pixels). In primitive order, D3D's order,
        // which the geometry pass keeps, the later primitive wins everywhere.
        depth: None,
    });
    Ok(())
}

fn vertex_draw(plan: &mut Plan, shader: &dxbc::Shader, t: &Translated, settings: &Settings) {
    let mesh = match settings.mesh {
        MeshKind::Sphere { segments } => MeshKind::Sphere { segments: segments.clamp(3, 256) },
        m => m,
    }
    .build();
    let inputs = vertex::mesh_inputs(shader, &mesh);
    let outputs = vertex_outputs(t);
    let (code, format, wire) = shown_fragment(&outputs, settings);
    plan.modules.push(Module { stage: "fragment", code, entry: "main".into(), translated: false });
    let fragment_module = plan.modules.len() - 1;
    let attributes = inputs
        .layout
        .attributes
        .iter()
        .map(|a| Attribute {
            format: vertex_format(a.format.ty, a.format.components),
            offset: a.offset,
            location: a.shader_location,
        })
        .collect();
    let indices: Vec<u32> = if wire {
        inputs.indices.chunks_exact(3).flat_map(|tri| [tri[0], tri[1], tri[1], tri[2], tri[2], tri[0]]).collect()
    } else {
        inputs.indices.clone()
    };
    plan.readbacks.push(Readback::Target { index: 0, location: 0 });
    // A shader without vertex inputs builds its vertices from SV_VertexID:
    // give it the usual full-screen triangle (vertices 0, 1, 2).
    let no_inputs = inputs.layout.attributes.is_empty();
    let vertex_blob = add_blob(plan, if no_inputs { Vec::new() } else { inputs.data.clone() });
    let index_blob = (!no_inputs).then(|| add_blob(plan, indices.iter().flat_map(|i| i.to_le_bytes()).collect()));
    plan.draw = Some(Draw {
        vertex_module: 0,
        fragment_module,
        topology: match (wire, no_inputs) {
            (true, true) => "line-strip",
            (true, false) => "line-list",
            _ => "triangle-list",
        },
        stride: inputs.layout.stride.max(4),
        attributes,
        vertex_blob,
        vertex_count: if no_inputs { 3 } else { inputs.vertex_count },
        index_blob,
        index_count: if no_inputs { 0 } else { indices.len() as u32 },
        targets: vec![Target { location: 0, format }],
        depth: Some("less"),
    });
}

/// The built-in fragment stage of a mesh draw: the chosen output (location,
/// scalar, components) of the stage before it as the colour, or white
/// (wireframe, or nothing to show). Also says whether it is the white one.
fn shown_fragment(outputs: &[(u32, String, u32)], settings: &Settings) -> (String, &'static str, bool) {
    let shown = outputs.iter().find(|o| o.0 == settings.target).or(outputs.first()).cloned();
    let wire = settings.view == VertexView::Wireframe || shown.is_none();
    let (code, format) = match (&shown, wire) {
        (Some((l, scalar, n)), false) => {
            let ty = if *n == 1 { scalar.clone() } else { format!("vec{n}<{scalar}>") };
            let interp = if scalar == "f32" { "" } else { " @interpolate(flat)" };
            let widen = match n {
                1 => format!("vec4<{scalar}>(v, v, v, {})", one(scalar)),
                2 => format!("vec4<{scalar}>(v, {}(0), {})", scalar, one(scalar)),
                3 => format!("vec4<{scalar}>(v, {})", one(scalar)),
                _ => "v".into(),
            };
            (
                format!(
                    "@fragment\nfn main(@location({l}){interp} v: {ty}) -> @location(0) vec4<{scalar}> {{\n    return {widen};\n}}\n"
                ),
                target_format(scalar),
            )
        }
        _ => (
            "@fragment\nfn main() -> @location(0) vec4<f32> {\n    return vec4<f32>(1.0);\n}\n".to_string(),
            "rgba32float",
        ),
    };
    (code, format, wire)
}

fn one(scalar: &str) -> &'static str {
    match scalar {
        "u32" => "1u",
        "i32" => "1i",
        _ => "1.0",
    }
}

/// Where a hull preview's built-in domain shader puts a domain point
/// `uvw` (WGSL `vec3<f32>`) in clip space: the unit square (quads and
/// isolines, v down) or a triangle (tri), filling most of the view.
fn domain_placement(domain: dxbc_naga::stages::TessDomain) -> &'static str {
    match domain {
        dxbc_naga::stages::TessDomain::Tri => {
            "uvw.x * vec2<f32>(0.0, 0.9) + uvw.y * vec2<f32>(-0.9, -0.8) + uvw.z * vec2<f32>(0.9, -0.8)"
        }
        _ => "(uvw.xy * 2.0 - 1.0) * vec2<f32>(0.9, -0.9)",
    }
}

/// The built-in domain shader of a hull preview: a vertex shader over the
/// tessellator's domain points (`vec4<u32>`: u, v, w as f32 bits, patch)
/// that places each point by its domain location and passes that location
/// on as a flat colour, so every primitive shows the corner it starts at
/// and the tessellation pattern stays visible.
pub fn domain_points_vertex_wgsl(domain: dxbc_naga::stages::TessDomain) -> String {
    format!(
        "// Built-in domain shader: domain point i at its (u, v, w), coloured by it.\n\
         @group(0) @binding(0) var<storage, read> points: array<vec4<u32>>;\n\n\
         struct Out {{\n\
         \x20   @builtin(position) position: vec4<f32>,\n\
         \x20   @location(0) @interpolate(flat) colour: vec4<f32>,\n\
         }}\n\n\
         @vertex\n\
         fn main(@builtin(vertex_index) i: u32) -> Out {{\n\
         \x20   let q = points[i];\n\
         \x20   let uvw = vec3<f32>(bitcast<f32>(q.x), bitcast<f32>(q.y), bitcast<f32>(q.z));\n\
         \x20   var out: Out;\n\
         \x20   out.position = vec4<f32>({}, 0.5, 1.0);\n\
         \x20   out.colour = vec4<f32>(uvw, 1.0);\n\
         \x20   return out;\n\
         }}\n",
        domain_placement(domain)
    )
}

/// The fragment stage of a hull preview: the flat colour.
const FLAT_COLOUR_FRAGMENT: &str = "@fragment\nfn main(@location(0) @interpolate(flat) colour: vec4<f32>) -> @location(0) vec4<f32> {\n    return colour;\n}\n";

/// The pass between the tessellator and the draw: the indexed-indirect
/// arguments from the tessellator's totals (row `patches` of the patch
/// table holds the points and indices of every patch), the index count
/// capped at the index buffer's capacity.
pub fn draw_arguments_wgsl(patches: u32, index_capacity: u32) -> String {
    format!(
        "// Indexed-indirect draw arguments from the tessellator's totals.\n\
         @group(0) @binding(0) var<storage, read> patch_table: array<vec4<u32>>;\n\
         @group(0) @binding(1) var<storage, read_write> arguments: array<u32>;\n\n\
         @compute @workgroup_size(1)\n\
         fn main() {{\n\
         \x20   arguments[0] = min(patch_table[{patches}u].y, {index_capacity}u);\n\
         \x20   arguments[1] = 1u;\n\
         \x20   arguments[2] = 0u;\n\
         \x20   arguments[3] = 0u;\n\
         \x20   arguments[4] = 0u;\n\
         }}\n"
    )
}

/// A hull shader over one patch: the pass-through vertex pass over its
/// input control points (corner `i mod 4` of the plane mesh, each input
/// taking the attribute its semantic names), the control-point and
/// patch-constant passes, the tessellator (`tessellator::wgsl`, its three
/// passes), the pass writing the draw's arguments, then an indexed
/// indirect draw of the domain points with the built-in domain shader
/// ([`domain_points_vertex_wgsl`]). No depth test: the patch's primitives
/// tile the domain without overlapping.
fn hull_draw(
    plan: &mut Plan,
    shader: &dxbc::Shader,
    t: &Translated,
    settings: &Settings,
    vs: Option<&Companion>,
    ds: Option<&Companion>,
) -> Result<(), PlanError> {
    use dxbc_naga::stages::TessOutputPrimitive;
    use dxbc_naga::stages::{REGISTER_STRIDE, WORKGROUP_SIZE};
    let h = t
        .hull
        .as_ref()
        .ok_or_else(|| PlanError::Unsupported("a hull shader without its patch-constant pass".into()))?;
    let tess = h
        .form
        .tessellation
        .as_ref()
        .ok_or_else(|| PlanError::Unsupported("a hull shader without tessellation parameters".into()))?;
    let (Some(domain), Some(primitive), Some(mut params)) = (tess.domain, tess.output_primitive, tess.gpu_params(1))
    else {
        return Err(PlanError::Unsupported(
            "a hull shader without a declared domain, partitioning or output primitive".into(),
        ));
    };
    params.point_capacity = tessellator::wgsl::MAX_PATCH_POINTS;
    params.index_capacity = tessellator::wgsl::MAX_PATCH_INDICES;
    let (inputs, outputs) = (tess.input_control_points as u64, tess.output_control_points as u64);
    let plane = crate::mesh::plane();
    let corners = plane.positions.len().max(1) as u32;
    let order: Vec<u32> = (0..inputs as u32).map(|i| i % corners).collect();
    let record_bytes = REGISTER_STRIDE as u64 * 16;
    let words = vertex::geometry_input_records(vs.map_or(shader, |v| v.shader), &plane, &order);
    let input = add_blob(plan, words.iter().flat_map(|w| w.to_le_bytes()).collect());
    let parameters = add_blob(plan, params.words().iter().flat_map(|w| w.to_le_bytes()).collect());
    let buffer = |label, size: u64, blob, uniform| StageBuffer {
        label,
        size: size.max(16).div_ceil(16) * 16,
        blob,
        reset: false,
        uniform,
    };
    // The hull passes count patches by their output buffers, so these hold exactly one patch.
    plan.passes = Some(Passes {
        buffers: vec![
            buffer("vertex records in", inputs * record_bytes, Some(input), false),
            buffer("vertex records out", inputs * record_bytes, None, false),
            buffer("control points", outputs * record_bytes, None, false),
            buffer("patch constants", record_bytes, None, false),
            buffer("tessellator parameters", 64, Some(parameters), true),
            buffer("patch table", 2 * 16, None, false),
            buffer("domain points", params.point_capacity as u64 * 16, None, false),
            buffer("tessellated indices", params.index_capacity as u64 * 4, None, false),
            buffer("draw arguments", 5 * 4, None, false),
        ],
        compute: Vec::new(),
        // The user's domain shader reads the control points, the patch
        // constants and the domain points where its translation put them.
        draw_buffers: match ds {
            Some(d) => stage_bindings(&d.t.bindings, |role| match role {
                StageBufferRole::ControlPoints => Some(2),
                StageBufferRole::PatchConstants => Some(3),
                StageBufferRole::DomainPoints => Some(6),
                _ => None,
            })?,
            None => vec![StageBinding { group: 0, binding: 0, buffer: 6, writable: false, uniform: false }],
        },
        draw_indices: Some(7),
        draw_indirect: Some(8),
        draw_entries: ds.is_some(),
        draw_shader: ds.map_or(0, |d| d.index),
    });
    let module = |plan: &mut Plan, stage, code: String, translated| {
        plan.modules.push(Module { stage, code, entry: "main".into(), translated });
        plan.modules.len() - 1
    };
    let vertex_pass = vertex_pass_module(plan, vs);
    let patch_constant_pass = module(plan, "compute", h.patch_constant_wgsl.clone(), true);
    let tessellator = module(plan, "compute", tessellator::wgsl::SOURCE.to_string(), false);
    let arguments = module(plan, "compute", draw_arguments_wgsl(1, params.index_capacity), false);
    let (vertex_module, fragment_module, format) = match ds {
        Some(d) => {
            let (code, format, _) = shown_fragment(&located(&d.t.outputs), settings);
            (module(plan, "vertex", d.t.wgsl.clone(), true), module(plan, "fragment", code, false), format)
        }
        None => (
            module(plan, "vertex", domain_points_vertex_wgsl(domain), false),
            module(plan, "fragment", FLAT_COLOUR_FRAGMENT.to_string(), false),
            "rgba32float",
        ),
    };
    let place = |role| options().bindings.place_stage_buffer(role);
    let ((ig, ib), (og, ob)) = (place(StageBufferRole::Input), place(StageBufferRole::Output));
    let groups = |invocations: u64| [invocations.div_ceil(WORKGROUP_SIZE as u64).max(1) as u32, 1, 1];
    let hull_buffers = |role| match role {
        StageBufferRole::Input => Some(1),
        StageBufferRole::ControlPoints => Some(2),
        StageBufferRole::PatchConstants => Some(3),
        _ => None,
    };
    let bound = |group, binding, buffer, writable, uniform| StageBinding { group, binding, buffer, writable, uniform };
    let tessellator_buffers = vec![
        bound(0, 0, 4, false, true),
        bound(0, 1, 3, false, false),
        bound(0, 2, 5, true, false),
        bound(0, 3, 6, true, false),
        bound(0, 4, 7, true, false),
    ];
    let hull_index = plan_shader_index(plan, Stage::Hull);
    let pass = |label, module, entry: &str, workgroups, shader_entries, buffers| ComputePass {
        label,
        module,
        entry: entry.into(),
        workgroups,
        shader_entries,
        shader: hull_index,
        buffers,
    };
    let mut compute = Vec::new();
    if inputs > 0 {
        let mut p = pass(
            "vertex",
            vertex_pass,
            "main",
            groups(inputs),
            vs.is_some(),
            vertex_pass_bindings(vs, (ig, ib), (og, ob), (0, 1))?,
        );
        p.shader = vs.map_or(0, |v| v.index);
        compute.push(p);
    }
    if outputs > 0 {
        let buffers = stage_bindings(&t.bindings, hull_buffers)?;
        compute.push(pass("hull control points", 0, "main", groups(outputs), true, buffers));
    }
    let buffers = stage_bindings(&h.patch_constant_bindings, hull_buffers)?;
    compute.push(pass("hull patch constants", patch_constant_pass, "main", groups(1), true, buffers));
    for entry in ["count", "scan", "generate"] {
        compute.push(pass("tessellator", tessellator, entry, [1, 1, 1], false, tessellator_buffers.clone()));
    }
    compute.push(pass(
        "draw arguments",
        arguments,
        "main",
        [1, 1, 1],
        false,
        vec![bound(0, 0, 5, false, false), bound(0, 1, 8, true, false)],
    ));
    if let Some(p) = plan.passes.as_mut() {
        p.compute = compute;
    }
    plan.readbacks.push(Readback::Target { index: 0, location: 0 });
    let vertex_blob = add_blob(plan, Vec::new());
    plan.draw = Some(Draw {
        vertex_module,
        fragment_module,
        topology: match primitive {
            TessOutputPrimitive::Point => "point-list",
            TessOutputPrimitive::Line => "line-list",
            TessOutputPrimitive::TriangleCw | TessOutputPrimitive::TriangleCcw => "triangle-list",
        },
        stride: 4,
        attributes: Vec::new(),
        vertex_blob,
        vertex_count: 0,
        index_blob: None,
        index_count: 0,
        targets: vec![Target { location: 0, format }],
        depth: None,
    });
    Ok(())
}

/// The tessellation factor every edge and inside factor of a domain
/// preview gets: fractional_odd rounds it up to 7 segments, two of them
/// shorter, so the partitioning shows.
pub const DOMAIN_TESS_FACTOR: f32 = 6.0;

/// The control points a domain preview feeds its patch: mesh vertex
/// `order[i]` is control point `i`. Four or fewer: the plane's corners
/// (top left, bottom left, bottom right, top right, repeating), as a hull
/// preview gets them. A square count from 9 up: a `k × k` grid over the
/// same square ([`crate::mesh::patch_grid`]), the layout of biquadratic and
/// bicubic patches. Other counts: the corners, repeating.
pub fn domain_control_points(count: u32) -> (crate::mesh::Mesh, Vec<u32>) {
    let k = (1..=6).find(|k| k * k == count).filter(|&k| k >= 3);
    match k {
        Some(k) => (crate::mesh::patch_grid(k), (0..count).collect()),
        None => (crate::mesh::plane(), (0..count).map(|i| i % 4).collect()),
    }
}

/// A domain shader over one patch: the control points of
/// [`domain_control_points`] and a patch-constant record holding
/// [`DOMAIN_TESS_FACTOR`] at every factor word its patch-constant
/// signature names (other patch constants 0) are written from the CPU; the
/// tessellator (`tessellator::wgsl`, fractional_odd, clockwise triangles or
/// lines) and the draw-arguments pass run as compute; then an indexed
/// indirect draw with the domain shader as its vertex stage and the
/// built-in fragment stage of a vertex preview. No depth test, as for a
/// hull preview: primitive order decides.
fn domain_draw(plan: &mut Plan, shader: &dxbc::Shader, t: &Translated, settings: &Settings) -> Result<(), PlanError> {
    use dxbc_naga::stages::{Partitioning, TessDomain, TessOutputPrimitive, REGISTER_STRIDE};
    let form = t
        .domain
        .as_ref()
        .ok_or_else(|| PlanError::Unsupported("a domain shader without its pass description".into()))?;
    let mut tess = form
        .tessellation
        .clone()
        .ok_or_else(|| PlanError::Unsupported("a domain shader without tessellation parameters".into()))?;
    let domain =
        tess.domain.ok_or_else(|| PlanError::Unsupported("a domain shader without a declared domain".into()))?;
    // WebGPU's vertex stage cannot write storage: a DS writing a UAV has no draw here.
    if let Some(e) = plan
        .entries
        .iter()
        .find(|e| matches!(e.resource, Resource::Buffer { kind: "storage", .. } | Resource::StorageTexture { .. }))
    {
        return Err(PlanError::Unsupported(format!(
            "a domain shader that writes {}: it runs as a WebGPU vertex shader, which cannot write storage",
            e.register
        )));
    }
    // The hull shader that would choose these is absent: the preview's own.
    tess.partitioning = Some(Partitioning::FractionalOdd);
    let primitive =
        if domain == TessDomain::Isoline { TessOutputPrimitive::Line } else { TessOutputPrimitive::TriangleCw };
    tess.output_primitive = Some(primitive);
    let mut params = tess
        .gpu_params(1)
        .ok_or_else(|| PlanError::Unsupported("a domain shader whose tessellator cannot be set up".into()))?;
    params.point_capacity = tessellator::wgsl::MAX_PATCH_POINTS;
    params.index_capacity = tessellator::wgsl::MAX_PATCH_INDICES;
    let record_words = REGISTER_STRIDE as usize * 4;
    let mut constants = vec![0u32; record_words];
    for f in &tess.factors {
        if let Some(w) = constants.get_mut((4 * f.register + f.component) as usize) {
            *w = DOMAIN_TESS_FACTOR.to_bits();
        }
    }
    let (mesh, order) = domain_control_points(tess.input_control_points);
    let points = vertex::geometry_input_records(shader, &mesh, &order);
    let control_points = add_blob(plan, points.iter().flat_map(|w| w.to_le_bytes()).collect());
    let patch_constants = add_blob(plan, constants.iter().flat_map(|w| w.to_le_bytes()).collect());
    let parameters = add_blob(plan, params.words().iter().flat_map(|w| w.to_le_bytes()).collect());
    let record_bytes = record_words as u64 * 4;
    let buffer = |label, size: u64, blob, uniform| StageBuffer {
        label,
        size: size.max(16).div_ceil(16) * 16,
        blob,
        reset: false,
        uniform,
    };
    let draw_buffers = stage_bindings(&t.bindings, |role| match role {
        StageBufferRole::ControlPoints => Some(0),
        StageBufferRole::PatchConstants => Some(1),
        StageBufferRole::DomainPoints => Some(4),
        _ => None,
    })?;
    let module = |plan: &mut Plan, stage, code: String| {
        plan.modules.push(Module { stage, code, entry: "main".into(), translated: false });
        plan.modules.len() - 1
    };
    let tessellator = module(plan, "compute", tessellator::wgsl::SOURCE.to_string());
    let arguments = module(plan, "compute", draw_arguments_wgsl(1, params.index_capacity));
    let (code, format, _) = shown_fragment(&located(&t.outputs), settings);
    let fragment_module = module(plan, "fragment", code);
    let bound = |binding, buffer, writable, uniform| StageBinding { group: 0, binding, buffer, writable, uniform };
    let tessellator_buffers = vec![
        bound(0, 2, false, true),
        bound(1, 1, false, false),
        bound(2, 3, true, false),
        bound(3, 4, true, false),
        bound(4, 5, true, false),
    ];
    let pass = |label, module, entry: &str, buffers| ComputePass {
        label,
        module,
        entry: entry.into(),
        workgroups: [1, 1, 1],
        shader_entries: false,
        shader: 0,
        buffers,
    };
    let mut compute: Vec<ComputePass> = ["count", "scan", "generate"]
        .iter()
        .map(|e| pass("tessellator", tessellator, e, tessellator_buffers.clone()))
        .collect();
    compute.push(pass("draw arguments", arguments, "main", vec![bound(0, 3, false, false), bound(1, 6, true, false)]));
    plan.passes = Some(Passes {
        buffers: vec![
            buffer("control points", order.len() as u64 * record_bytes, Some(control_points), false),
            buffer("patch constants", record_bytes, Some(patch_constants), false),
            buffer("tessellator parameters", 64, Some(parameters), true),
            buffer("patch table", 2 * 16, None, false),
            buffer("domain points", params.point_capacity as u64 * 16, None, false),
            buffer("tessellated indices", params.index_capacity as u64 * 4, None, false),
            buffer("draw arguments", 5 * 4, None, false),
        ],
        compute,
        draw_buffers,
        draw_indices: Some(5),
        draw_indirect: Some(6),
        draw_entries: true,
        draw_shader: 0,
    });
    plan.readbacks.push(Readback::Target { index: 0, location: 0 });
    let vertex_blob = add_blob(plan, Vec::new());
    plan.draw = Some(Draw {
        vertex_module: 0,
        fragment_module,
        topology: if primitive == TessOutputPrimitive::Line { "line-list" } else { "triangle-list" },
        stride: 4,
        attributes: Vec::new(),
        vertex_blob,
        vertex_count: 0,
        index_blob: None,
        index_count: 0,
        targets: vec![Target { location: 0, format }],
        depth: None,
    });
    Ok(())
}

/// A user shader of a pipeline that runs around the one its passes are
/// built around (a vertex shader before a geometry or hull shader, a
/// domain shader after a hull shader).
struct Companion<'a> {
    shader: &'a dxbc::Shader,
    t: &'a Translated,
    /// Index in [`Plan::shaders`].
    index: u32,
}

/// Index in [`Plan::shaders`] of the user shader of `stage` (0 when none is).
fn plan_shader_index(plan: &Plan, stage: Stage) -> u32 {
    plan.shaders.iter().position(|&s| s == stage).unwrap_or(0) as u32
}

/// The module of the vertex pass: the user's vertex shader as compute, or
/// the built-in pass-through.
fn vertex_pass_module(plan: &mut Plan, vs: Option<&Companion>) -> usize {
    let (code, translated) = match vs {
        Some(v) => (v.t.wgsl.clone(), true),
        None => (pass_through_vertex_wgsl(), false),
    };
    plan.modules.push(Module { stage: "compute", code, entry: "main".into(), translated });
    plan.modules.len() - 1
}

/// The vertex pass's stage buffers: where the user's vertex shader's
/// translation put its input and output records, or where the pass-through
/// reads and writes them (`input`, `output`: their places).
fn vertex_pass_bindings(
    vs: Option<&Companion>,
    (ig, ib): (u32, u32),
    (og, ob): (u32, u32),
    (records_in, records_out): (usize, usize),
) -> Result<Vec<StageBinding>, PlanError> {
    match vs {
        Some(v) => stage_bindings(&v.t.bindings, |role| match role {
            StageBufferRole::Input => Some(records_in),
            StageBufferRole::Output => Some(records_out),
            _ => None,
        }),
        None => Ok(vec![
            StageBinding { group: ig, binding: ib, buffer: records_in, writable: false, uniform: false },
            StageBinding { group: og, binding: ob, buffer: records_out, writable: true, uniform: false },
        ]),
    }
}

/// One user shader of a pipeline preview, with the values of its controls.
#[derive(Clone, Copy)]
pub struct PipelineShader<'a> {
    /// The shader.
    pub shader: &'a dxbc::Shader,
    /// Its model.
    pub model: &'a PreviewModel,
    /// Its control values.
    pub values: &'a Values,
}

/// `next`'s input signature checked against `prev`'s output signature, as
/// the records between them are laid out (register by register, see
/// `dxbc_naga::stages`): every input `next` declares at a register must be
/// written there by `prev` under the same semantic, in at least the same
/// components. System values the pipeline generates (vertex, instance and
/// primitive ids) are not looked for. `what` names the two stages.
pub fn link_signatures(
    prev: Option<&dxbc::chunks::signature::Signature>,
    next: Option<&dxbc::chunks::signature::Signature>,
    what: &str,
) -> Result<(), PlanError> {
    use dxbc::spec::SignatureName as SN;
    let generated = [SN::VertexId as u32, SN::InstanceId as u32, SN::PrimitiveId as u32];
    let outputs = prev.map(|s| s.elements.as_slice()).unwrap_or(&[]);
    for e in next.iter().flat_map(|s| &s.elements) {
        if e.register == u32::MAX || generated.contains(&e.system_value) {
            continue;
        }
        let written = outputs.iter().find(|o| {
            o.register == e.register
                && o.name.eq_ignore_ascii_case(&e.name)
                && o.semantic_index == e.semantic_index
                && o.mask & e.mask == e.mask
        });
        if written.is_none() {
            return Err(PlanError::Link {
                message: format!(
                    "{what}: the input {}{} in v{} ({}) is not written there by the stage before",
                    e.name,
                    e.semantic_index,
                    e.register,
                    mask_text(e.mask)
                ),
                offset: e.offset,
            });
        }
    }
    Ok(())
}

fn mask_text(mask: u8) -> String {
    "xyzw".chars().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| c).collect()
}

/// The plan for several user shaders run as one pipeline: `shaders[0]` is
/// the previewed shader, the others its companions, in any order. The
/// stages must form vertex + geometry, vertex + hull + domain, hull +
/// domain, or vertex + hull (the built-in domain shader of a hull
/// preview); each stage's inputs are linked to the outputs of the one
/// before ([`link_signatures`]). The passes are those of a lone geometry or
/// hull preview with the user's vertex shader (as compute) in place of the
/// pass-through and the user's domain shader in place of the built-in one,
/// each binding its own resources ([`Entry::shader`]).
pub fn build_pipeline(shaders: &[PipelineShader], settings: &Settings) -> Result<Plan, PlanError> {
    let translated: Vec<Translated> = shaders.iter().map(|s| translate(s.shader)).collect::<Result<_, _>>()?;
    build_pipeline_from(shaders, &translated, settings)
}

/// [`build_pipeline`] for translations already made ([`translate`] of
/// each shader, e.g. by a worker), in `shaders` order.
pub fn build_pipeline_from(
    shaders: &[PipelineShader],
    translations: &[Translated],
    settings: &Settings,
) -> Result<Plan, PlanError> {
    let [first, ..] = shaders else { return Err(PlanError::Pipeline("a pipeline of no shaders".into())) };
    if translations.len() != shaders.len() {
        return Err(PlanError::Pipeline(format!("{} translations for {} shaders", translations.len(), shaders.len())));
    }
    if shaders.len() == 1 {
        return build_from(first.shader, &translations[0], first.model, first.values, settings);
    }
    let stages: Vec<Stage> = shaders.iter().map(|s| s.model.stage).collect();
    let find = |stage: Stage| -> Result<Option<usize>, PlanError> {
        let mut at = stages.iter().enumerate().filter(|(_, &s)| s == stage).map(|(i, _)| i);
        match (at.next(), at.next()) {
            (Some(_), Some(_)) => Err(PlanError::Pipeline(format!("two {stage:?} shaders in one pipeline"))),
            (i, _) => Ok(i),
        }
    };
    let (vs, hs, ds, gs) = (find(Stage::Vertex)?, find(Stage::Hull)?, find(Stage::Domain)?, find(Stage::Geometry)?);
    let known = [vs, hs, ds, gs].iter().flatten().count();
    let primary = match (vs, hs, ds, gs) {
        _ if known != shaders.len() => None,
        (Some(_), None, None, Some(g)) => Some(g),
        (_, Some(h), _, None) if vs.is_some() || ds.is_some() => Some(h),
        _ => None,
    };
    let Some(primary) = primary else {
        return Err(PlanError::Pipeline(format!(
            "the preview runs vertex + geometry, vertex + hull (+ domain) and hull + domain pipelines, not {}",
            stages.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(" + ")
        )));
    };
    let sig = |i: usize| shaders[i].shader;
    if let (Some(v), Some(g)) = (vs, gs) {
        link_signatures(sig(v).output_signature.as_ref(), sig(g).input_signature.as_ref(), "vertex → geometry")?;
    }
    if let (Some(v), Some(h)) = (vs, hs) {
        link_signatures(sig(v).output_signature.as_ref(), sig(h).input_signature.as_ref(), "vertex → hull")?;
    }
    if let (Some(h), Some(d)) = (hs, ds) {
        link_signatures(sig(h).output_signature.as_ref(), sig(d).input_signature.as_ref(), "hull → domain")?;
        link_signatures(
            sig(h).patch_constant_signature.as_ref(),
            sig(d).patch_constant_signature.as_ref(),
            "hull → domain patch constants",
        )?;
    }
    // Each stage in the form the pipeline runs it in: the vertex shader as compute.
    let mut translated: Vec<Translated> = translations.to_vec();
    if let Some(v) = vs {
        translated[v] = match translated[v].as_compute.take() {
            Some(Ok(t)) => *t,
            Some(Err(e)) => return Err(e),
            None => return Err(PlanError::Pipeline("the vertex shader's translation has no compute form".into())),
        };
    }
    if let (Some(h), Some(d)) = (hs, ds) {
        let domain_of = |t: &Translated| {
            t.hull
                .as_ref()
                .map(|h| &h.form)
                .or(t.domain.as_ref())
                .and_then(|f| f.tessellation.as_ref())
                .and_then(|t| t.domain)
        };
        if domain_of(&translated[h]) != domain_of(&translated[d]) {
            return Err(PlanError::Pipeline(format!(
                "the hull shader tessellates a {:?} domain and the domain shader takes a {:?} one",
                domain_of(&translated[h]),
                domain_of(&translated[d])
            )));
        }
    }
    let p = &shaders[primary];
    let mut plan = Plan {
        stage: p.model.stage,
        shaders: stages.clone(),
        width: DEFAULT_SIZE,
        height: DEFAULT_SIZE,
        modules: vec![Module {
            stage: "compute",
            code: translated[primary].wgsl.clone(),
            entry: "main".into(),
            translated: true,
        }],
        draw: None,
        dispatch: None,
        passes: None,
        entries: Vec::new(),
        readbacks: Vec::new(),
        tolerance: Tolerance { ulps: crate::reference::DEFAULT_ULPS, relative: 0.0, edge_fraction: 0.0 },
        blobs: Vec::new(),
    };
    for (i, (s, t)) in shaders.iter().zip(&translated).enumerate() {
        bind(&mut plan, t, s.model, s.values, settings, i as u32)?;
    }
    if let Some(d) = ds {
        if let Some(e) = plan.entries.iter().find(|e| {
            e.shader == d as u32
                && matches!(e.resource, Resource::Buffer { kind: "storage", .. } | Resource::StorageTexture { .. })
        }) {
            return Err(PlanError::Unsupported(format!(
                "a domain shader that writes {}: it runs as a WebGPU vertex shader, which cannot write storage",
                e.register
            )));
        }
    }
    let companion =
        |i: Option<usize>| i.map(|i| Companion { shader: shaders[i].shader, t: &translated[i], index: i as u32 });
    if p.model.stage == Stage::Geometry {
        geometry_draw(&mut plan, p.shader, &translated[primary], settings, companion(vs).as_ref())?;
    } else {
        hull_draw(&mut plan, p.shader, &translated[primary], settings, companion(vs).as_ref(), companion(ds).as_ref())?;
    }
    let models: Vec<&PreviewModel> = shaders.iter().map(|s| s.model).collect();
    finish(&mut plan, &models);
    Ok(plan)
}
