//! # dxbc-naga — DXBC lowered to naga IR
//!
//! (Design notes in `lower/mod.rs`.) The public surface: [`translate`] turns a
//! decoded [`dxbc::Shader`] into a validated [`naga::Module`] with one entry
//! point named `main`, and reports the resource binding it chose; the
//! `to_*` functions run naga's backends on it.
#![forbid(unsafe_code)]

mod cbuffer_struct;
mod dead;
mod direct_io;
mod doubles;
mod emulate;
mod ir_walk;
mod lets;
mod limitation;
mod liveness;
mod lower;
pub mod options;
pub mod readability;
mod regs;
pub mod report;
mod resources;
mod soft_f64;
pub mod specialise;
mod spirv_binding_arrays;
pub mod spirv_marks;
pub mod spirv_post;
pub mod stages;
#[cfg(test)]
mod test_corpus;
mod validate;
mod wgsl_bounds;
mod wgsl_casts;
mod wgsl_form;
mod wgsl_loads;
mod wgsl_text;
mod writers;

pub use emulate::{default_class_instances, standard_sample_position, Emulation};
pub use limitation::Limitation;
pub use options::{BindingScheme, DoubleMode, Options, TypedFormat};
pub use soft_f64::{Shape as SoftDoubleShape, SoftFn as SoftDouble};
pub use specialise::{Interpolation, LinkError, PixelInputs};
pub use stages::{ComputeForm, OutputTopology, Pass, StageBufferRole, StageForm, Tessellation};

use serde::{Deserialize, Serialize};

/// Register class of a resource binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RegisterClass {
    /// `b#` / `cb#`: constant buffer.
    ConstantBuffer,
    /// `t#`: shader resource view (texture or buffer).
    ShaderResource,
    /// `s#`: sampler.
    Sampler,
    /// `u#`: unordered access view.
    UnorderedAccess,
}

/// What a binding holds, as the pipeline must provide it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BindingKind {
    /// A uniform buffer of `size_bytes` (vec4 rows).
    UniformBuffer { size_bytes: u32 },
    /// A read-only storage buffer of 32-bit words (raw or structured).
    ReadOnlyStorageBuffer { stride: u32 },
    /// A read-write storage buffer of 32-bit words (raw or structured UAV).
    StorageBuffer { stride: u32 },
    /// A sampled texture with its D3D dimension name and component type.
    /// `view_dimension` is the WebGPU view the pipeline must bind (`1d`,
    /// `2d`, `2d-array`, `cube`, `cube-array`, `3d`): a D3D `texture1darray`
    /// is emulated as a `2d-array` of height 1.
    SampledTexture { dimension: String, view_dimension: String, sample_type: String, multisampled: bool },
    /// A typed buffer (`Buffer<T>` / `RWBuffer<T>`) bound as 32-bit words,
    /// `channels` words per element (see `Options::typed_formats`).
    TypedBuffer { writable: bool, channels: u32 },
    /// A storage texture (typed UAV); `view_dimension` as for sampled ones.
    StorageTexture { dimension: String, view_dimension: String, sample_type: String },
    /// A filtering or comparison sampler.
    Sampler { comparison: bool },
    /// The hidden counter of the UAV at this register (append/consume,
    /// `imm_atomic_alloc`/`imm_atomic_consume`): a read-write storage buffer
    /// of one atomic u32, the count, initially 0 in D3D.
    UavCounter,
    /// The render target's sample count, which D3D's `sampleinfo` of the
    /// rasterizer reads (pipeline state): a 16-byte uniform buffer whose
    /// first u32 the pipeline fills with its sample count (1 when it renders
    /// single-sampled). Its entry has class `ConstantBuffer` and register
    /// `u32::MAX` (no D3D register).
    RasterizerSampleCount,
    /// The class instances bound to the interface slots (SM5 dynamic
    /// linkage, see `emulate::interfaces`): a uniform buffer of
    /// `2 * slots` `vec4<u32>` rows. Row `s` holds slot `s`'s `this` words
    /// (constant buffer, row offset there, first texture, first sampler);
    /// row `slots + s` holds in x the function table (`ft#`) slot `s`
    /// selects. `default_words` is [`default_class_instances`] of the
    /// shader (what the preview binds). Its entry has class
    /// `ConstantBuffer` and register `u32::MAX` (no D3D register).
    ClassInstances {
        /// Interface slots.
        slots: u32,
        /// The default selection, `8 * slots` words.
        default_words: Vec<u32>,
    },
    /// A buffer of a compute form's stage I/O (see [`stages`]): vertex
    /// records of [`stages::REGISTER_STRIDE`] `vec4<u32>` registers, or the
    /// count of vertices a geometry pass wrote.
    StageBuffer {
        /// What the buffer holds.
        role: stages::StageBufferRole,
        /// Whether the pass writes it (a read-write storage binding) or
        /// only reads it (read-only storage).
        writable: bool,
    },
}

