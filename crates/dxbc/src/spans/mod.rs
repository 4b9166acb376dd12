//! Every byte of the container as a named leaf field.
//!
//! The explorer's hex view needs, for any byte, the innermost named thing
//! that covers it: `RDEF/constant_buffers[0]/variables[2]/name_offset`,
//! `ISGN/elements[1]/semantic_name`, `SHEX/instructions[12]/operands[1]/token`.
//! [`leaves`] answers that for the whole file at once, as a list of leaves
//! that *tile* the file: sorted by offset, no gap, no overlap.
//!
//! ## Design
//! * **Computed on demand from the decoded [`Shader`]**, never during
//!   decoding, so decode speed is untouched. Every leaf takes its offset
//!   and value from the decoded model (records know their absolute offsets;
//!   field positions inside a record are fixed by the format), so a test can
//!   re-read the bytes at each leaf and check the model against them. The
//!   few structures decoding does not keep (RDEF type records reached
//!   through sub-type, base-class and interface links; the offsets and
//!   struct-member tables of the Aon9 `DBUG` comment) are read here on
//!   demand, each under a budget proportional to its chunk.
//! * **Claims, then one tiling pass.** Each chunk kind has its own module
//!   that *claims* the byte ranges it can name (`Builder`). Claims may
//!   repeat (fxc shares type records and strings between their users: the
//!   first claimant names them) and, in hostile files, may overlap (a name
//!   offset pointing into a record). The final pass (`tile`) sorts the
//!   claims, keeps the first of identical claims (same bytes, same kind of
//!   field), drops (and reports) every other overlapping claim, and fills every unclaimed byte with a leaf named after where
//!   it lies: `…/padding` (fewer than four bytes up to a dword boundary),
//!   `…/unreferenced` (bytes no structure points at), `…/undecoded` (inside a
//!   chunk whose decoding failed). The tiling is therefore a structural
//!   guarantee, whatever the input; tests assert that the corpus needs no
//!   dropping.
//! * **Bounded**: every leaf covers at least one byte of its own and the
//!   sweep keeps no two leaves on the same byte, so the output has at most
//!   one leaf per byte; claims are bounded by what the decoders kept, which
//!   they bound by the input size, plus the budgets above.
//! * **Links**: program dwords carry their instruction index, Aon9 SM2
//!   dwords their line in the level-9 listing, so a hover can light up the
//!   listing line.
//! * **Explanations** are static texts, one table per chunk kind (the
//!   `TEXTS` constant of each module), looked up by field kind.

mod aon9;
mod container;
mod dbug;
mod effects;
mod ifce;
mod program;
mod rdef;
mod signature;
mod small;
mod spdb;
#[cfg(test)]
mod tests;

use crate::Shader;
use serde::Serialize;
use std::borrow::Cow;
use std::ops::Range;

/// What a leaf holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Value {
    /// A little-endian number of `len` bytes (1, 2, 4 or 8).
    Number(u64),
    /// A NUL-terminated string (the leaf covers the text and its NUL, bytes
    /// taken as Latin-1) or a FourCC (four bytes, no NUL).
    Text(String),
    /// Raw bytes (padding, unreferenced or undecoded bytes, default values,
    /// the checksum, undecoded payloads): the value is the bytes themselves.
    Bytes,
}

/// The kind of a leaf: a field of some structure, or bytes no structure names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// A field of a decoded structure.
    Field,
    /// Alignment padding or string-pool slack.
    Padding,
    /// Bytes inside a well-formed part that nothing points at.
    Unreferenced,
    /// Bytes of a chunk whose decoding failed.
    Undecoded,
}

/// Where in a listing a leaf's item is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Link {
    /// Index in [`crate::program::Program::instructions`].
    Instruction(usize),
    /// Line in the level-9 part of the listing, counted from the first
    /// level-9 program's version line (line 0): a later section's lines
    /// (XNA prepass, XNA) count on past the earlier sections' text.
    /// Within one program, lines are as `Sm2Program::write_listing` prints them.
    Level9Line(usize),
}

/// One named, contiguous run of bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Leaf {
    /// Absolute offset of the first byte.
    pub offset: usize,
    /// Number of bytes (at least 1).
    pub len: usize,
    /// Where the field sits in the structure, e.g. `ISGN/elements[1]/register`.
    pub path: String,
    /// The raw value.
    pub value: Value,
    /// The decoded meaning (enum name, pointed-at string, type), or empty.
    pub meaning: Cow<'static, str>,
    /// What this kind of field is, in our words.
    pub explanation: &'static str,
    /// Field, padding, unreferenced or undecoded.
    pub kind: Kind,
    /// The listing line the leaf belongs to, when there is one.
    pub link: Option<Link>,
}

impl Leaf {
    /// Absolute byte range.
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + self.len
    }
}

