//! Writes an Aon9 payload from the decoded model.
//!
//! Layout (fxc's): the 0x24-byte header, then the mapping tables in the
//! order samplers, constant buffers, loop registers, the unknown table
//! (always empty; its entries are not decoded, so it is written empty) and
//! runtime constants, then the SM2 token stream. The payload size, the
//! stream size and offset, every table's count and offset and each
//! instruction's length field are computed.
//!
//! The SM2 tokens are packed from their decoded fields with the same bit
//! positions the decoder reads (see the module doc of `aon9`). Comment
//! blocks are carried as their payload bytes, placed before the instruction
//! [`Sm2Comment::before_instruction`] names.

use super::{
    Aon9, ConstValue, DstParam, RelativeAddress, Sm2Comment, Sm2Instruction, Sm2Program, Sm2Version, SrcParam,
    END_TOKEN, HEADER_SIZE, OP_COMMENT,
};
use crate::chunks::write::Writer;

/// Bit 31: set on every parameter token.
const PARAM: u32 = 1 << 31;
/// Bit 13: relative addressing.
const RELATIVE: u32 = 1 << 13;

impl Aon9 {
    /// Encodes the chunk payload from the model (see `aon9::encode`).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        let size_at = w.u32(0);
        w.u32(version_token(&self.min_version));
        let shader_size_at = w.u32(0);
        let shader_at = w.u32(0);
        // Directory slots in header order: cb, loop, unknown, sampler, runtime.
        let slots: Vec<usize> = (0..5).map(|_| w.u32(0)).collect();
        debug_assert_eq!(w.out.len(), HEADER_SIZE);
        let table = |w: &mut Writer, slot: usize, count: usize, entries: &dyn Fn(&mut Writer)| {
            let at = w.pos();
            entries(w);
            w.patch(slot, (count as u32 & 0xFFFF) | (at & 0xFFFF) << 16);
        };
        table(&mut w, slots[3], self.sampler_mappings.len(), &|w| {
            for m in &self.sampler_mappings {
                w.bytes(&[m.source_resource, m.source_sampler, m.target_sampler, m.padding]);
            }
        });
        table(&mut w, slots[0], self.constant_buffer_mappings.len(), &|w| {
            for m in &self.constant_buffer_mappings {
                for v in [m.buffer, m.start_register, m.register_count, m.target_register] {
                    w.u16(v);
                }
                w.bytes(&m.conversion);
            }
        });
        table(&mut w, slots[1], self.loop_register_mappings.len(), &|w| {
            for m in &self.loop_register_mappings {
                for v in [m.buffer, m.source_register, m.component, m.target_register] {
                    w.u16(v);
                }
            }
        });
        table(&mut w, slots[2], 0, &|_| {});
        table(&mut w, slots[4], self.runtime_constant_mappings.len(), &|w| {
            for m in &self.runtime_constant_mappings {
                w.u16(m.kind);
                w.u16(m.target_register);
            }
        });
        let start = w.pos();
        w.patch(shader_at, start);
        self.program.encode_into(&mut w);
        let end = w.pos();
        w.patch(shader_size_at, end - start);
        w.patch(size_at, end);
        w.out
    }
}

impl Sm2Program {
    /// Encodes the token stream: version token, instructions with the
    /// comments between them, end token, trailing bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.encode_into(&mut w);
        w.out
    }

    fn encode_into(&self, w: &mut Writer) {
        w.u32(version_token(&self.version));
        let mut comments = self.comments.iter().peekable();
        for (i, ins) in self.instructions.iter().enumerate() {
            while let Some(c) = comments.next_if(|c| c.before_instruction <= i) {
                comment(w, c);
            }
            instruction(w, ins, &self.version);
        }
        for c in comments {
            comment(w, c);
        }
        w.u32(END_TOKEN);
        w.bytes(&self.trailing);
    }
}

fn version_token(v: &Sm2Version) -> u32 {
    let kind: u32 = if v.pixel { 0xFFFF } else { 0xFFFE };
    kind << 16 | (v.major as u32) << 8 | v.minor as u32
}

fn comment(w: &mut Writer, c: &Sm2Comment) {
    let dwords = (c.data.len() / 4) as u32 & 0x7FFF;
    w.u32(OP_COMMENT as u32 | dwords << 16);
    w.bytes(&c.data[..dwords as usize * 4]);
}

fn instruction(w: &mut Writer, ins: &Sm2Instruction, version: &Sm2Version) {
    let mut params = Vec::new();
    if let Some(d) = &ins.decl {
        params.push(
            PARAM | d.usage as u32 & 0x1F | (d.usage_index as u32 & 0xF) << 16 | (d.texture_type as u32 & 0xF) << 27,
        );
    }
    if let Some(d) = &ins.dst {
        dst(&mut params, d, version);
    }
    if let Some(p) = &ins.predicate {
        src(&mut params, p, version);
    }
    match &ins.constant {
        Some(ConstValue::Float { bits, .. }) => params.extend_from_slice(bits),
        Some(ConstValue::Int { values, .. }) => params.extend(values.iter().map(|&v| v as u32)),
        Some(ConstValue::Bool { value, .. }) => params.push(*value),
        None => {}
    }
    for s in &ins.src {
        src(&mut params, s, version);
    }
    let length = params.len() as u32 & 0xF;
    w.u32(
        ins.opcode as u32
            | (ins.controls as u32) << 16
            | length << 24
            | (ins.predicated as u32) << 28
            | (ins.coissue as u32) << 30,
    );
    for p in params {
        w.u32(p);
    }
}

/// Register type and number bits shared by every parameter token.
fn register(ty: u8, number: u16) -> u32 {
    PARAM | (ty as u32 & 7) << 28 | (ty as u32 & 0x18) << 8 | number as u32 & 0x7FF
}

fn dst(out: &mut Vec<u32>, d: &DstParam, version: &Sm2Version) {
    let t = register(d.register_type, d.number)
        | relative_bit(&d.relative, d.token, version)
        | (d.write_mask as u32 & 0xF) << 16
        | (d.result_modifier as u32 & 0xF) << 20
        | (d.shift as u32 & 0xF) << 24;
    out.push(t);
    relative(out, &d.relative);
}

fn src(out: &mut Vec<u32>, s: &SrcParam, version: &Sm2Version) {
    let t = register(s.register_type, s.number)
        | relative_bit(&s.relative, s.token, version)
        | (s.swizzle as u32) << 16
        | (s.modifier as u32 & 0xF) << 24;
    out.push(t);
    relative(out, &s.relative);
}

/// Bit 13. With an address token it follows from `relative`; in ps_2_x,
/// where no address token follows, the bit is the decoded token's own.
fn relative_bit(rel: &Option<RelativeAddress>, token: u32, version: &Sm2Version) -> u32 {
    if rel.is_some() || (version.pixel && version.major < 3 && token & RELATIVE != 0) {
        RELATIVE
    } else {
        0
    }
}

fn relative(out: &mut Vec<u32>, rel: &Option<RelativeAddress>) {
    if let Some(r) = rel {
        let c = r.component as u32 & 3;
        // The component is replicated over the four swizzle fields.
        out.push(register(r.register_type, r.number) | (c | c << 2 | c << 4 | c << 6) << 16);
    }
}
