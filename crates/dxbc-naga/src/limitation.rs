//! Why a shader is refused: one [`Limitation`] per real reason, each with a
//! stable name (for tables, JSON and tests) and the reason users read.
//! Callers decide by variant, never by the text of a message.

use serde::{Deserialize, Serialize};

/// A reason a vertex, pixel or compute shader does not translate (or a
/// stage that has no naga form at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Limitation {
    // Stages.
    /// The container has no SHDR/SHEX chunk.
    NoProgram,
    /// Geometry shaders: no naga or WebGPU stage.
    GeometryStage,
    /// Hull shaders natively: no tessellation in naga or WebGPU (their
    /// compute passes translate: see [`crate::stages`]).
    HullStage,
    /// Domain shaders natively: no tessellation in naga or WebGPU (their
    /// vertex and compute forms translate: see [`crate::stages`]).
    DomainStage,
    /// A geometry shader that emits to a stream other than 0 (stream 0 is
    /// the one rasterised; the compute form writes only that one).
    GeometryStreams,
    /// The stage has no such form (pixel and compute shaders have no
    /// compute form; only geometry and domain shaders have a draw, only
    /// hull shaders a patch-constant pass).
    NoComputeForm,
    /// A program type number no D3D stage has.
    UnknownProgramType,

    // Bindings.
    /// SM5.1 resource ranges (`T0[0:3]`, unbounded `[0:*]`): binding arrays.
    ResourceArrays,
    /// SM5.1 constant-buffer ranges: binding arrays of uniform blocks.
    ConstantBufferArrays,
    /// An unbounded range of textures, UAVs or constant buffers.
    UnboundedResourceArrays,
    /// A range of buffers (raw, structured or typed; SRV or UAV).
    BufferArrays,
    /// A range of typed UAV textures (read-write storage textures).
    UavTextureArrays,

    // Textures.
    /// A texture whose return type is double or mixed.
    DoubleTextures,
    /// A typed UAV of doubles or mixed types.
    TypedUavOfDoubles,
    /// Atomics on a typed UAV texture.
    TypedUavAtomics,
    /// An atomic on a typed UAV texture that returns the texel's old value
    /// (`imm_atomic_*`) or compares (`atomic_cmp_store`): SPIR-V only.
    TypedUavAtomicResults,
    /// A min or max on a typed UAV texture that compares with the other
    /// signedness than the texture's type (`atomic_imax` on a `uint`
    /// texture): SPIR-V only.
    TypedUavAtomicSignedness,
    /// A typed UAV of a cube or multisampled dimension.
    TypedUavDimension,
    /// Sampling or `ld` through a UAV.
    TextureAccessOnUav,
    /// Filtered sampling of an integer texture.
    SampleIntegerTexture,
    /// Sampling without comparison, with a bias, gradients or a level that
    /// is not a whole constant, of a texture that is also compared (a
    /// depth texture): SPIR-V only.
    ComparisonBiasOrGradient,
    /// Comparison sampling of an integer or multisampled texture.
    ComparisonOfNonFloatTexture,
    /// A multisampled texture array (`Texture2DMSArray`).
    MultisampledTextureArrays,
    /// `ld` from a texture that is also compared (a depth texture).
    LoadFromDepthTexture,
    /// `lod`.
    Lod,
    /// `samplepos`.
    SamplePosition,
    /// `resinfo` on a buffer UAV.
    ResinfoOnBufferUav,
    /// A minimum-LOD clamp (`sample*_cl_s`) that is not a literal `<= 0`.
    LodClamp,

    // Buffers and memory.
    /// `ld` on a raw or structured buffer.
    LoadOnWordBuffer,
    /// A structure stride that is not whole words.
    StructureStride,
    /// A UAV in a vertex shader.
    UavInVertexShader,
    /// More group-shared memory than WebGPU allows.
    GroupSharedTooLarge,

    // Arithmetic.
    /// Double-precision instructions and 64-bit immediates.
    Doubles,
    /// `imul`/`umul` whose high 32 bits are used.
    WideMultiply,

    // Stage rules.
    /// Derivatives (or implicit-derivative sampling) outside a pixel shader.
    DerivativesOutsidePixelShader,
    /// `discard` outside a pixel shader.
    DiscardOutsidePixelShader,
    /// Barriers and memory fences outside compute shaders.
    BarrierOutsideCompute,
    /// Pull-model interpolation (`eval_*`).
    PullModelInterpolation,

    // Stage I/O and special registers.
    /// Indexed stage I/O (`dcl_indexrange`, 2D or register-indexed v#/o#).
    IndexedStageIo,
    /// SV_ClipDistance.
    ClipDistance,
    /// SV_CullDistance.
    CullDistance,
    /// SV_RenderTargetArrayIndex.
    RenderTargetArrayIndex,
    /// SV_ViewportArrayIndex.
    ViewportArrayIndex,
    /// A system value with no WebGPU built-in in this stage.
    SystemValueInStage,
    /// Stencil reference output (oStencilRef).
    StencilExport,
    /// vInnerCoverage (conservative rasterization).
    InnerCoverage,
    /// `forceEarlyDepthStencil` in a pixel shader that writes UAVs.
    ForcedEarlyDepthTest,
    /// vCycleCounter.
    CycleCounter,
    /// A special input register with no built-in in this stage.
    SpecialRegisterInStage,

    // Linkage and sizes.
    /// Interfaces: function bodies, tables, `fcall`, `this`.
    Interfaces,
    /// `call`/`label` subroutines.
    Subroutines,
    /// `abort` / `debug_break`.
    DebugInstructions,
    /// A temp file too large to declare.
    TempsTooLarge,
    /// An indexable temp too large to declare.
    IndexableTempTooLarge,
}

