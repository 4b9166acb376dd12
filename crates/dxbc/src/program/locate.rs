//! "Which token and which field cover this byte?" — the lookup the hex view
//! and the dump are built on.

use super::*;
use crate::spec::{self, FieldDef};

/// What a dword of the program is.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum TokenRole {
    /// The version token.
    Version,
    /// The length token.
    Length,
    /// An opcode token (or custom-data descriptor).
    Opcode,
    /// The explicit length dword of a long declaration or custom-data block.
    InstructionLength,
    /// An extended opcode token.
    ExtendedOpcode,
    /// Operand token 0 (`operand` is its id).
    Operand {
        /// Operand id.
        operand: u32,
    },
    /// An extended operand token.
    ExtendedOperand {
        /// Operand id.
        operand: u32,
    },
    /// An immediate value dword.
    Immediate {
        /// Operand id.
        operand: u32,
        /// Which dword of the immediate.
        component: u8,
    },
    /// An index dword.
    Index {
        /// Operand id.
        operand: u32,
        /// Which index dimension.
        dim: u8,
    },
    /// A declaration or custom-data payload dword.
    Payload(Word),
}

/// One bitfield's value inside a token.
#[derive(Clone, Debug, Serialize)]
pub struct FieldValue {
    /// Field definition from the table.
    #[serde(skip)]
    pub def: &'static FieldDef,
    /// Field name.
    pub name: &'static str,
    /// Lowest bit.
    pub lo: u8,
    /// Highest bit.
    pub hi: u8,
    /// Raw value.
    pub value: u32,
    /// Name of the value when the field holds an enumeration.
    pub meaning: Option<&'static str>,
}

/// A located dword: its offset, value, role, and owning instruction.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Located {
    /// Absolute offset of the dword.
    pub offset: usize,
    /// Its value.
    pub value: u32,
    /// What it is.
    pub role: TokenRole,
    /// Index of the instruction in [`Program::instructions`] (None for
    /// version/length tokens).
    pub instruction: Option<usize>,
}

impl Located {
    /// The bitfields of this dword, from the format table.
    pub fn fields(&self, p: &Program) -> Vec<FieldValue> {
        let defs: Vec<&'static FieldDef> = match self.role {
            TokenRole::Version => spec::VERSION_FIELDS.iter().collect(),
            TokenRole::Length => spec::LENGTH_FIELDS.iter().collect(),
            TokenRole::Opcode => {
                let code = spec::opcode_token::OPCODE.get(self.value) as u16;
                if code == spec::Opcode::Customdata as u16 {
                    spec::CUSTOMDATA_FIELDS.iter().collect()
                } else {
                    let mut v: Vec<&'static FieldDef> = spec::OPCODE_COMMON_FIELDS.iter().collect();
                    v.extend(spec::opcode_controls(code).iter());
                    v.sort_by_key(|f| f.lo);
                    v
                }
            }
            TokenRole::InstructionLength => spec::INSTRUCTION_LENGTH_FIELDS.iter().collect(),
            TokenRole::ExtendedOpcode => spec::extended_opcode_fields(self.value).iter().collect(),
            TokenRole::Operand { .. } => spec::OPERAND_FIELDS.iter().collect(),
            TokenRole::ExtendedOperand { .. } => spec::EXTENDED_OPERAND_FIELDS.iter().collect(),
            TokenRole::Immediate { .. } | TokenRole::Index { .. } => Vec::new(),
            TokenRole::Payload(w) => w.fields().iter().collect(),
        };
        let _ = p;
        defs.into_iter()
            .map(|def| {
                let value = def.get(self.value);
                FieldValue {
                    def,
                    name: def.name,
                    lo: def.lo,
                    hi: def.hi,
                    value,
                    meaning: def.values.and_then(|e| e.get(value)).map(|e| e.spec_name),
                }
            })
            .collect()
    }
}

impl Program {
    /// Every dword of the program in order, with its role.
    pub fn tokens(&self) -> Vec<Located> {
        let mut out = Vec::with_capacity(self.decoded_words());
        out.push(Located { offset: self.offset, value: self.version.0, role: TokenRole::Version, instruction: None });
        out.push(Located { offset: self.offset + 4, value: self.length, role: TokenRole::Length, instruction: None });
        for (i, ins) in self.instructions.iter().enumerate() {
            self.instruction_tokens(i, ins, &mut out);
        }
        out
    }

