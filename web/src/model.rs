//! The page's model of one file: every byte assigned to a span (a header
//! field, a chunk header, a program token, an undecoded tail), the
//! disassembly split into lines, and the links between them. Built once per
//! file; everything the components ask is a lookup here. Listing line
//! numbers come from `dxbc::listing::lines::LineMap`, which search and diff
//! share.

use dxbc::program::{Located, TokenRole};
use dxbc::spans::{Leaf, Link};
use dxbc::Shader;

/// What a span of bytes is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanKind {
    /// A leaf field of the container outside the program's tokens: header,
    /// chunk table, chunk headers, reflection, statistics, Aon9 (index into
    /// [`Model::leaves`]).
    Leaf(u32),
    /// A program dword (index into [`Model::tokens`]).
    Token(u32),
    /// Bytes after the point where decoding stopped.
    Undecoded,
    /// Bytes no structure claims (padding, trailing data).
    Gap,
}

/// A run of bytes with one meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// Length in bytes.
    pub len: u32,
    /// What it is.
    pub kind: SpanKind,
}

impl Span {
    /// One past the last byte.
    pub fn end(&self) -> u32 {
        self.start + self.len
    }
}

/// A decoding fault to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Its kind, e.g. "truncated".
    pub kind: &'static str,
    /// The chunk it lies in, e.g. "chunk #1 RDEF at 0x2c".
    pub chunk: Option<String>,
    /// What went wrong (without the offset).
    pub message: String,
    /// Where.
    pub offset: usize,
}

impl Fault {
    fn of(e: &dxbc::Error) -> Fault {
        Fault {
            kind: e.kind().name(),
            chunk: e.chunk().map(|c| c.to_string()),
            message: e.message().to_string(),
            offset: e.offset(),
        }
    }
}

/// The listing's lines and their map (the [`Model`] fields of the same names).
#[derive(Clone, Default)]
struct Listing {
    lines: Vec<String>,
    program_line: Option<usize>,
    ins_line: Vec<u32>,
    line_ins: Vec<Option<u32>>,
    l9_base: Option<usize>,
    end_line: usize,
}

impl Listing {
    /// One printing of `s` gives the listing and its line map.
    fn of(s: &Shader) -> Listing {
        let (text, map) = dxbc::listing::disassemble_mapped(s);
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let line_ins = (0..lines.len()).map(|l| map.instruction_of_line(l).map(|k| k as u32)).collect();
        Listing {
            lines,
            program_line: map.program_line,
            ins_line: map.ins_line,
            line_ins,
            l9_base: map.l9_base,
            end_line: map.end_line,
        }
    }

    /// `m`'s listing and map.
    fn of_model(m: &Model) -> Listing {
        Listing {
            lines: m.lines.clone(),
            program_line: m.program_line,
            ins_line: m.ins_line.clone(),
            line_ins: m.line_ins.clone(),
            l9_base: m.l9_base,
            end_line: m.end_line,
        }
    }
}

/// Everything the page shows about one file.
pub struct Model {
    /// The file.
    pub bytes: Vec<u8>,
    /// The decoded shader (None when even the container header failed).
    pub shader: Option<Shader>,
    /// Faults, first first: one per decoding error.
    pub faults: Vec<Fault>,
    /// Sorted spans covering every byte exactly once.
    pub spans: Vec<Span>,
    /// Program dwords in order (decoded part only).
    pub tokens: Vec<Located>,
    /// The leaves of `dxbc::spans` outside the program's tokens, in order.
    pub leaves: Vec<Leaf>,
    /// Disassembly lines (fxc's listing).
    pub lines: Vec<String>,
    /// Line of the profile (`ps_5_0`).
    pub program_line: Option<usize>,
    /// First line of each instruction (an immediate constant buffer spans several).
    pub ins_line: Vec<u32>,
    /// The instruction printed on each line, if any.
    pub line_ins: Vec<Option<u32>>,
    /// Number of decoded instructions.
    pub n_instructions: usize,
    /// Line of the level-9 program's version line (`ps_2_0`), when the
    /// file has an Aon9 chunk.
    pub l9_base: Option<usize>,
    /// The line after the last instruction's (the listing's line map has it).
    pub end_line: usize,
    /// Level-9 lines and their bytes: (line counted from `l9_base`, start,
    /// end), in line order.
    pub l9_lines: Vec<(u32, u32, u32)>,
    /// This model's number, new for each model made (views that drew an
    /// earlier model compare it with [`Model::same_as`]).
    pub serial: u64,
    /// When this model is an edit of another that changed only some bytes:
    /// which model, and the bytes whose value or look may differ.
    pub same_as: Option<SameAs>,
}

/// What an edit's model shares with the model it was made on: every byte
/// outside `except` has the same value and the same look (span, field,
/// class) in both. Why: after a field edit of the 158 KB shader, the hex
/// view wrote every visible row again, though one row or two changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SameAs {
    /// The [`Model::serial`] of the model edited.
    pub serial: u64,
    /// Byte ranges that may differ, in order.
    pub except: Vec<std::ops::Range<usize>>,
}

impl SameAs {
    /// Whether any byte of `range` may differ.
    pub fn touches(&self, range: std::ops::Range<usize>) -> bool {
        self.except.iter().any(|x| x.start < range.end && range.start < x.end)
    }
}

