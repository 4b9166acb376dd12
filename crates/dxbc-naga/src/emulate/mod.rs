//! Exact emulations: DXBC features with no direct naga/WGSL form, lowered to
//! code that gives D3D's results on every target (WGSL included).
//!
//! Each file is one feature; each says why its form is exact. A translation
//! lists the emulations it used ([`crate::Translation::emulations`]).

pub(crate) mod atomics;
pub(crate) mod counters;
pub(crate) mod feedback;
pub(crate) mod gather_offset;
pub(crate) mod interfaces;
pub(crate) mod lod;
pub(crate) mod msad;
pub(crate) mod position;
pub(crate) mod sample_count;
pub(crate) mod samplepos;

pub use interfaces::default_class_instances;
pub use samplepos::standard_sample_position;
pub(crate) mod texture1d_array;

use serde::{Deserialize, Serialize};

/// An emulation a translation used: what it changed, for users and for
/// pipelines that must bind accordingly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Emulation {
    /// Tiled-resource feedback: every tile reported resident.
    TiledFeedback,
    /// A vertex shader without SV_Position got a constant position output.
    SynthesisedPosition,
    /// A 1D array texture is a 2D array of height 1 (bind it so).
    Texture1dArrayAs2dArray,
    /// `msad` as integer arithmetic.
    Msad,
    /// Signed and unsigned atomic min/max on one region: the region is
    /// unsigned and signed min/max are compare-exchange loops.
    MixedSignAtomics,
    /// `lod` computed from derivatives and the texture size.
    Lod,
    /// `samplepos` from the standard D3D sample patterns.
    SamplePositions,
    /// Append/consume counters as an atomic word in their own storage buffer.
    UavCounters,
    /// `gather4_po` with a register offset folded into the coordinate.
    GatherRegisterOffset,
    /// `sampleinfo` of the rasterizer reads a uniform the pipeline fills.
    RasterizerSampleCount,
    /// Interfaces: `fcall` is a switch over the function table a
    /// class-instance uniform selects; `this` reads that uniform.
    ClassInstances,
}

impl Emulation {
    /// Every emulation, in declaration order.
    pub const ALL: &'static [Emulation] = &[
        Emulation::TiledFeedback,
        Emulation::SynthesisedPosition,
        Emulation::Texture1dArrayAs2dArray,
        Emulation::Msad,
        Emulation::MixedSignAtomics,
    ];

    /// A stable kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Emulation::TiledFeedback => "tiled-feedback",
            Emulation::SynthesisedPosition => "synthesised-position",
            Emulation::Texture1dArrayAs2dArray => "texture-1d-array-as-2d-array",
            Emulation::Msad => "msad",
            Emulation::MixedSignAtomics => "mixed-sign-atomics",
            Emulation::Lod => "lod",
            Emulation::SamplePositions => "sample-positions",
            Emulation::UavCounters => "uav-counters",
            Emulation::GatherRegisterOffset => "gather-register-offset",
            Emulation::RasterizerSampleCount => "rasterizer-sample-count",
            Emulation::ClassInstances => "class-instances",
        }
    }

    /// What the emulation does, for users.
    pub fn what(self) -> &'static str {
        match self {
            Emulation::TiledFeedback => {
                "tiled-resource status: every access is reported fully mapped (no tiled resources exist)"
            }
            Emulation::SynthesisedPosition => {
                "the vertex shader writes no SV_Position (it feeds a GS or HS): a constant position \
                 (0, 0, 0, 1) is output after the real outputs"
            }
            Emulation::Texture1dArrayAs2dArray => {
                "a 1D array texture is declared as a 2D array texture: bind a 2D array of height 1 \
                 (sampled at v = 0.5, loaded at row 0)"
            }
            Emulation::Msad => "msad is computed byte by byte with integer arithmetic",
            Emulation::MixedSignAtomics => {
                "a region with both signed and unsigned atomic min/max holds unsigned words; \
                 signed min/max are compare-exchange loops"
            }
            Emulation::Lod => {
                "lod is computed from the coordinates' derivatives and the texture size (isotropic D3D \
                 formula; the sampler's LOD bias and range taken as defaults)"
            }
            Emulation::SamplePositions => {
                "samplepos reads the standard D3D sample pattern for the texture's sample count"
            }
            Emulation::UavCounters => {
                "each UAV counter (append/consume) is an atomic u32 in its own storage buffer: bind a \
                 4-byte buffer holding the initial count at the counter binding"
            }
            Emulation::GatherRegisterOffset => {
                "gather4_po's register offset is folded into the coordinate: the gather is taken at the \
                 centre of the offset 2x2 quad, through the same sampler"
            }
            Emulation::RasterizerSampleCount => {
                "sampleinfo of the rasterizer reads the render target's sample count from a 16-byte \
                 uniform buffer: the pipeline writes its sample count (1 if single-sampled) in the first u32"
            }
            Emulation::ClassInstances => {
                "interfaces: each fcall is a switch over the function table its slot selects, read with the \
                 this-pointers from a uniform of vec4<u32> (rows 0..slots: each slot's this words - constant \
                 buffer, row offset, texture, sampler; rows slots..2*slots: the slot's function table in x)"
            }
        }
    }
}

impl std::fmt::Display for Emulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
