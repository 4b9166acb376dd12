//! The listing as an editor: edited listing text back to bytes.
//!
//! When the header (every line up to the profile line) is as the file
//! prints it, only the program changed: the lines that differ from the
//! current listing (widened to whole instructions) are assembled in the
//! file's own header context and spliced over the instructions they
//! replace (`dxbc::edit::replace_instructions`). Every other instruction
//! and every other chunk stays byte for byte, even the immediates that
//! fxc's `%f` prints with too few decimals to read back exactly. When the
//! header changed (a whole listing pasted, a signature row edited), the
//! whole text is assembled (`dxbc::asm::assemble`) into a new container.
//! Either way the result is re-signed and decodes strictly.
//!
//! The assembler is a large part of the code and the first view never
//! needs it, so the page runs [`apply`] in the worker ([`apply_json`]
//! there, [`from_json`] on the page's side).

use crate::model::Model;
use dxbc::asm::AsmError;
use dxbc::edit::EditError;
use serde::{Deserialize, Serialize};

/// The most text the editor assembles (a listing of the largest corpus
/// shader is about 1 MiB).
pub const MAX_TEXT: usize = 16 << 20;

/// How an accepted text was turned into bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum How {
    /// Program lines `first..first + count` of the text replaced the
    /// instructions they stand for; nothing else moved.
    Program { first: usize, count: usize },
    /// The whole listing was assembled into a new container.
    Whole,
}

/// What an edited text gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// The text stands for the bytes already shown.
    Unchanged,
    /// New, re-signed bytes.
    Edited { bytes: Vec<u8>, how: How },
}

/// Why a text gives no bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// The assembler stopped at a line.
    Asm(LineError),
    /// The lines assembled, but the edited container would not decode.
    Edit { line: usize, error: EditError },
    /// The text is larger than [`MAX_TEXT`].
    TooLarge(usize),
    /// The assembler (in the worker) could not be run: why.
    Unavailable(String),
}

/// An assembly error placed in the edited text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineError {
    /// 0-based line of the text.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What the assembler expected.
    pub message: String,
}

impl Refusal {
    /// The 0-based line to mark, if any.
    pub fn line(&self) -> Option<usize> {
        match self {
            Refusal::Asm(e) => Some(e.line),
            Refusal::Edit { line, .. } => Some(*line),
            Refusal::TooLarge(_) | Refusal::Unavailable(_) => None,
        }
    }

    /// One sentence for the page (line numbers 1-based, as editors count).
    pub fn message(&self) -> String {
        match self {
            Refusal::Asm(e) => format!("line {}, column {}: {}", e.line + 1, e.column, e.message),
            Refusal::Edit { line, error } => format!("line {}: {}", line + 1, error.message),
            Refusal::TooLarge(n) => format!("the text is {n} bytes; the editor assembles at most {MAX_TEXT}"),
            Refusal::Unavailable(why) => format!("the assembler could not run: {why}"),
        }
    }
}

/// The listing lines with line `l` replaced by `text` (one line), joined
/// as `dxbc disasm` prints them (each line ends in a newline).
pub fn splice_line(lines: &[String], l: usize, text: &str) -> String {
    let mut out = String::with_capacity(lines.iter().map(|x| x.len() + 1).sum::<usize>() + text.len());
    for (k, x) in lines.iter().enumerate() {
        out.push_str(if k == l { text } else { x });
        out.push('\n');
    }
    out
}

/// The listing of `m` as one text (what the editor opens with).
pub fn listing_text(m: &Model) -> String {
    let mut out = String::with_capacity(m.lines.iter().map(|x| x.len() + 1).sum());
    for x in &m.lines {
        out.push_str(x);
        out.push('\n');
    }
    out
}

/// Turns the edited `text` into bytes for the file shown as `m`.
pub fn apply(m: &Model, text: &str) -> Result<Outcome, Refusal> {
    if text.len() > MAX_TEXT {
        return Err(Refusal::TooLarge(text.len()));
    }
    let new: Vec<&str> = text.lines().collect();
    match program_region(m, &new) {
        Some(Region::Same) => Ok(Outcome::Unchanged),
        Some(Region::Changed { header, first, old_end, new_end }) => splice(m, &new, header, first, old_end, new_end),
        None => whole(m, text),
    }
}

enum Region {
    Same,
    /// Text lines `first..new_end` replace listing lines `first..old_end`
    /// (after the `header` lines, which are as printed).
    Changed {
        header: usize,
        first: usize,
        old_end: usize,
        new_end: usize,
    },
}

