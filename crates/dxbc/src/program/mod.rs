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
pub mod ir;
mod locate;
pub mod message;

pub use decode::read_operand;
pub use locate::{FieldValue, Located, TokenRole};

use crate::error::Error;
use crate::spec::{self, ext_operand_token, opcode_token, operand_token, Word};
use serde::Serialize;

/// No operand (used in [`Index::rel`]).
pub const NO_OPERAND: u32 = u32::MAX;

/// The version token: program type and shader model.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct VersionToken(pub u32);

impl VersionToken {
    /// Program type (0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute).
    pub fn program_type(&self) -> u32 {
        spec::VERSION_FIELDS[3].get(self.0)
    }
    /// Major shader model.
    pub fn major(&self) -> u32 {
        spec::VERSION_FIELDS[1].get(self.0)
    }
    /// Minor shader model.
    pub fn minor(&self) -> u32 {
        spec::VERSION_FIELDS[0].get(self.0)
    }
    /// Two-letter stage prefix (`ps`, `vs`, …).
    pub fn stage_prefix(&self) -> &'static str {
        spec::PROGRAM_TYPE.asm(self.program_type()).unwrap_or("xx")
    }
    /// Profile name like `ps_5_0`.
    pub fn profile(&self) -> String {
        let mut s = String::with_capacity(8);
        self.push_profile(&mut s);
        s
    }
    /// Appends the profile name ([`Self::profile`]); the listing writes it
    /// for every shader, so without `format!`.
    pub fn push_profile(&self, out: &mut String) {
        out.push_str(self.stage_prefix());
        out.push('_');
        crate::listing::push_decimal(out, u64::from(self.major()));
        out.push('_');
        crate::listing::push_decimal(out, u64::from(self.minor()));
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
        operand_token::TYPE.get(self.token)
    }
    /// Register file as the typed enum (`None` for a number the table does not define).
    pub fn operand_type(&self) -> Option<spec::OperandType> {
        spec::OperandType::from_u32(self.ty())
    }
    /// Number-of-components field (0: none, 1: scalar, 2: four, 3: N).
    pub fn num_components(&self) -> u32 {
        operand_token::COMPONENTS.get(self.token)
    }
    /// Selection mode field (0 mask, 1 swizzle, 2 select-1).
    pub fn selection_mode(&self) -> u32 {
        operand_token::SELECTION_MODE.get(self.token)
    }
    /// Selection mode as the typed enum.
    pub fn selection(&self) -> Option<spec::SelectionMode> {
        spec::SelectionMode::from_u32(self.selection_mode())
    }
    /// Index dimension field (0..=3).
    pub fn index_dim(&self) -> usize {
        operand_token::INDEX_DIMENSION.get(self.token) as usize
    }
    /// Representation of index `d`.
    pub fn index_rep(&self, d: usize) -> u32 {
        operand_token::INDEX_REPRESENTATION.get(d).map_or(0, |f| f.get(self.token))
    }
    /// Representation of index `d` as the typed enum.
    pub fn index_representation(&self, d: usize) -> Option<spec::IndexRepresentation> {
        spec::IndexRepresentation::from_u32(self.index_rep(d))
    }
    /// Write mask (mask mode), 4 bits.
    pub fn mask(&self) -> u32 {
        operand_token::SELECTION.get(self.token) & 0xf
    }
    /// Swizzle selectors (swizzle mode).
    pub fn swizzle(&self) -> [u32; 4] {
        let s = operand_token::SELECTION.get(self.token);
        [s & 3, (s >> 2) & 3, (s >> 4) & 3, (s >> 6) & 3]
    }
    /// Selected component (select-1 mode).
    pub fn select1(&self) -> u32 {
        operand_token::SELECTION.get(self.token) & 3
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
        self.modifier_token(p).map_or(0, |e| ext_operand_token::MODIFIER.get(e))
    }
    /// The first extended operand token of the modifier kind.
    fn modifier_token(&self, p: &Program) -> Option<u32> {
        let modifier = spec::ExtendedOperandType::Modifier as u32;
        self.ext(p).iter().copied().find(|&e| ext_operand_token::TYPE.get(e) == modifier)
    }
    /// Minimum precision (0 default).
    pub fn min_precision(&self, p: &Program) -> u32 {
        self.modifier_token(p).map_or(0, |e| ext_operand_token::MIN_PRECISION.get(e))
    }
    /// Non-uniform flag.
    pub fn non_uniform(&self, p: &Program) -> bool {
        let modifier = spec::ExtendedOperandType::Modifier as u32;
        self.ext(p)
            .iter()
            .any(|&e| ext_operand_token::TYPE.get(e) == modifier && ext_operand_token::NON_UNIFORM.get(e) == 1)
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

    /// The ids without the one at position `i` (unchanged when `i` is past
    /// the end): an instruction read as a sibling opcode with one operand
    /// fewer (e.g. a `*_s` opcode without its status destination).
    pub fn without(&self, i: usize) -> OpIds {
        let mut out = OpIds::default();
        for (j, &id) in self.as_slice().iter().enumerate() {
            if j != i {
                out.ids[out.len as usize] = id;
                out.len += 1;
            }
        }
        out
    }
}

impl Instruction {
    /// Opcode number.
    pub fn opcode(&self) -> u16 {
        opcode_token::OPCODE.get(self.token) as u16
    }
    /// Opcode as the typed enum (`None` for a number the table does not define).
    pub fn op(&self) -> Option<spec::Opcode> {
        spec::Opcode::from_u32(self.opcode() as u32)
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
        opcode_token::CUSTOMDATA_CLASS.get(self.token)
    }
    /// True for a custom-data block.
    pub fn is_customdata(&self) -> bool {
        self.opcode() == spec::Opcode::Customdata as u16
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
    /// A program with nothing in it yet, whose version token would sit at
    /// absolute offset `offset`.
    pub(crate) fn empty(offset: usize) -> Program {
        Program {
            offset,
            version: VersionToken(0),
            length: 0,
            instructions: Vec::new(),
            operands: Vec::new(),
            pool: Vec::new(),
            payload: Vec::new(),
            trailing: Vec::new(),
            undecoded: Vec::new(),
        }
    }

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

    /// Encodes the program back to chunk payload bytes, through the field
    /// model ([`ir`]): every token is packed from named fields. A program
    /// the field model cannot hold (an opcode or enumeration value the
    /// format does not define, which the tolerant decoder keeps) is written
    /// back from its stored tokens instead.
    pub fn encode(&self) -> Vec<u8> {
        match ir::Program::from_decoded(self).and_then(|p| p.encode()) {
            Ok(bytes) => bytes,
            Err(_) => encode::encode_stored(self),
        }
    }
}

#[cfg(test)]
mod tests;