/// How many descriptors one binding holds: SM5.1 register ranges
/// (`t0[2:5]`, `cb1[0:*]`) become one binding array each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BindingCount {
    /// One resource (every register before SM5.1, and `[n:n]` ranges).
    #[default]
    Single,
    /// A bounded range `[lo:hi]`: `hi - lo + 1` descriptors.
    Array(u32),
    /// An unbounded range `[lo:*]`.
    Unbounded,
}

/// One resource binding: where a D3D register went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BindingEntry {
    /// Register class.
    pub class: RegisterClass,
    /// Register number (lower bound of the range in SM5.1).
    pub register: u32,
    /// Register space (SM5.1; 0 before).
    pub space: u32,
    /// Bind group chosen.
    pub group: u32,
    /// Binding within the group.
    pub binding: u32,
    /// What the pipeline must bind there.
    pub kind: BindingKind,
    /// One resource or a binding array of them (`register` is the range's
    /// lower bound; shader index `register + i` is array element `i`).
    #[serde(default)]
    pub count: BindingCount,
}

impl BindingEntry {
    /// The declared register range as fxc prints it (`[8:15]`, `[0:*]`),
    /// or None for a single register.
    pub fn range_text(&self) -> Option<String> {
        match self.count {
            BindingCount::Single => None,
            count => Some(resources::range_text(self.register, count)),
        }
    }
}

/// Stage I/O of the entry point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IoEntry {
    /// Semantic name and index from the signature (e.g. `TEXCOORD`, 0).
    pub semantic: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// Register number.
    pub register: u32,
    /// `@location(n)`, or None for a built-in.
    pub location: Option<u32>,
    /// Built-in name when it maps to one (e.g. `position`).
    pub builtin: Option<String>,
    /// Component type: `f32`, `u32` or `i32`.
    pub scalar: String,
    /// Component count.
    pub components: u32,
    /// Not in the shader: added because naga/WebGPU require it (a vertex
    /// shader's position when the shader feeds a GS or HS).
    #[serde(default)]
    pub synthesised: bool,
}

/// A translated shader.
#[derive(Debug)]
pub struct Translation {
    /// The module: one entry point, `main`.
    pub module: naga::Module,
    /// naga's validation result (needed by the backends).
    pub info: naga::valid::ModuleInfo,
    /// Pipeline stage.
    pub stage: naga::ShaderStage,
    /// Resource bindings chosen.
    pub bindings: Vec<BindingEntry>,
    /// Entry point inputs.
    pub inputs: Vec<IoEntry>,
    /// Entry point outputs.
    pub outputs: Vec<IoEntry>,
    /// Compute workgroup size.
    pub workgroup_size: [u32; 3],
    /// The exact emulations the translation used, in [`Emulation`] order.
    pub emulations: Vec<Emulation>,
    /// Features the module carries that some output languages cannot
    /// express: each target refuses the first one it lacks (see
    /// [`Translation::refusal`]); the other targets are written.
    pub target_refusals: Vec<TargetRefusal>,
    /// For a stage translated in a non-native form (a geometry shader as
    /// compute, a vertex shader as compute, the draw that pulls a geometry
    /// pass's vertices): what the pass reads, writes and how it is run.
    pub compute_form: Option<ComputeForm>,
    /// For a shader with doubles lowered natively: the same shader with
    /// software doubles ([`DoubleMode::Software`]), which the languages
    /// without `f64` are written from (see [`Translation::software_doubles`]).
    pub(crate) software_doubles: Option<LazySoftwareDoubles>,
}

