//! One search box over a whole file: opcode mnemonics, registers, names
//! from the reflection data, byte patterns and offsets.
//!
//! Every kind of query is answered from the decoded model, never by
//! grepping the listing: a register is found in the operands that name it
//! (relative-index operands included), a mnemonic in the opcode table row
//! and the printed instruction's first word, a name in RDEF and the
//! signatures and then in the operands of the registers it resolves to.
//! Each match carries its byte range and, when one prints it, the listing
//! line (from [`crate::listing::lines::LineMap`]), and matches come back
//! ordered by offset.

mod names;
mod query;

pub use query::Query;

use crate::listing::lines::LineMap;
use crate::listing::program::{write_instruction, Ctx};
use crate::program::Program;
use crate::register::{uses, Access, Register};
use crate::Shader;
use std::ops::Range;

/// Most matches one search returns; past it [`Found::truncated`] is set.
pub const MAX_MATCHES: usize = 100_000;

/// What a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum MatchKind {
    /// A whole instruction (mnemonic queries).
    Instruction,
    /// An operand naming the register, and how it is used.
    Operand(Access),
    /// A name in the reflection data (its string's bytes).
    Reflection,
    /// An occurrence of the byte pattern.
    Bytes,
    /// The leaf or token covering the offset.
    Item,
}

/// One match.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Match {
    /// Bytes in the file.
    pub range: Range<usize>,
    /// The listing line that prints it, if one does.
    pub line: Option<usize>,
    /// What it is.
    pub kind: MatchKind,
    /// In words: the listing line, or the field's path.
    pub what: String,
}

/// The matches of one query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Ordered by offset, then by length.
    pub matches: Vec<Match>,
    /// More matches existed than [`MAX_MATCHES`].
    pub truncated: bool,
}

/// Everything `q` finds in `shader` (whose file is `shader.bytes`). To run
/// several queries on one file, keep a [`Searcher`].
pub fn search(shader: &Shader, q: &Query) -> Found {
    Searcher::new(shader).find(q)
}

/// One file's search index: the listing's line map, and the byte leaves
/// once a query needs them. Build once per file, query many times.
pub struct Searcher<'s> {
    shader: &'s Shader,
    lines: LineMap,
    leaves: Option<crate::spans::Spans>,
    /// Whether matches carry [`Match::what`].
    describe: bool,
}

