//! Writing a decoded program back from its stored tokens: the fallback of
//! [`Program::encode`] for programs the field model ([`super::ir`]) cannot
//! hold (undefined opcodes or enumeration values).
//!
//! The model keeps every stored token, so a program that decoded without a
//! fault encodes to the same bytes. Lengths are recomputed from what is
//! written (instruction length, custom-data length, program length), so an
//! edited model still produces a consistent stream.

use super::*;

pub(super) fn encode_stored(p: &Program) -> Vec<u8> {
    let mut w: Vec<u32> = Vec::with_capacity(p.decoded_words());
    w.push(p.version.0);
    w.push(0); // length, patched below
    for ins in &p.instructions {
        encode_instruction(p, ins, &mut w);
    }
    let mut out = Vec::with_capacity(w.len() * 4 + p.undecoded.len() + p.trailing.len());
    let undecoded_words = p.undecoded.len() / 4;
    w[1] = if p.undecoded.is_empty() { w.len() as u32 } else { (w.len() + undecoded_words) as u32 };
    for x in &w {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&p.undecoded);
    out.extend_from_slice(&p.trailing);
    out
}

/// Appends one instruction's tokens to `w`, setting its length field.
pub(super) fn encode_instruction(p: &Program, ins: &Instruction, w: &mut Vec<u32>) {
    let start = w.len();
    w.push(ins.token);
    if ins.is_customdata() {
        w.push(0);
        w.extend(ins.payload(p).iter().map(|x| x.value));
        w[start + 1] = (w.len() - start) as u32;
        return;
    }
    if ins.long_length.is_some() {
        w.push(0);
    }
    w.extend_from_slice(ins.ext(p));
    let payload = ins.payload(p);
    let before = ins.n_payload_before as usize;
    w.extend(payload[..before].iter().map(|x| x.value));
    for &id in ins.ops.as_slice() {
        encode_operand(p, id, w);
    }
    w.extend(payload[before..].iter().map(|x| x.value));
    let len = (w.len() - start) as u32;
    if ins.long_length.is_some() {
        w[start + 1] = len;
    } else {
        w[start] = spec::opcode_token::LENGTH.put(ins.token, len);
    }
}

fn encode_operand(p: &Program, id: u32, w: &mut Vec<u32>) {
    let op = &p.operands[id as usize];
    w.push(op.token);
    w.extend_from_slice(op.ext(p));
    w.extend_from_slice(op.imm(p));
    for d in 0..op.index_dim() {
        let Some(rep) = op.index_representation(d) else { continue };
        let idx = &op.index[d];
        // High dword first for 64-bit immediates.
        for k in (0..rep.immediate_dwords()).rev() {
            w.push((idx.imm >> (32 * k)) as u32);
        }
        if rep.is_relative() && idx.rel != NO_OPERAND {
            encode_operand(p, idx.rel, w);
        }
    }
}