/// A second lowering of a shader with doubles, in software binary64.
#[derive(Debug)]
pub struct SoftwareDoubles {
    pub module: naga::Module,
    pub info: naga::valid::ModuleInfo,
}

/// The software-doubles lowering of a shader, made the first time a writer
/// asks for it. Why: it is a second lowering of the whole shader with the
/// binary64 library added, several times the cost of the first, and only
/// the languages without `f64` read it; SPIR-V never did.
pub(crate) struct LazySoftwareDoubles {
    /// What it is lowered from: the shader, the options (doubles in
    /// software) and the form of the native lowering.
    source: Box<(dxbc::Shader, Options, StageForm)>,
    made: std::sync::OnceLock<Result<SoftwareDoubles, TranslateError>>,
}

impl LazySoftwareDoubles {
    pub(crate) fn new(shader: &dxbc::Shader, options: Options, form: StageForm) -> Self {
        LazySoftwareDoubles { source: Box::new((shader.clone(), options, form)), made: std::sync::OnceLock::new() }
    }

    fn get(&self) -> Result<&SoftwareDoubles, &TranslateError> {
        self.made
            .get_or_init(|| {
                let (shader, options, form) = &*self.source;
                lower::translate_form(shader, options, *form)
                    .map(|t| SoftwareDoubles { module: t.module, info: t.info })
            })
            .as_ref()
    }
}

impl std::fmt::Debug for LazySoftwareDoubles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazySoftwareDoubles").field("form", &self.source.2).field("made", &self.made.get()).finish()
    }
}

/// A feature of a translated shader that some targets cannot express (see
/// [`Limitation::why_in`] for which).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TargetRefusal {
    /// What the feature is.
    pub limitation: Limitation,
    /// What in this shader uses it (an instruction, a declaration …).
    pub detail: String,
    /// Absolute byte offset of the instruction (or declaration).
    pub offset: usize,
}

impl Translation {
    /// The module `language` is written from: SPIR-V takes
    /// [`Translation::module`], the others the software-doubles lowering
    /// when there is one (made now if it was not yet).
    pub fn module_for(&self, language: Language) -> Result<(&naga::Module, &naga::valid::ModuleInfo), OutputError> {
        match (&self.software_doubles, language) {
            (Some(s), Language::Wgsl | Language::Glsl | Language::Msl | Language::Hlsl) => match s.get() {
                Ok(s) => Ok((&s.module, &s.info)),
                Err(e) => Err(OutputError::SoftwareDoubles { language, error: e.clone() }),
            },
            _ => Ok((&self.module, &self.info)),
        }
    }

    /// For a shader whose doubles are lowered natively: its lowering with
    /// software doubles, which the languages without `f64` are written from,
    /// made on the first call. None for a shader without doubles (or one
    /// translated with [`DoubleMode::Software`] already).
    pub fn software_doubles(&self) -> Option<Result<&SoftwareDoubles, &TranslateError>> {
        self.software_doubles.as_ref().map(LazySoftwareDoubles::get)
    }

    /// Why `language` cannot be written for this shader, if it cannot: the
    /// first recorded feature that language lacks.
    pub fn refusal(&self, language: Language) -> Option<&TargetRefusal> {
        self.target_refusals.iter().find(|r| r.limitation.why_in(language).is_some())
    }

    fn check(&self, language: Language) -> Result<(), OutputError> {
        match self.refusal(language) {
            Some(r) => Err(OutputError::Refused {
                language,
                limitation: r.limitation,
                detail: r.detail.clone(),
                offset: r.offset,
            }),
            None => Ok(()),
        }
    }
}

