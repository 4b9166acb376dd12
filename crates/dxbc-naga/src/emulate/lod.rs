//! `lod dst, address, t#, s#`: the level of detail a sample would use,
//! computed from derivatives as the D3D functional spec defines it
//! (§7.18.11, isotropic): with `size` the texture's level-0 dimensions,
//!
//! ```text
//! ρ = max(|∂coord/∂x · size|, |∂coord/∂y · size|)   (vector lengths)
//! unclamped = log2(ρ)
//! clamped   = clamp(unclamped, 0, levels − 1)
//! dst = (clamped, unclamped, 0, 0)  (then the resource swizzle)
//! ```
//!
//! Precision and assumptions: the arithmetic is f32 with WGSL's `dpdx`/`dpdy`
//! (coarse or fine as the implementation picks, like D3D's `lod`) and
//! `log2` (3 ULP in WGSL); hardware quantises the LOD's fraction (D3D
//! requires at least 8 bits), so a GPU's own value can differ by that
//! quantum. The sampler's MipLODBias, MinLOD and MaxLOD are not visible to
//! the shader and are taken as their defaults (0, none, none); an
//! anisotropic sampler's LOD uses the minor axis instead and is not what
//! this returns. Cube textures (face projection) stay refused.

use crate::lower::{unsupported, Lower, K};
use crate::resources::T;
use crate::Limitation as L;
use crate::TranslateError;
use dxbc::program::Instruction;
use dxbc::spec::{OperandType as OT, ResourceDimension as RD};
use naga::{Expression as E, ImageQuery, Literal, MathFunction as M, ScalarKind};

impl Lower<'_> {
    pub(crate) fn lod(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        if self.stage != naga::ShaderStage::Fragment {
            return unsupported(L::DerivativesOutsidePixelShader, "lod outside a pixel shader", at);
        }
        let res = self.op(ins, 2)?;
        if res.ty() != T {
            return unsupported(L::TextureAccessOnUav, "lod of a UAV", at);
        }
        let tex = self.texture(res)?;
        if matches!(tex.dim, RD::Texturecube | RD::Texturecubearray) {
            return unsupported(L::Lod, "lod of a cube texture (face projection is not emulated)", at);
        }
        if matches!(tex.dim, RD::Texture2dms | RD::Texture2dmsarray) {
            return crate::lower::malformed("lod of a multisampled texture", at);
        }
        // The sampler operand must name a declared sampler, as D3D requires.
        let samp = self.op(ins, 3)?;
        if samp.operand_type() != Some(OT::Sampler) || !self.samplers.contains_key(&crate::resources::res_id(samp)) {
            return crate::lower::malformed("lod without a declared sampler", at);
        }
        let (n, _) = Self::coord_shape(tex.dim);
        let coord = {
            let a = self.op(ins, 1)?;
            let v = self.read(a, K::F)?;
            self.sub_vector(v, n)
        };
        let image = self.handle_of(tex.g, tex.elem);
        let zero_u = self.lit_u(0);
        let size = self.e(E::ImageQuery { image, query: ImageQuery::Size { level: Some(zero_u) } });
        // A 1D array is a 2D array of height 1 here: its width is x.
        let size = if tex.dim == RD::Texture1darray { self.component(size, 0) } else { size };
        let size = self.e(E::As { expr: size, kind: ScalarKind::Float, convert: Some(4) });
        let dx =
            self.e(E::Derivative { axis: naga::DerivativeAxis::X, ctrl: naga::DerivativeControl::None, expr: coord });
        let dy =
            self.e(E::Derivative { axis: naga::DerivativeAxis::Y, ctrl: naga::DerivativeControl::None, expr: coord });
        let dx = self.bin(naga::BinaryOperator::Multiply, dx, size);
        let dy = self.bin(naga::BinaryOperator::Multiply, dy, size);
        let (lx, ly) = if n == 1 {
            (self.math(M::Abs, dx, None, None), self.math(M::Abs, dy, None, None))
        } else {
            (self.math(M::Length, dx, None, None), self.math(M::Length, dy, None, None))
        };
        let rho = self.math(M::Max, lx, Some(ly), None);
        let unclamped = self.math(M::Log2, rho, None, None);
        let levels = self.e(E::ImageQuery { image, query: ImageQuery::NumLevels });
        let one = self.lit_u(1);
        let last = self.bin(naga::BinaryOperator::Subtract, levels, one);
        let last = self.e(E::As { expr: last, kind: ScalarKind::Float, convert: Some(4) });
        let zero = self.e(E::Literal(Literal::F32(0.0)));
        let clamped = self.math(M::Clamp, unclamped, Some(zero), Some(last));
        let ty = self.t.vec4f;
        let v = self.e(E::Compose { ty, components: vec![clamped, unclamped, zero, zero] });
        let v = self.resource_swizzle(res, v);
        let d = self.op(ins, 0)?;
        self.write(d, v, K::F, false)?;
        self.emulations.insert(crate::Emulation::Lod);
        Ok(())
    }
}
