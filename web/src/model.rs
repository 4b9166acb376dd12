//! The page's model of one file: every byte assigned to a span (a header
//! field, a chunk header, a program token, an undecoded tail), the
//! disassembly split into lines, and the links between them. Built once per
//! file; everything the components ask is a lookup here.

use dxbc::program::{Located, TokenRole};
use dxbc::Shader;

/// What a span of bytes is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanKind {
    /// A container header field (index into [`HEADER_FIELDS`], or the
    /// chunk-offset table when `None`).
    Header(Option<u8>),
    /// A chunk's FourCC and size (chunk index).
    ChunkHeader(u16),
    /// A chunk payload this view does not split further (chunk index).
    ChunkData(u16),
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

/// Container header fields: (offset, size, name, explanation).
pub const HEADER_FIELDS: &[(u32, u32, &str, &str)] = &[
    (0, 4, "magic", "The four bytes \"DXBC\" that open every container."),
    (4, 16, "checksum", "A 128-bit hash (a modified MD5) of the bytes from offset 0x14 to the end. The runtime refuses files whose checksum is wrong."),
    (20, 4, "container version", "Always 1."),
    (24, 4, "total size", "Size of the whole file in bytes."),
    (28, 4, "chunk count", "How many chunks the table below points at."),
];

/// A decoding fault to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong (without the offset).
    pub message: String,
    /// Where.
    pub offset: usize,
}

/// Everything the page shows about one file.
pub struct Model {
    /// The file.
    pub bytes: Vec<u8>,
    /// The decoded shader (None when even the container header failed).
    pub shader: Option<Shader>,
    /// Faults, first first.
    pub faults: Vec<Fault>,
    /// Sorted spans covering every byte exactly once.
    pub spans: Vec<Span>,
    /// Program dwords in order (decoded part only).
    pub tokens: Vec<Located>,
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
}

