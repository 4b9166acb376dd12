//! Integer instructions whose D3D results need more than one WGSL
//! operator: masks combined with values, shift counts, the low half of
//! products, division by zero, carries and borrows.

use super::*;

impl<'a> Lower<'a> {
    /// `and`: a comparison's mask and a value select the value where it holds
    /// (else zero bits); otherwise the bits' `&` in the integer kind the
    /// sources have.
    pub(super) fn and(&mut self, ins: &Instruction, sat: bool) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        // A comparison's mask and a value: the value where it holds, else zero bits.
        let (s1, s2) = (self.op(ins, 1)?, self.op(ins, 2)?);
        let masked = match self.temp_condition(s1, self.lane_mask) {
            Some(c) => Some((c, s2)),
            None => self.temp_condition(s2, self.lane_mask).map(|c| (c, s1)),
        };
        match masked {
            Some((whole, other)) if other.modifier(self.p) == 0 => {
                let whole_mask = self.lane_mask;
                let d = self.op(ins, 0)?;
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
                        let part = l.temp_condition(s1, l.lane_mask).or_else(|| l.temp_condition(s2, l.lane_mask));
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
            _ => {
                let k = self.int_kind(ins, &[1, 2], K::U);
                let a = self.src(ins, 1, k)?;
                let b = self.src(ins, 2, k)?;
                let r = self.bin(B::And, a, b);
                let d = self.op(ins, 0)?;
                self.write(d, r, k, sat)?;
            }
        }
        Ok(())
    }

    /// `ishl`, `ishr` and `ushr`, by the count's low five bits (an immediate
    /// count is masked here).
    pub(super) fn shift(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let k = match code {
            O::Ishr => K::I,
            O::Ushr => K::U,
            _ => self.int_kind(ins, &[1], K::U),
        };
        let a = self.src(ins, 1, k)?;
        // D3D uses the count's low five bits; an immediate count is masked here.
        let sh = match self.imm_src(ins, 2) {
            Some(counts) => self.immediate(&counts.map(|c| c & 31)[..self.lanes], K::U),
            None => {
                let b = self.src(ins, 2, K::U)?;
                let m = self.splat_u(31);
                self.bin(B::And, b, m)
            }
        };
        let r = self.bin(if code == O::Ishl { B::ShiftLeft } else { B::ShiftRight }, a, sh);
        let d = self.op(ins, 0)?;
        self.write(d, r, k, false)?;
        Ok(())
    }

    /// `imul` and `umul` where only the low 32 bits of the product are used
    /// (the high half has no WGSL form).
    pub(super) fn multiply_low(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let name = code.info().asm;
        // imul/umul hi, lo, a, b: only the low half is expressible directly.
        if self.op(ins, 0)?.operand_type() != Some(OT::Null) {
            return unsupported(L::WideMultiply, format!("{name} with the high 32 bits of the product used"), at);
        }
        let k = if code == O::Imul { K::I } else { K::U };
        let a = self.src(ins, 2, k)?;
        let b = self.src(ins, 3, k)?;
        let r = self.bin(B::Multiply, a, b);
        let d = self.op(ins, 1)?;
        self.write(d, r, k, false)?;
        Ok(())
    }

    /// `udiv` quotient and remainder; division by zero gives 0xffffffff for
    /// both.
    pub(super) fn udiv(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
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
            let a = self.src(ins, 2, K::U)?;
            let b = self.src(ins, 3, K::U)?;
            for (used, op, d) in ops {
                if used {
                    let v = self.bin(op, a, b);
                    self.write(self.op(ins, d)?, v, K::U, false)?;
                }
            }
        } else {
            let a = self.src(ins, 2, K::U)?;
            let b = self.src(ins, 3, K::U)?;
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
        Ok(())
    }

    /// `uaddc` and `usubb`: the wrapped sum or difference and its carry or
    /// borrow (1 or 0).
    pub(super) fn carry(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        // uaddc / usubb dst, carry, a, b
        let a = self.src(ins, 2, K::U)?;
        let b = self.src(ins, 3, K::U)?;
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
        Ok(())
    }
}
