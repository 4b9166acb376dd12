//! Writes an Aon9 payload from the decoded model.
//!
//! Layout (fxc's): the 0x24-byte header, then the mapping tables in the
//! order samplers, constant buffers, loop registers, the unknown table
//! (always empty; its entries are not decoded, so it is written empty) and
//! runtime constants, then the SM2 token stream. The payload size, the
//! stream size and offset, every table's count and offset and each
//! instruction's length field are computed.
//!
//! The SM2 tokens are packed from their decoded fields through the same
//! bitfield definitions the decoder reads (`spec::sm2`). Comment
//! blocks are carried as their payload bytes, placed before the instruction
//! [`Sm2Comment::before_instruction`] names.

use super::{
    Aon9, ConstValue, DstParam, RelativeAddress, Sm2Comment, Sm2Instruction, Sm2Program, Sm2Version, SrcParam,
    HEADER_SIZE,
};
use crate::chunks::write::Writer;
use crate::spec::sm2::{
    comment_token, decl_token, instruction_token as it, param_token as pt, version_token, Sm2ProgramType, COMMENT,
    END_TOKEN,
};

/// Bit 31: set on every parameter token.
const PARAM: u32 = pt::PARAM.mask();
/// Bit 13: relative addressing.
const RELATIVE: u32 = pt::RELATIVE.mask();

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
    let kind = if v.pixel { Sm2ProgramType::Pixel } else { Sm2ProgramType::Vertex };
    let t = version_token::PROGRAM_TYPE.put(0, kind as u32);
    version_token::MINOR.put(version_token::MAJOR.put(t, v.major.into()), v.minor.into())
}

fn comment(w: &mut Writer, c: &Sm2Comment) {
    let token = comment_token::LENGTH.put(u32::from(COMMENT), (c.data.len() / 4) as u32);
    let dwords = comment_token::LENGTH.get(token);
    w.u32(token);
    w.bytes(&c.data[..dwords as usize * 4]);
}

fn instruction(w: &mut Writer, ins: &Sm2Instruction, version: &Sm2Version) {
    let mut params = Vec::new();
    if let Some(d) = &ins.decl {
        let t = decl_token::USAGE.put(PARAM, d.usage.into());
        let t = decl_token::USAGE_INDEX.put(t, d.usage_index.into());
        params.push(decl_token::TEXTURE_TYPE.put(t, d.texture_type.into()));
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
    let t = it::OPCODE.put(0, ins.opcode.into());
    let t = it::CONTROLS.put(t, ins.controls.into());
    let t = it::LENGTH.put(t, params.len() as u32);
    let t = it::PREDICATED.put(t, ins.predicated.into());
    w.u32(it::COISSUE.put(t, ins.coissue.into()));
    for p in params {
        w.u32(p);
    }
}

/// Register type and number bits shared by every parameter token.
fn register(ty: u8, number: u16) -> u32 {
    pt::NUMBER.put(pt::put_register_type(PARAM, ty.into()), number.into())
}

fn dst(out: &mut Vec<u32>, d: &DstParam, version: &Sm2Version) {
    let t = register(d.register_type, d.number) | relative_bit(&d.relative, d.token, version);
    let t = pt::WRITE_MASK.put(t, d.write_mask.into());
    let t = pt::RESULT_MODIFIER.put(t, d.result_modifier.into());
    out.push(pt::SHIFT.put(t, d.shift as u32));
    relative(out, &d.relative);
}

fn src(out: &mut Vec<u32>, s: &SrcParam, version: &Sm2Version) {
    let t = register(s.register_type, s.number) | relative_bit(&s.relative, s.token, version);
    let t = pt::SWIZZLE.put(t, s.swizzle.into());
    out.push(pt::SOURCE_MODIFIER.put(t, s.modifier.into()));
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
        let swizzle = c | c << 2 | c << 4 | c << 6;
        out.push(pt::SWIZZLE.put(register(r.register_type, r.number), swizzle));
    }
}