impl<'s> Searcher<'s> {
    /// Indexes `shader`.
    pub fn new(shader: &'s Shader) -> Searcher<'s> {
        Searcher { shader, lines: LineMap::new(shader), leaves: None, describe: true }
    }

    /// Indexes `shader` with its line map already made (by
    /// [`crate::listing::disassemble_mapped`]), which saves printing it again.
    pub fn with_lines(shader: &'s Shader, lines: LineMap) -> Searcher<'s> {
        Searcher { shader, lines, leaves: None, describe: true }
    }

    /// Leaves [`Match::what`] empty where it would be made for the match:
    /// the same matches, without printing a line or naming a leaf for
    /// each. A reflection name keeps its description, which comes with it
    /// (and tells apart two names sharing a string's bytes, which stay two
    /// matches). For callers that show matches by
    /// their bytes and lines (the explorer: a search for `mul` in a
    /// 158 KB shader printed every mul's line, a millisecond of wasm that
    /// the page then threw away, after each edit).
    pub fn without_descriptions(mut self) -> Self {
        self.describe = false;
        self
    }

    /// Everything `q` finds.
    pub fn find(&mut self, q: &Query) -> Found {
        let mut out = Vec::new();
        match q {
            Query::Empty => {}
            Query::Offset(o) => self.item(*o, &mut out),
            Query::Register(r) => self.registers(std::slice::from_ref(r), &mut out),
            Query::Mnemonic(m) => self.mnemonic(m, &mut out),
            Query::Bytes(b) => self.bytes(b, &mut out),
            Query::Name(n) => {
                let (strings, regs) = names::resolve(self.shader, n);
                for (range, what) in strings {
                    let line = self.line_at(range.start);
                    out.push(Match { range, line, kind: MatchKind::Reflection, what });
                }
                self.registers(&regs, &mut out);
            }
        }
        out.sort_by_key(|m| (m.range.start, m.range.end));
        out.dedup();
        let truncated = out.len() > MAX_MATCHES;
        out.truncate(MAX_MATCHES);
        Found { matches: out, truncated }
    }
}

impl Searcher<'_> {
    fn program(&self) -> Option<&Program> {
        self.shader.program.as_ref()
    }

    fn leaves(&mut self) -> &crate::spans::Spans {
        self.leaves.get_or_insert_with(|| crate::spans::leaves(self.shader))
    }

    /// The listing line of the item covering byte `o`.
    fn line_at(&mut self, o: usize) -> Option<usize> {
        if let Some(t) = self.program().and_then(|p| p.locate(o)) {
            return self.lines.token_line(t.instruction);
        }
        let leaf = self.leaves().at(o).cloned()?;
        self.lines.leaf_line(&leaf)
    }

    fn item(&mut self, o: usize, out: &mut Vec<Match>) {
        if let Some(t) = self.program().and_then(|p| p.locate(o)) {
            let what = if self.describe { format!("{:?} token 0x{:08x}", t.role, t.value) } else { String::new() };
            let line = self.lines.token_line(t.instruction);
            out.push(Match { range: t.offset..t.offset + 4, line, kind: MatchKind::Item, what });
            return;
        }
        let Some(leaf) = self.leaves().at(o).cloned() else { return };
        let line = self.lines.leaf_line(&leaf);
        let range = leaf.range();
        let what = if self.describe { leaf.path } else { String::new() };
        out.push(Match { range, line, kind: MatchKind::Item, what });
    }

    /// Instruction `k`'s listing line, as a match's description.
    fn describe_line(&self, k: usize) -> String {
        if !self.describe {
            return String::new();
        }
        self.listing_line(k)
    }

    fn listing_line(&self, k: usize) -> String {
        let Some(p) = self.program() else { return String::new() };
        let mut s = String::new();
        write_instruction(p, &p.instructions[k], Ctx::modern(p), &mut s);
        s.lines().next().unwrap_or("").trim_end().to_string()
    }

    fn registers(&self, regs: &[Register], out: &mut Vec<Match>) {
        let Some(p) = self.program() else { return };
        for (k, ins) in p.instructions.iter().enumerate() {
            if regs.iter().any(|r| r.declared_by(p, ins)) {
                let start = ins.offset as usize;
                out.push(Match {
                    range: start..start + 4 * ins.length as usize,
                    line: self.lines.instruction_line(k),
                    kind: MatchKind::Operand(Access::Declare),
                    what: self.describe_line(k),
                });
            }
            for u in uses(p, ins) {
                let op = &p.operands[u.operand as usize];
                if regs.iter().any(|r| r.names(op) && r.touched(op) != 0) {
                    out.push(Match {
                        range: p.operand_range(u.operand),
                        line: self.lines.instruction_line(k),
                        kind: MatchKind::Operand(u.access),
                        what: self.describe_line(k),
                    });
                }
            }
        }
    }

    fn mnemonic(&self, m: &str, out: &mut Vec<Match>) {
        let Some(p) = self.program() else { return };
        for (k, ins) in p.instructions.iter().enumerate() {
            let base = ins.info().is_some_and(|i| i.asm == m);
            // An instruction's line starts with its mnemonic and then its
            // suffixes (`mul_sat`), so one whose mnemonic `m` does not start
            // with cannot match: it is not printed (printing every line was
            // most of a search's time on a large shader). Declarations and
            // custom data print names of their own, and are printed.
            let may_match = base
                || ins.is_customdata()
                || ins.info().is_none_or(|i| i.class == crate::spec::OpClass::Decl || m.starts_with(i.asm));
            if !may_match {
                continue;
            }
            // The table's mnemonic decides alone; the printed word only
            // where a line may print another (a declaration, a suffix).
            let text = if base { self.describe_line(k) } else { self.listing_line(k) };
            let first = text.split([' ', '(']).next().unwrap_or("");
            if base || first == m {
                let text = if self.describe { text } else { String::new() };
                let start = ins.offset as usize;
                out.push(Match {
                    range: start..start + 4 * ins.length as usize,
                    line: self.lines.instruction_line(k),
                    kind: MatchKind::Instruction,
                    what: text,
                });
            }
        }
    }

    fn bytes(&mut self, pat: &[u8], out: &mut Vec<Match>) {
        if pat.is_empty() {
            return;
        }
        let starts = find_all(&self.shader.bytes, pat, MAX_MATCHES + 1);
        for s in starts {
            let line = self.line_at(s);
            let what = if self.describe {
                self.leaves().at(s).map_or_else(String::new, |l| l.path.clone())
            } else {
                String::new()
            };
            out.push(Match { range: s..s + pat.len(), line, kind: MatchKind::Bytes, what });
        }
    }
}

/// Start of every occurrence of `pat` in `hay` (overlapping ones too), at
/// most `limit`: Knuth–Morris–Pratt, so time is linear in both lengths
/// whatever the bytes (a naive scan of zeros for zeros is quadratic).
fn find_all(hay: &[u8], pat: &[u8], limit: usize) -> Vec<usize> {
    // fail[i]: length of the longest proper border of pat[..=i].
    let mut fail = vec![0usize; pat.len()];
    let mut k = 0;
    for i in 1..pat.len() {
        while k > 0 && pat[i] != pat[k] {
            k = fail[k - 1];
        }
        if pat[i] == pat[k] {
            k += 1;
        }
        fail[i] = k;
    }
    let mut out = Vec::new();
    let mut k = 0;
    for (i, &b) in hay.iter().enumerate() {
        while k > 0 && b != pat[k] {
            k = fail[k - 1];
        }
        if b == pat[k] {
            k += 1;
        }
        if k == pat.len() {
            out.push(i + 1 - k);
            if out.len() >= limit {
                break;
            }
            k = fail[k - 1];
        }
    }
    out
}

#[cfg(test)]
mod tests;