/// Why a shader could not be translated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TranslateError {
    /// A feature with no naga/WGSL form, or not implemented yet: the typed
    /// reason, what exactly in this shader hit it, and its byte offset.
    Unsupported {
        /// Why (see [`Limitation::why`]).
        limitation: Limitation,
        /// What in this shader is refused (an instruction, a register …).
        detail: String,
        /// Absolute byte offset of the instruction (or chunk).
        offset: usize,
    },
    /// The input is malformed for translation (e.g. an operand shape no
    /// instruction can have).
    Malformed {
        /// What is wrong.
        what: String,
        /// Absolute byte offset.
        offset: usize,
    },
    /// naga rejected the module we built: a translator bug, reported with
    /// the DXBC byte span it came from where known.
    Validation {
        /// naga's message.
        message: String,
        /// Byte offset of the offending expression or statement.
        offset: Option<usize>,
    },
}

impl std::fmt::Display for TranslateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TranslateError::Unsupported { detail, offset, .. } => {
                write!(f, "unsupported: {detail} (at offset {offset:#x})")
            }
            TranslateError::Malformed { what, offset } => {
                write!(f, "malformed: {what} (at offset {offset:#x})")
            }
            TranslateError::Validation { message, offset: Some(o) } => {
                write!(f, "naga validation failed: {message} (at offset {o:#x})")
            }
            TranslateError::Validation { message, offset: None } => write!(f, "naga validation failed: {message}"),
        }
    }
}

impl std::error::Error for TranslateError {}

impl TranslateError {
    /// The limitation behind a refusal (None for malformed input and
    /// translator bugs).
    pub fn limitation(&self) -> Option<Limitation> {
        match self {
            TranslateError::Unsupported { limitation, .. } => Some(*limitation),
            _ => None,
        }
    }
}

/// An output language of the `to_*` writers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Language {
    /// WGSL text.
    Wgsl,
    /// SPIR-V words.
    Spirv,
    /// GLSL text.
    Glsl,
    /// Metal Shading Language text.
    Msl,
    /// HLSL text.
    Hlsl,
}

impl Language {
    /// Every language, in the refusal table's column order.
    pub const ALL: [Language; 5] = [Language::Wgsl, Language::Spirv, Language::Hlsl, Language::Msl, Language::Glsl];

    /// A short lower-case name (`wgsl`, `spirv` …: table columns, CLI).
    pub fn id(self) -> &'static str {
        match self {
            Language::Wgsl => "wgsl",
            Language::Spirv => "spirv",
            Language::Glsl => "glsl",
            Language::Msl => "msl",
            Language::Hlsl => "hlsl",
        }
    }

    /// The language's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Language::Wgsl => "WGSL",
            Language::Spirv => "SPIR-V",
            Language::Glsl => "GLSL",
            Language::Msl => "MSL",
            Language::Hlsl => "HLSL",
        }
    }
}

/// Why a validated module could not be written in an output language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum OutputError {
    /// naga's writer for the language failed (its message).
    Backend {
        /// The output language.
        language: Language,
        /// naga's message.
        message: String,
    },
    /// The output is withheld because a known naga defect would make it
    /// invalid for the target (e.g. SPIR-V with SV_Coverage).
    Withheld {
        /// The output language.
        language: Language,
        /// Why, with the upstream issue.
        reason: &'static str,
    },
    /// The shader's lowering with software doubles, which this language
    /// (one without `f64`) is written from, failed; SPIR-V, written from
    /// the native lowering, may still be written.
    SoftwareDoubles {
        /// The output language.
        language: Language,
        /// Why the software-doubles lowering failed.
        error: TranslateError,
    },
    /// The shader uses a feature this language cannot express (the other
    /// languages may still be written: see [`Translation::refusal`]).
    Refused {
        /// The output language.
        language: Language,
        /// The feature (see [`Limitation::why_in`]).
        limitation: Limitation,
        /// What in this shader uses it.
        detail: String,
        /// Absolute byte offset of the instruction (or declaration).
        offset: usize,
    },
}

