//! `msad dst, ref, src, accum`: the masked sum of absolute byte differences,
//! pure integer arithmetic, per component:
//! `accum + Σ_{i<4} (ref.byte[i] != 0 ? |ref.byte[i] − src.byte[i]| : 0)`.
//!
//! Each term is at most 255, so the sum of four is at most 1020 and the
//! bytes are exact in u32; the final add wraps like D3D's integer add (the
//! HLSL documentation guarantees results only up to 65535, which this
//! meets exactly).

use crate::lower::{Lower, K};
use crate::TranslateError;
use dxbc::program::Instruction;
use naga::BinaryOperator as B;

impl Lower<'_> {
    pub(crate) fn msad(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let reference = {
            let o = self.op(ins, 1)?;
            self.read(o, K::U)?
        };
        let source = {
            let o = self.op(ins, 2)?;
            self.read(o, K::U)?
        };
        let mut sum = {
            let o = self.op(ins, 3)?;
            self.read(o, K::U)?
        };
        let byte_mask = self.splat_u(0xff);
        let zero = self.splat_u(0);
        for i in 0..4 {
            let shift = self.splat_u(8 * i);
            let r = self.bin(B::ShiftRight, reference, shift);
            let r = self.bin(B::And, r, byte_mask);
            let s = self.bin(B::ShiftRight, source, shift);
            let s = self.bin(B::And, s, byte_mask);
            let r_minus_s = self.bin(B::Subtract, r, s);
            let s_minus_r = self.bin(B::Subtract, s, r);
            let r_greater = self.bin(B::Greater, r, s);
            let diff = self.select(r_greater, r_minus_s, s_minus_r);
            let masked = self.bin(B::NotEqual, r, zero);
            let term = self.select(masked, diff, zero);
            sum = self.bin(B::Add, sum, term);
        }
        let d = self.op(ins, 0)?;
        self.write(d, sum, K::U, false)?;
        self.emulations.insert(crate::Emulation::Msad);
        Ok(())
    }
}
