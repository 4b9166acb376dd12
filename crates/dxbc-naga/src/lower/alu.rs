//! Arithmetic, logic and conversion instructions (`Lower::alu`): one
//! naga expression per written lane group, with D3D's results spelt out
//! where WGSL's differ (division by zero, shift counts, float-to-int of NaN
//! and out-of-range values, bit-field extraction), and literal bit-field
//! operands folded into plain shifts and masks.

use super::*;

impl<'a> Lower<'a> {
    /// `add` and `iadd`: a sum, or `b - a` where only source `a` is
    /// negated. The same value (IEEE defines `b - a` as `b + -a`; integers
    /// wrap either way), and an unsigned one needs no detour through i32
    /// to negate. Not for two integer constants: WGSL refuses a constant
    /// expression that overflows (`1u - 3u`), where the negation through
    /// i32 is exact.
    fn add(&mut self, ins: &Instruction, k: K, sat: bool) -> Result<(), TranslateError> {
        let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
        let negated = |op: &Operand| OperandModifier::from_u32(op.modifier(self.p)) == Some(OperandModifier::Neg);
        let (n1, n2) = (negated(s1), negated(s2));
        let r = if n1 != n2 {
            let (minus, plus) = if n1 { (s1, s2) } else { (s2, s1) };
            let (m, _) = self.read_lanes(minus, Some(k), self.lane_mask)?;
            let p = self.read_masked(plus, k, self.lane_mask)?;
            if k == K::F || !(self.is_constant(m) && self.is_constant(p)) {
                self.bin(B::Subtract, p, m)
            } else {
                // The negation as `read_masked` would apply it.
                let m = self.apply_modifiers(minus, m, k, Some(lanes_of(self.lane_mask)));
                if n1 {
                    self.bin(B::Add, m, p)
                } else {
                    self.bin(B::Add, p, m)
                }
            }
        } else {
            let a = self.read_masked(s1, k, self.lane_mask)?;
            let b = self.read_masked(s2, k, self.lane_mask)?;
            self.sum(a, b)
        };
        let d = self.op(ins, 0)?;
        self.write(d, r, k, sat)
    }

    /// `a + b`, or `a - 24` where `b` is the literal -24 (either operand):
    /// as a person writes it, and the same value in IEEE and in wrapping
    /// integer arithmetic. Not when the other operand is a constant too:
    /// WGSL would evaluate either form when the shader is created, and may
    /// refuse it.
    pub(crate) fn sum(&mut self, a: H, b: H) -> H {
        let negative = |l: &Self, x: H, other: H| l.negation(x).filter(|_| !l.is_constant(other));
        if let Some(nb) = negative(self, b, a) {
            let nb = self.negated(nb);
            self.bin(B::Subtract, a, nb)
        } else if let Some(na) = negative(self, a, b) {
            let na = self.negated(na);
            self.bin(B::Subtract, b, na)
        } else {
            self.bin(B::Add, a, b)
        }
    }

    /// The negation of `x` when it is a literal negative in every lane (a
    /// float with its sign bit set, not a NaN; an integer below zero as an
    /// i32, not i32::MIN, whose negation is itself): scalars, splats and
    /// vectors of literals.
    fn negation(&self, x: H) -> Option<Negation> {
        let negated = |h: H| match self.f.expressions[h] {
            E::Literal(Literal::F32(v)) if v.is_sign_negative() && !v.is_nan() => Some(Literal::F32(-v)),
            E::Literal(Literal::I32(v)) if v < 0 && v != i32::MIN => Some(Literal::I32(-v)),
            E::Literal(Literal::U32(v)) if (v as i32) < 0 && v as i32 != i32::MIN => {
                Some(Literal::U32(v.wrapping_neg()))
            }
            _ => None,
        };
        match self.f.expressions[x] {
            E::Literal(_) => negated(x).map(Negation::Scalar),
            E::Splat { size, value } => negated(value).map(|l| Negation::Splat(size, l)),
            E::Compose { ty, ref components } => {
                components.iter().map(|&c| negated(c)).collect::<Option<Vec<_>>>().map(|l| Negation::Vector(ty, l))
            }
            _ => None,
        }
    }

    /// The literal a [`Negation`] describes.
    fn negated(&mut self, n: Negation) -> H {
        match n {
            Negation::Scalar(l) => self.e(E::Literal(l)),
            Negation::Splat(size, l) => {
                let value = self.e(E::Literal(l));
                self.e(E::Splat { size, value })
            }
            Negation::Vector(ty, lanes) => {
                let components = lanes.into_iter().map(|l| self.e(E::Literal(l))).collect();
                self.e(E::Compose { ty, components })
            }
        }
    }