impl OutputError {
    /// The output language that failed.
    pub fn language(&self) -> Language {
        match self {
            OutputError::Backend { language, .. }
            | OutputError::Withheld { language, .. }
            | OutputError::SoftwareDoubles { language, .. }
            | OutputError::Refused { language, .. } => *language,
        }
    }

    /// The limitation behind a refusal (None for writer failures), the
    /// software-doubles lowering's own refusal included: `translate` gave
    /// it when it made that lowering eagerly.
    pub fn limitation(&self) -> Option<Limitation> {
        match self {
            OutputError::Refused { limitation, .. } => Some(*limitation),
            OutputError::SoftwareDoubles { error, .. } => error.limitation(),
            _ => None,
        }
    }

    fn backend(language: Language, e: impl std::fmt::Display) -> OutputError {
        OutputError::Backend { language, message: e.to_string() }
    }
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::Backend { language, message } => write!(f, "{} writer failed: {message}", language.name()),
            OutputError::Withheld { language, reason } => write!(f, "{} output is withheld: {reason}", language.name()),
            OutputError::SoftwareDoubles { language, error } => {
                write!(f, "{} is written with software doubles, and that lowering failed: {error}", language.name())
            }
            OutputError::Refused { language, limitation, detail, offset } => write!(
                f,
                "unsupported for {}: {detail} (at offset {offset:#x}): {}",
                language.name(),
                limitation.why_in(*language).unwrap_or(limitation.why())
            ),
        }
    }
}

impl std::error::Error for OutputError {}

/// Lowers `shader` to a validated naga module.
pub fn translate(shader: &dxbc::Shader, options: &Options) -> Result<Translation, TranslateError> {
    lower::translate(shader, options)
}

/// Lowers `shader` in the given form (see [`stages`]): a geometry shader
/// as a compute pass ([`StageForm::Compute`]) or as the vertex shader that
/// draws what that pass wrote ([`StageForm::DrawFromBuffer`]); a vertex
/// shader as a compute pass that writes its outputs to a buffer; a hull
/// shader as its control-point pass ([`StageForm::Compute`]) or its
/// patch-constant pass ([`StageForm::PatchConstant`]); a domain shader as
/// a vertex shader over domain points ([`StageForm::DrawFromBuffer`]) or as
/// compute.
/// [`StageForm::Native`] is [`translate`].
pub fn translate_pipeline_stage(
    shader: &dxbc::Shader,
    options: &Options,
    form: StageForm,
) -> Result<Translation, TranslateError> {
    lower::translate_form(shader, options, form)
}

/// The form a shader is translated in when shown on its own (the CLI, the
/// translation pane): geometry shaders as compute, hull shaders as their
/// control-point pass, domain shaders as the vertex shader over domain
/// points (WebGPU and naga have none of these stages), every other stage
/// natively. See [`StageForm::passes`] for every pass a stage needs.
pub fn translate_standalone(shader: &dxbc::Shader, options: &Options) -> Result<Translation, TranslateError> {
    translate_pipeline_stage(shader, options, StageForm::standalone(shader))
}

/// The software double functions `fns` (and those they call) alone, as
/// WGSL: what a shader with doubles gets, for testing them in isolation.
pub fn software_doubles_wgsl(fns: &[SoftDouble]) -> Result<String, OutputError> {
    let mut module = naga::Module::default();
    let mut cache = soft_f64::ir::Cache::new();
    for &f in fns {
        soft_f64::ir::function(&mut module, &mut cache, f);
    }
    let info = validate::validate(&module).map_err(|e| OutputError::backend(Language::Wgsl, e.into_inner()))?;
    naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| OutputError::backend(Language::Wgsl, e))
}