    fn instruction_tokens(&self, i: usize, ins: &Instruction, out: &mut Vec<Located>) {
        let mut at = ins.offset as usize;
        let push = |out: &mut Vec<Located>, at: &mut usize, value: u32, role: TokenRole| {
            out.push(Located { offset: *at, value, role, instruction: Some(i) });
            *at += 4;
        };
        push(out, &mut at, ins.token, TokenRole::Opcode);
        if ins.is_customdata() {
            push(out, &mut at, ins.length, TokenRole::InstructionLength);
            for pl in ins.payload(self) {
                push(out, &mut at, pl.value, TokenRole::Payload(pl.word));
            }
            return;
        }
        if let Some(l) = ins.long_length {
            push(out, &mut at, l, TokenRole::InstructionLength);
        }
        for &e in ins.ext(self) {
            push(out, &mut at, e, TokenRole::ExtendedOpcode);
        }
        let payload = ins.payload(self);
        let before = ins.n_payload_before as usize;
        for pl in &payload[..before] {
            push(out, &mut at, pl.value, TokenRole::Payload(pl.word));
        }
        for &id in ins.ops.as_slice() {
            self.operand_tokens(i, id, &mut at, out);
        }
        for pl in &payload[before..] {
            push(out, &mut at, pl.value, TokenRole::Payload(pl.word));
        }
    }

    fn operand_tokens(&self, i: usize, id: u32, at: &mut usize, out: &mut Vec<Located>) {
        let op = &self.operands[id as usize];
        let push = |out: &mut Vec<Located>, at: &mut usize, value: u32, role: TokenRole| {
            out.push(Located { offset: *at, value, role, instruction: Some(i) });
            *at += 4;
        };
        push(out, at, op.token, TokenRole::Operand { operand: id });
        for &e in op.ext(self) {
            push(out, at, e, TokenRole::ExtendedOperand { operand: id });
        }
        for (c, &v) in op.imm(self).iter().enumerate() {
            push(out, at, v, TokenRole::Immediate { operand: id, component: c as u8 });
        }
        for d in 0..op.index_dim() {
            let Some(rep) = op.index_representation(d) else { continue };
            let idx = op.index[d];
            // High dword first for 64-bit immediates.
            for k in (0..rep.immediate_dwords()).rev() {
                push(out, at, (idx.imm >> (32 * k)) as u32, TokenRole::Index { operand: id, dim: d as u8 });
            }
            if rep.is_relative() && idx.rel != NO_OPERAND {
                self.operand_tokens(i, idx.rel, at, out);
            }
        }
    }

    /// The dword covering absolute byte `offset`, if it lies in the program.
    pub fn locate(&self, offset: usize) -> Option<Located> {
        if offset < self.offset {
            return None;
        }
        let dw = (offset - self.offset) / 4 * 4 + self.offset;
        if dw < self.offset + 8 {
            return self.tokens().into_iter().find(|t| t.offset == dw);
        }
        // Binary search the instruction, then walk only its tokens.
        let i = self.instructions.partition_point(|ins| (ins.offset as usize) <= dw).checked_sub(1)?;
        let ins = &self.instructions[i];
        if dw >= ins.offset as usize + ins.length as usize * 4 {
            return None;
        }
        let mut v = Vec::new();
        self.instruction_tokens(i, ins, &mut v);
        v.into_iter().find(|t| t.offset == dw)
    }

    /// The field of the dword at `offset` that covers bit `bit` (0..32).
    pub fn locate_bit(&self, offset: usize, bit: u8) -> Option<(Located, Option<FieldValue>)> {
        let t = self.locate(offset)?;
        let f = t.fields(self).into_iter().find(|f| f.lo <= bit && bit <= f.hi);
        Some((t, f))
    }
}

impl Program {
    /// Bytes of operand `id`: its token, extended tokens, immediates, index
    /// dwords and the operands of its relative indices.
    pub fn operand_range(&self, id: u32) -> std::ops::Range<usize> {
        let start = self.operands.get(id as usize).map_or(0, |o| o.offset as usize);
        start..start + 4 * self.operand_words(id, 0)
    }

    fn operand_words(&self, id: u32, depth: usize) -> usize {
        // The decoder bounds relative-index nesting; the depth check keeps
        // this walk finite whatever the operand vector holds.
        let Some(op) = self.operands.get(id as usize).filter(|_| depth < 8) else { return 0 };
        let mut n = 1 + op.n_ext as usize + op.n_imm as usize;
        for d in 0..op.index_dim() {
            let Some(rep) = op.index_representation(d) else { continue };
            n += rep.immediate_dwords();
            if rep.is_relative() && op.index[d].rel != NO_OPERAND {
                n += self.operand_words(op.index[d].rel, depth + 1);
            }
        }
        n
    }
}

impl Program {
    /// The dwords of instruction `k` in order, with their roles (empty when
    /// there is no such instruction).
    pub fn instruction_dwords(&self, k: usize) -> Vec<Located> {
        let mut v = Vec::new();
        if let Some(ins) = self.instructions.get(k) {
            self.instruction_tokens(k, ins, &mut v);
        }
        v
    }
}