    /// Whether `h` may be a constant expression for WGSL (which a browser
    /// evaluates when it creates the shader): every leaf a literal. Past a
    /// few dozen nodes the answer is yes, which only keeps the caller on
    /// its safe path.
    pub(crate) fn is_constant(&self, h: H) -> bool {
        let mut budget = 64u32;
        let mut stack = vec![h];
        while let Some(h) = stack.pop() {
            if budget == 0 {
                return true;
            }
            budget -= 1;
            match self.f.expressions[h] {
                E::Literal(_) | E::ZeroValue(_) | E::Constant(_) => {}
                E::Splat { value: x, .. }
                | E::Swizzle { vector: x, .. }
                | E::AccessIndex { base: x, .. }
                | E::As { expr: x, .. }
                | E::Unary { expr: x, .. } => stack.push(x),
                E::Binary { left, right, .. } => stack.extend([left, right]),
                E::Access { base, index } => stack.extend([base, index]),
                E::Select { condition, accept, reject } => stack.extend([condition, accept, reject]),
                E::Math { arg, arg1, arg2, arg3, .. } => {
                    stack.extend([Some(arg), arg1, arg2, arg3].into_iter().flatten())
                }
                E::Compose { ref components, .. } => stack.extend(components.iter().copied()),
                _ => return false,
            }
        }
        true
    }

    /// Writes the two results of a two-destination instruction (sincos,
    /// swapc, udiv, uaddc/usubb) to operands 0 and 1.
    pub(super) fn write_pair(
        &mut self,
        ins: &Instruction,
        first: H,
        second: H,
        k: K,
        sat: bool,
    ) -> Result<(), TranslateError> {
        let d0 = self.op(ins, 0)?;
        self.write(d0, first, k, sat)?;
        let d1 = self.op(ins, 1)?;
        self.write(d1, second, k, sat)
    }

    /// Source `i` of `ins`, the lanes the instruction computes, in kind `k`.
    pub(super) fn src(&mut self, ins: &Instruction, i: usize, k: K) -> Result<H, TranslateError> {
        let op = self.op(ins, i)?;
        self.read_masked(op, k, self.lane_mask)
    }