/// The next [`Model::serial`].
fn next_serial() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Model {
    /// The listing's line map (what `dxbc::listing::lines::LineMap::new`
    /// gives), rebuilt from the model's copy instead of printed again.
    pub fn line_map(&self) -> dxbc::listing::lines::LineMap {
        dxbc::listing::lines::LineMap {
            program_line: self.program_line,
            ins_line: self.ins_line.clone(),
            end_line: self.end_line,
            l9_base: self.l9_base,
        }
    }

    /// Decodes `bytes` and lays out its spans.
    pub fn new(bytes: Vec<u8>) -> Model {
        Model::build(bytes, true)
    }

    /// The decode and the listing without the byte spans (no `spans`,
    /// `tokens`, `leaves` or level-9 lines): what the listing editor's
    /// assembler needs, in the worker, which then links no span layout.
    pub fn listing_only(bytes: Vec<u8>) -> Model {
        Model::build(bytes, false)
    }

    /// The model of an edit's result, from the shader the edit decoded
    /// (and signed) instead of decoding the bytes again. `before` is the
    /// model the edit was made on: when the edit kept the program's layout,
    /// its program dwords are taken from there (see [`kept_tokens`]).
    pub fn edited(e: dxbc::edit::Edited, before: &Model) -> Model {
        Model::after(e.bytes, e.shader, before)
    }

    /// The model of `bytes`, another version of `before`'s file (an undo
    /// or a redo of one edit), built like an edit's ([`Model::edited`]).
    pub fn revised(bytes: Vec<u8>, before: &Model) -> Model {
        match Shader::decode(&bytes) {
            Ok(shader) => Model::after(bytes, shader, before),
            Err(e) => Model::of(bytes, Err(e), true),
        }
    }

    /// The model of `bytes`, decoded as `shader`, with what it shares with
    /// `before` taken from there ([`kept_tokens`], [`kept_listing`]).
    fn after(bytes: Vec<u8>, shader: Shader, before: &Model) -> Model {
        let Some(kept) = kept_tokens(before, &bytes, &shader) else {
            return Model::of_with(bytes, Ok(shader), true, None, None, None);
        };
        let listing = kept_listing(before, &shader, kept.instruction);
        let same = same_as(before, &bytes, &shader, kept.instruction);
        // The bytes it shares keep their spans, and so do the ones it
        // does not (one instruction's dwords, kept in place, and the
        // checksum's): the spans are the model's before.
        let spans = same.as_ref().map(|_| before.spans.clone());
        let mut m = Model::of_with(bytes, Ok(shader), true, Some(kept.tokens), listing, spans);
        m.same_as = same;
        m
    }

    /// Sets a field of the token at `offset` ([`dxbc::edit::set_field`]),
    /// on the shader this model already decoded: decoding the 158 KB
    /// shader again took a millisecond of every field edit's frame.
    pub fn set_field(
        &self,
        offset: usize,
        field: &str,
        value: &str,
    ) -> Result<dxbc::edit::Edited, dxbc::edit::EditError> {
        match &self.shader {
            Some(s) => dxbc::edit::set_field_in(s, offset, field, value),
            None => dxbc::edit::set_field(&self.bytes, offset, field, value),
        }
    }

    fn build(bytes: Vec<u8>, with_spans: bool) -> Model {
        let decoded = Shader::decode(&bytes);
        Model::of(bytes, decoded, with_spans)
    }

    /// The model of `bytes`, which decoded as `decoded`.
    fn of(bytes: Vec<u8>, decoded: dxbc::Result<Shader>, with_spans: bool) -> Model {
        Model::of_with(bytes, decoded, with_spans, None, None, None)
    }

    /// [`Model::of`], with the program's dwords, the listing and the spans
    /// when they are known.
    fn of_with(
        bytes: Vec<u8>,
        decoded: dxbc::Result<Shader>,
        with_spans: bool,
        known: Option<Vec<Located>>,
        listing: Option<Listing>,
        known_spans: Option<Vec<Span>>,
    ) -> Model {
        let len = bytes.len() as u32;
        let mut spans = Vec::new();
        let mut tokens = Vec::new();
        let mut leaves = Vec::new();
        let mut faults = Vec::new();
        let shader = match decoded {
            Err(e) => {
                let at = (e.offset() as u32).min(len);
                if at > 0 {
                    spans.push(Span { start: 0, len: at, kind: SpanKind::Gap });
                }
                if at < len {
                    spans.push(Span { start: at, len: len - at, kind: SpanKind::Undecoded });
                }
                faults.push(Fault::of(&e));
                None
            }
            Ok(s) if !with_spans => {
                faults.extend(s.errors.iter().map(Fault::of));
                Some(s)
            }
            Ok(mut s) => {
                faults.extend(s.errors.iter().map(Fault::of));
                let program = program_spans(&s, known, &mut tokens, &mut spans);
                // The program's tokens are shown as tokens, so its leaves
                // (most of a big file's) are not wanted: without the program,
                // `dxbc::spans` names its chunk as one payload leaf.
                let p = s.program.take();
                leaf_spans(&s, program, &mut leaves, &mut spans);
                s.program = p;
                Some(s)
            }
        };
        let spans = known_spans.unwrap_or_else(|| fill_gaps(spans, len));
        let n_instructions = shader.as_ref().and_then(|s| s.program.as_ref()).map_or(0, |p| p.instructions.len());
        let Listing { lines, program_line, ins_line, line_ins, l9_base, end_line } = match (&shader, listing) {
            (_, Some(l)) => l,
            (Some(s), None) => Listing::of(s),
            (None, None) => Listing::default(),
        };
        let l9_lines = level9_lines(&leaves, &spans);
        Model {
            bytes,
            shader,
            faults,
            spans,
            tokens,
            leaves,
            lines,
            program_line,
            ins_line,
            line_ins,
            n_instructions,
            l9_base,
            end_line,
            l9_lines,
            serial: next_serial(),
            same_as: None,
        }
    }

    /// The span holding byte `b`.
    pub fn span_at(&self, b: usize) -> Option<usize> {
        let b = b as u32;
        let i = self.spans.partition_point(|s| s.start <= b).checked_sub(1)?;
        (b < self.spans[i].end()).then_some(i)
    }

    /// The span that starts at byte `b`.
    pub fn span_starting(&self, b: u32) -> Option<usize> {
        self.span_at(b as usize).filter(|&i| self.spans[i].start == b)
    }

    /// The program token of span `i`, if it is one.
    pub fn token(&self, i: usize) -> Option<&Located> {
        match self.spans.get(i)?.kind {
            SpanKind::Token(t) => self.tokens.get(t as usize),
            _ => None,
        }
    }

    /// The program, if any.
    pub fn program(&self) -> Option<&dxbc::program::Program> {
        self.shader.as_ref()?.program.as_ref()
    }

    /// Disassembly line of span `i`: a program token's instruction (or
    /// profile) line, or a level-9 leaf's line.
    pub fn line_of_span(&self, i: usize) -> Option<usize> {
        match self.spans.get(i)?.kind {
            SpanKind::Token(_) => {}
            SpanKind::Leaf(l) => {
                return match self.leaves.get(l as usize)?.link? {
                    Link::Level9Line(n) => Some(self.l9_base? + n),
                    Link::Instruction(k) => self.ins_line.get(k).map(|&l| l as usize),
                }
            }
            _ => return None,
        }
        let t = self.token(i)?;
        match t.instruction {
            None => self.program_line,
            Some(k) => self.ins_line.get(k).map(|&l| l as usize),
        }
    }

    /// Instruction shown on `line`, or `None` for the profile line and
    /// header/trailer lines.
    pub fn instruction_of_line(&self, line: usize) -> Option<usize> {
        self.line_ins.get(line).copied().flatten().map(|k| k as usize)
    }

    /// The bytes `line` stands for: an instruction's dwords, the version
    /// and length tokens for the profile line, or a level-9 instruction's
    /// (or version's) tokens.
    pub fn line_bytes(&self, line: usize) -> Option<(u32, u32)> {
        if let Some(n) = self.l9_base.and_then(|b| line.checked_sub(b)) {
            let k = self.l9_lines.partition_point(|x| (x.0 as usize) < n);
            if let Some(&(l, start, end)) = self.l9_lines.get(k).filter(|x| x.0 as usize == n) {
                debug_assert_eq!(l as usize, n);
                return Some((start, end - start));
            }
        }
        let p = self.program()?;
        if Some(line) == self.program_line {
            return Some((p.offset as u32, 8));
        }
        let ins = &p.instructions[self.instruction_of_line(line)?];
        Some((ins.offset, ins.length * 4))
    }

    /// The leaf of span `i`, if it is one.
    pub fn leaf(&self, i: usize) -> Option<&Leaf> {
        match self.spans.get(i)?.kind {
            SpanKind::Leaf(l) => self.leaves.get(l as usize),
            _ => None,
        }
    }

    /// Field definitions of span `i` (empty for non-token spans).
    pub fn fields(&self, i: usize) -> Vec<dxbc::program::FieldValue> {
        match (self.token(i), self.program()) {
            (Some(t), Some(p)) => t.fields(p),
            _ => Vec::new(),
        }
    }

    /// The field that covers most of byte `b` (ties go to the lower
    /// field): the field a hover on that byte names.
    pub fn field_at_byte(&self, b: usize) -> Option<u8> {
        let i = self.span_at(b)?;
        self.field_of_byte(i, b, &self.fields(i))
    }

    /// [`Self::field_at_byte`] for byte `b` of span `i`, whose fields are given.
    pub fn field_of_byte(&self, i: usize, b: usize, fields: &[dxbc::program::FieldValue]) -> Option<u8> {
        let s = self.spans[i];
        let k = ((b as u32 - s.start) % 4) as u8;
        let (lo, hi) = (k * 8, k * 8 + 7);
        fields
            .iter()
            .map(|f| (f.hi.min(hi) as i16 - f.lo.max(lo) as i16, f.lo))
            .filter(|(o, _)| *o >= 0)
            .max_by_key(|(o, lo)| (*o, -(*lo as i16)))
            .map(|(_, lo)| lo)
    }

    /// Bytes of span `i` that hold bits `lo..=hi` of its dword.
    pub fn field_bytes(&self, i: usize, lo: u8, hi: u8) -> (u32, u32) {
        let s = self.spans[i];
        let first = (lo / 8) as u32;
        let last = (hi / 8) as u32;
        (s.start + first, last - first + 1)
    }

    /// Offset where decoding stopped, if it did.
    pub fn stop_offset(&self) -> Option<usize> {
        self.faults.first().map(|f| f.offset)
    }
}