/// The changed program lines, widened to whole instructions; None when
/// the header changed (or the file has no intact program to splice into).
fn program_region(m: &Model, new: &[&str]) -> Option<Region> {
    let header = m.program_line? + 1;
    if m.program().is_none() || !m.faults.is_empty() || new.len() < header {
        return None;
    }
    let old = &m.lines;
    if old[..header].iter().zip(&new[..header]).any(|(a, b)| a != b) {
        return None;
    }
    let same = |a: usize, b: usize| old[a] == new[b];
    let mut first = header;
    while first < old.len() && first < new.len() && same(first, first) {
        first += 1;
    }
    let mut tail = 0;
    while tail < old.len() - first && tail < new.len() - first && same(old.len() - 1 - tail, new.len() - 1 - tail) {
        tail += 1;
    }
    if first == old.len() && first == new.len() {
        return Some(Region::Same);
    }
    let mut old_end = old.len() - tail;
    // An instruction printed on several lines (an immediate constant
    // buffer) is assembled whole. The debug lines of a `/Zi` listing (blank,
    // `#line`, `//` variable locations) belong to no instruction's text.
    let debug_line = |l: usize| old[l].is_empty() || old[l].starts_with("#line") || old[l].starts_with("//");
    let inside = |l: usize| {
        l > header && l < old.len() && !debug_line(l) && m.line_ins[l].is_some() && m.line_ins[l - 1] == m.line_ins[l]
    };
    while inside(first) {
        first -= 1;
    }
    while inside(old_end) {
        old_end += 1;
    }
    let new_end = new.len() - (old.len() - old_end);
    Some(Region::Changed { header, first, old_end, new_end })
}

fn splice(
    m: &Model,
    new: &[&str],
    header: usize,
    first: usize,
    old_end: usize,
    new_end: usize,
) -> Result<Outcome, Refusal> {
    let Some(p) = m.program() else { return whole_text(m, new) };
    let program_end = p.instructions.last().map_or(p.offset + 8, |i| i.offset as usize + 4 * i.length as usize);
    let offset = |k: u32| p.instructions.get(k as usize).map_or(program_end, |i| i.offset as usize);
    let ins_in = |a: usize, b: usize| m.line_ins[a..b].iter().flatten().copied().collect::<Vec<u32>>();
    let touched = ins_in(first, old_end);
    let (start, end) = match (touched.first(), touched.last()) {
        (Some(&a), Some(&b)) => (offset(a), offset(b + 1)),
        // Only lines without instructions changed, or lines were added:
        // they go before the next instruction.
        _ => {
            let at = m.line_ins[old_end..].iter().flatten().next().map_or(program_end, |&k| offset(k));
            (at, at)
        }
    };
    // The header gives the assembler the file's dialect and profile.
    let mut snippet = String::new();
    for l in new[..header].iter().chain(&new[first..new_end]) {
        snippet.push_str(l);
        snippet.push('\n');
    }
    let program = dxbc::asm::assemble_program(&snippet).map_err(|e| {
        // The snippet's lines past the header are the text's from `first`.
        let line = if e.line <= header { e.line.saturating_sub(1) } else { first + e.line - header - 1 };
        Refusal::Asm(LineError { line, column: e.column, message: e.message })
    })?;
    let words: Vec<u32> = program
        .get(8..)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let edited = dxbc::edit::replace_instructions(&m.bytes, start, end, &words)
        .map_err(|error| Refusal::Edit { line: first.min(new.len().saturating_sub(1)), error })?;
    Ok(if edited.bytes == m.bytes {
        Outcome::Unchanged
    } else {
        Outcome::Edited { bytes: edited.bytes, how: How::Program { first, count: new_end - first } }
    })
}

fn whole_text(m: &Model, new: &[&str]) -> Result<Outcome, Refusal> {
    let mut text = new.join("\n");
    text.push('\n');
    whole(m, &text)
}

fn whole(m: &Model, text: &str) -> Result<Outcome, Refusal> {
    let bytes = dxbc::asm::assemble(text).map_err(|e| Refusal::Asm(line_error(&e)))?;
    // The page shows what decodes: refuse a container the decoder rejects.
    if let Err(e) = dxbc::Shader::parse(&bytes) {
        let error = EditError {
            kind: dxbc::edit::EditErrorKind::WouldBeInvalid,
            message: format!("the assembled container does not decode: {}", e.message()),
            offset: e.offset(),
        };
        return Err(Refusal::Edit { line: 0, error });
    }
    Ok(if bytes == m.bytes { Outcome::Unchanged } else { Outcome::Edited { bytes, how: How::Whole } })
}

/// [`apply`] for the worker: `bytes` is the file shown, the answer the
/// JSON of `Result<Outcome, Refusal>` (read back by [`from_json`]).
pub fn apply_json(bytes: &[u8], text: &str) -> String {
    let m = Model::listing_only(bytes.to_vec());
    let r = apply(&m, text);
    serde_json::to_string(&r).unwrap_or_else(|e| {
        serde_json::to_string(&Err::<Outcome, _>(Refusal::Unavailable(e.to_string()))).unwrap_or_default()
    })
}

