//! # dxbc — every byte of a Direct3D shader container, explained
//!
//! fxc compiles HLSL for shader models 4.0–5.1 into DXBC: a checksummed
//! container of chunks, one of which (SHDR/SHEX) holds the program as a
//! stream of 32-bit tokens packed with bitfields. This crate decodes all of
//! it into a model in which every item knows its absolute byte span, prints
//! that model exactly as fxc's disassembler does, and encodes it back to
//! identical bytes.
//!
//! ## Design
//! * **One table of the format** ([`spec`]) names every opcode, operand
//!   type, enum value and bitfield (bit range, meaning, and a plain-words
//!   explanation). The decoder reads fields through it, the printer takes
//!   mnemonics from it, the encoder packs through it, and the web explorer
//!   shows its explanations.
//! * **Typed enums from the same rows**: one macro call per table emits
//!   both the table and a Rust enum ([`spec::Opcode`], [`spec::OperandType`],
//!   …), so code matches on names, never on numbers.
//! * **A field model for editing** ([`program::ir`]): every bit of every
//!   token as a named, typed field, with no stored token words; the encoder
//!   packs it through the table's bitfields and computes every length.
//! * **Two layers for the program**: a grammar-free token walk (lengths,
//!   extended-token chains, operand index chains) under a grammar-aware
//!   reader that knows each declaration's payload.
//! * **Offsets everywhere**: every instruction, operand, index and payload
//!   dword records its absolute offset, so "which token and field cover byte
//!   0x1a3, bit 12?" is a lookup ([`program::Program::locate`]).
//! * **Errors keep what decoded**: decoding stops at the first fault and
//!   keeps everything before it; the error names what was expected and the
//!   byte offset (`… (at offset 0x…)`), has an [`ErrorKind`] to decide by,
//!   and names its chunk. A damaged container (truncated, bad size, bad
//!   chunk offsets) still lists and decodes every readable chunk.
//! * **Bounded work**: every count read from the file is checked against the
//!   bytes that remain before anything is allocated for it.
#![forbid(unsafe_code)]

pub mod asm;
pub mod carve;
pub mod checksum;
pub mod chunks;
pub mod container;
pub mod defuse;
pub mod diff;
pub mod edit;
pub mod effects;
pub mod error;
pub mod examples;
pub mod export;
pub mod listing;
pub mod permalink;
pub mod program;
pub mod reader;
pub mod register;
pub mod search;
mod shader;
pub mod spans;
pub mod spec;
pub mod value;

pub use container::Container;
pub use error::{ChunkRef, Error, ErrorKind, Result};
pub use shader::Shader;