/// What an edit's result (`bytes`, decoded as `shader`) shares with
/// `before`, when the edit kept the program's layout and changed at most
/// `instruction` ([`SameAs`]): the bytes
/// outside the checksum and that instruction's dwords, when no other byte
/// changed and decoding stopped at the same place. Those bytes keep their
/// spans (the layout is kept), their token's fields (a token's fields
/// depend on its own bits) and their class. None otherwise.
fn same_as(before: &Model, bytes: &[u8], shader: &Shader, instruction: Option<usize>) -> Option<SameAs> {
    const CHECKSUM: std::ops::Range<usize> = 4..20;
    let k = instruction?;
    let ins = shader.program.as_ref()?.instructions.get(k)?;
    let start = ins.offset as usize;
    let ins_range = start..start + 4 * ins.length as usize;
    if before.bytes.len() != bytes.len() || before.stop_offset() != shader.errors.first().map(dxbc::Error::offset) {
        return None;
    }
    let inside = |b: usize| CHECKSUM.contains(&b) || ins_range.contains(&b);
    let differs = before.bytes.iter().zip(bytes).enumerate().any(|(b, (x, y))| x != y && !inside(b));
    (!differs).then(|| SameAs { serial: before.serial, except: vec![CHECKSUM, ins_range] })
}

/// The program dwords of `shader` (the edit's result, `bytes`), taken
/// from `before` when the edit kept the layout: the same bytes but for
/// the checksum and one instruction's, the same instructions at the same
/// places, and as many operands. Then only that instruction's dwords are
/// located again. Why: locating every dword of the 158 KB shader took
/// 1 ms natively, in the frame that shows a field edit. None when
/// anything differs.
pub(crate) fn kept_tokens(before: &Model, bytes: &[u8], shader: &Shader) -> Option<Kept> {
    let (old, new) = (before.program()?, shader.program.as_ref()?);
    if bytes.len() != before.bytes.len()
        || old.offset != new.offset
        || old.operands.len() != new.operands.len()
        || old.instructions.len() != new.instructions.len()
        || old.undecoded.len() != new.undecoded.len()
        || before.tokens.is_empty()
    {
        return None;
    }
    // The container's checksum (bytes 4..20) changes with every edit.
    const CHECKSUM: std::ops::Range<usize> = 4..20;
    let differs = |i: &usize| !CHECKSUM.contains(i) && bytes[*i] != before.bytes[*i];
    let Some(first) = (0..bytes.len()).find(differs) else {
        return Some(Kept { tokens: before.tokens.clone(), instruction: None });
    };
    let last = (first..bytes.len()).rev().find(differs).unwrap_or(first);
    let k = old.instructions.partition_point(|ins| ins.offset as usize <= first).checked_sub(1)?;
    let same_places =
        old.instructions.iter().zip(&new.instructions).all(|(a, b)| a.offset == b.offset && a.length == b.length);
    let ins = &old.instructions[k];
    if !same_places || last >= ins.offset as usize + ins.length as usize * 4 {
        return None;
    }
    // That instruction's dwords, located again, replace its old ones. The
    // others keep their roles: their bytes are the same, and so is the
    // number of operands before them (roles name operands by index).
    let now = new.instruction_dwords(k);
    let at = before.tokens.partition_point(|t| t.offset < ins.offset as usize);
    let was = before.tokens.get(at..at + now.len())?;
    if was.iter().zip(&now).any(|(a, b)| a.offset != b.offset)
        || before.tokens.get(at + now.len()).is_some_and(|t| t.instruction == Some(k))
    {
        return None;
    }
    let mut tokens = before.tokens.clone();
    tokens.splice(at..at + now.len(), now);
    Some(Kept { tokens, instruction: Some(k) })
}

