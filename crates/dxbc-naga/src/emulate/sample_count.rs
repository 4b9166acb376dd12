//! `sampleinfo` of the rasterizer: the render target's sample count.
//!
//! In D3D the count is pipeline state, not a resource the shader can
//! query, and no target language has a query for it. It becomes an
//! emulation binding: a 16-byte uniform buffer
//! ([`crate::BindingKind::RasterizerSampleCount`], placed by
//! [`crate::BindingScheme::place_rasterizer_sample_count`]) whose first
//! `u32` the pipeline fills with its sample count (1 when it renders
//! single-sampled). `sampleinfo` then reads it exactly as it reads a
//! texture's count: the count in x, 0 in y, z and w.

use crate::lower::Lower;
use crate::*;
use naga::{AddressSpace, Expression as E, GlobalVariable, Handle};

/// No D3D register holds the rasterizer's sample count: the binding
/// entry's `register` for [`BindingKind::RasterizerSampleCount`].
pub const NO_REGISTER: u32 = u32::MAX;

impl Lower<'_> {
    /// The uniform holding the rasterizer's sample count (declared once).
    pub(crate) fn rasterizer_sample_count(&mut self) -> Handle<GlobalVariable> {
        if let Some(g) = self.sample_count {
            return g;
        }
        let (group, binding) = self.options.bindings.place_rasterizer_sample_count();
        self.bindings.push(BindingEntry {
            count: crate::BindingCount::Single,
            class: RegisterClass::ConstantBuffer,
            register: NO_REGISTER,
            space: 0,
            group,
            binding,
            kind: BindingKind::RasterizerSampleCount,
        });
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some("rasterizer_sample_count".into()),
                space: AddressSpace::Uniform,
                binding: Some(naga::ResourceBinding { group, binding }),
                ty: self.t.vec4u,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        );
        self.sample_count = Some(g);
        self.emulations.insert(Emulation::RasterizerSampleCount);
        g
    }

    /// The rasterizer's sample count, a `u32`.
    pub(crate) fn load_rasterizer_sample_count(&mut self) -> crate::lower::H {
        let g = self.rasterizer_sample_count();
        let p = self.e(E::GlobalVariable(g));
        let v = self.e(E::Load { pointer: p });
        self.component(v, 0)
    }
}
