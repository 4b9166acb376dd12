//! # dxbc-naga — DXBC lowered to naga IR
//!
//! (Design notes in `lower.rs`.) The public surface: [`translate`] turns a
//! decoded [`dxbc::Shader`] into a validated [`naga::Module`] with one entry
//! point named `main`, and reports the resource binding it chose; the
//! `to_*` functions run naga's backends on it.
#![forbid(unsafe_code)]

mod lower;
pub mod options;
mod resources;

pub use options::{BindingScheme, Options};

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
    SampledTexture { dimension: String, sample_type: String, multisampled: bool },
    /// A typed buffer (`Buffer<T>` / `RWBuffer<T>`) bound as 32-bit words,
    /// `channels` words per element (see `Options::typed_buffer_channels`).
    TypedBuffer { writable: bool, channels: u32 },
    /// A storage texture (typed UAV).
    StorageTexture { dimension: String, sample_type: String },
    /// A filtering or comparison sampler.
    Sampler { comparison: bool },
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
}

/// Why a shader could not be translated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TranslateError {
    /// A feature with no naga/WGSL form, or not implemented yet: names the
    /// instruction and its byte offset.
    Unsupported {
        /// What is unsupported.
        what: String,
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
            TranslateError::Unsupported { what, offset } => {
                write!(f, "unsupported: {what} (at offset {offset:#x})")
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

/// An output language of the `to_*` writers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
}

impl OutputError {
    fn backend(language: Language, e: impl std::fmt::Display) -> OutputError {
        OutputError::Backend { language, message: e.to_string() }
    }
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::Backend { language, message } => write!(f, "{} writer failed: {message}", language.name()),
            OutputError::Withheld { language, reason } => write!(f, "{} output is withheld: {reason}", language.name()),
        }
    }
}

impl std::error::Error for OutputError {}

/// The documented reasons a vertex, pixel or compute shader may not
/// translate: each [`TranslateError::Unsupported`] message starts with one
/// of these prefixes. (Geometry, hull and domain shaders have no naga stage
/// at all.) The corpus test holds the translator to this list.
pub const LIMITATIONS: &[(&str, &str)] = &[
    ("geometry shaders have no naga stage", "naga (and WebGPU) have no geometry stage"),
    ("hull shaders have no naga stage", "no tessellation in naga or WebGPU"),
    ("domain shaders have no naga stage", "no tessellation in naga or WebGPU"),
    ("typed UAVs", "typed UAVs of doubles, 1D arrays, cube/MS dimensions, or texture atomics"),
    ("1D texture arrays have no WebGPU form", "WGSL has no texture_1d_array"),
    ("resource arrays (SM5.1 register ranges)", "binding arrays are not lowered yet"),
    ("constant buffer arrays (SM5.1 ranges)", "binding arrays are not lowered yet"),
    ("vertex shader without an SV_Position output", "WebGPU vertex stages must write a position"),
    ("instruction ", "an opcode with no lowering yet: doubles, pull-model interpolation (eval_*), lod, sampleinfo/samplepos, msad, tiled-resource feedback (*_s)"),
    ("plain loads from a region that atomics also access", "mixed atomic and plain access is not lowered yet"),
    ("plain stores to a region that atomics also access", "mixed atomic and plain access is not lowered yet"),
    ("append/consume", "UAV counters have no WebGPU form"),
    ("input system value ", "a system value with no WebGPU built-in (render-target/viewport index, clip/cull distance …)"),
    ("output system value ", "a system value with no WebGPU built-in"),
    ("special register ", "a special register with no WebGPU built-in (inner coverage, cycle counter …)"),
    ("stencil reference output", "WebGPU has no stencil export"),
    ("dynamic linkage (interfaces)", "class linkage has no naga form"),
    ("gather4_po with a register offset", "naga texel offsets must be constants"),
    ("textures returning doubles or mixed types", "no such WebGPU texture format"),
    ("signed and unsigned atomic min/max on one region", "one region needs one atomic type"),
    ("barriers and memory fences outside compute shaders", "WGSL barriers exist only in compute"),
    ("discard outside a pixel shader", "only fragment shaders can discard"),
    ("UAVs in a vertex shader", "WebGPU forbids writable storage in vertex shaders"),
    ("implicit-derivative sampling outside a pixel shader", "WGSL has derivatives only in fragment shaders"),
    ("64-bit immediates", "doubles are not lowered yet"),
    ("sampling an integer texture", "WGSL cannot filter integer textures"),
    ("biased or gradient sampling of a texture that is also compared", "WGSL depth textures have no bias/gradient sampling"),
    ("comparison sampling of a non-float or multisampled texture", "no such WGSL depth texture"),
    ("multi-dimensional input/output registers", "indexed stage I/O is not lowered yet"),
    ("dynamically indexed", "dynamically indexed I/O registers or resource arrays are not lowered yet"),
    ("dcl_indexrange", "indexed stage I/O is not lowered yet"),
    ("texture access on a UAV", "sampling or loading a UAV through texture instructions"),
    ("resinfo on an arrayed UAV texture", "naga 30 emits an invalid SPIR-V layer query for storage images"),
    ("resinfo on a multisampled array texture", "naga 30 emits an invalid SPIR-V layer query for multisampled images"),
    ("sampleinfo of the rasterizer", "WGSL cannot query the render target's sample count"),
    ("resinfo on a buffer UAV", "buffer UAVs have no size query; use bufinfo"),
    ("operand type ", "a register file the lowering does not handle yet"),
    ("imul with the high 32 bits", "64-bit products are not lowered yet"),
    ("umul with the high 32 bits", "64-bit products are not lowered yet"),
    ("derivatives outside a pixel shader", "WGSL has derivatives only in fragment shaders"),
    ("structure stride", "strides must be whole words"),
    ("group-shared memory of", "WebGPU allows 16 KiB (32 KiB here) of workgroup memory"),
    ("the file has no program chunk", "nothing to translate"),
    ("indexable temp", "oversized local arrays"),
    ("temp registers", "oversized temp file"),
    ("ld on a raw/structured buffer", "not lowered yet"),
    ("case with a non-literal value", "malformed switch"),
];

