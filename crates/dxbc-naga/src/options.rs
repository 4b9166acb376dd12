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
    /// View formats the bytecode does not carry, of typed buffers
    /// (`Buffer<T>` SRVs, `RWBuffer<T>` UAVs: the channels per element) and
    /// typed UAV textures (the storage format): `(class, register, format)`.
    /// Default: one 32-bit channel of the declared type (r32).
    pub typed_formats: Vec<(crate::RegisterClass, u32, TypedFormat)>,
    /// The pixel shader a vertex shader is linked with: its outputs take the
    /// interpolation that shader declares per input register (D3D decides it
    /// in the pixel shader alone). Default: perspective at the pixel centre.
    /// Ignored for other stages.
    pub interpolation_from: Option<crate::PixelInputs>,
    /// How double-precision instructions are represented in
    /// [`crate::Translation::module`]; see [`DoubleMode`].
    pub doubles: DoubleMode,
    /// A pixel shader drawn after a geometry shader that writes
    /// SV_PrimitiveID: D3D gives the pixel shader that value (from the
    /// provoking vertex), so it is read from the flat `u32` varying the draw
    /// pass of the geometry shader writes at its register's location (as
    /// every varying: location = register) instead of the rasterizer's
    /// primitive index. Ignored for other stages.
    pub primitive_id_from_geometry: bool,
}

/// The representation of D3D doubles in naga IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum DoubleMode {
    /// Default. Native `f64` in the translation's module (what SPIR-V
    /// gets); a shader that uses doubles is lowered a second time in
    /// [`DoubleMode::Software`] for the languages without `f64` (WGSL, MSL,
    /// GLSL, HLSL).
    #[default]
    Native,
    /// Exact software binary64 on `vec2<u32>` word pairs (functions named
    /// `f64_add`, `f64_div`, …), for every target.
    Software,
}

/// A view format of 32-bit channels (what a typed view may be bound as).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TypedFormat {
    R32Float,
    R32Uint,
    R32Sint,
    Rg32Float,
    Rg32Uint,
    Rg32Sint,
    Rgba32Float,
    Rgba32Uint,
    Rgba32Sint,
}

impl TypedFormat {
    /// Every format, in declaration order.
    pub const ALL: [TypedFormat; 9] = [
        TypedFormat::R32Float,
        TypedFormat::R32Uint,
        TypedFormat::R32Sint,
        TypedFormat::Rg32Float,
        TypedFormat::Rg32Uint,
        TypedFormat::Rg32Sint,
        TypedFormat::Rgba32Float,
        TypedFormat::Rgba32Uint,
        TypedFormat::Rgba32Sint,
    ];

    /// The WebGPU spelling (`rgba32float`).
    pub fn name(self) -> &'static str {
        match self {
            TypedFormat::R32Float => "r32float",
            TypedFormat::R32Uint => "r32uint",
            TypedFormat::R32Sint => "r32sint",
            TypedFormat::Rg32Float => "rg32float",
            TypedFormat::Rg32Uint => "rg32uint",
            TypedFormat::Rg32Sint => "rg32sint",
            TypedFormat::Rgba32Float => "rgba32float",
            TypedFormat::Rgba32Uint => "rgba32uint",
            TypedFormat::Rgba32Sint => "rgba32sint",
        }
    }

    /// The format spelled `name` (WebGPU spelling).
    pub fn parse(name: &str) -> Option<TypedFormat> {
        TypedFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// 32-bit channels per texel.
    pub fn channels(self) -> u32 {
        match self {
            TypedFormat::R32Float | TypedFormat::R32Uint | TypedFormat::R32Sint => 1,
            TypedFormat::Rg32Float | TypedFormat::Rg32Uint | TypedFormat::Rg32Sint => 2,
            _ => 4,
        }
    }

    /// naga's storage format.
    pub fn storage_format(self) -> naga::StorageFormat {
        use naga::StorageFormat as S;
        match self {
            TypedFormat::R32Float => S::R32Float,
            TypedFormat::R32Uint => S::R32Uint,
            TypedFormat::R32Sint => S::R32Sint,
            TypedFormat::Rg32Float => S::Rg32Float,
            TypedFormat::Rg32Uint => S::Rg32Uint,
            TypedFormat::Rg32Sint => S::Rg32Sint,
            TypedFormat::Rgba32Float => S::Rgba32Float,
            TypedFormat::Rgba32Uint => S::Rgba32Uint,
            TypedFormat::Rgba32Sint => S::Rgba32Sint,
        }
    }

    /// The component kind the shader reads and writes.
    pub fn scalar_kind(self) -> naga::ScalarKind {
        match self {
            TypedFormat::R32Float | TypedFormat::Rg32Float | TypedFormat::Rgba32Float => naga::ScalarKind::Float,
            TypedFormat::R32Uint | TypedFormat::Rg32Uint | TypedFormat::Rgba32Uint => naga::ScalarKind::Uint,
            _ => naga::ScalarKind::Sint,
        }
    }
}