/// The module the WGSL writer is given for `t`: the one WGSL is written
/// from ([`Translation::module_for`]), with loads read once written at
/// their use and integer reinterpretations as conversions ([`wgsl_form`]). Line links between the
/// WGSL and the DXBC read its functions.
pub fn wgsl_module(t: &Translation) -> Result<std::borrow::Cow<'_, naga::Module>, OutputError> {
    let (module, info) = t.module_for(Language::Wgsl)?;
    Ok(wgsl_form::wgsl_module(module, info))
}

/// WGSL text.
pub fn to_wgsl(t: &Translation) -> Result<String, OutputError> {
    wgsl(t).map(|w| w.text)
}

/// WGSL text and the module it was written from ([`wgsl_module`]), for a
/// caller that links the text's lines back to the DXBC (the explorer) and
/// should not build that module a second time.
pub struct Wgsl<'t> {
    pub text: String,
    pub module: std::borrow::Cow<'t, naga::Module>,
}

/// [`to_wgsl`], keeping the module the text was written from.
pub fn wgsl(t: &Translation) -> Result<Wgsl<'_>, OutputError> {
    t.check(Language::Wgsl)?;
    let (_, info) = t.module_for(Language::Wgsl)?;
    let module = wgsl_module(t)?;
    let s = writers::wgsl(&module, info).map_err(|e| OutputError::backend(Language::Wgsl, e))?;
    // Bit masks in hex (`wgsl_text`: naga writes every integer in decimal),
    // long floats in exponent form, and binding attributes on their
    // declaration's line.
    let mut text = wgsl_text::join_binding_lines(&wgsl_text::respell(&s));
    if t.stage == naga::ShaderStage::Fragment && takes_derivatives(&module) {
        // D3D allows derivatives (and implicit-lod sampling) in non-uniform
        // control flow; WGSL's uniformity analysis would reject them.
        text.insert_str(0, "diagnostic(off, derivative_uniformity);\n\n");
    }
    Ok(Wgsl { text, module })
}

/// Whether a function of `module` takes a derivative, explicitly or by
/// sampling with an implicit level of detail (the operations WGSL's
/// uniformity analysis checks).
fn takes_derivatives(module: &naga::Module) -> bool {
    use naga::{Expression as E, SampleLevel as L};
    let functions = module.functions.iter().map(|(_, f)| f).chain(module.entry_points.iter().map(|e| &e.function));
    functions.flat_map(|f| f.expressions.iter()).any(|(_, e)| match e {
        E::Derivative { .. } => true,
        E::ImageSample { level, .. } => matches!(level, L::Auto | L::Bias(_)),
        _ => false,
    })
}

/// SPIR-V words: naga's writer, then [`spirv_post`], which gives SPIR-V
/// what naga 30's IR cannot say (the SampleMask array, Layer and
/// ViewportIndex built-ins, level-free size queries of multisampled and
/// storage images, the `MinLod` operand and `InterpolateAt*` that
/// [`spirv_marks`] stand for).
pub fn to_spirv(t: &Translation) -> Result<Vec<u32>, OutputError> {
    spirv_with_edits(t).map(|(words, _)| words)
}

/// Where a vertex-processing stage's SV_Position y points in the SPIR-V:
/// D3D's clip space has y up, Vulkan's y down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClipSpaceY {
    /// Negated in the shader, for a Vulkan viewport of positive height
    /// (the default).
    #[default]
    Negated,
    /// As D3D wrote it, for a viewport of negative height, the way D3D
    /// layers on Vulkan (vkd3d, DXVK) and wgpu set theirs.
    AsD3d,
}

/// [`to_spirv`] with SV_Position's y as `y` says.
pub fn to_spirv_with(t: &Translation, y: ClipSpaceY) -> Result<Vec<u32>, OutputError> {
    spirv_with_edits_for(t, y).map(|(words, _)| words)
}

/// SPIR-V words and the [`spirv_post::Edit`]s that naga's own words needed
/// (a consumer that lets wgpu write SPIR-V from [`Translation::module`]
/// does not get them).
pub fn spirv_with_edits(t: &Translation) -> Result<(Vec<u32>, Vec<spirv_post::Edit>), OutputError> {
    spirv_with_edits_for(t, ClipSpaceY::default())
}