impl Limitation {
    /// Every limitation, in declaration order.
    pub const ALL: &'static [Limitation] = &[
        Limitation::NoProgram,
        Limitation::GeometryStage,
        Limitation::HullStage,
        Limitation::DomainStage,
        Limitation::GeometryStreams,
        Limitation::NoComputeForm,
        Limitation::UnknownProgramType,
        Limitation::ResourceArrays,
        Limitation::ConstantBufferArrays,
        Limitation::UnboundedResourceArrays,
        Limitation::BufferArrays,
        Limitation::UavTextureArrays,
        Limitation::DoubleTextures,
        Limitation::TypedUavOfDoubles,
        Limitation::TypedUavAtomics,
        Limitation::TypedUavAtomicResults,
        Limitation::TypedUavAtomicSignedness,
        Limitation::TypedUavDimension,
        Limitation::TextureAccessOnUav,
        Limitation::SampleIntegerTexture,
        Limitation::ComparisonBiasOrGradient,
        Limitation::ComparisonOfNonFloatTexture,
        Limitation::MultisampledTextureArrays,
        Limitation::LoadFromDepthTexture,
        Limitation::Lod,
        Limitation::SamplePosition,
        Limitation::ResinfoOnBufferUav,
        Limitation::LodClamp,
        Limitation::LoadOnWordBuffer,
        Limitation::StructureStride,
        Limitation::UavInVertexShader,
        Limitation::GroupSharedTooLarge,
        Limitation::Doubles,
        Limitation::WideMultiply,
        Limitation::DerivativesOutsidePixelShader,
        Limitation::DiscardOutsidePixelShader,
        Limitation::BarrierOutsideCompute,
        Limitation::PullModelInterpolation,
        Limitation::IndexedStageIo,
        Limitation::ClipDistance,
        Limitation::CullDistance,
        Limitation::RenderTargetArrayIndex,
        Limitation::ViewportArrayIndex,
        Limitation::SystemValueInStage,
        Limitation::StencilExport,
        Limitation::InnerCoverage,
        Limitation::ForcedEarlyDepthTest,
        Limitation::CycleCounter,
        Limitation::SpecialRegisterInStage,
        Limitation::Interfaces,
        Limitation::Subroutines,
        Limitation::DebugInstructions,
        Limitation::TempsTooLarge,
        Limitation::IndexableTempTooLarge,
    ];

    /// A stable kebab-case name (tables, JSON, exit messages).
    pub fn name(self) -> &'static str {
        use Limitation as L;
        match self {
            L::NoProgram => "no-program",
            L::GeometryStage => "geometry-stage",
            L::HullStage => "hull-stage",
            L::DomainStage => "domain-stage",
            L::GeometryStreams => "geometry-streams",
            L::NoComputeForm => "no-compute-form",
            L::UnknownProgramType => "unknown-program-type",
            L::ResourceArrays => "resource-arrays",
            L::ConstantBufferArrays => "constant-buffer-arrays",
            L::UnboundedResourceArrays => "unbounded-resource-arrays",
            L::BufferArrays => "buffer-arrays",
            L::UavTextureArrays => "uav-texture-arrays",
            L::DoubleTextures => "double-textures",
            L::TypedUavOfDoubles => "typed-uav-of-doubles",
            L::TypedUavAtomics => "typed-uav-atomics",
            L::TypedUavAtomicResults => "typed-uav-atomic-results",
            L::TypedUavAtomicSignedness => "typed-uav-atomic-signedness",
            L::TypedUavDimension => "typed-uav-dimension",
            L::TextureAccessOnUav => "texture-access-on-uav",
            L::SampleIntegerTexture => "sample-integer-texture",
            L::ComparisonBiasOrGradient => "comparison-bias-or-gradient",
            L::ComparisonOfNonFloatTexture => "comparison-of-non-float-texture",
            L::MultisampledTextureArrays => "multisampled-texture-arrays",
            L::LoadFromDepthTexture => "load-from-depth-texture",
            L::Lod => "lod",
            L::SamplePosition => "samplepos",
            L::ResinfoOnBufferUav => "resinfo-buffer-uav",
            L::LodClamp => "lod-clamp",
            L::LoadOnWordBuffer => "ld-on-word-buffer",
            L::StructureStride => "structure-stride",
            L::UavInVertexShader => "uav-in-vertex-shader",
            L::GroupSharedTooLarge => "group-shared-too-large",
            L::Doubles => "doubles",
            L::WideMultiply => "wide-multiply",
            L::DerivativesOutsidePixelShader => "derivatives-outside-pixel-shader",
            L::DiscardOutsidePixelShader => "discard-outside-pixel-shader",
            L::BarrierOutsideCompute => "barrier-outside-compute",
            L::PullModelInterpolation => "pull-model-interpolation",
            L::IndexedStageIo => "indexed-stage-io",
            L::ClipDistance => "clip-distance",
            L::CullDistance => "cull-distance",
            L::RenderTargetArrayIndex => "render-target-array-index",
            L::ViewportArrayIndex => "viewport-array-index",
            L::SystemValueInStage => "system-value-in-stage",
            L::StencilExport => "stencil-export",
            L::InnerCoverage => "inner-coverage",
            L::ForcedEarlyDepthTest => "forced-early-depth-test",
            L::CycleCounter => "cycle-counter",
            L::SpecialRegisterInStage => "special-register-in-stage",
            L::Interfaces => "interfaces",
            L::Subroutines => "subroutines",
            L::DebugInstructions => "debug-instructions",
            L::TempsTooLarge => "temps-too-large",
            L::IndexableTempTooLarge => "indexable-temp-too-large",
        }
    }

    /// The limitation with this [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Limitation> {
        Limitation::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// Why the translator cannot do it, for users.
    pub fn why(self) -> &'static str {
        use Limitation as L;
        match self {
            L::NoProgram => "the file has no program chunk (SHDR/SHEX): nothing to translate",
            L::GeometryStage => "naga (and WebGPU) have no geometry stage",
            L::HullStage | L::DomainStage => "naga and WebGPU have no tessellation stages",
            L::GeometryStreams => {
                "the compute form of a geometry shader writes stream 0 only (the rasterised one); \
                 emitting to another stream is refused"
            }
            L::NoComputeForm => {
                "this stage has no such form (vertex, geometry, hull and domain shaders have compute forms; \
                 geometry and domain shaders a draw; hull shaders a patch-constant pass)"
            }
            L::UnknownProgramType => "the program type is not a D3D stage",
            L::ResourceArrays | L::ConstantBufferArrays => {
                "SM5.1 register ranges need binding arrays, which WebGPU and naga's GLSL writer lack"
            }
            L::UnboundedResourceArrays => "naga 30's HLSL writer cannot declare unbounded texture or buffer arrays",
            L::BufferArrays => {
                "naga 30's HLSL writer cannot declare arrays of storage buffers or take their lengths"
            }
            L::UavTextureArrays => "naga 30's MSL writer has no arrays of read-write textures at its default Metal version",
            L::DoubleTextures => "no WebGPU texture format returns doubles or mixed component types",
            L::TypedUavOfDoubles => "no WebGPU storage format holds doubles or mixed component types",
            L::TypedUavAtomics => {
                "WebGPU has atomics on buffers only, not on storage textures (native targets: add, and, or, xor, min, max; SPIR-V also the value returned and exchanges)"
            }
            L::TypedUavAtomicResults => {
                "naga's image atomics return nothing and do not exchange, so only SPIR-V gets a texel's old value or a compare-exchange"
            }
            L::TypedUavAtomicSignedness => {
                "naga's image min and max compare as the image's type is signed, so only SPIR-V gets atomic_imax/imin on a uint texture or atomic_umax/umin on a sint one"
            }
            L::TypedUavDimension => "WebGPU has no cube or multisampled storage textures",
            L::TextureAccessOnUav => "sampling or loading a UAV through texture instructions is not lowered",
            L::SampleIntegerTexture => "WGSL cannot filter-sample integer textures",
            L::ComparisonBiasOrGradient => {
                "a texture that is also compared is a WGSL depth texture, which is sampled with no bias, gradients or fractional level"
            }
            L::ComparisonOfNonFloatTexture => "WGSL has no integer or multisampled-array depth textures to compare",
            L::MultisampledTextureArrays => "WGSL has no multisampled texture arrays (texture_multisampled_2d only)",
            L::LoadFromDepthTexture => "naga's GLSL writer cannot load texels from a depth texture",
            L::Lod => "WGSL has no query of the level of detail a sample would use",
            L::SamplePosition => "WGSL cannot query sample positions",
            L::ResinfoOnBufferUav => "buffer UAVs have no size query through resinfo (bufinfo has one)",
            L::LodClamp => "WGSL sampling has no minimum-LOD clamp",
            L::LoadOnWordBuffer => "ld on a raw or structured buffer is not lowered yet",
            L::StructureStride => "structure strides must be whole 32-bit words",
            L::UavInVertexShader => "WebGPU forbids writable storage in vertex shaders (native targets allow it)",
            L::GroupSharedTooLarge => "WebGPU allows 16 KiB of workgroup memory (32 KiB here)",
            L::Doubles => "double-precision instructions (native f64 in SPIR-V, software binary64 elsewhere)",
            L::WideMultiply => "64-bit products are not lowered yet",
            L::DerivativesOutsidePixelShader => "WGSL has derivatives only in fragment shaders",
            L::DiscardOutsidePixelShader => "only fragment shaders can discard",
            L::BarrierOutsideCompute => "WGSL barriers exist only in compute shaders",
            L::PullModelInterpolation => "pull-model interpolation (eval_*) has no WGSL form",
            L::IndexedStageIo => "indexed stage inputs and outputs are not lowered yet",
            L::ClipDistance => {
                "clip distances in a register shared with other outputs, more than 8, or read by a pixel shader (SPIR-V only, one input)"
            }
            L::CullDistance => "WGSL has no cull distances",
            L::RenderTargetArrayIndex => "WebGPU has no layered rendering (render-target array index)",
            L::ViewportArrayIndex => "WebGPU has no viewport arrays",
            L::SystemValueInStage => "the system value has no WebGPU built-in in this stage",
            L::StencilExport => "WebGPU has no stencil export",
            L::InnerCoverage => "WebGPU has no conservative rasterization",
            L::ForcedEarlyDepthTest => {
                "WGSL cannot force depth tests before the pixel shader, so its UAV writes would also run for fragments that fail them"
            }
            L::CycleCounter => "WebGPU has no cycle counter",
            L::SpecialRegisterInStage => "the special register has no WebGPU built-in in this stage",
            L::Interfaces => "this form of class linkage (a body that returns early, fcalls nested too deep) is not lowered",
            L::Subroutines => "call/label subroutines are not lowered yet",
            L::DebugInstructions => "abort and debug_break have no WGSL form",
            L::TempsTooLarge => "the temp register file is too large",
            L::IndexableTempTooLarge => "the local array is too large",
        }
    }

    /// Why `language` cannot express this feature, or None when it can.
    ///
    /// Most limitations stop the translation itself, so no target is
    /// written; those the translator carries into naga IR (recorded in
    /// [`crate::Translation::target_refusals`]) are refused only by the
    /// languages named here.
    pub fn why_in(self, language: crate::Language) -> Option<&'static str> {
        use crate::Language::*;
        use Limitation as L;
        match (self, language) {
            // Native f64 for SPIR-V; exact software binary64 on u32 pairs
            // (soft_f64) for the languages without f64 or 64-bit integers.
            (L::Doubles, _) => None,
            // naga's IR has no Layer / ViewportIndex built-in: SPIR-V gets
            // them from `spirv_post`, the text writers cannot be given them.
            (L::RenderTargetArrayIndex | L::ViewportArrayIndex, Spirv) => None,
            (L::RenderTargetArrayIndex | L::ViewportArrayIndex, Wgsl) => Some(self.why()),
            (L::RenderTargetArrayIndex, _) => {
                Some("naga's IR has no render-target array index built-in, so its writer cannot declare one")
            }
            (L::ViewportArrayIndex, _) => {
                Some("naga's IR has no viewport index built-in, so its writer cannot declare one")
            }
            // naga's IR has neither: SPIR-V gets them from `spirv_post`
            // (the marks of `spirv_marks`).
            (L::LodClamp | L::PullModelInterpolation, Spirv) => None,
            (L::LodClamp | L::PullModelInterpolation, Wgsl) => Some(self.why()),
            (L::LodClamp, _) => Some("naga's IR has no minimum-LOD sampling operand, so its writer cannot emit one"),
            (L::PullModelInterpolation, _) => {
                Some("naga's IR has no pull-model interpolation, so its writer cannot emit EvaluateAttribute* / interpolateAt*")
            }
            (L::ResourceArrays | L::ConstantBufferArrays, Wgsl) => Some("WebGPU has no binding arrays"),
            (L::ResourceArrays | L::ConstantBufferArrays, Glsl) => Some("naga's GLSL writer has no binding arrays"),
            (L::ResourceArrays | L::ConstantBufferArrays, _) => None,
            (L::UnboundedResourceArrays | L::BufferArrays, Hlsl) => Some(self.why()),
            (L::UnboundedResourceArrays | L::BufferArrays, _) => None,
            // A depth texture sampled with a bias goes through a mark
            // (`spirv_marks`), with gradients through naga's IR.
            (L::ComparisonBiasOrGradient, Spirv) => None,
            (L::ComparisonBiasOrGradient, Wgsl) => Some(self.why()),
            (L::ComparisonBiasOrGradient, _) => {
                Some("naga's IR has no biased or fractional-level sample of a depth texture, so its writer cannot emit one")
            }
            (L::LoadFromDepthTexture, Glsl) => Some(self.why()),
            (L::LoadFromDepthTexture, _) => None,
            (L::UavTextureArrays, Msl) => Some(self.why()),
            (L::UavTextureArrays, _) => None,
            (L::TypedUavAtomics, Wgsl) => Some(self.why()),
            (L::TypedUavAtomics, _) => None,
            // A mark (`spirv_marks`) gives SPIR-V the atomic's result and
            // its exchange forms.
            (L::TypedUavAtomicResults | L::TypedUavAtomicSignedness, Spirv) => None,
            // A UAV fence outside compute: a mark gives SPIR-V its
            // OpMemoryBarrier (a group barrier there is refused whole).
            // naga's IR has cull distances; WGSL does not, naga's MSL writer
            // refuses them and its GLSL writer leaves gl_CullDistance unsized.
            (L::CullDistance, Wgsl) => Some(self.why()),
            (L::CullDistance, Msl) => Some("naga 30's MSL writer has no cull distances"),
            (L::CullDistance, Glsl) => Some("naga 30's GLSL writer assigns gl_CullDistance without declaring its size"),
            (L::CullDistance, _) => None,
            // A reserved location `spirv_post` makes FragStencilRefEXT.
            (L::StencilExport, Spirv) => None,
            (L::StencilExport, Wgsl) => Some(self.why()),
            (L::StencilExport, _) => {
                Some("naga's IR has no stencil reference output, so its writer cannot declare one")
            }
            // A pixel shader's clip-distance input: a reserved location
            // `spirv_post` makes the ClipDistance built-in.
            (L::ClipDistance, Spirv) => None,
            (L::ClipDistance, Wgsl) => Some("WGSL has no clip-distance input in a pixel shader"),
            (L::ClipDistance, _) => {
                Some("naga's IR has clip distances as vertex outputs only, so its writer cannot declare the input")
            }
            // A reserved location `spirv_post` makes FullyCoveredEXT.
            (L::InnerCoverage, Spirv) => None,
            (L::InnerCoverage, Wgsl) => Some(self.why()),
            (L::InnerCoverage, _) => Some("naga's IR has no inner-coverage input, so its writer cannot declare one"),
            (L::BarrierOutsideCompute, Spirv) => None,
            (L::BarrierOutsideCompute, Wgsl) => Some(self.why()),
            (L::BarrierOutsideCompute, _) => {
                Some("naga's IR has barriers in compute shaders only, so its writer cannot emit a memory fence elsewhere")
            }
            (L::UavInVertexShader, Wgsl) => Some(self.why()),
            (L::ForcedEarlyDepthTest, Wgsl) => Some(self.why()),
            (L::ForcedEarlyDepthTest, _) => None,
            (L::UavInVertexShader, _) => None,
            // naga's IR has them and its WGSL writer prints a type WGSL lacks.
            (L::MultisampledTextureArrays, Wgsl) => Some(self.why()),
            (L::MultisampledTextureArrays, _) => None,
            _ => Some(self.why()),
        }
    }

    /// The limitation an opcode with no lowering falls under, or None for
    /// an opcode that cannot appear in a vertex, pixel or compute shader.
    pub fn of_opcode(code: dxbc::spec::Opcode) -> Option<Limitation> {
        use dxbc::spec::Opcode as O;
        Some(match code {
            O::Dadd
            | O::Dmax
            | O::Dmin
            | O::Dmul
            | O::Deq
            | O::Dge
            | O::Dlt
            | O::Dne
            | O::Dmov
            | O::Dmovc
            | O::Dtof
            | O::Ftod
            | O::Ddiv
            | O::Dfma
            | O::Drcp
            | O::Dtoi
            | O::Dtou
            | O::Itod
            | O::Utod => Limitation::Doubles,
            O::EvalSnapped | O::EvalSampleIndex | O::EvalCentroid => Limitation::PullModelInterpolation,
            O::Lod => Limitation::Lod,
            O::SamplePos => Limitation::SamplePosition,
            O::InterfaceCall => Limitation::Interfaces,
            O::Call | O::Callc | O::Label => Limitation::Subroutines,
            O::Abort | O::DebugBreak => Limitation::DebugInstructions,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Limitation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        let mut seen = std::collections::HashSet::new();
        for &l in Limitation::ALL {
            assert!(seen.insert(l.name()), "{} twice", l.name());
            assert_eq!(Limitation::from_name(l.name()), Some(l));
            assert!(!l.why().is_empty());
        }
        assert_eq!(Limitation::from_name("instruction "), None);
    }

    #[test]
    fn all_is_in_declaration_order_without_repeats() {
        // ALL is sorted by declaration order, which Ord follows.
        assert!(Limitation::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Limitation::ALL.first(), Some(&Limitation::NoProgram));
        assert_eq!(Limitation::ALL.last(), Some(&Limitation::IndexableTempTooLarge));
    }

    #[test]
    fn opcode_families() {
        use dxbc::spec::Opcode as O;
        assert_eq!(Limitation::of_opcode(O::Dfma), Some(Limitation::Doubles));
        assert_eq!(Limitation::of_opcode(O::EvalCentroid), Some(Limitation::PullModelInterpolation));
        // Lowered (or emulated) opcodes fall under no limitation.
        assert_eq!(Limitation::of_opcode(O::SampleBClampFeedback), None);
        assert_eq!(Limitation::of_opcode(O::Msad), None);
        assert_eq!(Limitation::of_opcode(O::InterfaceCall), Some(Limitation::Interfaces));
        assert_eq!(Limitation::of_opcode(O::Emit), None);
        assert_eq!(Limitation::of_opcode(O::Add), None);
    }
}
