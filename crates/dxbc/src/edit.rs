//! Editing a shader: change one field, or insert, delete or replace one
//! instruction, and get back re-signed bytes and a fresh model.
//!
//! Every edit works on the container's bytes, not on a copy of the model,
//! so that what a person edits is exactly what is written:
//! * a **field** edit rewrites the bits of one token through the format
//!   table's field definition ([`crate::spec::FieldDef::put`]), so the table
//!   stays the only place that knows where a field lives;
//! * a **path** edit writes the leaf that [`crate::spans`] names (any
//!   chunk: `ISGN/elements[0]/register`, `STAT/temp_registers`, …);
//! * an **instruction** edit (tokens, or listing text assembled by
//!   [`crate::asm`] in the program's profile) splices whole instructions into the program
//!   chunk; the program's length token, the chunk size, the chunk table and
//!   the checksum follow (SM4/5 flow control is structured and refers to no
//!   byte offsets, so nothing else moves).
//!
//! After every edit the result is decoded strictly: an edit that would make
//! a container the decoder rejects is refused, and the refusal names the
//! field or instruction and what the decoder said. The checksum is always
//! recomputed, so an accepted edit is a valid, signed container.

use crate::container::write_container;
use crate::error::Error;
use crate::program::{Located, Program, TokenRole};
use crate::spec::{self, FieldDef};
use crate::Shader;
use std::fmt;

/// The result of an accepted edit.
#[derive(Clone, Debug)]
pub struct Edited {
    /// The new container, re-signed.
    pub bytes: Vec<u8>,
    /// The new container, decoded.
    pub shader: Shader,
}

/// Why an edit was refused.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EditErrorKind {
    /// The input itself does not decode cleanly.
    InputDamaged,
    /// No program token lies at the given offset.
    NoToken,
    /// The token has no field of that name.
    NoSuchField,
    /// The value is neither a number nor a name of the field's enumeration.
    UnknownValue,
    /// The value does not fit in the field's bits.
    OutOfRange,
    /// The offset does not start an instruction.
    NotAnInstruction,
    /// The edited container would not decode: the edit is refused.
    WouldBeInvalid,
}

/// A refused edit: its kind, a message naming the field or instruction, and
/// the byte offset it concerns. Serialisable: the web app's assembler runs
/// in a worker and sends refusals back as JSON.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EditError {
    /// What went wrong.
    pub kind: EditErrorKind,
    /// A sentence naming the field or instruction.
    pub message: String,
    /// The byte offset of the token or instruction.
    pub offset: usize,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {:#x})", self.message, self.offset)
    }
}

impl std::error::Error for EditError {}

fn refuse(kind: EditErrorKind, message: impl Into<String>, offset: usize) -> EditError {
    EditError { kind, message: message.into(), offset }
}

/// Why a decoding error makes the input uneditable.
fn damaged(e: &Error) -> EditError {
    refuse(EditErrorKind::InputDamaged, format!("cannot edit: {}", e.message()), e.offset())
}

/// Decodes `bytes` strictly, or says why the input cannot be edited.
fn decode_input(bytes: &[u8]) -> Result<Shader, EditError> {
    Shader::parse(bytes).map_err(|e| damaged(&e))
}

/// Checks that an already decoded shader decoded cleanly, as
/// [`decode_input`] would have.
fn check_input(s: &Shader) -> Result<(), EditError> {
    s.errors.first().map_or(Ok(()), |e| Err(damaged(e)))
}

fn program_of(s: &Shader, offset: usize) -> Result<&Program, EditError> {
    s.program.as_ref().ok_or_else(|| refuse(EditErrorKind::NoToken, "the container has no program chunk", offset))
}

/// The bitfields of the token at `offset` (any byte of it), from the format table.
pub fn fields_at(bytes: &[u8], offset: usize) -> Result<(Located, Vec<&'static FieldDef>), EditError> {
    fields_in(&decode_input(bytes)?, offset)
}

/// [`fields_at`] in a shader already decoded.
fn fields_in(s: &Shader, offset: usize) -> Result<(Located, Vec<&'static FieldDef>), EditError> {
    check_input(s)?;
    let p = program_of(s, offset)?;
    let t = p.locate(offset).ok_or_else(|| refuse(EditErrorKind::NoToken, "no program token lies here", offset))?;
    let defs = t.fields(p).into_iter().map(|f| f.def).collect();
    Ok((t, defs))
}

/// Sets the field called `field` (as `dxbc dump` names it, e.g. `saturate`,
/// `opcode`, `component selection`) of the token at byte `offset` to
/// `value`: a number (decimal or `0x…`) or a name of the field's values (its
/// spec name or fxc's spelling; for `opcode`, a mnemonic such as `mul`).
pub fn set_field(bytes: &[u8], offset: usize, field: &str, value: &str) -> Result<Edited, EditError> {
    set_field_in(&decode_input(bytes)?, offset, field, value)
}