/// What [`kept_tokens`] kept.
pub(crate) struct Kept {
    /// The edited program's dwords.
    pub tokens: Vec<Located>,
    /// The one instruction whose bytes changed (None: none did).
    pub instruction: Option<usize>,
}

/// The listing of `shader` (an edit's result), from `before`'s when the
/// edit kept the program's layout and changed at most `instruction`: its
/// line is printed again, the others are kept. Why: printing the 158 KB
/// shader's listing took 0.9 ms natively, in the frame that shows a field
/// edit. Only when no other line can change: the opcode stays (so do the
/// indentation and the debug annotations, which follow opcodes, offsets
/// and lengths), and the instruction is neither `dcl_globalFlags` nor a
/// custom-data block, which the header reads. None otherwise.
fn kept_listing(before: &Model, shader: &Shader, instruction: Option<usize>) -> Option<Listing> {
    let Some(k) = instruction else { return Some(Listing::of_model(before)) };
    let (old_p, new_p) = (before.program()?, shader.program.as_ref()?);
    let (old, new) = (old_p.instructions.get(k)?, new_p.instructions.get(k)?);
    if old.opcode() != new.opcode() || new.is_customdata() || new.op() == Some(dxbc::spec::Opcode::DclGlobalFlags) {
        return None;
    }
    let cx = dxbc::listing::program_ctx(shader)?;
    let line = *before.ins_line.get(k)? as usize;
    let was = before.lines.get(line)?;
    let mut old_text = String::new();
    dxbc::listing::program::write_instruction(old_p, old, cx, &mut old_text);
    // The line is the indentation, the instruction and what follows it.
    let indent = was.len() - was.trim_start_matches(' ').len();
    let rest = was[indent..].strip_prefix(old_text.as_str())?;
    let mut now = String::with_capacity(was.len() + 8);
    now.push_str(&was[..indent]);
    dxbc::listing::program::write_instruction(new_p, new, cx, &mut now);
    now.push_str(rest);
    if now.contains('\n') {
        return None;
    }
    let mut listing = Listing::of_model(before);
    listing.lines[line] = now;
    Some(listing)
}

/// Makes a field edit of `m` and drops it: the first one accepted of one
/// bit flipped in a field of an opcode token, from the last instruction
/// back. Says whether one was. Why: V8 compiles a wasm function on its
/// first call and optimises it only after it has run a while. The first
/// edit of the 158 KB shader paid for both: 16–24 ms from the event to
/// its paint, against 7–10 for the edits after it; rehearsed while the
/// page is idle, 11–13 ms.
pub fn rehearse_edit(m: &Model) -> bool {
    let Some(p) = m.program() else { return false };
    let opcodes = m.tokens.iter().rev().filter(|t| matches!(t.role, TokenRole::Opcode)).take(8);
    for t in opcodes {
        for f in t.fields(p) {
            let flipped = (f.value ^ 1).to_string();
            if let Ok(e) = m.set_field(t.offset, f.name, &flipped) {
                drop(Model::edited(e, m));
                return true;
            }
        }
    }
    false
}

/// Pushes the program's token spans (and its undecoded tail); returns the
/// bytes they cover, which the leaves leave to them. The program's dwords
/// are located, unless `known` has them ([`kept_tokens`]); they go to
/// `tokens`.
fn program_spans(
    s: &Shader,
    known: Option<Vec<Located>>,
    tokens: &mut Vec<Located>,
    spans: &mut Vec<Span>,
) -> Option<(u32, u32)> {
    let p = s.program.as_ref()?;
    let chunk_end = s.container.chunks.iter().map(|c| c.data_range()).find(|d| d.start == p.offset)?.end;
    let decoded_end = chunk_end.saturating_sub(p.undecoded.len() + p.trailing.len());
    *tokens = known.unwrap_or_else(|| p.tokens());
    let kept = tokens.iter().take_while(|t| t.offset + 4 <= decoded_end).count();
    tokens.truncate(kept);
    spans.extend(tokens.iter().enumerate().map(|(k, t)| Span {
        start: t.offset as u32,
        len: 4,
        kind: SpanKind::Token(k as u32),
    }));
    let mut end = spans.last().map_or(p.offset as u32, Span::end);
    if !p.undecoded.is_empty() {
        let stop = (chunk_end - p.trailing.len()) as u32;
        spans.push(Span { start: end, len: stop.saturating_sub(end), kind: SpanKind::Undecoded });
        end = end.max(stop);
    }
    Some((p.offset as u32, end))
}

/// Pushes a span for every leaf of `dxbc::spans` that does not touch the
/// program's bytes (those keep their richer token spans).
fn leaf_spans(s: &Shader, program: Option<(u32, u32)>, leaves: &mut Vec<Leaf>, spans: &mut Vec<Span>) {
    let (ps, pe) = program.unwrap_or((0, 0));
    for l in dxbc::spans::leaves(s).leaves {
        let (start, end) = (l.offset as u32, (l.offset + l.len) as u32);
        if start < pe && end > ps {
            continue;
        }
        spans.push(Span { start, len: end - start, kind: SpanKind::Leaf(leaves.len() as u32) });
        leaves.push(l);
    }
}