impl Model {
    /// Decodes `bytes` and lays out its spans.
    pub fn new(bytes: Vec<u8>) -> Model {
        let len = bytes.len() as u32;
        let shader = match Shader::decode(&bytes) {
            Ok(s) => Ok(s),
            Err(e) => Err(Fault { message: e.message().to_string(), offset: e.offset() }),
        };
        let mut spans = Vec::new();
        let mut tokens = Vec::new();
        let mut faults = Vec::new();
        let shader = match shader {
            Err(f) => {
                let at = (f.offset as u32).min(len);
                if at > 0 {
                    spans.push(Span { start: 0, len: at, kind: SpanKind::Gap });
                }
                if at < len {
                    spans.push(Span { start: at, len: len - at, kind: SpanKind::Undecoded });
                }
                faults.push(f);
                None
            }
            Ok(s) => {
                faults.extend(s.errors.iter().map(|e| Fault { message: e.message().to_string(), offset: e.offset() }));
                for (i, &(o, l, _, _)) in HEADER_FIELDS.iter().enumerate() {
                    spans.push(Span { start: o, len: l, kind: SpanKind::Header(Some(i as u8)) });
                }
                let n = s.container.chunks.len() as u32;
                if n > 0 {
                    spans.push(Span { start: 32, len: 4 * n, kind: SpanKind::Header(None) });
                }
                let mut chunks: Vec<(usize, &dxbc::container::ChunkEntry)> =
                    s.container.chunks.iter().enumerate().collect();
                chunks.sort_by_key(|(_, c)| c.offset);
                let prog_at = s.program.as_ref().map(|p| p.offset);
                for (ci, c) in chunks {
                    let ci = ci as u16;
                    let start = c.offset as u32;
                    if spans.last().is_some_and(|l: &Span| l.end() > start) {
                        continue; // overlapping chunk (a malformed table): shown once
                    }
                    spans.push(Span { start, len: 8, kind: SpanKind::ChunkHeader(ci) });
                    let data = c.data_range();
                    match &s.program {
                        Some(p) if prog_at == Some(data.start) => program_spans(p, data.end, &mut tokens, &mut spans),
                        _ if !data.is_empty() => spans.push(Span {
                            start: data.start as u32,
                            len: data.len() as u32,
                            kind: SpanKind::ChunkData(ci),
                        }),
                        _ => {}
                    }
                }
                Some(s)
            }
        };
        let spans = fill_gaps(spans, len);
        let (lines, program_line, n_instructions) = match &shader {
            Some(s) => {
                let mut header = String::new();
                dxbc::listing::header::write_header(s, &mut header);
                let text = dxbc::listing::disassemble(s);
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                let pl = s.program.as_ref().map(|_| header.lines().count());
                (lines, pl, s.program.as_ref().map_or(0, |p| p.instructions.len()))
            }
            None => (Vec::new(), None, 0),
        };
        let mut ins_line = Vec::with_capacity(n_instructions);
        let mut line_ins = vec![None; lines.len()];
        if let (Some(pl), Some(p)) = (program_line, shader.as_ref().and_then(|s| s.program.as_ref())) {
            let cx = dxbc::listing::program::Ctx { sm51: p.version.is_sm51(), legacy: false };
            let mut at = pl + 1;
            let mut buf = String::new();
            for (k, ins) in p.instructions.iter().enumerate() {
                buf.clear();
                dxbc::listing::program::write_instruction(p, ins, cx, &mut buf);
                let n = 1 + buf.matches('\n').count();
                ins_line.push(at as u32);
                for slot in line_ins.iter_mut().skip(at).take(n) {
                    *slot = Some(k as u32);
                }
                at += n;
            }
        }
        Model { bytes, shader, faults, spans, tokens, lines, program_line, ins_line, line_ins, n_instructions }
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

    /// Disassembly line of span `i` (program tokens only).
    pub fn line_of_span(&self, i: usize) -> Option<usize> {
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

    /// The bytes `line` stands for: an instruction's dwords, or the version
    /// and length tokens for the profile line.
    pub fn line_bytes(&self, line: usize) -> Option<(u32, u32)> {
        let p = self.program()?;
        if Some(line) == self.program_line {
            return Some((p.offset as u32, 8));
        }
        let ins = &p.instructions[self.instruction_of_line(line)?];
        Some((ins.offset, ins.length * 4))
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
        let s = self.spans[i];
        let k = ((b as u32 - s.start) % 4) as u8;
        let (lo, hi) = (k * 8, k * 8 + 7);
        self.fields(i)
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

fn program_spans(p: &dxbc::program::Program, chunk_end: usize, tokens: &mut Vec<Located>, spans: &mut Vec<Span>) {
    let decoded_end = chunk_end - p.undecoded.len() - p.trailing.len();
    for t in p.tokens() {
        if t.offset + 4 > decoded_end {
            break;
        }
        spans.push(Span { start: t.offset as u32, len: 4, kind: SpanKind::Token(tokens.len() as u32) });
        tokens.push(t);
    }
    if !p.undecoded.is_empty() {
        let start = spans.last().map_or(p.offset as u32, Span::end);
        spans.push(Span { start, len: (chunk_end - p.trailing.len()) as u32 - start, kind: SpanKind::Undecoded });
    }
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

/// CSS class of a span (its kind of colour).
pub fn span_class(m: &Model, i: usize) -> &'static str {
    match m.spans[i].kind {
        SpanKind::Header(_) => "k-hdr",
        SpanKind::ChunkHeader(_) => "k-chunk",
        SpanKind::ChunkData(_) => "k-data",
        SpanKind::Undecoded => "k-bad",
        SpanKind::Gap => "k-gap",
        SpanKind::Token(t) => match m.tokens[t as usize].role {
            TokenRole::Version | TokenRole::Length => "k-ver",
            TokenRole::Opcode | TokenRole::InstructionLength => "k-op",
            TokenRole::ExtendedOpcode => "k-ext",
            TokenRole::Operand { .. } => "k-opd",
            TokenRole::ExtendedOperand { .. } => "k-ext",
            TokenRole::Immediate { .. } => "k-imm",
            TokenRole::Index { .. } => "k-idx",
            TokenRole::Payload(_) => "k-pay",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Model {
        Model::new(dxbc::examples::tint_pixel_shader())
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
        assert_eq!(m.spans[0].kind, SpanKind::Header(Some(0)));
        assert_eq!(m.spans[6].kind, SpanKind::ChunkHeader(0));
        assert_eq!(m.spans[7].kind, SpanKind::Token(0));
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
        assert_eq!(m.line_of_span(7), Some(pl));
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
        let cx = dxbc::listing::program::Ctx { sm51: p.version.is_sm51(), legacy: false };
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
