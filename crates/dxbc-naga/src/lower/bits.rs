//! Bit instructions: the highest set bit, and bit-field extraction and
//! insertion with D3D's masking rules, folded into plain shifts and masks
//! where the fields are immediates.

use super::*;

impl<'a> Lower<'a> {
    /// `firstbit_hi` and `firstbit_shi`, counted from the most significant bit;
    /// 0xffffffff when there is none.
    pub(super) fn first_bit_high(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        // Counted from the most significant bit; 0xffffffff when none.
        let k = if code == O::FirstbitHi { K::U } else { K::I };
        let a = self.src(ins, 1, k)?;
        let f = self.math(M::FirstLeadingBit, a, None, None);
        let fu = self.bitcast(f, k, K::U);
        let none = self.splat_u(u32::MAX);
        let is_none = self.bin(B::Equal, fu, none);
        let thirty_one = self.splat_u(31);
        let from_top = self.bin(B::Subtract, thirty_one, fu);
        let r = self.select(is_none, none, from_top);
        let d = self.op(ins, 0)?;
        self.write(d, r, K::U, false)?;
        Ok(())
    }

    /// `ubfe` and `ibfe` (width, offset, value) with D3D's masking rules;
    /// immediate fields are decided here.
    pub(super) fn bitfield_extract(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        // ubfe/ibfe width, offset, value with D3D's masking rules.
        let k = if code == O::Ubfe { K::U } else { K::I };
        if let (Some(w), Some(o)) = (self.imm_src(ins, 1), self.imm_src(ins, 2)) {
            if let Some(r) = self.bitfield_extract_imm(ins, k, w, o)? {
                let d = self.op(ins, 0)?;
                self.write(d, r, k, false)?;
                return Ok(());
            }
        }
        // An immediate width (or offset) is masked here, and what follows
        // from it alone is decided here: `32 - width`, and whether a lane
        // has width 0.
        let imm_w = self.imm_src(ins, 1).map(|w| w.map(|x| x & 31));
        let n = self.lanes;
        if imm_w.is_some_and(|w| w[..n].iter().all(|&x| x == 0)) {
            let r = self.immediate(&vec![0; n], k);
            let d = self.op(ins, 0)?;
            self.write(d, r, k, false)?;
            return Ok(());
        }
        let w = self.field_src(ins, 1)?;
        let o = self.field_src(ins, 2)?;
        let v = self.src(ins, 3, k)?;
        let wo = self.bin(B::Add, w, o);
        let c32 = self.splat_u(32);
        let fits = self.bin(B::Less, wo, c32);
        let l = self.bin(B::Subtract, c32, wo);
        let rsh = match imm_w {
            // A lane of width 0 is 0 whatever this shift gives (the select
            // below), and a constant shift by 32 is invalid: it shifts by 0.
            Some(w) => {
                self.immediate(&w[..n].iter().map(|&x| if x == 0 { 0 } else { 32 - x }).collect::<Vec<_>>(), K::U)
            }
            None => self.bin(B::Subtract, c32, w),
        };
        let shl = self.bin(B::ShiftLeft, v, l);
        let a = self.bin(B::ShiftRight, shl, rsh);
        let b = self.bin(B::ShiftRight, v, o);
        let res = self.select(fits, a, b);
        let r = if imm_w.is_some_and(|w| w[..n].iter().all(|&x| x != 0)) {
            res
        } else {
            let z = self.splat_u(0);
            let w0 = self.bin(B::Equal, w, z);
            let zero = if k == K::U { self.splat_u(0) } else { self.splat_i(0) };
            self.select(w0, zero, res)
        };
        let d = self.op(ins, 0)?;
        self.write(d, r, k, false)?;
        Ok(())
    }

    /// `bfi` (width, offset, source, base) with D3D's masking rules; immediate
    /// fields are decided here.
    pub(super) fn bitfield_insert(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        // bfi width, offset, src, dst
        if let (Some(w), Some(o)) = (self.imm_src(ins, 1), self.imm_src(ins, 2)) {
            let r = self.bitfield_insert_imm(ins, w, o)?;
            let d = self.op(ins, 0)?;
            self.write(d, r, K::U, false)?;
            return Ok(());
        }
        // An immediate width gives the field's low mask as a literal.
        let low = match self.imm_src(ins, 1) {
            Some(w) => {
                let lows: Vec<u32> = w[..self.lanes].iter().map(|x| (1u32 << (x & 31)) - 1).collect();
                self.immediate(&lows, K::U)
            }
            None => {
                let w = self.field_src(ins, 1)?;
                let one = self.splat_u(1);
                let bits = self.bin(B::ShiftLeft, one, w);
                self.bin(B::Subtract, bits, one)
            }
        };
        let o = self.field_src(ins, 2)?;
        let s = self.src(ins, 3, K::U)?;
        let mask = self.bin(B::ShiftLeft, low, o);
        let sh = self.bin(B::ShiftLeft, s, o);
        let ins_bits = self.bin(B::And, sh, mask);
        let r = if self.zero_imm_src(ins, 4) {
            ins_bits
        } else {
            let base = self.src(ins, 4, K::U)?;
            let inv = self.e(E::Unary { op: UnaryOperator::BitwiseNot, expr: mask });
            let keep = self.bin(B::And, base, inv);
            self.bin(B::InclusiveOr, ins_bits, keep)
        };
        let d = self.op(ins, 0)?;
        self.write(d, r, K::U, false)?;
        Ok(())
    }

    /// Source `i` of a bit-field instruction, a width or an offset, masked to
    /// five bits as D3D reads it: a literal when it is an immediate.
    fn field_src(&mut self, ins: &Instruction, i: usize) -> Result<H, TranslateError> {
        if let Some(v) = self.imm_src(ins, i) {
            let masked: Vec<u32> = v[..self.lanes].iter().map(|x| x & 31).collect();
            return Ok(self.immediate(&masked, K::U));
        }
        let v = self.src(ins, i, K::U)?;
        let m31 = self.splat_u(31);
        Ok(self.bin(B::And, v, m31))
    }

    /// Whether source `i` is an immediate 0 in every lane computed.
    fn zero_imm_src(&self, ins: &Instruction, i: usize) -> bool {
        self.imm_src(ins, i).is_some_and(|b| b[..self.lanes].iter().all(|&x| x == 0))
    }

    /// Source `i`'s lanes (those the instruction computes) when every one is
    /// an immediate with no modifier; lanes past `self.lanes` are zero.
    pub(super) fn imm_src(&self, ins: &Instruction, i: usize) -> Option<[u32; 4]> {
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
        if self.zero_imm_src(ins, 4) {
            return Ok(field);
        }
        let inverse: Vec<u32> = masks.iter().map(|m| !m).collect();
        let keep_mask = self.immediate(&inverse, K::U);
        let keep = self.bin(B::And, base, keep_mask);
        Ok(self.bin(B::InclusiveOr, field, keep))
    }
}