/// The tiling of a file.
#[derive(Clone, Debug, Serialize)]
pub struct Spans {
    /// Leaves sorted by offset, covering every byte exactly once.
    pub leaves: Vec<Leaf>,
    /// Claims that repeated an earlier one exactly: same bytes, same kind of
    /// field (shared records and strings).
    pub shared: usize,
    /// Paths of claims dropped because they partly overlapped an earlier
    /// claim or reached past the file (hostile files only; a bug otherwise).
    pub overlaps: Vec<String>,
}

impl Spans {
    /// The leaf covering absolute byte `offset`.
    pub fn at(&self, offset: usize) -> Option<&Leaf> {
        let i = self.leaves.partition_point(|l| l.offset <= offset).checked_sub(1)?;
        self.leaves.get(i).filter(|l| offset < l.offset + l.len)
    }
}

impl Leaf {
    /// The value as text: numbers in hex with two digits per byte, strings
    /// with tab, newline and backslash escaped, raw bytes in hex (the first
    /// 32, then `…`). `bytes` is the file the leaf was made from.
    pub fn value_text(&self, bytes: &[u8]) -> String {
        match &self.value {
            Value::Number(v) => format!("0x{v:0w$x}", w = 2 * self.len),
            Value::Text(t) => t.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r"),
            Value::Bytes => {
                let b = bytes.get(self.range()).unwrap_or(&[]);
                let mut s: String = b.iter().take(32).map(|x| format!("{x:02x}")).collect();
                if b.len() > 32 {
                    s.push('…');
                }
                s
            }
        }
    }
}

impl Spans {
    /// One line per leaf: `offset<TAB>length<TAB>path<TAB>value`, offsets in
    /// decimal (what `dxbc spans` prints).
    pub fn to_tsv(&self, bytes: &[u8]) -> String {
        let mut out = String::with_capacity(self.leaves.len() * 64);
        for l in &self.leaves {
            out.push_str(&format!("{}\t{}\t{}\t{}\n", l.offset, l.len, l.path, l.value_text(bytes)));
        }
        out
    }
}

/// Every byte of the shader's file as a leaf field (see the module doc).
pub fn leaves(shader: &Shader) -> Spans {
    let mut b = Builder { bytes: &shader.bytes, claims: Vec::new(), scopes: Vec::new() };
    container::claim(shader, &mut b);
    tile(shader.bytes.len(), b.claims, b.scopes)
}

/// Every byte of a bare effect file (`fx_4_x`/`fx_5_0` header at byte 0)
/// as a leaf field; `None` when `bytes` does not start with an effect tag.
/// (An `fx_4` effect wrapped in a DXBC container is decoded through its
/// `FX10` chunk by [`leaves`].)
pub fn effect_leaves(bytes: &[u8]) -> Option<Spans> {
    effects::leaves(bytes)
}

/// A part of the file whose unclaimed bytes are named after it.
pub(crate) struct Scope {
    range: Range<usize>,
    prefix: String,
    failed: bool,
}

/// Collects claims. `texts` tables map a field kind to its explanation.
pub(crate) struct Builder<'a> {
    bytes: &'a [u8],
    claims: Vec<Leaf>,
    scopes: Vec<Scope>,
}

/// One chunk kind's explanations, by field kind.
pub(crate) type Texts = &'static [(&'static str, &'static str)];

/// The explanation of field kind `key` (empty when the table lacks it; a
/// corpus test asserts that no leaf ends up without one).
fn explain(texts: Texts, key: &str) -> &'static str {
    texts.iter().find(|(k, _)| *k == key).map_or("", |(_, t)| t)
}

impl<'a> Builder<'a> {
    /// Claims a field; `key` picks its explanation in `texts`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn field(
        &mut self,
        texts: Texts,
        key: &str,
        path: String,
        offset: usize,
        len: usize,
        value: Value,
        meaning: Cow<'static, str>,
    ) {
        let explanation = explain(texts, key);
        self.claims.push(Leaf { offset, len, path, value, meaning, explanation, kind: Kind::Field, link: None });
    }

    /// Claims a little-endian number field of `len` bytes.
    pub(crate) fn num(&mut self, texts: Texts, key: &str, path: String, offset: usize, len: usize, v: u64) {
        self.field(texts, key, path, offset, len, Value::Number(v), Cow::Borrowed(""));
    }

    /// Like [`Builder::num`] with a decoded meaning.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn num_m(
        &mut self,
        texts: Texts,
        key: &str,
        path: String,
        offset: usize,
        len: usize,
        v: u64,
        meaning: impl Into<Cow<'static, str>>,
    ) {
        self.field(texts, key, path, offset, len, Value::Number(v), meaning.into());
    }

    /// Claims a NUL-terminated string at `offset` whose decoded text is `s`.
    pub(crate) fn text(&mut self, texts: Texts, key: &str, path: String, offset: usize, s: &str) {
        let len = s.chars().count() + 1;
        self.field(texts, key, path, offset, len, Value::Text(s.to_string()), Cow::Borrowed(""));
    }

    /// Claims raw bytes.
    pub(crate) fn bytes(&mut self, texts: Texts, key: &str, path: String, range: Range<usize>) {
        if !range.is_empty() {
            self.field(texts, key, path, range.start, range.len(), Value::Bytes, Cow::Borrowed(""));
        }
    }

    /// The little-endian dword at absolute `at`, for the few tables the
    /// decoder does not keep.
    pub(crate) fn dword(&self, at: usize) -> Option<u32> {
        let b = self.bytes.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The NUL-terminated string at absolute `at`, ending before `end`,
    /// bytes taken as Latin-1 (as the decoders read names).
    pub(crate) fn cstr(&self, at: usize, end: usize) -> Option<String> {
        let s = self.bytes.get(at..end.min(self.bytes.len()))?;
        let n = s.iter().position(|&c| c == 0)?;
        Some(s[..n].iter().map(|&c| c as char).collect())
    }

    /// Sets the listing link of the most recent claim.
    pub(crate) fn link(&mut self, link: Link) {
        if let Some(l) = self.claims.last_mut() {
            l.link = Some(link);
        }
    }

    /// Declares that unclaimed bytes in `range` belong to `prefix`.
    pub(crate) fn scope(&mut self, range: Range<usize>, prefix: String, failed: bool) {
        self.scopes.push(Scope { range, prefix, failed });
    }
}