impl Options {
    /// The view format given for `class` / `register`, if any.
    pub fn typed_format(&self, class: crate::RegisterClass, register: u32) -> Option<TypedFormat> {
        self.typed_formats.iter().find(|(c, r, _)| *c == class && *r == register).map(|&(_, _, f)| f)
    }

    /// Channels per element of the typed buffer at `class` / `register`.
    pub fn channels(&self, class: crate::RegisterClass, register: u32) -> u32 {
        self.typed_format(class, register).map_or(1, TypedFormat::channels)
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
                // Saturating: a damaged declaration must not overflow.
                (g, register.saturating_add(space.saturating_mul(256)))
            }
            BindingScheme::GroupPerSpace => {
                let shift = match class {
                    ConstantBuffer => 0,
                    ShaderResource => 1000,
                    Sampler => 2000,
                    UnorderedAccess => 3000,
                };
                (space, register.saturating_add(shift))
            }
        }
    }

    /// Where the counter of UAV `register` goes (an emulation binding, see
    /// [`crate::BindingKind::UavCounter`]): the UAV group at binding
    /// register + 128 (+ 256 × space) for [`BindingScheme::GroupPerClass`]
    /// (D3D11 has 64 UAV slots, so SM5.0 registers never collide), the
    /// register's space at register + 4000 for [`BindingScheme::GroupPerSpace`].
    pub fn place_counter(&self, register: u32, space: u32) -> (u32, u32) {
        match self {
            BindingScheme::GroupPerClass => (3, register.saturating_add(128).saturating_add(space.saturating_mul(256))),
            BindingScheme::GroupPerSpace => (space, register.saturating_add(4000)),
        }
    }

    /// Where the rasterizer's sample count goes (an emulation binding, see
    /// [`crate::BindingKind::RasterizerSampleCount`]): the constant-buffer
    /// group at binding 128 for [`BindingScheme::GroupPerClass`] (D3D11 has
    /// 14 constant-buffer slots, so SM5.0 registers never collide), space 0
    /// at binding 5000 for [`BindingScheme::GroupPerSpace`].
    pub fn place_rasterizer_sample_count(&self) -> (u32, u32) {
        match self {
            BindingScheme::GroupPerClass => (0, 128),
            BindingScheme::GroupPerSpace => (0, 5000),
        }
    }

    /// Where the class-instance uniform goes (an emulation binding, see
    /// [`crate::BindingKind::ClassInstances`]): the constant-buffer group
    /// at binding 129 for [`BindingScheme::GroupPerClass`] (next to the
    /// sample count, above every SM5.0 register), space 0 at binding 5001
    /// for [`BindingScheme::GroupPerSpace`].
    pub fn place_class_instances(&self) -> (u32, u32) {
        match self {
            BindingScheme::GroupPerClass => (0, 129),
            BindingScheme::GroupPerSpace => (0, 5001),
        }
    }

    /// Where the stage buffer of `role` goes (an emulation binding, see
    /// [`crate::stages`]): the UAV group at binding 192 + slot for
    /// [`BindingScheme::GroupPerClass`] (above every SM5.0 UAV and counter
    /// of space 0, below space 1's), group 0 at binding 5100 + slot for
    /// [`BindingScheme::GroupPerSpace`].
    pub fn place_stage_buffer(&self, role: crate::StageBufferRole) -> (u32, u32) {
        match self {
            BindingScheme::GroupPerClass => (3, 192 + role.slot()),
            BindingScheme::GroupPerSpace => (0, 5100 + role.slot()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_formats_read_back_and_apply_per_register() {
        for f in TypedFormat::ALL {
            assert_eq!(TypedFormat::parse(f.name()), Some(f));
            // The WebGPU name carries the channel count (r, rg, rgba).
            let letters = f.name().split("32").next().unwrap().len() as u32;
            assert_eq!(f.channels(), if letters == 3 { 4 } else { letters });
        }
        assert_eq!(TypedFormat::parse("rgba8unorm"), None);
        let o = Options {
            typed_formats: vec![(crate::RegisterClass::UnorderedAccess, 2, TypedFormat::Rg32Uint)],
            ..Default::default()
        };
        assert_eq!(o.channels(crate::RegisterClass::UnorderedAccess, 2), 2);
        assert_eq!(o.channels(crate::RegisterClass::ShaderResource, 2), 1);
        assert_eq!(o.channels(crate::RegisterClass::UnorderedAccess, 0), 1);
    }
}