/// Lowers `shader` to a validated naga module.
pub fn translate(shader: &dxbc::Shader, options: &Options) -> Result<Translation, TranslateError> {
    lower::translate(shader, options)
}

/// WGSL text.
pub fn to_wgsl(t: &Translation) -> Result<String, OutputError> {
    let mut s = naga::back::wgsl::write_string(&t.module, &t.info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| OutputError::backend(Language::Wgsl, e))?;
    if t.stage == naga::ShaderStage::Fragment {
        // D3D allows derivatives (and implicit-lod sampling) in non-uniform
        // control flow; WGSL's uniformity analysis would reject them.
        s.insert_str(0, "diagnostic(off, derivative_uniformity);\n\n");
    }
    Ok(s)
}

/// Whether the entry point reads or writes the sample mask.
fn uses_sample_mask(t: &Translation) -> bool {
    let is_mask = |b: &Option<naga::Binding>| matches!(b, Some(naga::Binding::BuiltIn(naga::BuiltIn::SampleMask)));
    t.module.entry_points.iter().any(|ep| {
        ep.function.arguments.iter().any(|a| is_mask(&a.binding))
            || ep.function.result.as_ref().is_some_and(|r| match &t.module.types[r.ty].inner {
                naga::TypeInner::Struct { members, .. } => members.iter().any(|m| is_mask(&m.binding)),
                _ => is_mask(&r.binding),
            })
    })
}

/// SPIR-V words.
///
/// Withheld for shaders that use the sample mask (SV_Coverage): naga 30
/// declares the SampleMask built-in as a scalar where Vulkan requires an
/// array (gfx-rs/wgpu#7311), so the module would not pass `spirv-val`.
pub fn to_spirv(t: &Translation) -> Result<Vec<u32>, OutputError> {
    if uses_sample_mask(t) {
        return Err(OutputError::Withheld {
            language: Language::Spirv,
            reason: "the shader uses SV_Coverage: naga 30 declares the SampleMask built-in as a scalar, \
                     which Vulkan forbids (gfx-rs/wgpu#7311)",
        });
    }
    let options = naga::back::spv::Options::default();
    naga::back::spv::write_vec(&t.module, &t.info, &options, None).map_err(|e| OutputError::backend(Language::Spirv, e))
}

/// GLSL text (desktop GLSL 4.50, Vulkan-style bindings).
pub fn to_glsl(t: &Translation) -> Result<String, OutputError> {
    use naga::back::glsl;
    let options = glsl::Options {
        version: glsl::Version::Desktop(450),
        writer_flags: glsl::WriterFlags::empty(),
        ..Default::default()
    };
    let pipeline = glsl::PipelineOptions { shader_stage: t.stage, entry_point: "main".into(), multiview: None };
    let mut out = String::new();
    let mut w = glsl::Writer::new(
        &mut out,
        &t.module,
        &t.info,
        &options,
        &pipeline,
        naga::proc::BoundsCheckPolicies::default(),
    )
    .map_err(|e| OutputError::backend(Language::Glsl, e))?;
    w.write().map_err(|e| OutputError::backend(Language::Glsl, e))?;
    Ok(out)
}

/// Metal Shading Language 2.4 text.
pub fn to_msl(t: &Translation) -> Result<String, OutputError> {
    use naga::back::msl;
    let options = msl::Options { lang_version: (2, 4), fake_missing_bindings: true, ..Default::default() };
    let pipeline = msl::PipelineOptions { entry_point: Some((t.stage, "main".into())), ..Default::default() };
    msl::write_string(&t.module, &t.info, &options, &pipeline)
        .map(|(s, _)| s)
        .map_err(|e| OutputError::backend(Language::Msl, e))
}

/// HLSL text (shader model 5.1 syntax).
pub fn to_hlsl(t: &Translation) -> Result<String, OutputError> {
    use naga::back::hlsl;
    let options =
        hlsl::Options { shader_model: hlsl::ShaderModel::V5_1, fake_missing_bindings: true, ..Default::default() };
    let pipeline = hlsl::PipelineOptions { entry_point: Some((t.stage, "main".into())) };
    let mut out = String::new();
    let mut w = hlsl::Writer::new(&mut out, &options, &pipeline);
    w.write(&t.module, &t.info, None).map_err(|e| OutputError::backend(Language::Hlsl, e))?;
    Ok(out)
}
