//! Shader messages: the custom-data blocks of class `SHADER_MESSAGE` that
//! HLSL's `printf` and `errorf` compile to (debug layers only).
//!
//! ```text
//! payload (after the opcode token and the block length)
//! [0] message id: 0x00200102 a message (printf), 0x00200103 an error (errorf)
//! [1] format: 0 plain text, 1 printf conventions
//! [2] characters in the string, without its terminator
//! [3] number of operands
//! [4] dwords the operands take
//! [5..] the operands, encoded as instruction operands
//! then the string, zero-terminated, padded to whole dwords
//! ```
//!
//! fxc prints one as `printf "%0 is not %1 fine!", r10.z, r10.x` (an
//! error as `errorf`), and notes at the top of the listing that the shader
//! needs the debug layer. The block is kept as payload dwords by the
//! decoder (so it encodes and tiles like any custom data); this reads it.

use super::{read_operand, Program};

/// `D3D11_SB_SHADER_MESSAGE_ID_MESSAGE`.
pub const MESSAGE_ID: u32 = 0x0020_0102;
/// `D3D11_SB_SHADER_MESSAGE_ID_ERROR`.
pub const ERROR_ID: u32 = 0x0020_0103;
/// `D3D11_SB_SHADER_MESSAGE_FORMAT_ANSI_PRINTF`.
pub const FORMAT_PRINTF: u32 = 1;
/// Payload dwords before the operands.
const HEADER: usize = 5;

/// A decoded shader message.
pub struct Message {
    /// `errorf` rather than `printf`.
    pub error: bool,
    /// The format string, as stored (ANSI; other bytes shown lossily).
    pub text: String,
    /// The operands, decoded into a program of their own (ids 0..n are
    /// the top-level ones, in order; relative indices follow them).
    pub operands: Program,
    /// Ids of the top-level operands in `operands.operands`.
    pub ids: Vec<u32>,
}

impl Message {
    /// Reads a message from its payload dwords (the first at absolute
    /// offset `base`). `None` when the block is not a well-formed message:
    /// an unknown id or format, counts that do not fit, operands that do
    /// not decode to exactly the stated length.
    pub fn read(payload: &[u32], base: usize) -> Option<Message> {
        let &[id, format, chars, count, op_words, ..] = payload else { return None };
        let error = match id {
            MESSAGE_ID => false,
            ERROR_ID => true,
            _ => return None,
        };
        if format > FORMAT_PRINTF {
            return None;
        }
        let ops_end = HEADER.checked_add(op_words as usize).filter(|&e| e <= payload.len())?;
        let words: Vec<u8> = payload[..ops_end].iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut operands = Program::empty(base);
        let mut ids = Vec::new();
        let mut cur = HEADER;
        for _ in 0..count.min(op_words) {
            ids.push(read_operand(&mut operands, &words, base, &mut cur, ops_end, 0).ok()?);
        }
        if ids.len() != count as usize || cur != ops_end {
            return None;
        }
        let bytes: Vec<u8> = payload[ops_end..].iter().flat_map(|w| w.to_le_bytes()).collect();
        let text = bytes.get(..chars as usize)?;
        Some(Message { error, text: String::from_utf8_lossy(text).into_owned(), operands, ids })
    }

    /// The mnemonic fxc prints.
    pub fn mnemonic(&self) -> &'static str {
        MNEMONICS[usize::from(self.error)]
    }
}

/// The mnemonics of a message and of an error.
pub const MNEMONICS: [&str; 2] = ["printf", "errorf"];

/// What payload dword `k` of a message whose operands take `op_words`
/// dwords holds (the layout above).
pub(crate) fn word_name(k: usize, op_words: usize) -> &'static str {
    match k {
        0 => "message id",
        1 => "message format",
        2 => "message characters",
        3 => "message operand count",
        4 => "message operand dwords",
        k if k - HEADER < op_words => "message operand",
        _ => "message text",
    }
}

/// The payload dwords of a message: `error` picks `errorf`, `operand_words`
/// are the operands as encoded, `text` the format string.
pub fn payload(error: bool, text: &str, count: u32, operand_words: &[u32]) -> Vec<u32> {
    let mut w = vec![
        if error { ERROR_ID } else { MESSAGE_ID },
        FORMAT_PRINTF,
        text.len() as u32,
        count,
        operand_words.len() as u32,
    ];
    w.extend_from_slice(operand_words);
    // Zero-terminated, padded to whole dwords.
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().div_ceil(4) * 4, 0);
    w.extend(bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    w
}