/// [`set_field`] on a shader already decoded from its bytes
/// ([`Shader::decode`]; one that kept errors is refused as damaged), which
/// saves decoding them again: a caller holding the model of the file it
/// edits (the explorer) passes that.
pub fn set_field_in(shader: &Shader, offset: usize, field: &str, value: &str) -> Result<Edited, EditError> {
    let bytes = &shader.bytes[..];
    let (t, defs) = fields_in(shader, offset)?;
    if field.trim() == "value" {
        // Immediates, indices and payload words are numbers as a whole.
        let v = parse_number(value.trim()).ok_or_else(|| {
            refuse(EditErrorKind::UnknownValue, format!("`{value}` is not a number for field `value`"), t.offset)
        })?;
        return write_bits(bytes, t, "value", 0, 31, v);
    }
    let def = defs.iter().find(|d| d.name.eq_ignore_ascii_case(field.trim())).ok_or_else(|| {
        let names: Vec<&str> = defs.iter().map(|d| d.name).collect();
        refuse(
            EditErrorKind::NoSuchField,
            format!("the {} has no field `{field}`; its fields are: {}", role_text(&t.role), names.join(", ")),
            t.offset,
        )
    })?;
    let v = field_value(def, value).ok_or_else(|| {
        refuse(EditErrorKind::UnknownValue, format!("`{value}` is not a value of field `{}`", def.name), t.offset)
    })?;
    write_bits(bytes, t, def.name, def.lo, def.hi, v)
}

/// Sets bits `lo..=hi` of the dword at byte `offset` (any byte of a program
/// token) to `value`.
pub fn set_bits(bytes: &[u8], offset: usize, lo: u8, hi: u8, value: u32) -> Result<Edited, EditError> {
    let s = decode_input(bytes)?;
    let p = program_of(&s, offset)?;
    let t = p.locate(offset).ok_or_else(|| refuse(EditErrorKind::NoToken, "no program token lies here", offset))?;
    if lo > hi || hi > 31 {
        return Err(refuse(
            EditErrorKind::OutOfRange,
            format!("bits {hi}:{lo} are not a bit range of a dword"),
            offset,
        ));
    }
    write_bits(bytes, t, &format!("bits {hi}:{lo}"), lo, hi, value)
}

fn write_bits(bytes: &[u8], t: Located, name: &str, lo: u8, hi: u8, v: u32) -> Result<Edited, EditError> {
    let def = FieldDef { name: "", lo, hi, values: None, doc: "" };
    if v > def.mask() >> lo {
        return Err(refuse(
            EditErrorKind::OutOfRange,
            format!("{v} does not fit in field `{name}` ({} bits)", hi - lo + 1),
            t.offset,
        ));
    }
    let word = def.put(t.value, v);
    let mut out = bytes.to_vec();
    out[t.offset..t.offset + 4].copy_from_slice(&word.to_le_bytes());
    resign(&mut out);
    finish(out, name, t.offset)
}

/// Sets the leaf field at `path` (as `dxbc spans` names it, e.g.
/// `ISGN/elements[0]/register` or `STAT/temp_registers`) to `value`: a
/// number for numeric fields; for a string, text no longer than the string
/// already is (the rest of its bytes become NULs, so no offset moves —
/// longer names go through the chunk models and their encoders).
pub fn set_path(bytes: &[u8], path: &str, value: &str) -> Result<Edited, EditError> {
    let s = decode_input(bytes)?;
    let spans = crate::spans::leaves(&s);
    let leaf = spans.leaves.iter().find(|l| l.path == path).ok_or_else(|| {
        refuse(EditErrorKind::NoSuchField, format!("no field has the path `{path}` (see `dxbc spans`)"), 0)
    })?;
    let mut out = bytes.to_vec();
    let at = leaf.offset;
    match &leaf.value {
        crate::spans::Value::Number(_) => {
            let v = parse_number(value.trim()).ok_or_else(|| {
                refuse(EditErrorKind::UnknownValue, format!("`{value}` is not a number for `{path}`"), at)
            })? as u64;
            if leaf.len < 8 && v >> (8 * leaf.len) != 0 {
                return Err(refuse(
                    EditErrorKind::OutOfRange,
                    format!("{v} does not fit in `{path}` ({} bytes)", leaf.len),
                    at,
                ));
            }
            out[at..at + leaf.len].copy_from_slice(&v.to_le_bytes()[..leaf.len.min(8)]);
        }
        crate::spans::Value::Text(_) => {
            // FourCCs have no NUL; strings keep at least one.
            let room = if leaf.path.ends_with("fourcc") { leaf.len } else { leaf.len - 1 };
            if value.len() > room || !value.is_ascii() {
                return Err(refuse(
                    EditErrorKind::OutOfRange,
                    format!("`{path}` holds at most {room} ASCII characters here"),
                    at,
                ));
            }
            out[at..at + leaf.len].fill(0);
            out[at..at + value.len()].copy_from_slice(value.as_bytes());
        }
        crate::spans::Value::Bytes => {
            return Err(refuse(EditErrorKind::NoSuchField, format!("`{path}` is raw bytes, not a field"), at))
        }
    }
    resign(&mut out);
    finish(out, &format!("`{path}`"), at)
}

