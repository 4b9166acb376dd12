//! The program chunk (SHDR / SHEX): the version and length tokens, then
//! instructions, each an opcode token, optional extended opcode tokens, and
//! operands or declaration payload.
//!
//! The decoder is in two layers. [`read_operand`] and the instruction walk
//! know only the grammar-free structure every token shares (lengths,
//! extension chains, index representations). The declaration layouts in
//! [`crate::spec::layout`] say what the payload of each declaration is.
//!
//! Storage is flat for speed: a program holds one vector of instructions,
//! one of operands (relative-index operands included) and one pool of
//! payload dwords; instructions and operands refer into them by index.

mod decode;
mod encode;
mod locate;

pub use decode::read_operand;
pub use locate::{FieldValue, Located, TokenRole};

use crate::error::Error;
use crate::spec::{self, Word};
use serde::Serialize;

/// No operand (used in [`Index::rel`]).
pub const NO_OPERAND: u32 = u32::MAX;

/// The version token: program type and shader model.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct VersionToken(pub u32);

impl VersionToken {
    /// Program type (0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute).
    pub fn program_type(&self) -> u32 {
        self.0 >> 16
    }
    /// Major shader model.
    pub fn major(&self) -> u32 {
        (self.0 >> 4) & 0xf
    }
    /// Minor shader model.
    pub fn minor(&self) -> u32 {
        self.0 & 0xf
    }
    /// Two-letter stage prefix (`ps`, `vs`, …).
    pub fn stage_prefix(&self) -> &'static str {
        spec::PROGRAM_TYPE.asm(self.program_type()).unwrap_or("xx")
    }
    /// Profile name like `ps_5_0`.
    pub fn profile(&self) -> String {
        format!("{}_{}_{}", self.stage_prefix(), self.major(), self.minor())
    }
    /// True for shader model 5.1 and later (3-D resource indices, spaces).
    pub fn is_sm51(&self) -> bool {
        (self.major(), self.minor()) >= (5, 1)
    }
}

/// One index of an operand.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, Default)]
pub struct Index {
    /// Absolute offset of the index's first dword (immediate or operand).
    pub offset: u32,
    /// Immediate part (0 when purely relative).
    pub imm: u64,
    /// Relative part: operand id in [`Program::operands`], or [`NO_OPERAND`].
    pub rel: u32,
}

/// One operand.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Operand {
    /// Absolute offset of operand token 0.
    pub offset: u32,
    /// Operand token 0 as stored.
    pub token: u32,
    /// Start of this operand's extended tokens then immediates in [`Program::pool`].
    pub pool: u32,
    /// Number of extended operand tokens.
    pub n_ext: u8,
    /// Number of immediate dwords (IMMEDIATE32: 1 or 4; IMMEDIATE64: 2 or 8).
    pub n_imm: u8,
    /// Indices, as many as the index dimension says.
    pub index: [Index; 3],
}

impl Operand {
    /// Register file (operand type field).
    pub fn ty(&self) -> u32 {
        (self.token >> 12) & 0xff
    }
    /// Number-of-components field (0: none, 1: scalar, 2: four, 3: N).
    pub fn num_components(&self) -> u32 {
        self.token & 3
    }
    /// Selection mode field (0 mask, 1 swizzle, 2 select-1).
    pub fn selection_mode(&self) -> u32 {
        (self.token >> 2) & 3
    }
    /// Index dimension field (0..=3).
    pub fn index_dim(&self) -> usize {
        ((self.token >> 20) & 3) as usize
    }
    /// Representation of index `d`.
    pub fn index_rep(&self, d: usize) -> u32 {
        (self.token >> (22 + 3 * d)) & 7
    }
    /// Write mask (mask mode), 4 bits.
    pub fn mask(&self) -> u32 {
        (self.token >> 4) & 0xf
    }
    /// Swizzle selectors (swizzle mode).
    pub fn swizzle(&self) -> [u32; 4] {
        let s = self.token >> 4;
        [s & 3, (s >> 2) & 3, (s >> 4) & 3, (s >> 6) & 3]
    }
    /// Selected component (select-1 mode).
    pub fn select1(&self) -> u32 {
        (self.token >> 4) & 3
    }
    /// Extended operand tokens.
    pub fn ext<'p>(&self, p: &'p Program) -> &'p [u32] {
        &p.pool[self.pool as usize..self.pool as usize + self.n_ext as usize]
    }
    /// Immediate dwords.
    pub fn imm<'p>(&self, p: &'p Program) -> &'p [u32] {
        let s = self.pool as usize + self.n_ext as usize;
        &p.pool[s..s + self.n_imm as usize]
    }
    /// Source modifier (0 none, 1 neg, 2 abs, 3 abs+neg) from the first
    /// extended token of the modifier kind.
    pub fn modifier(&self, p: &Program) -> u32 {
        self.ext(p).iter().find(|e| *e & 0x3f == 1).map_or(0, |e| (e >> 6) & 0xff)
    }
    /// Minimum precision (0 default).
    pub fn min_precision(&self, p: &Program) -> u32 {
        self.ext(p).iter().find(|e| *e & 0x3f == 1).map_or(0, |e| (e >> 14) & 7)
    }
    /// Non-uniform flag.
    pub fn non_uniform(&self, p: &Program) -> bool {
        self.ext(p).iter().any(|e| *e & 0x3f == 1 && (e >> 17) & 1 == 1)
    }
}