fn spirv_with_edits_for(t: &Translation, y: ClipSpaceY) -> Result<(Vec<u32>, Vec<spirv_post::Edit>), OutputError> {
    t.check(Language::Spirv)?;
    let flip_y = y == ClipSpaceY::Negated;
    let mut words = writers::spirv(&t.module, &t.info, flip_y).map_err(|e| OutputError::backend(Language::Spirv, e))?;
    if spirv_binding_arrays::unbounded(&t.module) {
        spirv_binding_arrays::add_runtime_descriptor_array(&mut words);
    }
    if spirv_binding_arrays::uniform_arrays(&t.module) {
        spirv_binding_arrays::add_uniform_array_blocks(&mut words);
    }
    spirv_post::apply(words).map_err(|e| OutputError::backend(Language::Spirv, e))
}

/// GLSL text (desktop GLSL 4.50, Vulkan-style bindings).
///
/// GLSL samples through combined image-samplers, so an image sampled with
/// several samplers gets one more image variable per further sampler, at a
/// fresh binding of its group; a comment at the top names each one.
pub fn to_glsl(t: &Translation) -> Result<String, OutputError> {
    t.check(Language::Glsl)?;
    use naga::back::glsl;
    let (base, base_info) = t.module_for(Language::Glsl)?;
    let split = specialise::split_images_per_sampler(base);
    let split_info;
    let (module, info) = match &split {
        Some((m, _)) => {
            split_info = validate::validate(m).map_err(|e| OutputError::backend(Language::Glsl, e.into_inner()))?;
            (m, &split_info)
        }
        None => (base, base_info),
    };
    let options = glsl::Options {
        version: glsl::Version::Desktop(450),
        writer_flags: glsl::WriterFlags::empty(),
        ..Default::default()
    };
    let pipeline = glsl::PipelineOptions { shader_stage: t.stage, entry_point: "main".into(), multiview: None };
    let mut out = String::new();
    let mut w =
        glsl::Writer::new(&mut out, module, info, &options, &pipeline, naga::proc::BoundsCheckPolicies::default())
            .map_err(|e| OutputError::backend(Language::Glsl, e))?;
    w.write().map_err(|e| OutputError::backend(Language::Glsl, e))?;
    // GLSL allows comments before #version.
    let mut head = String::new();
    for s in split.iter().flat_map(|(_, s)| s) {
        head += &format!(
            "// {} sampled with {}: its copy at @group({}) @binding({})\n",
            s.image, s.sampler, s.binding.group, s.binding.binding
        );
    }
    Ok(head + &out)
}

/// Metal Shading Language 2.4 text.
pub fn to_msl(t: &Translation) -> Result<String, OutputError> {
    t.check(Language::Msl)?;
    use naga::back::msl;
    let options = msl::Options { lang_version: (2, 4), fake_missing_bindings: true, ..Default::default() };
    let pipeline = msl::PipelineOptions { entry_point: Some((t.stage, "main".into())), ..Default::default() };
    let (module, info) = t.module_for(Language::Msl)?;
    msl::write_string(module, info, &options, &pipeline)
        .map(|(s, _)| s)
        .map_err(|e| OutputError::backend(Language::Msl, e))
}

