//! Tiled-resource feedback: the `*_s` opcodes and `check_access_fully_mapped`.
//!
//! WebGPU (and every naga target as we bind it) has no tiled resources: every
//! resource is fully resident. So a `*_s` opcode is its non-`_s` sibling plus
//! a status destination, and `check_access_fully_mapped` of any status is
//! true. The status bits themselves are opaque in D3D (only
//! `check_access_fully_mapped` may interpret them); we write 0.
//!
//! The `_cl` forms carry a minimum-LOD clamp. A clamp that is a literal
//! `<= 0` changes nothing (no level below 0 exists), which is what fxc emits
//! when the HLSL call gives no clamp; any other clamp becomes SPIR-V's
//! `MinLod` operand ([`crate::spirv_marks`]) and is refused by the other
//! targets as [`Limitation::LodClamp`].

use crate::lower::{malformed, Lower};
use crate::*;
use dxbc::program::Instruction;
use dxbc::spec::{opcode_token, Opcode as O, OperandType as OT};

/// The non-feedback sibling of a `*_s` opcode, and the position (after the
/// status operand is dropped) of its LOD-clamp operand, if it has one.
pub(crate) fn sibling(code: O) -> Option<(O, Option<usize>)> {
    Some(match code {
        O::SampleClampFeedback => (O::Sample, Some(4)),
        O::SampleBClampFeedback => (O::SampleB, Some(5)),
        O::SampleCClampFeedback => (O::SampleC, Some(5)),
        O::SampleDClampFeedback => (O::SampleD, Some(6)),
        O::SampleLFeedback => (O::SampleL, None),
        O::SampleCLzFeedback => (O::SampleCLz, None),
        O::LdFeedback => (O::Ld, None),
        O::LdMsFeedback => (O::LdMs, None),
        O::LdUavTypedFeedback => (O::LdUavTyped, None),
        O::LdRawFeedback => (O::LdRaw, None),
        O::LdStructuredFeedback => (O::LdStructured, None),
        O::Gather4Feedback => (O::Gather4, None),
        O::Gather4CFeedback => (O::Gather4C, None),
        O::Gather4PoFeedback => (O::Gather4Po, None),
        O::Gather4PoCFeedback => (O::Gather4PoC, None),
        _ => return None,
    })
}

/// `ins` read as `code`'s sibling: the same token and operands, with the
/// opcode replaced and the status operand (position 1) dropped.
pub(crate) fn without_status(ins: &Instruction, sibling: O) -> Instruction {
    let mut out = ins.clone();
    out.token = opcode_token::OPCODE.put(ins.token, sibling as u32);
    out.ops = ins.ops.without(1);
    out.n_ops = out.ops.as_slice().len() as u8;
    out
}

impl Lower<'_> {
    /// Lowers a `*_s` opcode or `check_access_fully_mapped`.
    pub(crate) fn feedback(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        self.emulations.insert(crate::Emulation::TiledFeedback);
        if code == O::CheckAccessFullyMapped {
            // Every access is to fully mapped memory: true (all ones).
            let v = self.splat_u(u32::MAX);
            let d = self.op(ins, 0)?;
            return self.write(d, v, crate::lower::K::U, false);
        }
        let Some((sib, clamp)) = sibling(code) else {
            return malformed(format!("{} is not a feedback instruction", code.info().asm), at);
        };
        let inner = without_status(ins, sib);
        let mut min_lod = None;
        if let Some(i) = clamp {
            if let Some(op) = inner.operand(self.p, i) {
                let no_clamp = op.operand_type() == Some(OT::Immediate32)
                    && op.imm(self.p).first().is_some_and(|&b| f32::from_bits(b) <= 0.0);
                if !no_clamp {
                    // Read before the sample, so SPIR-V defines it first.
                    let v = self.read(op, crate::lower::K::F)?;
                    min_lod = Some(self.component(v, 0));
                }
            }
        }
        if min_lod.is_some() {
            self.sample_clamped(&inner, sib, min_lod)?;
        } else {
            self.alu(&inner, sib)?;
        }
        // The status last: the sibling reads its sources first (fxc reuses a
        // source register as the status destination).
        let status = self.op(ins, 1)?;
        if status.operand_type() == Some(OT::Null) {
            return Ok(());
        }
        let z = self.splat_u(0);
        self.write(status, z, crate::lower::K::U, false)
    }
}
