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
    fn write_pair(&mut self, ins: &Instruction, first: H, second: H, k: K, sat: bool) -> Result<(), TranslateError> {
        let d0 = self.op(ins, 0)?;
        self.write(d0, first, k, sat)?;
        let d1 = self.op(ins, 1)?;
        self.write(d1, second, k, sat)
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
                if self.stage != ShaderStage::Fragment {
                    return unsupported(
                        L::DerivativesOutsidePixelShader,
                        format!("derivatives outside a pixel shader ({name})"),
                        at,
                    );
                }
                let a = src(self, 1, K::F)?;
                let (axis, ctrl) = match code {
                    O::DerivRtx => (naga::DerivativeAxis::X, naga::DerivativeControl::None),
                    O::DerivRty => (naga::DerivativeAxis::Y, naga::DerivativeControl::None),
                    O::DerivRtxCoarse => (naga::DerivativeAxis::X, naga::DerivativeControl::Coarse),
                    O::DerivRtxFine => (naga::DerivativeAxis::X, naga::DerivativeControl::Fine),
                    O::DerivRtyCoarse => (naga::DerivativeAxis::Y, naga::DerivativeControl::Coarse),
                    _ => (naga::DerivativeAxis::Y, naga::DerivativeControl::Fine),
                };
                let r = self.e(E::Derivative { axis, ctrl, expr: a });
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Mov | O::Movc => {
                // Both copy bits, in the kind the value has, unless a float
                // modifier or _sat asks for a float.
                if self.copy_is_typed(ins, code, sat) {
                    return self.copy_lanes(ins, code, Some(K::F), sat);
                }
                let d = dst(self, 0)?;
                // movc reads a condition and two sources, mov one source.
                let movc = usize::from(code == O::Movc);
                let ops = [self.op(ins, 1)?, self.op(ins, 1 + movc)?, self.op(ins, 1 + 2 * movc)?];
                let reads = &ops[..1 + 2 * movc];
                let groups = self.kind_groups(&reads[movc..], reads, d);
                self.per_kind_group(d, groups, |l, k| l.copy_lanes(ins, code, k, false))?;
            }
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
            O::Ftoi | O::Ftou => {
                // D3D: NaN → 0, out-of-range values clamp.
                let a = src(self, 1, K::F)?;
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
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Itof | O::Utof => {
                let k = if code == O::Itof { K::I } else { K::U };
                let a = src(self, 1, k)?;
                let r = self.e(E::As { expr: a, kind: ScalarKind::Float, convert: Some(4) });
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
            O::Iadd => self.add(ins, self.int_kind(ins, &[1, 2], K::I), sat)?,
            O::And => {
                // A comparison's mask and a value: the value where it holds, else zero bits.
                let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
                let masked = match self.temp_condition(s1, self.lane_mask) {
                    Some(c) => Some((c, s2)),
                    None => self.temp_condition(s2, self.lane_mask).map(|c| (c, s1)),
                };
                match masked {
                    Some((whole, other)) if other.modifier(self.p) == 0 => {
                        let whole_mask = self.lane_mask;
                        let d = dst(self, 0)?;
                        let mut groups = self.kind_groups(&[other], &[self.op(ins, 1)?, self.op(ins, 2)?], d);
                        for (lanes, k) in &mut groups {
                            if k.is_none() && self.has_integer_bits(other, *lanes) {
                                *k = Some(K::U);
                            }
                        }
                        self.per_kind_group(d, groups, |l, k| {
                            // A group of fewer lanes reads the condition's lanes again.
                            let c = if l.lane_mask == whole_mask {
                                whole
                            } else {
                                let (s1, s2) = (l.op(ins, 1)?, l.op(ins, 2)?);
                                let part =
                                    l.temp_condition(s1, l.lane_mask).or_else(|| l.temp_condition(s2, l.lane_mask));
                                let Some(c) = part else {
                                    return malformed("a comparison's result did not read back", at);
                                };
                                c
                            };
                            let (x, k) = l.read_lanes(other, k, l.lane_mask)?;
                            let zero = l.immediate(&vec![0; l.lane_mask.count_ones().clamp(1, 4) as usize], k);
                            let r = l.select(c, x, zero);
                            l.write(d, r, k, sat)
                        })?;
                    }
                    _ => binary!(self.int_kind(ins, &[1, 2], K::U), B::And),
                }
            }
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
            O::Ishl | O::Ishr | O::Ushr => {
                let k = match code {
                    O::Ishr => K::I,
                    O::Ushr => K::U,
                    _ => self.int_kind(ins, &[1], K::U),
                };
                let a = src(self, 1, k)?;
                // D3D uses the count's low five bits; an immediate count is masked here.
                let sh = match self.imm_src(ins, 2) {
                    Some(counts) => self.immediate(&counts.map(|c| c & 31)[..self.lanes], K::U),
                    None => {
                        let b = src(self, 2, K::U)?;
                        let m = self.splat_u(31);
                        self.bin(B::And, b, m)
                    }
                };
                let r = self.bin(if code == O::Ishl { B::ShiftLeft } else { B::ShiftRight }, a, sh);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
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
            O::Imul | O::Umul => {
                // imul/umul hi, lo, a, b: only the low half is expressible directly.
                if self.op(ins, 0)?.operand_type() != Some(OT::Null) {
                    return unsupported(
                        L::WideMultiply,
                        format!("{name} with the high 32 bits of the product used"),
                        at,
                    );
                }
                let k = if code == O::Imul { K::I } else { K::U };
                let a = src(self, 2, k)?;
                let b = src(self, 3, k)?;
                let r = self.bin(B::Multiply, a, b);
                let d = dst(self, 1)?;
                self.write(d, r, k, false)?;
            }
            O::Udiv => {
                // udiv q, r, a, b — division by zero gives 0xffffffff for both.
                let written = |l: &Self, i: usize| {
                    l.op(ins, i).ok().filter(|d| d.operand_type() != Some(OT::Null)).map(|d| l.dst_mask_of(d) & 0xf)
                };
                let (wq, wr) = (written(self, 0), written(self, 1));
                // The lanes written, when one destination is null or both
                // write the same lanes (the value's lanes are then the
                // destinations').
                let lanes = match (wq, wr) {
                    (Some(m), None) | (None, Some(m)) => m,
                    (Some(m), Some(n)) if m == n => m,
                    _ => 0,
                };
                let divisor = self.op(ins, 3)?;
                let nonzero_literal = lanes != 0
                    && divisor.modifier(self.p) == 0
                    && (0..4)
                        .filter(|l| lanes & (1 << l) != 0)
                        .all(|l| self.lane_immediate(divisor, l).is_some_and(|b| b != 0));
                // Each result only where it is written (an unused one would
                // count as a reader of the divisor).
                let ops = [(wq.is_some(), B::Divide, 0), (wr.is_some(), B::Modulo, 1)];
                if nonzero_literal {
                    // A literal divisor with no zero lane among those
                    // written needs no guard; those lanes alone are computed.
                    self.lane_mask = lanes;
                    self.lanes = lanes.count_ones() as usize;
                    let a = src(self, 2, K::U)?;
                    let b = src(self, 3, K::U)?;
                    for (used, op, d) in ops {
                        if used {
                            let v = self.bin(op, a, b);
                            self.write(self.op(ins, d)?, v, K::U, false)?;
                        }
                    }
                } else {
                    let a = src(self, 2, K::U)?;
                    let b = src(self, 3, K::U)?;
                    let z = self.splat_u(0);
                    let is0 = self.bin(B::Equal, b, z);
                    let one = self.splat_u(1);
                    let safe = self.select(is0, one, b);
                    let all = self.splat_u(u32::MAX);
                    for (used, op, d) in ops {
                        if used {
                            let v = self.bin(op, a, safe);
                            let v = self.select(is0, all, v);
                            self.write(self.op(ins, d)?, v, K::U, false)?;
                        }
                    }
                }
            }
            O::Uaddc | O::Usubb => {
                // uaddc / usubb dst, carry, a, b
                let a = src(self, 2, K::U)?;
                let b = src(self, 3, K::U)?;
                let (r, carry) = if code == O::Uaddc {
                    let s = self.bin(B::Add, a, b);
                    let c = self.bin(B::Less, s, a);
                    (s, c)
                } else {
                    let s = self.bin(B::Subtract, a, b);
                    let c = self.bin(B::Less, a, b);
                    (s, c)
                };
                let one = self.splat_u(1);
                let z = self.splat_u(0);
                let c = self.select(carry, one, z);
                self.write_pair(ins, r, c, K::U, false)?;
            }
            O::Countbits => unary_math!(K::U, M::CountOneBits),
            O::Bfrev => unary_math!(K::U, M::ReverseBits),
            O::FirstbitLo => unary_math!(K::U, M::FirstTrailingBit),
            O::FirstbitHi | O::FirstbitShi => {
                // Counted from the most significant bit; 0xffffffff when none.
                let k = if code == O::FirstbitHi { K::U } else { K::I };
                let a = src(self, 1, k)?;
                let f = self.math(M::FirstLeadingBit, a, None, None);
                let fu = self.bitcast(f, k, K::U);
                let none = self.splat_u(u32::MAX);
                let is_none = self.bin(B::Equal, fu, none);
                let thirty_one = self.splat_u(31);
                let from_top = self.bin(B::Subtract, thirty_one, fu);
                let r = self.select(is_none, none, from_top);
                let d = dst(self, 0)?;
                self.write(d, r, K::U, false)?;
            }
            O::Ubfe | O::Ibfe => {
                // ubfe/ibfe width, offset, value with D3D's masking rules.
                let k = if code == O::Ubfe { K::U } else { K::I };
                if let (Some(w), Some(o)) = (self.imm_src(ins, 1), self.imm_src(ins, 2)) {
                    if let Some(r) = self.bitfield_extract_imm(ins, k, w, o)? {
                        let d = dst(self, 0)?;
                        self.write(d, r, k, false)?;
                        return Ok(());
                    }
                }
                let w = src(self, 1, K::U)?;
                let o = src(self, 2, K::U)?;
                let v = src(self, 3, k)?;
                let m31 = self.splat_u(31);
                let w = self.bin(B::And, w, m31);
                let o = self.bin(B::And, o, m31);
                let wo = self.bin(B::Add, w, o);
                let c32 = self.splat_u(32);
                let fits = self.bin(B::Less, wo, c32);
                let l = self.bin(B::Subtract, c32, wo);
                let rsh = self.bin(B::Subtract, c32, w);
                let shl = self.bin(B::ShiftLeft, v, l);
                let a = self.bin(B::ShiftRight, shl, rsh);
                let b = self.bin(B::ShiftRight, v, o);
                let res = self.select(fits, a, b);
                let z = self.splat_u(0);
                let w0 = self.bin(B::Equal, w, z);
                let zero = if k == K::U { self.splat_u(0) } else { self.splat_i(0) };
                let r = self.select(w0, zero, res);
                let d = dst(self, 0)?;
                self.write(d, r, k, false)?;
            }
            O::Bfi => {
                // bfi width, offset, src, dst
                if let (Some(w), Some(o)) = (self.imm_src(ins, 1), self.imm_src(ins, 2)) {
                    let r = self.bitfield_insert_imm(ins, w, o)?;
                    let d = dst(self, 0)?;
                    self.write(d, r, K::U, false)?;
                    return Ok(());
                }
                let w = src(self, 1, K::U)?;
                let o = src(self, 2, K::U)?;
                let s = src(self, 3, K::U)?;
                let base = src(self, 4, K::U)?;
                let m31 = self.splat_u(31);
                let w = self.bin(B::And, w, m31);
                let o = self.bin(B::And, o, m31);
                let one = self.splat_u(1);
                let bits = self.bin(B::ShiftLeft, one, w);
                let low = self.bin(B::Subtract, bits, one);
                let mask = self.bin(B::ShiftLeft, low, o);
                let sh = self.bin(B::ShiftLeft, s, o);
                let ins_bits = self.bin(B::And, sh, mask);
                let inv = self.e(E::Unary { op: UnaryOperator::BitwiseNot, expr: mask });
                let keep = self.bin(B::And, base, inv);
                let r = self.bin(B::InclusiveOr, ins_bits, keep);
                let d = dst(self, 0)?;
                self.write(d, r, K::U, false)?;
            }
            O::F32tof16 => {
                // f32tof16: the half's bits in the low 16 bits of each component.
                let a = src(self, 1, K::F)?;
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
                let d = dst(self, 0)?;
                self.write(d, r, K::U, false)?;
            }
            O::F16tof32 => {
                let a = src(self, 1, K::U)?;
                let mask = self.lit_u(0xffff);
                let mut comps = Vec::new();
                for c in 0..4 {
                    let x = self.component(a, c);
                    let lo = self.bin(B::And, x, mask);
                    let v2 = self.math(M::Unpack2x16float, lo, None, None);
                    comps.push(self.component(v2, 0));
                }
                let ty = self.t.vec4f;
                let r = self.e(E::Compose { ty, components: comps });
                let d = dst(self, 0)?;
                self.write(d, r, K::F, sat)?;
            }
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

    /// Source `i`'s lanes (those the instruction computes) when every one is
    /// an immediate with no modifier; lanes past `self.lanes` are zero.
    fn imm_src(&self, ins: &Instruction, i: usize) -> Option<[u32; 4]> {
        let op = self.op(ins, i).ok()?;
        if OperandModifier::from_u32(op.modifier(self.p)) != Some(OperandModifier::None) {
            return None;
        }
        let all = self.immediate_lanes(op)?;
        let mut out = [0; 4];
        for (n, c) in (0..4).filter(|c| self.lane_mask & (1 << c) != 0).enumerate() {
            out[n] = all[c];
        }
        Some(out)
    }

    /// `ubfe`/`ibfe` with immediate widths and offsets, decided per lane at
    /// translation time (D3D's rules: width and offset masked to five bits,
    /// width 0 gives 0, a field past bit 31 is `value >> offset`). None when
    /// the lanes fall in different cases.
    fn bitfield_extract_imm(
        &mut self,
        ins: &Instruction,
        k: K,
        w: [u32; 4],
        o: [u32; 4],
    ) -> Result<Option<H>, TranslateError> {
        let n = self.lanes;
        let (w, o) = (w.map(|x| x & 31), o.map(|x| x & 31));
        #[derive(PartialEq)]
        enum Case {
            Zero,
            Field,
            Tail,
        }
        let case = |i: usize| match (w[i], w[i] + o[i] < 32) {
            (0, _) => Case::Zero,
            (_, true) => Case::Field,
            (_, false) => Case::Tail,
        };
        let first = case(0);
        if (1..n).any(|i| case(i) != first) {
            return Ok(None);
        }
        if first == Case::Zero {
            return Ok(Some(self.immediate(&vec![0; n], k)));
        }
        let op = self.op(ins, 3)?;
        let v = self.read_masked(op, k, self.lane_mask)?;
        Ok(Some(match first {
            Case::Tail => {
                let sh = self.immediate(&o[..n], K::U);
                self.bin(B::ShiftRight, v, sh)
            }
            // Unsigned: shift down, mask the width.
            _ if k == K::U => {
                let sh = self.immediate(&o[..n], K::U);
                let shifted = if o[..n].iter().all(|&x| x == 0) { v } else { self.bin(B::ShiftRight, v, sh) };
                let masks: Vec<u32> = (0..n).map(|i| u32::MAX >> (32 - w[i])).collect();
                let m = self.immediate(&masks, K::U);
                self.bin(B::And, shifted, m)
            }
            // Signed: the field to the top, then an arithmetic shift down.
            _ => {
                let up: Vec<u32> = (0..n).map(|i| 32 - w[i] - o[i]).collect();
                let down: Vec<u32> = (0..n).map(|i| 32 - w[i]).collect();
                let up = self.immediate(&up, K::U);
                let down = self.immediate(&down, K::U);
                let shl = self.bin(B::ShiftLeft, v, up);
                self.bin(B::ShiftRight, shl, down)
            }
        }))
    }

    /// `bfi` with immediate widths and offsets: the field mask is a literal.
    fn bitfield_insert_imm(&mut self, ins: &Instruction, w: [u32; 4], o: [u32; 4]) -> Result<H, TranslateError> {
        let n = self.lanes;
        let (w, o) = (w.map(|x| x & 31), o.map(|x| x & 31));
        // ((1 << width) - 1) << offset, as D3D defines the mask.
        let masks: Vec<u32> = (0..n).map(|i| ((1u32 << w[i]) - 1) << o[i]).collect();
        let s = self.read_masked(self.op(ins, 3)?, K::U, self.lane_mask)?;
        let base = self.read_masked(self.op(ins, 4)?, K::U, self.lane_mask)?;
        let shifted = if o[..n].iter().all(|&x| x == 0) {
            s
        } else {
            let sh = self.immediate(&o[..n], K::U);
            self.bin(B::ShiftLeft, s, sh)
        };
        let m = self.immediate(&masks, K::U);
        let field = self.bin(B::And, shifted, m);
        let base_zero = self.imm_src(ins, 4).is_some_and(|b| b[..n].iter().all(|&x| x == 0));
        if base_zero {
            return Ok(field);
        }
        let inverse: Vec<u32> = masks.iter().map(|m| !m).collect();
        let keep_mask = self.immediate(&inverse, K::U);
        let keep = self.bin(B::And, base, keep_mask);
        Ok(self.bin(B::InclusiveOr, field, keep))
    }
}