/// Inserts the instructions of listing text `text` (one or more lines as
/// `dxbc disasm` prints them) before the instruction at byte `offset`, or
/// at the end of the program when `offset` is the program's end.
pub fn insert_text(bytes: &[u8], offset: usize, text: &str) -> Result<Edited, EditError> {
    let words = assemble_lines(bytes, offset, text)?;
    insert_instruction(bytes, offset, &words)
}

/// Replaces the instruction at byte `offset` by the instructions of `text`.
pub fn replace_text(bytes: &[u8], offset: usize, text: &str) -> Result<Edited, EditError> {
    let words = assemble_lines(bytes, offset, text)?;
    replace_instruction(bytes, offset, &words)
}

/// Assembles listing lines in the program's own profile into token words.
fn assemble_lines(bytes: &[u8], offset: usize, text: &str) -> Result<Vec<u32>, EditError> {
    let s = decode_input(bytes)?;
    let p = program_of(&s, offset)?;
    let listing = format!("{}\n{text}\n", p.version.profile());
    let program = crate::asm::assemble_program(&listing).map_err(|e| {
        refuse(
            EditErrorKind::UnknownValue,
            format!("cannot assemble `{}`: {} (column {})", text.trim(), e.message, e.column),
            offset,
        )
    })?;
    // Skip the version and length tokens the assembler wrote.
    Ok(program[8..].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// Deletes the instruction that starts at byte `offset`.
pub fn delete_instruction(bytes: &[u8], offset: usize) -> Result<Edited, EditError> {
    let s = decode_input(bytes)?;
    let (start, len) = instruction_span(&s, offset)?;
    splice(bytes, &s, start, len, &[], "the deleted instruction", offset)
}

/// Inserts the instruction `words` (its complete tokens) before the
/// instruction that starts at byte `offset`, or at the end of the program
/// when `offset` is the program's end.
pub fn insert_instruction(bytes: &[u8], offset: usize, words: &[u32]) -> Result<Edited, EditError> {
    let s = decode_input(bytes)?;
    let p = program_of(&s, offset)?;
    if offset != program_end(p) {
        instruction_span(&s, offset)?;
    }
    splice(bytes, &s, offset, 0, words, "the inserted instruction", offset)
}

/// Replaces the instruction that starts at byte `offset` by `words`.
pub fn replace_instruction(bytes: &[u8], offset: usize, words: &[u32]) -> Result<Edited, EditError> {
    let s = decode_input(bytes)?;
    let (start, len) = instruction_span(&s, offset)?;
    splice(bytes, &s, start, len, words, "the replacing instruction", offset)
}

/// Replaces the run of whole instructions in bytes `start..end` of the
/// program by `words` (the listing editor's splice: the lines a person
/// changed, assembled). `start` and `end` are each an instruction's first
/// byte or the program's end; `start == end` inserts. Every other byte of
/// the program and every other chunk stay as they were.
pub fn replace_instructions(bytes: &[u8], start: usize, end: usize, words: &[u32]) -> Result<Edited, EditError> {
    let s = decode_input(bytes)?;
    let p = program_of(&s, start)?;
    let stop = program_end(p);
    let boundary = |o: usize| o == stop || p.instructions.iter().any(|i| i.offset as usize == o);
    for o in [start, end] {
        if !boundary(o) {
            return Err(refuse(
                EditErrorKind::NotAnInstruction,
                "no instruction starts here (give the offset of an opcode token or the program's end)",
                o,
            ));
        }
    }
    if end < start {
        return Err(refuse(EditErrorKind::NotAnInstruction, "the range ends before it starts", start));
    }
    splice(bytes, &s, start, end - start, words, "the replacing instructions", start)
}

fn program_end(p: &Program) -> usize {
    p.instructions.last().map(|i| i.offset as usize + i.length as usize * 4).unwrap_or(p.offset + 8)
}

/// Byte range (start, length) of the instruction starting at `offset`.
fn instruction_span(s: &Shader, offset: usize) -> Result<(usize, usize), EditError> {
    let p = program_of(s, offset)?;
    let i = p.instructions.iter().find(|i| i.offset as usize == offset).ok_or_else(|| {
        refuse(
            EditErrorKind::NotAnInstruction,
            "no instruction starts here (give the offset of its opcode token)",
            offset,
        )
    })?;
    Ok((offset, i.length as usize * 4))
}

/// Replaces `len` bytes at `at` inside the program chunk by `words`, and
/// rewrites the program length, the chunk and the container around it.
fn splice(
    bytes: &[u8],
    s: &Shader,
    at: usize,
    len: usize,
    words: &[u32],
    what: &str,
    offset: usize,
) -> Result<Edited, EditError> {
    let p = program_of(s, offset)?;
    let chunk = s
        .container
        .chunks
        .iter()
        .position(|c| c.offset + 8 == p.offset)
        .ok_or_else(|| refuse(EditErrorKind::NoToken, "the program chunk is not in the chunk table", offset))?;
    let data = s.container.chunks[chunk].data_range();
    let mut program = bytes[data.start..at].to_vec();
    for w in words {
        program.extend_from_slice(&w.to_le_bytes());
    }
    program.extend_from_slice(&bytes[at + len..data.end]);
    // The length token counts the program's dwords; the size change is whole dwords.
    let old_len = p.length as i64;
    let new_len = old_len + (words.len() as i64) - (len as i64 / 4);
    let new_len = u32::try_from(new_len).map_err(|_| {
        refuse(EditErrorKind::WouldBeInvalid, format!("{what} makes the program length negative"), offset)
    })?;
    program[4..8].copy_from_slice(&new_len.to_le_bytes());
    let parts: Vec<([u8; 4], &[u8])> = s
        .container
        .chunks
        .iter()
        .enumerate()
        .map(|(i, c)| (c.tag, if i == chunk { &program[..] } else { &bytes[c.data_range()] }))
        .collect();
    let out = write_container(s.container.version, &parts);
    finish(out, what, offset)
}

/// Recomputes the checksum of `bytes` in place.
fn resign(bytes: &mut [u8]) {
    let sum = crate::checksum::dxbc_checksum(bytes);
    for (i, w) in sum.iter().enumerate() {
        bytes[4 + i * 4..8 + i * 4].copy_from_slice(&w.to_le_bytes());
    }
}

/// Decodes the edited bytes strictly; refuses the edit when they do not decode.
fn finish(bytes: Vec<u8>, what: &str, offset: usize) -> Result<Edited, EditError> {
    // Every edit's bytes were signed (`resign`, or `write_container`).
    match Shader::parse(&bytes) {
        Ok(shader) => Ok(Edited { bytes, shader: shader.signed() }),
        Err(e) => Err(refuse(
            EditErrorKind::WouldBeInvalid,
            format!(
                "refused: with this value of {what} the container no longer decodes: {} (at offset {:#x})",
                e.message(),
                e.offset()
            ),
            offset,
        )),
    }
}

/// A field value from text: a number, an enumeration name, or (for the
/// opcode field) a mnemonic.
fn field_value(def: &FieldDef, text: &str) -> Option<u32> {
    let t = text.trim();
    if let Some(n) = parse_number(t) {
        return Some(n);
    }
    if let Some(e) = def.values {
        let by_name = e
            .values
            .iter()
            .find(|v| v.spec_name.eq_ignore_ascii_case(t) || (!v.asm.is_empty() && v.asm.eq_ignore_ascii_case(t)));
        if let Some(v) = by_name {
            return Some(v.value);
        }
    }
    if def.name == "opcode" {
        return spec::OPCODES
            .iter()
            .find(|o| {
                o.class != spec::OpClass::Reserved
                    && (o.asm.eq_ignore_ascii_case(t) || o.spec_name.eq_ignore_ascii_case(t))
            })
            .map(|o| o.code as u32);
    }
    None
}

/// A decimal or `0x…` number.
pub fn parse_number(t: &str) -> Option<u32> {
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

fn role_text(r: &TokenRole) -> &'static str {
    match r {
        TokenRole::Version => "version token",
        TokenRole::Length => "length token",
        TokenRole::Opcode => "opcode token",
        TokenRole::InstructionLength => "length dword",
        TokenRole::ExtendedOpcode => "extended opcode token",
        TokenRole::Operand { .. } => "operand token",
        TokenRole::ExtendedOperand { .. } => "extended operand token",
        TokenRole::Immediate { .. } => "immediate dword",
        TokenRole::Index { .. } => "index dword",
        TokenRole::Payload(_) => "payload dword",
    }
}