/// HLSL text (shader model 5.1 syntax).
pub fn to_hlsl(t: &Translation) -> Result<String, OutputError> {
    t.check(Language::Hlsl)?;
    use naga::back::hlsl;
    let options =
        hlsl::Options { shader_model: hlsl::ShaderModel::V5_1, fake_missing_bindings: true, ..Default::default() };
    let pipeline = hlsl::PipelineOptions { entry_point: Some((t.stage, "main".into())) };
    let mut out = String::new();
    let mut w = hlsl::Writer::new(&mut out, &options, &pipeline);
    let (module, info) = t.module_for(Language::Hlsl)?;
    w.write(module, info, None).map_err(|e| OutputError::backend(Language::Hlsl, e))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The module's IR (its debug form: every expression and handle), the
    /// span of every expression of every function (the debug form leaves
    /// spans out), naga's validation of it and its WGSL.
    fn kept_state_outputs(bytes: &[u8]) -> Option<(String, Vec<naga::Span>, String, String)> {
        let shader = dxbc::Shader::parse(bytes).ok()?;
        let t = crate::translate(&shader, &Default::default()).ok()?;
        let functions = t.module.functions.iter().map(|(_, f)| f);
        let spans = functions
            .chain(t.module.entry_points.iter().map(|e| &e.function))
            .flat_map(|f| f.expressions.iter().map(|(h, _)| f.expressions.get_span(h)))
            .collect();
        Some((format!("{:?}", t.module), spans, format!("{:?}", t.info), crate::to_wgsl(&t).unwrap_or_default()))
    }

    /// What a thread keeps from one translation to the next (the
    /// validators, `validate`) changes no translation: every fxc shader
    /// translated on one thread, each after one of a very different size,
    /// is what a fresh thread makes of it, spans included.
    #[test]
    fn kept_state_translates_as_a_fresh_thread_does() {
        let mut files = crate::test_corpus::fxc_files();
        files.sort_by_key(|(p, b)| (b.len(), p.clone()));
        let mut compared = 0;
        for i in crate::test_corpus::largest_then_smallest(files.len()) {
            let (path, bytes) = &files[i];
            let kept = kept_state_outputs(bytes);
            let fresh = std::thread::scope(|s| s.spawn(|| kept_state_outputs(bytes)).join().unwrap());
            assert!(kept == fresh, "{}: the translation differs on a thread that kept state", path.display());
            compared += usize::from(kept.is_some());
        }
        assert!(compared > 300, "{compared} fxc shaders translate");
    }

    /// Writing SPIR-V (native `f64`) never makes the software-doubles
    /// lowering; the first writer of a language without `f64` makes it, once.
    #[test]
    fn only_a_language_without_f64_makes_the_software_doubles_lowering() {
        let listing = "ps_5_0\ndcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\n\
                       dcl_input_ps linear v0.x\ndcl_output o0.x\ndcl_temps 1\nftod r0.xy, v0.x\n\
                       dmul r0.xy, r0.xyxy, r0.xyxy\ndtof o0.x, r0.xyxx\nret\n";
        let shader = dxbc::Shader::parse(&dxbc::asm::assemble(listing).expect("assembles")).expect("parses");
        let t = crate::translate(&shader, &crate::Options::default()).expect("translates");
        let lazy = t.software_doubles.as_ref().expect("the shader has doubles");
        crate::to_spirv(&t).expect("SPIR-V");
        assert!(lazy.made.get().is_none(), "SPIR-V made the software lowering");
        crate::to_wgsl(&t).expect("WGSL");
        let made = lazy.made.get().and_then(|r| r.as_ref().ok()).map(|s| &s.module as *const naga::Module);
        assert!(made.is_some(), "WGSL is written from the software lowering");
        crate::to_hlsl(&t).expect("HLSL");
        let again = t.software_doubles().and_then(|r| r.ok()).map(|s| &s.module as *const naga::Module);
        assert_eq!(again, made, "made once, kept");
    }

    /// A refusal of the software-doubles lowering stays a typed refusal
    /// (the CLI's exit status 3, the preview's typed refusal).
    #[test]
    fn a_refused_software_lowering_keeps_its_limitation() {
        use crate::{Language, Limitation, OutputError, TranslateError};
        let error =
            TranslateError::Unsupported { limitation: Limitation::DoubleTextures, detail: "t0".into(), offset: 0x40 };
        let e = OutputError::SoftwareDoubles { language: Language::Wgsl, error };
        assert_eq!((e.limitation(), e.language()), (Some(Limitation::DoubleTextures), Language::Wgsl));
        let e = OutputError::SoftwareDoubles {
            language: Language::Msl,
            error: TranslateError::Validation { message: "bad".into(), offset: None },
        };
        assert_eq!(e.limitation(), None);
    }
}
