//! The debug information fxc interleaves into the listing of a `/Zi`
//! shader, built from the decoded SPDB chunk.
//!
//! fxc's rules, as its listings show them:
//! * **Variable locations.** Every piece of a variable (`S_DEFRANGE_HLSL`)
//!   is reported where it *arrives* in its register: at the start of its
//!   range and again at the end of each gap. An arrival at code offset X is
//!   printed after the instruction that ends at X, as `  // r0.x <- name`,
//!   pieces in record order joined by `; `. Arrivals at the first
//!   executable instruction (the end of the declarations) form the
//!   "Initial variable locations" block after the declarations instead: one
//!   comment line per run of pieces in the same register, each piece
//!   followed by `; ` except the very last.
//! * **Names** are the variable's name plus, when the piece's record sets
//!   its member flag (bit 2), the member path of the piece in its type:
//!   `.field` per structure member, `.x`…`.w` for a vector component. A
//!   piece without the flag is named alone: a scalar, or the one scalar of
//!   a one-member structure (`v0.x <- input`).
//! * **Source lines.** An instruction's line is the first line entry at its
//!   offset (fxc writes the statement's first). A `#line N` is printed
//!   before it when that line differs from the last one printed; an entry
//!   whose column range is empty (fxc gives `endif` such a one) prints
//!   nothing. Inside inlined code the number printed is the inline site's
//!   line for that instruction, while the comparison still uses the
//!   caller's line, so one inlined call prints one `#line`. The file name
//!   follows (`#line N "file"`) when it differs from the last printed
//!   file, so the first `#line` always carries it. Every `#line` but the
//!   first has a blank line before it.

use crate::chunks::spdb::{DefRange, Module, Spdb, TypeTable};
use crate::program::Program;
use crate::spec::OpClass;
use crate::Shader;
use std::fmt::Write;

/// Text to print around each instruction of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Lines printed before instruction `k` (each ending in a newline).
    pub before: Vec<String>,
    /// Text appended to instruction `k`'s line.
    pub after: Vec<String>,
}

/// One arrival of a variable piece in a register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Register file and index, e.g. `v0` (groups the initial block's lines).
    pub register: String,
    /// The piece as printed, e.g. `v0.x <- input.pos.x`.
    pub text: String,
}

/// The annotations of `shader`'s listing, when it carries debug information.
pub fn annotations(shader: &Shader) -> Option<Annotations> {
    let p = shader.program.as_ref()?;
    let spdb = shader.spdb.as_deref()?;
    let m = spdb.module.as_ref()?;
    Some(build(p, spdb, m))
}

fn is_declaration(p: &Program, k: usize) -> bool {
    let ins = &p.instructions[k];
    ins.is_customdata() || ins.info().is_some_and(|i| i.class == OpClass::Decl)
}

fn build(p: &Program, spdb: &Spdb, m: &Module) -> Annotations {
    let n = p.instructions.len();
    let mut a = Annotations { before: vec![String::new(); n], after: vec![String::new(); n] };
    let rel = |k: usize| p.instructions[k].offset.wrapping_sub(p.offset as u32);
    let end = |k: usize| rel(k).wrapping_add(p.instructions[k].length.wrapping_mul(4));
    let Some(first) = (0..n).find(|&k| !is_declaration(p, k)) else { return a };
    let no_types = TypeTable {
        version: 0,
        header_size: 0,
        first_index: 0x1000,
        end_index: 0x1000,
        record_bytes: 0,
        records: Vec::new(),
    };
    let types = spdb.types.as_ref().unwrap_or(&no_types);

    // Variable arrivals, by the instruction they follow.
    let mut initial: Vec<Arrival> = Vec::new();
    let mut after: Vec<Vec<String>> = vec![Vec::new(); n];
    let first_at = rel(first);
    for l in &m.locals {
        for r in &l.ranges {
            for at in r.arrivals() {
                let arrival = arrival(&l.name, l.type_index, r, types);
                if at == first_at {
                    initial.push(arrival);
                } else if let Ok(k) = (first..n).collect::<Vec<_>>().binary_search_by_key(&at, |&k| end(k)) {
                    after[first + k].push(arrival.text);
                }
            }
        }
    }
    for (k, v) in after.into_iter().enumerate() {
        if !v.is_empty() {
            a.after[k] = format!("  // {}", v.join("; "));
        }
    }
    let mut head = initial_block(&initial);

    // Source lines.
    let mut last_line = None;
    let mut last_file = None;
    let mut printed_any = false;
    for k in first..n {
        let off = rel(k);
        let Some(e) = m.line_at(off) else { continue };
        if e.columns.is_some_and(|(s, t)| s == t) || last_line == Some((e.file, e.line)) {
            continue;
        }
        last_line = Some((e.file, e.line));
        let (file, line) = m.inline_line_at(off).unwrap_or((e.file, e.line));
        let text = if k == first { &mut head } else { &mut a.before[k] };
        if printed_any {
            text.push('\n');
        }
        printed_any = true;
        let _ = write!(text, "#line {line}");
        if last_file != Some(file) {
            last_file = Some(file);
            let name = spdb.file_name(file).unwrap_or("");
            let _ = write!(text, " \"{name}\"");
        }
        text.push('\n');
    }
    a.before[first] = head;
    a
}

/// One piece's arrival as printed.
pub fn arrival(name: &str, type_index: u32, r: &DefRange, types: &TypeTable) -> Arrival {
    let reg = r.register_name();
    let register = reg.split('.').next().unwrap_or("").to_string();
    // fxc names the member path only for pieces flagged as parts of a
    // structure or vector; a whole scalar (even one wrapped in a
    // one-member struct) is named alone.
    let path = if r.is_member() { types.piece_path(type_index, r.offset_in_parent as u64) } else { String::new() };
    Arrival { register, text: format!("{reg} <- {name}{path}") }
}

/// The "Initial variable locations" block: one line per run of pieces in
/// one register, `; ` after every piece but the last of the block.
pub fn initial_block(pieces: &[Arrival]) -> String {
    if pieces.is_empty() {
        return String::new();
    }
    let mut out = String::from("//\n// Initial variable locations:\n");
    let mut i = 0;
    while i < pieces.len() {
        let j = (i..pieces.len()).find(|&j| pieces[j].register != pieces[i].register).unwrap_or(pieces.len());
        let texts: Vec<&str> = pieces[i..j].iter().map(|a| a.text.as_str()).collect();
        let _ = write!(out, "//   {}", texts.join("; "));
        out.push_str(if j < pieces.len() { "; \n" } else { "\n" });
        i = j;
    }
    out.push_str("//\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(register: &str, text: &str) -> Arrival {
        Arrival { register: register.into(), text: text.into() }
    }

    #[test]
    fn initial_block_has_one_line_per_register_and_no_trailing_separator_at_the_end() {
        let b = initial_block(&[
            piece("v0", "v0.x <- input"),
            piece("o2", "o2.x <- r.uv.x"),
            piece("o2", "o2.y <- r.uv.y"),
            piece("o1", "o1.x <- r.col.x"),
        ]);
        assert_eq!(
            b,
            "//\n// Initial variable locations:\n//   v0.x <- input; \n//   o2.x <- r.uv.x; o2.y <- r.uv.y; \n//   o1.x <- r.col.x\n//\n"
        );
        assert_eq!(initial_block(&[]), "");
    }
}
