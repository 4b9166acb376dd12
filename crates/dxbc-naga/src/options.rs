//! Translation options and their documented defaults.

use serde::Serialize;

/// How D3D registers map to WebGPU bind groups and bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum BindingScheme {
    /// Default. One group per register class — constant buffers group 0,
    /// SRVs (t#) group 1, samplers group 2, UAVs group 3 — and binding =
    /// register number + 256 × space (SM5.1).
    #[default]
    GroupPerClass,
    /// As DXC does for SPIR-V: group = register space; binding = register
    /// number + a per-class shift (b: 0, t: 1000, s: 2000, u: 3000).
    GroupPerSpace,
}

/// Options for [`crate::translate`].
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct Options {
    /// Binding scheme; see [`BindingScheme`].
    pub bindings: BindingScheme,
    /// 32-bit channels per element of typed buffers (`Buffer<T>` SRVs and
    /// `RWBuffer<T>` UAVs), whose view format the bytecode does not carry:
    /// `(class, register, channels)`. Default: one channel (r32).
    pub typed_buffer_channels: Vec<(crate::RegisterClass, u32, u32)>,
}

impl Options {
    /// Channels per element of the typed buffer at `class` / `register`.
    pub fn channels(&self, class: crate::RegisterClass, register: u32) -> u32 {
        self.typed_buffer_channels
            .iter()
            .find(|(c, r, _)| *c == class && *r == register)
            .map_or(1, |&(_, _, n)| n.clamp(1, 4))
    }
}

impl BindingScheme {
    /// (group, binding) for a register of `class`.
    pub fn place(&self, class: crate::RegisterClass, register: u32, space: u32) -> (u32, u32) {
        use crate::RegisterClass::*;
        match self {
            BindingScheme::GroupPerClass => {
                let g = match class {
                    ConstantBuffer => 0,
                    ShaderResource => 1,
                    Sampler => 2,
                    UnorderedAccess => 3,
                };
                (g, register + 256 * space)
            }
            BindingScheme::GroupPerSpace => {
                let shift = match class {
                    ConstantBuffer => 0,
                    ShaderResource => 1000,
                    Sampler => 2000,
                    UnorderedAccess => 3000,
                };
                (space, register + shift)
            }
        }
    }
}