/// Level-9 lines and the bytes of their leaves (an instruction's tokens
/// are contiguous, so its leaves are consecutive spans).
fn level9_lines(leaves: &[Leaf], spans: &[Span]) -> Vec<(u32, u32, u32)> {
    let mut out: Vec<(u32, u32, u32)> = Vec::new();
    for sp in spans {
        let SpanKind::Leaf(i) = sp.kind else { continue };
        let Some(Link::Level9Line(n)) = leaves[i as usize].link else { continue };
        match out.last_mut() {
            Some(last) if last.0 as usize == n && last.2 == sp.start => last.2 = sp.end(),
            _ => out.push((n as u32, sp.start, sp.end())),
        }
    }
    out
}

/// Sorts, drops overlaps, and fills holes with gap spans so every byte
/// belongs to exactly one span.
fn fill_gaps(mut spans: Vec<Span>, len: u32) -> Vec<Span> {
    spans.sort_by_key(|s| s.start);
    let mut out = Vec::with_capacity(spans.len() + 4);
    let mut at = 0u32;
    for s in spans {
        if s.start < at || s.len == 0 {
            continue;
        }
        let s = Span { len: s.len.min(len.saturating_sub(s.start)), ..s };
        if s.len == 0 {
            continue;
        }
        if s.start > at {
            out.push(Span { start: at, len: s.start - at, kind: SpanKind::Gap });
        }
        at = s.end();
        out.push(s);
    }
    if at < len {
        out.push(Span { start: at, len: len - at, kind: SpanKind::Gap });
    }
    out
}