const FILL_TEXTS: Texts = &[
    ("padding", "Alignment padding: bytes up to the next dword boundary that nothing reads."),
    ("unreferenced", "Bytes no decoded structure points at (unused pool space, slack, or data between parts)."),
    ("undecoded", "Bytes of a part whose decoding failed; the fault is listed with the shader's errors."),
];

/// Sorts the claims into a tiling of `0..len` (see the module doc).
fn tile(len: usize, mut claims: Vec<Leaf>, scopes: Vec<Scope>) -> Spans {
    // Stable: among claims at one offset, the first claimant comes first.
    claims.sort_by_key(|l| l.offset);
    let segments = flatten(scopes);
    let mut fill = Filler { segments: &segments, next: 0 };
    let mut leaves: Vec<Leaf> = Vec::with_capacity(claims.len() + segments.len() + 1);
    let (mut shared, mut overlaps) = (0, Vec::new());
    let mut end = 0usize;
    for l in claims {
        let fits = l.len > 0 && l.offset.checked_add(l.len).is_some_and(|e| e <= len);
        if fits && l.offset >= end {
            fill.gap(end..l.offset, &mut leaves);
            end = l.offset + l.len;
            leaves.push(l);
        } else if leaves.last().is_some_and(|p| p.range() == l.range() && p.explanation == l.explanation) {
            shared += 1;
        } else {
            overlaps.push(l.path);
        }
    }
    fill.gap(end..len, &mut leaves);
    Spans { leaves, shared, overlaps }
}

/// Disjoint scope segments in offset order; where scopes overlap (hostile
/// chunk tables), the one starting first keeps the bytes.
fn flatten(mut scopes: Vec<Scope>) -> Vec<Scope> {
    scopes.sort_by_key(|s| s.range.start);
    let mut out: Vec<Scope> = Vec::with_capacity(scopes.len());
    let mut end = 0;
    for mut s in scopes {
        s.range.start = s.range.start.max(end);
        if s.range.start < s.range.end {
            end = s.range.end;
            out.push(s);
        }
    }
    out
}

/// Names unclaimed bytes after the scope they lie in; gaps arrive in offset
/// order, so one forward cursor over the segments suffices.
struct Filler<'s> {
    segments: &'s [Scope],
    next: usize,
}

impl Filler<'_> {
    fn gap(&mut self, mut gap: Range<usize>, out: &mut Vec<Leaf>) {
        while !gap.is_empty() {
            while self.segments.get(self.next).is_some_and(|s| s.range.end <= gap.start) {
                self.next += 1;
            }
            let (piece_end, prefix, failed) = match self.segments.get(self.next) {
                Some(s) if s.range.start <= gap.start => (s.range.end.min(gap.end), s.prefix.as_str(), s.failed),
                Some(s) => (s.range.start.min(gap.end), "container", false),
                None => (gap.end, "container", false),
            };
            out.push(filler(gap.start..piece_end, prefix, failed));
            gap.start = piece_end;
        }
    }
}

fn filler(r: Range<usize>, prefix: &str, failed: bool) -> Leaf {
    let (kind, key) = if failed {
        (Kind::Undecoded, "undecoded")
    } else if r.len() < 4 && r.end.is_multiple_of(4) {
        (Kind::Padding, "padding")
    } else {
        (Kind::Unreferenced, "unreferenced")
    };
    Leaf {
        offset: r.start,
        len: r.len(),
        path: format!("{prefix}/{key}"),
        value: Value::Bytes,
        meaning: Cow::Borrowed(""),
        explanation: explain(FILL_TEXTS, key),
        kind,
        link: None,
    }
}
