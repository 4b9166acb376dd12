//! Conversions between floats and integers, and to and from half
//! precision, with D3D's results where WGSL's differ.

use super::*;

impl<'a> Lower<'a> {
    /// `ftoi` and `ftou` with D3D's results: NaN gives 0 and out-of-range
    /// values clamp.
    pub(super) fn float_to_int(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        // D3D: NaN → 0, out-of-range values clamp.
        let a = self.src(ins, 1, K::F)?;
        let (lo, hi, k) =
            if code == O::Ftoi { (-2147483648.0f32, 2147483520.0f32, K::I) } else { (0.0, 4294967040.0, K::U) };
        let lo = self.splat_f(lo);
        let hi = self.splat_f(hi);
        let c = self.math(M::Clamp, a, Some(lo), Some(hi));
        let conv = self.e(E::As { expr: c, kind: k.kind(), convert: Some(4) });
        // The largest f32 below 2^31 (2^32) converts short of the
        // maximum: values at or above 2^31 (2^32) saturate to it.
        let (limit, max) = match k {
            K::I => (self.splat_f(2147483648.0), self.splat_i(i32::MAX)),
            _ => (self.splat_f(4294967296.0), self.splat_u(u32::MAX)),
        };
        let above = self.bin(B::GreaterEqual, a, limit);
        let conv = self.select(above, max, conv);
        let nan = self.bin(B::NotEqual, a, a);
        let zero = match k {
            K::I => self.splat_i(0),
            _ => self.splat_u(0),
        };
        let r = self.select(nan, zero, conv);
        let d = self.op(ins, 0)?;
        self.write(d, r, k, false)?;
        Ok(())
    }

    /// `itof`/`utof` of a literal (a scalar, a splat or a vector of them)
    /// as the float literal, where every value converts exactly (|v| <=
    /// 2^24, or a multiple of the float's spacing there): `vec4(32f)`, not
    /// `vec4<f32>(vec4(32u))`. No rounding is decided here.
    pub(super) fn exact_float_of_literal(&mut self, a: H) -> Option<H> {
        let exact = |l: &Literal| -> Option<f32> {
            let v = match *l {
                Literal::I32(v) => i64::from(v),
                Literal::U32(v) => i64::from(v),
                _ => return None,
            };
            let f = v as f32;
            (f as i64 == v).then_some(f)
        };
        let literal = |l: &Self, h: H| match l.f.expressions[h] {
            E::Literal(ref lit) => exact(lit),
            _ => None,
        };
        match self.f.expressions[a] {
            E::Literal(_) => literal(self, a).map(|f| self.e(E::Literal(Literal::F32(f)))),
            E::Splat { size, value } => {
                let f = literal(self, value)?;
                let v = self.e(E::Literal(Literal::F32(f)));
                Some(self.e(E::Splat { size, value: v }))
            }
            E::Compose { ref components, .. } => {
                let fs = components.iter().map(|&c| literal(self, c)).collect::<Option<Vec<f32>>>()?;
                let size = crate::regs::vector_size(fs.len())?;
                let ty = self.ty(TypeInner::Vector { size, scalar: Scalar::F32 });
                let components = fs.into_iter().map(|f| self.e(E::Literal(Literal::F32(f)))).collect();
                Some(self.e(E::Compose { ty, components }))
            }
            _ => None,
        }
    }

    /// `f32tof16`: each component's half-precision bits in its low 16 bits.
    pub(super) fn f32_to_f16(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        // f32tof16: the half's bits in the low 16 bits of each component.
        let a = self.src(ins, 1, K::F)?;
        let zero = self.e(E::Literal(Literal::F32(0.0)));
        let mut comps = Vec::new();
        for c in 0..4 {
            let x = self.component(a, c);
            let ty = self.ty(TypeInner::Vector { size: VectorSize::Bi, scalar: Scalar::F32 });
            let v2 = self.e(E::Compose { ty, components: vec![x, zero] });
            comps.push(self.math(M::Pack2x16float, v2, None, None));
        }
        let ty = self.t.vec4u;
        let r = self.e(E::Compose { ty, components: comps });
        let d = self.op(ins, 0)?;
        self.write(d, r, K::U, false)?;
        Ok(())
    }

    /// `f16tof32`: each component's low 16 bits read as a half.
    pub(super) fn f16_to_f32(&mut self, ins: &Instruction, sat: bool) -> Result<(), TranslateError> {
        let a = self.src(ins, 1, K::U)?;
        let mask = self.lit_u(0xffff);
        let mut comps = Vec::new();
        for c in 0..4 {
            let x = self.component(a, c);
            // A literal half is converted here, as a conversion is exact.
            if let E::Literal(Literal::U32(bits)) = self.f.expressions[x] {
                if let Some(v) = half_value(bits as u16) {
                    comps.push(self.e(E::Literal(Literal::F32(v))));
                    continue;
                }
            }
            let lo = self.bin(B::And, x, mask);
            let v2 = self.math(M::Unpack2x16float, lo, None, None);
            comps.push(self.component(v2, 0));
        }
        let ty = self.t.vec4f;
        let r = self.e(E::Compose { ty, components: comps });
        let d = self.op(ins, 0)?;
        self.write(d, r, K::F, sat)?;
        Ok(())
    }
}

/// The value of the half-precision bits `h`, exactly (every half is an f32);
/// none for an infinity or NaN, which WGSL cannot write as a literal.
/// Subnormal halves keep their value: a conversion is not arithmetic, so
/// D3D's flush of denormals does not apply, and each is a normal f32.
fn half_value(h: u16) -> Option<f32> {
    let sign = u32::from(h >> 15) << 31;
    let exponent = u32::from((h >> 10) & 0x1f);
    let mantissa = u32::from(h & 0x3ff);
    match exponent {
        0x1f => None,
        // mantissa × 2^-24, with the sign.
        0 => Some(f32::from_bits(sign | (mantissa as f32 * f32::from_bits(0x3380_0000)).to_bits())),
        e => Some(f32::from_bits(sign | ((e + 127 - 15) << 23) | (mantissa << 13))),
    }
}

#[cfg(test)]
mod tests {
    use super::half_value;

    #[test]
    fn half_values_are_exact() {
        assert_eq!(half_value(0x3c00), Some(1.0));
        assert_eq!(half_value(0xc000), Some(-2.0));
        assert_eq!(half_value(0x7bff), Some(65504.0));
        assert_eq!(half_value(0x0400), Some(2f32.powi(-14)));
        // The smallest and largest subnormals.
        assert_eq!(half_value(0x0001), Some(2f32.powi(-24)));
        assert_eq!(half_value(0x03ff), Some(1023.0 * 2f32.powi(-24)));
        assert_eq!(half_value(0x8000).map(f32::to_bits), Some(0x8000_0000));
        assert_eq!(half_value(0x8001), Some(-(2f32.powi(-24))));
        assert_eq!(half_value(0x7c00), None);
        assert_eq!(half_value(0xfe00), None);
    }
}