/// Short name of a token's role.
pub fn role_name(r: &TokenRole) -> String {
    match r {
        TokenRole::Version => "version token".into(),
        TokenRole::Length => "length token".into(),
        TokenRole::Opcode => "opcode token".into(),
        TokenRole::InstructionLength => "instruction length".into(),
        TokenRole::ExtendedOpcode => "extended opcode token".into(),
        TokenRole::Operand { .. } => "operand token".into(),
        TokenRole::ExtendedOperand { .. } => "extended operand token".into(),
        TokenRole::Immediate { component, .. } => format!("immediate value [{component}]"),
        TokenRole::Index { dim, .. } => format!("index {dim}"),
        TokenRole::Payload(w) => format!("payload: {}", w.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::byte_look::{byte_looks, span_class, ByteLook};

    fn example() -> Model {
        Model::new(dxbc::examples::tint_pixel_shader())
    }

    /// The rehearsal makes an edit of every corpus file with a program
    /// (one of its last instructions' opcode-token fields, flipped), and
    /// none of bytes that are no container.
    #[test]
    fn an_edit_is_rehearsed_on_every_program() {
        let mut n = 0;
        for (name, bytes) in crate::test_corpus::fxc().into_iter().step_by(5) {
            let m = Model::new(bytes);
            assert!(rehearse_edit(&m), "{name}");
            n += 1;
        }
        assert!(n >= 80, "{n} files");
        assert!(!rehearse_edit(&Model::new(b"not a container".to_vec())));
    }

    /// A field set through the model (on the shader it decoded) is the
    /// same edit as one of its bytes: the same bytes, or the same refusal.
    #[test]
    fn a_field_set_on_the_model_is_the_edit_of_its_bytes() {
        let mut n = 0;
        for (name, bytes) in crate::test_corpus::fxc().into_iter().step_by(7) {
            let m = Model::new(bytes);
            let Some(p) = m.program() else { continue };
            for t in m.tokens.iter().filter(|t| matches!(t.role, TokenRole::Opcode)).take(3) {
                for f in t.fields(p) {
                    let flipped = (f.value ^ 1).to_string();
                    let on_model = m.set_field(t.offset, f.name, &flipped).map(|e| e.bytes);
                    let on_bytes = dxbc::edit::set_field(&m.bytes, t.offset, f.name, &flipped).map(|e| e.bytes);
                    assert_eq!(on_model, on_bytes, "{name}: {} at {:#x}", f.name, t.offset);
                    n += 1;
                }
            }
        }
        assert!(n >= 300, "{n} edits");
    }

    /// An edit's model built from the model before it (its dwords and
    /// listing lines kept when the layout is) is the model of the edited
    /// bytes built afresh: one bit of a dword flipped at a time, which
    /// sometimes keeps every dword's role (a swizzle, a flag) and sometimes
    /// changes them (an operand's index dimension, an instruction's
    /// length). Also the edits whose other lines change: the flags of
    /// `dcl_globalFlags`, which the header reads, and edits of `/Zi`
    /// shaders, whose listing interleaves debug annotations.
    #[test]
    fn an_edit_keeps_the_dwords_and_lines_only_where_the_layout_is_the_same() {
        let (mut kept, mut located, mut reprinted, mut flags, mut annotated, mut checked) = (0, 0, 0, 0, 0, 0);
        let mut shared = 0;
        for (k, (name, bytes)) in crate::test_corpus::fxc().into_iter().enumerate() {
            let debug = Shader::decode(&bytes).is_ok_and(|s| s.container.find(b"SPDB").is_some());
            if k % 9 != 0 && !debug {
                continue;
            }
            annotated += usize::from(debug);
            let before = Model::new(bytes);
            let n = before.tokens.len();
            let opcode = |code: dxbc::spec::Opcode| {
                before.tokens.iter().find(move |t| {
                    t.role == TokenRole::Opcode && dxbc::spec::opcode_token::OPCODE.get(t.value) == code as u32
                })
            };
            // One edit that keeps every place and count but changes a
            // payload dword's role (dcl_temps made dcl_gsinstances): the
            // edited instruction's dwords are located again.
            let retyped = opcode(dxbc::spec::Opcode::DclTemps)
                .map(|t| (t.offset, 0, 10, dxbc::spec::Opcode::DclGsInstanceCount as u32));
            let global = opcode(dxbc::spec::Opcode::DclGlobalFlags);
            let global_flags =
                (11..19u8).filter_map(|bit| global.map(|t| (t.offset, bit, bit, (t.value >> bit & 1) ^ 1)));
            let flips = (0..24usize).filter_map(|k| {
                let t = before.tokens.get((k * 7919 + 13) % n.max(1))?;
                let bit = ((k * 5) % 32) as u8;
                Some((t.offset, bit, bit, (t.value >> bit & 1) ^ 1))
            });
            for (offset, lo, hi, value) in retyped.into_iter().chain(global_flags).chain(flips) {
                let Ok(e) = dxbc::edit::set_bits(&before.bytes, offset, lo, hi, value) else { continue };
                match kept_tokens(&before, &e.bytes, &e.shader) {
                    Some(k) => {
                        kept += 1;
                        let one = k.instruction.is_some();
                        reprinted += usize::from(one && kept_listing(&before, &e.shader, k.instruction).is_some());
                    }
                    None => located += 1,
                }
                flags += usize::from(global.is_some_and(|t| t.offset == offset));
                let fresh = Model::of(e.bytes.clone(), Ok(e.shader.clone()), true);
                let edited = Model::edited(e, &before);
                // What it says it shares with the model before it, the
                // model made afresh shares: each byte's value and look.
                if let Some(same) = &edited.same_as {
                    assert_eq!(same.serial, before.serial);
                    let (mut was, mut now) = ([ByteLook::default(); 16], [ByteLook::default(); 16]);
                    for base in (0..before.bytes.len()).step_by(16) {
                        byte_looks(&before, base, &mut was);
                        byte_looks(&fresh, base, &mut now);
                        for b in (base..(base + 16).min(before.bytes.len())).filter(|&b| !same.touches(b..b + 1)) {
                            let at = format!("{name}: byte {b:#x} after bits {hi}:{lo} at {offset:#x}");
                            assert_eq!(before.bytes[b], fresh.bytes[b], "{at}");
                            assert_eq!(was[b - base], now[b - base], "{at}");
                        }
                    }
                    shared += 1;
                }
                assert!(edited.tokens == fresh.tokens, "{name}: bits {hi}:{lo} of the dword at {offset:#x}");
                assert!(edited.spans == fresh.spans, "{name}: spans after bits {hi}:{lo} at {offset:#x}");
                assert!(
                    edited.leaves == fresh.leaves && edited.l9_lines == fresh.l9_lines,
                    "{name}: leaves after bits {hi}:{lo} at {offset:#x}"
                );
                assert_eq!(edited.lines, fresh.lines, "{name}: bits {hi}:{lo} of the dword at {offset:#x}");
                assert_eq!(
                    (edited.program_line, &edited.ins_line, &edited.line_ins, edited.l9_base, edited.end_line),
                    (fresh.program_line, &fresh.ins_line, &fresh.line_ins, fresh.l9_base, fresh.end_line),
                    "{name}: the line map after bits {hi}:{lo} at {offset:#x}"
                );
                // Undone, it is the model it was made on.
                let undone = Model::revised(before.bytes.clone(), &edited);
                assert!(
                    undone.tokens == before.tokens && undone.spans == before.spans,
                    "{name}: undone at {offset:#x}"
                );
                assert_eq!(undone.lines, before.lines, "{name}: undone at {offset:#x}");
                checked += 1;
            }
        }
        // Every way was taken, often.
        assert!(
            kept >= 100 && located >= 20 && reprinted >= 50 && flags >= 20 && annotated >= 1 && shared == kept,
            "{kept} kept ({reprinted} with one line printed again, {shared} sharing bytes), {located} located again, \
             {flags} global flags, {annotated} /Zi files, of {checked}"
        );
        eprintln!("{kept} kept ({reprinted} with one line printed again, {shared} sharing bytes) of {checked}");
    }

    #[test]
    fn the_line_map_kept_is_the_one_the_listing_prints() {
        let mut n = 0;
        for (name, bytes) in crate::test_corpus::fxc().into_iter().step_by(5) {
            let m = Model::new(bytes);
            let Some(s) = m.shader.as_ref() else { continue };
            assert_eq!(m.line_map(), dxbc::listing::lines::LineMap::new(s), "{name}");
            n += 1;
        }
        assert!(n >= 80, "only {n} files decoded");
    }

    #[test]
    fn spans_cover_every_byte_once() {
        let m = example();
        let mut at = 0;
        for s in &m.spans {
            assert_eq!(s.start, at);
            assert!(s.len > 0);
            at = s.end();
        }
        assert_eq!(at as usize, m.bytes.len());
        assert!(m.faults.is_empty());
        // magic, checksum, version, size, count, table, SHEX header, tokens
        assert_eq!(m.leaf(0).unwrap().path, "header/magic");
        let p = m.program().unwrap().offset as u32;
        let fourcc = m.span_starting(p - 8).unwrap();
        assert_eq!(m.leaf(fourcc).unwrap().path, "SHEX/fourcc");
        assert_eq!(m.leaf(fourcc + 1).unwrap().path, "SHEX/size");
        assert_eq!(m.spans[fourcc + 2].kind, SpanKind::Token(0));
        assert_eq!(m.tokens.len(), m.program().unwrap().length as usize);
    }

    #[test]
    fn byte_to_token_to_field_to_line() {
        let m = example();
        let p = m.program().unwrap();
        let mul = &p.instructions[4];
        assert_eq!(mul.opcode(), 56);
        // The first operand token of mul is one dword after its opcode token.
        let b = mul.offset as usize + 4;
        let i = m.span_at(b + 1).unwrap();
        assert_eq!(m.spans[i].start as usize, b);
        let t = m.token(i).unwrap();
        assert!(matches!(t.role, TokenRole::Operand { .. }));
        // Byte 1 of the operand token holds bits 8..15: operand type (12..19) covers 4 of them,
        // component selection (4..11) also 4; ties go to the lower field.
        assert_eq!(m.field_at_byte(b + 1), Some(4));
        // Byte 2 (bits 16..23): operand type 16..19 (4 bits), index dimension 20..21 (2),
        // index 0 representation 22..23 (2) -> operand type.
        assert_eq!(m.field_at_byte(b + 2), Some(12));
        let line = m.line_of_span(i).unwrap();
        assert_eq!(m.lines[line], "mul o0.xyzw, v0.xyzw, cb0[0].xyzw");
        assert_eq!(m.instruction_of_line(line), Some(4));
        assert_eq!(m.line_bytes(line), Some((mul.offset, 32)));
        // Profile line <-> version and length tokens.
        let pl = m.program_line.unwrap();
        assert_eq!(m.lines[pl], "ps_5_0");
        assert_eq!(m.line_bytes(pl), Some((p.offset as u32, 8)));
        assert_eq!(m.line_of_span(m.span_starting(p.offset as u32).unwrap()), Some(pl));
        // Field bytes: operand type (bits 12..19) lives in bytes 1 and 2.
        assert_eq!(m.field_bytes(i, 12, 19), (b as u32 + 1, 2));
    }

    #[test]
    fn every_instruction_line_matches_the_printer() {
        for ex in crate::gallery::EXAMPLES {
            lines_match_printer(&Model::new((ex.build)()));
        }
    }

    fn lines_match_printer(m: &Model) {
        let p = m.program().unwrap();
        let pl = m.program_line.unwrap();
        let cx = dxbc::listing::program::Ctx::modern(p);
        for (k, ins) in p.instructions.iter().enumerate() {
            let mut s = String::new();
            dxbc::listing::program::write_instruction(p, ins, cx, &mut s);
            let l = m.ins_line[k] as usize;
            let n = s.lines().count().max(1);
            assert_eq!(m.lines[l..l + n].join("\n").trim_start(), s.trim_start(), "instruction {k}");
            assert_eq!(m.instruction_of_line(l + n - 1), Some(k));
        }
        // The trailer follows the last instruction.
        let last = *m.ins_line.last().unwrap() as usize;
        assert!(m.lines[last + 1].starts_with("// Approximately"));
        assert_eq!(m.line_of_span(m.span_starting(p.offset as u32).unwrap()), Some(pl));
    }

    #[test]
    fn damaged_program_keeps_what_decoded() {
        let mut b = dxbc::examples::tint_pixel_shader();
        let m0 = Model::new(b.clone());
        let mul = m0.program().unwrap().instructions[4].offset as usize;
        // An opcode token with a zero length: decoding must stop there.
        b[mul..mul + 4].copy_from_slice(&0x0000_0038u32.to_le_bytes());
        let m = Model::new(b);
        let f = &m.faults[0];
        assert_eq!(f.offset, mul, "{f:?}");
        let i = m.span_at(mul).unwrap();
        assert_eq!(m.spans[i].kind, SpanKind::Undecoded);
        assert_eq!(m.n_instructions, 4);
        assert!(m.lines.iter().any(|l| l == "dcl_output o0.xyzw"));
    }

    /// Every byte belongs to exactly one span, in order.
    pub(crate) fn assert_tiles(m: &Model) {
        let mut at = 0;
        for s in &m.spans {
            assert_eq!(s.start, at, "{:?}", s);
            assert!(s.len > 0);
            at = s.end();
        }
        assert_eq!(at as usize, m.bytes.len());
    }

    #[test]
    fn every_example_and_corpus_sample_tiles() {
        for ex in crate::gallery::EXAMPLES {
            assert_tiles(&Model::new((ex.build)()));
        }
        for f in [
            "fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc",
            "fxc/angle63_passthrough2d11vs.dxbc",
            "fxc/angle_clear11_fl9vs.dxbc",
        ] {
            let b = crate::test_corpus::file(f);
            let m = Model::new(b.clone());
            assert_tiles(&m);
            assert!(m.faults.is_empty(), "{f}: {:?}", m.faults);
            // Every non-program byte is a leaf, not a gap.
            assert!(m.spans.iter().all(|s| s.kind != SpanKind::Gap), "{f}");
            // Each truncation still tiles (a damaged file is shown, never refused).
            for cut in [b.len() / 3, b.len() / 2, b.len() - 5] {
                assert_tiles(&Model::new(b[..cut].to_vec()));
            }
        }
    }

    #[test]
    fn an_rdef_byte_is_its_leaf() {
        // The page's first example's cbuffer is called "Material"; find the
        // name in the raw bytes of its RDEF chunk and hover its third byte.
        let m = Model::new(dxbc::examples::textured_pixel_shader());
        let sh = m.shader.as_ref().unwrap();
        let rdef = sh.container.chunks.iter().find(|c| &c.tag == b"RDEF").unwrap().data_range();
        let at = rdef.start + m.bytes[rdef.clone()].windows(9).position(|w| w == b"Material\0").unwrap();
        let i = m.span_at(at + 2).unwrap();
        let l = m.leaf(i).unwrap();
        assert_eq!(l.path, "RDEF/constant_buffers[0]/name");
        assert_eq!((m.spans[i].start as usize, m.spans[i].len), (at, 9));
        assert_eq!(l.value, dxbc::spans::Value::Text("Material".into()));
        assert_eq!(span_class(&m, i), "k-rdef");
        let r = crate::inspect::inspect(&m, i).unwrap();
        assert_eq!(r.title, "RDEF/constant_buffers[0]/name");
        let row = r.leaf.unwrap();
        assert_eq!(row.value, "Material");
        assert!(!row.explanation.is_empty());
        // The creator string, found the same way, and the name offset that
        // points at "Material" (relative to the payload).
        let cr = rdef.start + m.bytes[rdef.clone()].windows(9).position(|w| w == b"DXBC Expl").unwrap();
        assert_eq!(m.leaf(m.span_at(cr).unwrap()).unwrap().path, "RDEF/creator");
        let off = (0..m.leaves.len())
            .map(|k| &m.leaves[k])
            .find(|l| l.path == "RDEF/constant_buffers[0]/name_offset")
            .unwrap();
        assert_eq!(off.value, dxbc::spans::Value::Number((at - rdef.start) as u64));
        assert_eq!(off.meaning, "Material");
    }

    #[test]
    fn level9_lines_map_to_their_sm2_bytes_and_back() {
        let b = crate::test_corpus::file("fxc/angle63_passthrough2d11vs.dxbc");
        let asm = String::from_utf8(crate::test_corpus::file("fxc/angle63_passthrough2d11vs.asm")).unwrap();
        let asm: Vec<&str> = asm.lines().collect();
        let m = Model::new(b);
        // fxc's listing: "// Level9 shader bytecode:", "//", then the version line.
        let k = asm.iter().position(|l| *l == "// Level9 shader bytecode:").unwrap();
        assert_eq!(m.l9_base, Some(k + 2));
        assert_eq!(m.lines[k + 2], asm[k + 2]);
        assert_eq!(asm[k + 2], "    vs_2_x");
        let (vs, vl) = m.line_bytes(k + 2).unwrap();
        assert_eq!((m.leaf(m.span_at(vs as usize).unwrap()).unwrap().path.as_str(), vl), ("Aon9/program/version", 4));
        // Then one instruction per line (no debug info here) until the blank line.
        let n = asm[k + 3..].iter().position(|l| l.is_empty()).unwrap();
        assert_eq!(n, 6);
        let mut prev_end = vs + vl;
        for i in 0..n {
            let line = k + 3 + i;
            assert_eq!(m.lines[line], asm[line]);
            let (start, len) = m.line_bytes(line).unwrap_or_else(|| panic!("line {line}"));
            assert!(start >= prev_end);
            prev_end = start + len;
            let want = format!("Aon9/program/instructions[{i}]/");
            for b in start..start + len {
                let sp = m.span_at(b as usize).unwrap();
                assert!(m.leaf(sp).unwrap().path.starts_with(&want), "{}", m.leaf(sp).unwrap().path);
                assert_eq!(m.line_of_span(sp), Some(line));
            }
            // The dword after the instruction is not part of it.
            let after = m.leaf(m.span_at((start + len) as usize).unwrap()).unwrap();
            assert!(!after.path.starts_with(&want));
            // Selecting the line selects exactly those bytes, and the line lights up.
            let sel = crate::selection::select_line(&m, line).unwrap();
            assert_eq!((sel.start, sel.len), (start, len));
            assert_eq!(crate::selection::line_of(&m, &sel), Some(line));
        }
        // The opcode of instruction 1 ("dcl_texcoord v0") is SM2 opcode 31 (D3DSIO_DCL).
        let (s1, _) = m.line_bytes(k + 4).unwrap();
        assert_eq!(m.bytes[s1 as usize], 31);
    }

    #[test]
    fn a_truncated_corpus_file_lists_its_decoded_chunks() {
        let b = crate::test_corpus::file("fxc/angle63_passthrough2d11vs.dxbc");
        let full = Model::new(b.clone());
        let sh = full.shader.as_ref().unwrap();
        // Cut in the middle of the last chunk.
        let last = sh.container.chunks.iter().max_by_key(|c| c.offset).unwrap();
        let cut = last.offset + 8 + last.size / 2;
        let m = Model::new(b[..cut].to_vec());
        assert_tiles(&m);
        let d = m.shader.as_ref().expect("a cut file is still a container");
        assert_eq!(d.container.chunks.len(), sh.container.chunks.len());
        assert!(!m.faults.is_empty());
        // One fault per decoding error, each with its kind and offset.
        assert_eq!(m.faults.len(), d.errors.len());
        for (f, e) in m.faults.iter().zip(&d.errors) {
            assert_eq!((f.kind, f.offset), (e.kind().name(), e.offset()));
            assert!(f.offset <= b.len());
        }
        // The chunks before the cut decoded as in the whole file.
        for c in &d.container.chunks {
            if c.offset + 8 + c.size <= cut {
                let f = format!("{}/fourcc", dxbc::container::fourcc_text(&c.tag));
                let i = m.span_starting(c.offset as u32).unwrap();
                assert_eq!(m.leaf(i).map(|l| l.path.as_str()), Some(f.as_str()));
            }
        }
        assert_eq!(d.stat.is_some(), sh.stat.is_some() && last.tag != *b"STAT");
        assert_eq!(m.n_instructions, full.n_instructions);
        // The level-9 listing is still linked (the header above it is shorter).
        assert_eq!(m.lines[m.l9_base.unwrap()], "    vs_2_x");
    }

    #[test]
    fn not_a_container() {
        let m = Model::new(b"hello world!".to_vec());
        assert_eq!(m.faults[0].offset, 0);
        assert_eq!(m.spans.len(), 1);
        assert_eq!(m.spans[0].kind, SpanKind::Undecoded);
        assert!(m.lines.is_empty());
        let m = Model::new(Vec::new());
        assert!(m.spans.is_empty());
        assert_eq!(m.span_at(0), None);
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    use crate::test_corpus::file as corpus;

    /// `cargo test --release -p dxbc-web model_time -- --ignored --nocapture`:
    /// the time `Model::new` takes on the largest corpus shader, and a
    /// field edit's model.
    #[test]
    #[ignore]
    fn model_time() {
        let b = corpus("fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc");
        let _ = Model::new(b.clone());
        let t = std::time::Instant::now();
        let n = 5;
        for _ in 0..n {
            std::hint::black_box(Model::new(b.clone()));
        }
        let model = t.elapsed() / n;
        // The part this view's leaves add: dxbc::spans without the program
        // (as Model::new calls it), and over the whole file.
        let mut sh = Shader::decode(&b).unwrap();
        let p = sh.program.take();
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(dxbc::spans::leaves(&sh));
        }
        let outside = t.elapsed() / n;
        sh.program = p;
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(dxbc::spans::leaves(&sh));
        }
        let leaves = t.elapsed() / n;
        eprintln!(
            "Model::new on {} bytes: {model:?} each; dxbc::spans::leaves without the program {outside:?}, whole file {leaves:?}",
            b.len()
        );
        // A field edit (the first mul made mul_sat): its model built from
        // the model before it, and built afresh. Medians of 31.
        let before = Model::new(b);
        let p = before.program().unwrap();
        let mul = before
            .tokens
            .iter()
            .find(|t| {
                t.role == TokenRole::Opcode
                    && t.instruction.is_some_and(|k| p.instructions[k].op() == Some(dxbc::spec::Opcode::Mul))
            })
            .unwrap();
        let e = dxbc::edit::set_field(&before.bytes, mul.offset, "saturate", "1").unwrap();
        let median = |f: &mut dyn FnMut()| {
            let mut runs: Vec<_> = (0..31)
                .map(|_| {
                    let t = std::time::Instant::now();
                    f();
                    t.elapsed()
                })
                .collect();
            runs.sort();
            runs[15]
        };
        let kept = median(&mut || drop(std::hint::black_box(Model::edited(e.clone(), &before))));
        let fresh = median(&mut || drop(std::hint::black_box(Model::of(e.bytes.clone(), Ok(e.shader.clone()), true))));
        eprintln!("a field edit's model: {kept:?} from the model before it, {fresh:?} afresh");
    }
}