    pub(crate) fn alu(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let sat = saturate(ins);
        let name = code.info().asm;
        // A component-wise instruction computes only the lanes its
        // destination mask writes.
        if component_wise(code) {
            if let Some(d) = ins.operand(self.p, 0).filter(|d| d.operand_type() != Some(OT::Null)) {
                let mask = self.dst_mask_of(d) & 0xf;
                if mask != 0 {
                    self.lane_mask = mask;
                    self.lanes = mask.count_ones() as usize;
                }
            }
        }
        let src = |l: &mut Self, i: usize, k: K| -> Result<H, TranslateError> {
            let op = l.op(ins, i)?;
            l.read_masked(op, k, l.lane_mask)
        };
        let dst = |l: &mut Self, i: usize| l.op(ins, i);
        macro_rules! binary {
            ($k:expr, $op:expr) => {{
                let k = $k;
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let r = self.bin($op, a, b);
                let d = dst(self, 0)?;
                self.write(d, r, k, sat)?;
            }};
        }
        macro_rules! compare {
            ($k:expr, $op:expr) => {{
                let k = $k;
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let c = self.bin($op, a, b);
                let d = dst(self, 0)?;
                self.write_bool(d, c)?;
            }};
        }
        macro_rules! unary_math {
            ($k:expr, $f:expr) => {{
                let a = src(self, 1, $k)?;
                let r = self.math($f, a, None, None);
                let d = dst(self, 0)?;
                self.write(d, r, $k, sat)?;
            }};
        }
        match code {
            O::Add => self.add(ins, K::F, sat)?,
            O::Mul => binary!(K::F, B::Multiply),
            O::Div => binary!(K::F, B::Divide),
            O::Min | O::Max => {
                let a = src(self, 1, K::F)?;
                let b = src(self, 2, K::F)?;
                let r = self.math(if code == O::Min { M::Min } else { M::Max }, a, Some(b), None);
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Mad => {
                let a = src(self, 1, K::F)?;
                let b = src(self, 2, K::F)?;
                let c = src(self, 3, K::F)?;
                let m = self.bin(B::Multiply, a, b);
                let r = self.sum(m, c);
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Dp2 | O::Dp3 | O::Dp4 => {
                let n = match code {
                    O::Dp2 => 2,
                    O::Dp3 => 3,
                    _ => 4,
                };
                // Only the first n lanes of each source take part: read just those.
                let lanes = (1u32 << n) - 1;
                let a = self.read_masked(self.op(ins, 1)?, K::F, lanes)?;
                let b = self.read_masked(self.op(ins, 2)?, K::F, lanes)?;
                let dot = self.math(M::Dot, a, Some(b), None);
                // One scalar for every component the mask writes.
                self.lanes = 1;
                let d = dst(self, 0)?;
                self.write(d, dot, K::F, sat)?;
            }
            O::And | O::Or | O::Ieq | O::Ine
                if self.is_condition(self.op(ins, 1)?, self.lane_mask)
                    && self.is_condition(self.op(ins, 2)?, self.lane_mask) =>
            {
                // Two comparisons' masks: the bools combined (masks are
                // equal exactly when their bools are).
                let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
                let (Some(a), Some(b)) =
                    (self.temp_condition(s1, self.lane_mask), self.temp_condition(s2, self.lane_mask))
                else {
                    return malformed("a comparison's result did not read back", at);
                };
                let op = match code {
                    O::And => B::And,
                    O::Or => B::InclusiveOr,
                    O::Ieq => B::Equal,
                    _ => B::NotEqual,
                };
                let r = self.bin(op, a, b);
                let d = dst(self, 0)?;
                self.write_bool(d, r)?;
            }
            O::Eq => compare!(K::F, B::Equal),
            O::Ne => compare!(K::F, B::NotEqual),
            O::Lt => compare!(K::F, B::Less),
            O::Ge => compare!(K::F, B::GreaterEqual),
            // Sign-agnostic integer operations work in the integer kind their
            // sources already have (no i32/u32 bitcasts for nothing).
            O::Ieq => compare!(self.int_kind(ins, &[1, 2], K::I), B::Equal),
            O::Ine => compare!(self.int_kind(ins, &[1, 2], K::I), B::NotEqual),
            O::Ilt => compare!(K::I, B::Less),
            O::Ige => compare!(K::I, B::GreaterEqual),
            O::Ult => compare!(K::U, B::Less),
            O::Uge => compare!(K::U, B::GreaterEqual),
            O::Frc => unary_math!(K::F, M::Fract),
            O::RoundNe => unary_math!(K::F, M::Round),
            O::RoundNi => unary_math!(K::F, M::Floor),
            O::RoundPi => unary_math!(K::F, M::Ceil),
            O::RoundZ => unary_math!(K::F, M::Trunc),
            O::Sqrt => unary_math!(K::F, M::Sqrt),
            O::Rsq => unary_math!(K::F, M::InverseSqrt),
            O::Exp => unary_math!(K::F, M::Exp2),
            O::Log => unary_math!(K::F, M::Log2),
            O::Rcp => {
                let a = src(self, 1, K::F)?;
                let one = self.splat_f(1.0);
                let r = self.bin(B::Divide, one, a);
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Sincos => {
                let a = src(self, 2, K::F)?;
                let s = self.math(M::Sin, a, None, None);
                let c = self.math(M::Cos, a, None, None);
                self.write_pair(ins, s, c, K::F, sat)?;
            }
            O::DerivRtx | O::DerivRty | O::DerivRtxCoarse | O::DerivRtxFine | O::DerivRtyCoarse | O::DerivRtyFine => {
                self.derivative(ins, code, sat)?
            }
            O::Mov | O::Movc => self.copy(ins, code, sat)?,
            O::Swapc => {
                // swapc d0, d1, cond, a, b: d0 = cond ? b : a; d1 = cond ? a : b
                let c = src(self, 2, K::U)?;
                let a = src(self, 3, K::U)?;
                let b = src(self, 4, K::U)?;
                let z = self.splat_u(0);
                let cb = self.bin(B::NotEqual, c, z);
                let r0 = self.select(cb, b, a);
                let r1 = self.select(cb, a, b);
                self.write_pair(ins, r0, r1, K::U, false)?;
            }
            O::Ftoi | O::Ftou => self.float_to_int(ins, code)?,
            O::Itof | O::Utof => {
                let k = if code == O::Itof { K::I } else { K::U };
                let a = src(self, 1, k)?;
                let r = match self.exact_float_of_literal(a) {
                    Some(r) => r,
                    None => self.e(E::As { expr: a, kind: ScalarKind::Float, convert: Some(4) }),
                };
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Iadd => self.add(ins, self.int_kind(ins, &[1, 2], K::I), sat)?,
            O::And => self.and(ins, sat)?,
            O::Or => binary!(self.int_kind(ins, &[1, 2], K::U), B::InclusiveOr),
            O::Xor => binary!(self.int_kind(ins, &[1, 2], K::U), B::ExclusiveOr),
            O::Not => {
                let k = self.int_kind(ins, &[1], K::U);
                let a = src(self, 1, k)?;
                let r = self.e(E::Unary { op: UnaryOperator::BitwiseNot, expr: a });
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Ineg => {
                let a = src(self, 1, K::I)?;
                let r = self.e(E::Unary { op: UnaryOperator::Negate, expr: a });
                let d = dst(self, 0)?;
                self.write(d, r, K::I, false)?;
            }
            O::Imax | O::Imin | O::Umax | O::Umin => {
                let k = if matches!(code, O::Imax | O::Imin) { K::I } else { K::U };
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let r = self.math(if matches!(code, O::Imax | O::Umax) { M::Max } else { M::Min }, a, Some(b), None);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Ishl | O::Ishr | O::Ushr => self.shift(ins, code)?,
            O::Imad | O::Umad => {
                // The low 32 bits of a product and sum do not depend on sign.
                let k = self.int_kind(ins, &[1, 2, 3], if code == O::Imad { K::I } else { K::U });
                let a = src(self, 1, k)?;
                let b = src(self, 2, k)?;
                let c = src(self, 3, k)?;
                let m = self.bin(B::Multiply, a, b);
                let r = self.sum(m, c);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Imul | O::Umul => self.multiply_low(ins, code)?,
            O::Udiv => self.udiv(ins)?,
            O::Uaddc | O::Usubb => self.carry(ins, code)?,
            O::Countbits => unary_math!(K::U, M::CountOneBits),
            O::Bfrev => unary_math!(K::U, M::ReverseBits),
            O::FirstbitLo => unary_math!(K::U, M::FirstTrailingBit),
            O::FirstbitHi | O::FirstbitShi => self.first_bit_high(ins, code)?,
            O::Ubfe | O::Ibfe => self.bitfield_extract(ins, code)?,
            O::Bfi => self.bitfield_insert(ins)?,
            O::F32tof16 => self.f32_to_f16(ins)?,
            O::F16tof32 => self.f16_to_f32(ins, sat)?,
            // The double-precision family, as the Limitation table lists it.
            c if crate::Limitation::of_opcode(c) == Some(crate::Limitation::Doubles) => return self.double(ins, code),
            O::Sample | O::SampleC | O::SampleCLz | O::SampleL | O::SampleD | O::SampleB => {
                return self.sample(ins, code)
            }
            O::Gather4 | O::Gather4C | O::Gather4Po | O::Gather4PoC => return self.gather(ins, code),
            O::Ld | O::LdMs => return self.load_texture(ins),
            O::Resinfo => return self.resinfo(ins),
            O::LdRaw | O::LdStructured => return self.load_words(ins, code),
            O::StoreRaw | O::StoreStructured => return self.store_words(ins, code),
            c if c.info().class == dxbc::spec::OpClass::Atomic => return self.atomic(ins, code),
            O::Bufinfo => return self.bufinfo(ins),
            O::SampleInfo => return self.sampleinfo(ins),
            O::LdUavTyped => return self.load_typed_uav(ins),
            O::StoreUavTyped => return self.store_typed_uav(ins),
            O::Sync => return self.sync(ins),
            O::Msad => return self.msad(ins),
            O::Lod => return self.lod(ins),
            O::SamplePos => return self.samplepos(ins),
            O::EvalCentroid | O::EvalSampleIndex | O::EvalSnapped => return self.eval(ins, code),
            c if c == O::CheckAccessFullyMapped || crate::emulate::feedback::sibling(c).is_some() => {
                return self.feedback(ins, code)
            }
            _ => {
                return match Limitation::of_opcode(code) {
                    Some(l) => unsupported(l, format!("instruction {name}"), at),
                    None => malformed(format!("instruction {name} cannot appear in a {:?} shader", self.stage), at),
                }
            }
        }
        Ok(())
    }

    /// `deriv_rtx` and `deriv_rty` (coarse, fine): the source's derivative
    /// along x or y, in pixel shaders only.
    fn derivative(&mut self, ins: &Instruction, code: O, sat: bool) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let name = code.info().asm;
        if self.stage != ShaderStage::Fragment {
            return unsupported(
                L::DerivativesOutsidePixelShader,
                format!("derivatives outside a pixel shader ({name})"),
                at,
            );
        }
        let a = self.src(ins, 1, K::F)?;
        let (axis, ctrl) = match code {
            O::DerivRtx => (naga::DerivativeAxis::X, naga::DerivativeControl::None),
            O::DerivRty => (naga::DerivativeAxis::Y, naga::DerivativeControl::None),
            O::DerivRtxCoarse => (naga::DerivativeAxis::X, naga::DerivativeControl::Coarse),
            O::DerivRtxFine => (naga::DerivativeAxis::X, naga::DerivativeControl::Fine),
            O::DerivRtyCoarse => (naga::DerivativeAxis::Y, naga::DerivativeControl::Coarse),
            _ => (naga::DerivativeAxis::Y, naga::DerivativeControl::Fine),
        };
        let r = self.e(E::Derivative { axis, ctrl, expr: a });
        let d = self.op(ins, 0)?;
        self.write(d, r, K::F, sat)?;
        Ok(())
    }
}