/// Reads the worker's answer (see [`apply_json`]).
pub fn from_json(json: &str) -> Result<Outcome, Refusal> {
    serde_json::from_str(json)
        .unwrap_or_else(|e| Err(Refusal::Unavailable(format!("the worker's answer does not read: {e}"))))
}

/// An assembler error at its 0-based line.
pub fn line_error(e: &AsmError) -> LineError {
    LineError { line: e.line.saturating_sub(1), column: e.column, message: e.message.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first instruction line (after the declarations) starting with `prefix`.
    fn line_starting(m: &Model, prefix: &str) -> Option<usize> {
        (m.program_line? + 1..m.lines.len()).find(|&l| m.line_ins[l].is_some() && m.lines[l].starts_with(prefix))
    }

    #[test]
    fn every_line_replaced_by_itself_gives_the_same_bytes() {
        let mut n = 0;
        for (name, bytes) in crate::test_corpus::fxc() {
            let m = Model::new(bytes);
            let Some(pl) = m.program_line else { continue };
            if !m.faults.is_empty() {
                continue;
            }
            assert_eq!(apply(&m, &listing_text(&m)), Ok(Outcome::Unchanged), "{name}: the listing as printed");
            // A line re-typed: the same text, so nothing changes.
            for l in [pl + 1, (pl + m.lines.len()) / 2, m.lines.len() - 1] {
                let text = splice_line(&m.lines, l, &m.lines[l].clone());
                assert_eq!(apply(&m, &text), Ok(Outcome::Unchanged), "{name}: line {l}");
            }
            // The first instruction assembled from its own text, spelled
            // with an extra space: same bytes, byte for byte.
            if let Some(l) = line_starting(&m, "") {
                let text = splice_line(&m.lines, l, &format!("{} ", m.lines[l]));
                match apply(&m, &text) {
                    Ok(Outcome::Unchanged) => {}
                    other => panic!("{name}: `{}` re-assembled: {other:?}", m.lines[l]),
                }
            }
            n += 1;
        }
        assert!(n >= 400, "checked {n} shaders");
    }

    #[test]
    fn mul_to_add_gives_what_the_assembler_gives_for_the_edited_listing() {
        let mut n = 0;
        for (name, bytes) in crate::test_corpus::fxc() {
            let m = Model::new(bytes);
            let Some(l) = line_starting(&m, "mul ") else { continue };
            let text = splice_line(&m.lines, l, &format!("add {}", &m.lines[l][4..]));
            let Ok(Outcome::Edited { bytes, how }) = apply(&m, &text) else { panic!("{name}: mul → add refused") };
            assert_eq!(how, How::Program { first: l, count: 1 }, "{name}");
            // The oracle: `dxbc edit --replace` of that instruction.
            let at = m.program().unwrap().instructions[m.line_ins[l].unwrap() as usize].offset as usize;
            let by_edit = dxbc::edit::replace_text(&m.bytes, at, &m.lines[l].replacen("mul", "add", 1)).unwrap();
            assert_eq!(bytes, by_edit.bytes, "{name}");
            // And the whole edited listing assembled by `dxbc asm` has the same program chunk.
            let whole = dxbc::Shader::parse(&dxbc::asm::assemble(&text).unwrap()).unwrap();
            // (compared without the SPDB annotations, which `dxbc asm`
            // cannot rebuild from the text)
            let mut ours = dxbc::Shader::parse(&bytes).unwrap();
            ours.spdb = None;
            assert_eq!(
                dxbc::listing::disassemble(&whole)
                    .lines()
                    .skip_while(|x| !x.starts_with(m.lines[m.program_line.unwrap()].as_str()))
                    .collect::<Vec<_>>(),
                dxbc::listing::disassemble(&ours)
                    .lines()
                    .skip_while(|x| !x.starts_with(m.lines[m.program_line.unwrap()].as_str()))
                    .collect::<Vec<_>>(),
                "{name}"
            );
            // Only the program chunk changed; every other chunk is byte for byte.
            for c in &m.shader.as_ref().unwrap().container.chunks {
                if &c.tag != b"SHDR" && &c.tag != b"SHEX" {
                    let d = ours.container.find(&c.tag).unwrap();
                    assert_eq!(&m.bytes[c.data_range()], &bytes[d.data_range()], "{name}: {}", c.fourcc());
                }
            }
            assert!(ours.container.checksum_ok(&bytes), "{name}: re-signed");
            n += 1;
        }
        assert!(n >= 100, "mul → add on {n} shaders");
    }

    #[test]
    fn an_error_is_placed_at_its_line_and_the_bytes_are_kept() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let l = line_starting(&m, "mul ").unwrap();
        let text = splice_line(&m.lines, l, "mul o0.xyzw, q0.xyzw, cb0[0].xyzw");
        let e = apply(&m, &text).unwrap_err();
        assert_eq!(e.line(), Some(l));
        let Refusal::Asm(a) = &e else { panic!("{e:?}") };
        assert_eq!(a.column, 14);
        assert!(e.message().starts_with(&format!("line {}, column 14: ", l + 1)), "{}", e.message());
        // Two changed lines apart: the error is on the second.
        let mut lines = m.lines.clone();
        lines[m.program_line.unwrap() + 1] = format!("{} ", lines[m.program_line.unwrap() + 1]);
        let text = splice_line(&lines, l, "mul o0.xyzw, v0.xyzw,");
        assert_eq!(apply(&m, &text).unwrap_err().line(), Some(l));
    }

    #[test]
    fn inserted_and_deleted_lines_move_the_instructions() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let l = line_starting(&m, "mul ").unwrap();
        let mut lines = m.lines.clone();
        lines.insert(l, "mov r0.x, l(1.000000)".to_string());
        let Ok(Outcome::Edited { bytes, .. }) = apply(&m, &splice_line(&lines, usize::MAX, "")) else { panic!() };
        let at = m.program().unwrap().instructions[m.line_ins[l].unwrap() as usize].offset as usize;
        assert_eq!(bytes, dxbc::edit::insert_text(&m.bytes, at, "mov r0.x, l(1.000000)").unwrap().bytes);
        lines.remove(l);
        lines.remove(l);
        let Ok(Outcome::Edited { bytes, .. }) = apply(&m, &splice_line(&lines, usize::MAX, "")) else { panic!() };
        assert_eq!(bytes, dxbc::edit::delete_instruction(&m.bytes, at).unwrap().bytes);
    }

    #[test]
    fn a_changed_header_assembles_the_whole_listing() {
        let (name, bytes) = crate::test_corpus::fxc()
            .into_iter()
            .find(|(n, _)| n.starts_with("dxdecompiler_apps_tesselation_vs"))
            .unwrap();
        let m = Model::new(bytes);
        let text = listing_text(&m).replacen("// CPOINT ", "// CPOINX ", 1);
        assert_ne!(text, listing_text(&m), "{name}");
        let Ok(Outcome::Edited { bytes, how }) = apply(&m, &text) else { panic!("{name}") };
        assert_eq!(how, How::Whole);
        assert_eq!(bytes, dxbc::asm::assemble(&text).unwrap(), "what `dxbc asm` gives");
        // A whole-listing error is at its line too.
        let bad = listing_text(&m).replacen("dcl_output", "dcl_outptu", 1);
        let at = bad.lines().position(|x| x.starts_with("dcl_outptu")).unwrap();
        // The header is unchanged here: the program path places it.
        assert_eq!(apply(&m, &bad).unwrap_err().line(), Some(at));
    }

    #[test]
    fn hostile_text_is_refused_without_panicking() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        for t in ["", "\n\n", "garbage", "ps_5_0\nmov", "ps_5_0\n\u{0}\u{ffff}", "dcl_immediateConstantBuffer {"] {
            let _ = apply(&m, t);
        }
        let pl = m.program_line.unwrap();
        let text = splice_line(&m.lines[..=pl], pl, &m.lines[pl].clone()) + "ret\nret\n";
        assert!(matches!(apply(&m, &text), Ok(Outcome::Edited { .. })), "a program of two rets");
        assert!(matches!(apply(&m, &"x".repeat(MAX_TEXT + 1)), Err(Refusal::TooLarge(_))));
        let empty = Model::new(Vec::new());
        assert!(apply(&empty, "ps_5_0\nret\n").is_ok());
    }

    #[test]
    fn the_workers_answer_reads_back_as_the_outcome_apply_gives() {
        let mut n = 0;
        for (name, bytes) in crate::test_corpus::fxc().into_iter().take(40) {
            let m = Model::new(bytes.clone());
            let Some(l) = line_starting(&m, "mul ") else { continue };
            let text = listing_text(&m);
            let edited = splice_line(&m.lines, l, &m.lines[l].replacen("mul", "add", 1));
            let bad = splice_line(&m.lines, l, &m.lines[l].replacen("mul", "mlu", 1));
            for t in [&text, &edited, &bad] {
                assert_eq!(from_json(&apply_json(&bytes, t)), apply(&m, t), "{name}");
            }
            assert!(matches!(from_json(&apply_json(&bytes, &edited)), Ok(Outcome::Edited { .. })), "{name}");
            assert_eq!(from_json(&apply_json(&bytes, &bad)).unwrap_err().line(), Some(l), "{name}");
            n += 1;
        }
        assert!(n >= 5, "only {n} shaders with a mul");
        assert!(matches!(from_json("{"), Err(Refusal::Unavailable(_))));
    }
}
