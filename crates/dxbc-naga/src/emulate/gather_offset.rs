//! `gather4_po` / `gather4_po_c` with a register offset.
//!
//! naga (and WGSL) take only constant texel offsets in [−8, 7]; D3D's
//! programmable offset is any register, its low 6 bits read as a signed
//! number in [−32, 31]. The offset is folded into the coordinate instead:
//!
//! ```text
//! base = floor(coord · size − 0.5) + offset      (the quad's first texel)
//! coord' = (base + 1) / size                     (the quad's centre)
//! gather(coord')
//! ```
//!
//! Why it is exact: D3D gathers the 2×2 quad whose first texel is
//! `floor(coord · size − 0.5) + offset`, each texel then wrapped, mirrored
//! or clamped by the sampler. At `coord'` the quad's position is
//! `coord' · size − 0.5 = base + 0.5`, half a texel from any texel
//! boundary, so rounding in the division (≤ 1 ulp) cannot move it and the
//! hardware gathers exactly texels `base` and `base + 1` in each axis —
//! through the same sampler, so the address mode applies to the same
//! integer coordinates as in D3D. The first texel uses D3D's own formula in
//! f32; D3D lets implementations snap coordinates to 8 sub-texel bits, so
//! where `coord · size − 0.5` lies within 2⁻⁸ of an integer an
//! implementation may pick either quad, here as on hardware. The size is
//! level 0's, the level gather reads.

use crate::lower::{Lower, H, K};
use crate::resources::Tex;
use crate::TranslateError;
use dxbc::program::Operand;
use naga::{BinaryOperator as B, Expression as E, ImageQuery, MathFunction as M, ScalarKind, VectorSize};

impl Lower<'_> {
    /// The gather coordinate with the register offset `offset_op` folded in.
    pub(crate) fn gather_offset_coordinate(
        &mut self,
        tex: Tex,
        coordinate: H,
        offset_op: &Operand,
    ) -> Result<H, TranslateError> {
        let offset = {
            let v = self.read(offset_op, K::I)?;
            self.sub_vector(v, 2)
        };
        // The low 6 bits, sign-extended.
        let twenty_six = self.lit_u(26);
        let shift = self.e(E::Splat { size: VectorSize::Bi, value: twenty_six });
        let up = self.bin(B::ShiftLeft, offset, shift);
        let offset = self.bin(B::ShiftRight, up, shift);
        let image = self.handle_of(tex.g, tex.elem);
        let zero = self.lit_u(0);
        let size = self.e(E::ImageQuery { image, query: ImageQuery::Size { level: Some(zero) } });
        let size = self.e(E::As { expr: size, kind: ScalarKind::Float, convert: Some(4) });
        let texel = self.bin(B::Multiply, coordinate, size);
        let half = self.e(E::Literal(naga::Literal::F32(0.5)));
        let half2 = self.e(E::Splat { size: VectorSize::Bi, value: half });
        let texel = self.bin(B::Subtract, texel, half2);
        let first = self.math(M::Floor, texel, None, None);
        let first = self.e(E::As { expr: first, kind: ScalarKind::Sint, convert: Some(4) });
        let base = self.bin(B::Add, first, offset);
        let base = self.e(E::As { expr: base, kind: ScalarKind::Float, convert: Some(4) });
        let one = self.e(E::Literal(naga::Literal::F32(1.0)));
        let one2 = self.e(E::Splat { size: VectorSize::Bi, value: one });
        let centre = self.bin(B::Add, base, one2);
        self.emulations.insert(crate::Emulation::GatherRegisterOffset);
        Ok(self.bin(B::Divide, centre, size))
    }
}