/// One payload dword of a declaration or custom-data block.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Payload {
    /// Absolute offset.
    pub offset: u32,
    /// Value.
    pub value: u32,
    /// What it means.
    pub word: Word,
}

/// One instruction, declaration or custom-data block.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Instruction {
    /// Absolute offset of the opcode token.
    pub offset: u32,
    /// Opcode token as stored.
    pub token: u32,
    /// Total length in dwords as laid out in the stream.
    pub length: u32,
    /// Start of extended opcode tokens in [`Program::pool`].
    pub ext_start: u32,
    /// Number of extended opcode tokens.
    pub n_ext: u8,
    /// For declarations with long lengths: the explicit length dword.
    pub long_length: Option<u32>,
    /// First top-level operand in [`Program::operands`].
    pub op_start: u32,
    /// Number of top-level operands.
    pub n_ops: u8,
    /// Payload dwords before the operands (e.g. fcall's function index).
    pub n_payload_before: u8,
    /// Payload start in [`Program::payload`].
    pub payload_start: u32,
    /// Number of payload dwords.
    pub n_payload: u32,
    /// Top-level operand ids in order (their relative sub-operands are
    /// stored elsewhere in the operand vector).
    #[serde(skip)]
    pub ops: OpIds,
}

/// Up to 8 top-level operand ids stored inline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpIds {
    ids: [u32; OpIds::CAPACITY],
    len: u8,
}

impl OpIds {
    /// Most ids an instruction holds.
    pub(crate) const CAPACITY: usize = 8;

    /// `n` (at most [`OpIds::CAPACITY`]) consecutive ids from `first`.
    #[inline(always)]
    pub(crate) fn contiguous(first: u32, n: usize) -> OpIds {
        let mut ids = [0u32; OpIds::CAPACITY];
        for (i, id) in ids.iter_mut().enumerate() {
            if i < n {
                *id = first + i as u32;
            }
        }
        OpIds { ids, len: n.min(OpIds::CAPACITY) as u8 }
    }

    /// The ids.
    pub fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }
}

impl Instruction {
    /// Opcode number.
    pub fn opcode(&self) -> u16 {
        (self.token & 0x7ff) as u16
    }
    /// Table entry for the opcode.
    pub fn info(&self) -> Option<&'static spec::OpcodeInfo> {
        spec::opcode(self.opcode() as u32)
    }
    /// Extended opcode tokens.
    pub fn ext<'p>(&self, p: &'p Program) -> &'p [u32] {
        &p.pool[self.ext_start as usize..self.ext_start as usize + self.n_ext as usize]
    }
    /// Top-level operands.
    pub fn operands<'p>(&self, p: &'p Program) -> impl Iterator<Item = &'p Operand> + 'p {
        let ops = self.ops;
        (0..ops.len as usize).map(move |i| &p.operands[ops.ids[i] as usize])
    }
    /// Top-level operand `i`.
    pub fn operand<'p>(&self, p: &'p Program, i: usize) -> Option<&'p Operand> {
        self.ops.as_slice().get(i).map(|&id| &p.operands[id as usize])
    }
    /// Payload dwords.
    pub fn payload<'p>(&self, p: &'p Program) -> &'p [Payload] {
        &p.payload[self.payload_start as usize..(self.payload_start + self.n_payload) as usize]
    }
    /// Custom-data class (only meaningful for custom-data blocks).
    pub fn customdata_class(&self) -> u32 {
        self.token >> 11
    }
    /// True for a custom-data block.
    pub fn is_customdata(&self) -> bool {
        self.opcode() == spec::opc::CUSTOMDATA
    }
}

/// A decoded program chunk.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Program {
    /// Absolute offset of the version token.
    pub offset: usize,
    /// Version token.
    pub version: VersionToken,
    /// Length token: program length in dwords.
    pub length: u32,
    /// Instructions in order.
    pub instructions: Vec<Instruction>,
    /// Every operand, including those used as relative indices.
    pub operands: Vec<Operand>,
    /// Extended tokens and immediates of operands and instructions.
    pub pool: Vec<u32>,
    /// Declaration and custom-data payload dwords.
    pub payload: Vec<Payload>,
    /// Bytes of the chunk after the program's declared length (normally none).
    pub trailing: Vec<u8>,
    /// Bytes after the first fault, kept so the chunk can still be rebuilt.
    pub undecoded: Vec<u8>,
}

impl Program {
    /// Decodes a program chunk payload whose first byte is at absolute
    /// offset `base`. Returns what decoded and the fault, if any.
    pub fn decode(data: &[u8], base: usize) -> (Program, Vec<Error>) {
        decode::decode(data, base)
    }

    /// Dwords actually decoded (version and length tokens plus every
    /// instruction). Unlike [`Program::length`], which is read from the file
    /// and may be anything, this is bounded by the input size.
    pub fn decoded_words(&self) -> usize {
        2 + self.instructions.iter().map(|i| i.length as usize).sum::<usize>()
    }

    /// Encodes the program back to chunk payload bytes.
    pub fn encode(&self) -> Vec<u8> {
        encode::encode(self)
    }
}

#[cfg(test)]
mod tests;
