//! CodeView records of the PDB: the type stream, the DBI module list, and
//! the module stream's symbols and C13 line subsections (see the parent
//! module's doc for what fxc writes).

use super::msf::Msf;
use super::NameTable;
use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use serde::Serialize;

/// A reader over one stream whose errors name file offsets.
struct SReader<'a> {
    r: Reader<'a>,
    msf: &'a Msf,
    stream: usize,
}

impl<'a> SReader<'a> {
    fn new(msf: &'a Msf, stream: usize) -> Self {
        let data = msf.streams.get(stream).map_or(&[][..], |s| &s.data[..]);
        SReader { r: Reader::new(data, 0), msf, stream }
    }
    fn fix(&self, e: Error) -> Error {
        let o = self.msf.error_offset(self.stream, e.offset());
        e.at(o)
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        self.r.u32(what).map_err(|e| self.fix(e))
    }
    fn u16(&mut self, what: &str) -> Result<u16> {
        self.r.u16(what).map_err(|e| self.fix(e))
    }
    fn seek(&mut self, pos: usize, what: &str) -> Result<()> {
        self.r.seek(pos, what).map_err(|e| self.fix(e))
    }
    fn at(&self, pos: usize) -> usize {
        self.msf.error_offset(self.stream, pos)
    }
    fn data(&self) -> &'a [u8] {
        self.r.data()
    }
}

/// A CodeView numeric leaf at `p` of `d`: its value and byte length.
fn numeric(d: &[u8], p: usize) -> Option<(u64, usize)> {
    let v = u16::from_le_bytes([*d.get(p)?, *d.get(p + 1)?]);
    if v < 0x8000 {
        return Some((v as u64, 2));
    }
    let n = match v {
        0x8000 => 1,
        0x8001 | 0x8002 => 2,
        0x8003 | 0x8004 => 4,
        0x8009 | 0x800A => 8,
        _ => return None,
    };
    let b = d.get(p + 2..p + 2 + n)?;
    let mut x = [0u8; 8];
    x[..n].copy_from_slice(b);
    Some((u64::from_le_bytes(x), 2 + n))
}

/// NUL-terminated name at `p` of `d` (Latin-1), or empty.
fn name_at(d: &[u8], p: usize) -> String {
    let rest = d.get(p..).unwrap_or(&[]);
    let n = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    rest[..n].iter().map(|&c| c as char).collect()
}

// ---------------------------------------------------------------- types

/// One type record, as far as variable names need it.
#[derive(Clone, Debug, Serialize)]
pub enum TypeKind {
    /// `LF_STRUCTURE`: its field list and byte size.
    Struct { name: String, fields: u32, size: u64 },
    /// `LF_FIELDLIST`: its data members.
    FieldList(Vec<Member>),
    /// `LF_VECTOR` (HLSL): element type and count.
    Vector { name: String, element: u32, count: u32, size: u64 },
    /// `LF_MATRIX` (HLSL): element type, rows and columns.
    Matrix { name: String, element: u32, rows: u32, columns: u32, size: u64 },
    /// `LF_ARRAY`: element type and total byte size.
    Array { element: u32, size: u64 },
    /// `LF_MODIFIER` / `LF_MODIFIER_EX`: the type it qualifies.
    Modifier { base: u32 },
    /// Any other record, by its leaf kind.
    Other(u16),
}

/// A data member of a structure.
#[derive(Clone, Debug, Serialize)]
pub struct Member {
    /// Its name.
    pub name: String,
    /// Its type.
    pub type_index: u32,
    /// Its byte offset in the structure.
    pub offset: u64,
}

/// One record of the type stream.
#[derive(Clone, Debug, Serialize)]
pub struct TypeRecord {
    /// Type index (0x1000 upward).
    pub index: u32,
    /// Leaf kind.
    pub leaf: u16,
    /// Byte position of the record (its length word) in the stream.
    pub pos: usize,
    /// Record length, the length word included.
    pub len: usize,
    /// What it is.
    pub kind: TypeKind,
}

/// The type stream (TPI).
#[derive(Clone, Debug, Serialize)]
pub struct TypeTable {
    /// TPI version (20040203).
    pub version: u32,
    /// Header size.
    pub header_size: u32,
    /// First type index.
    pub first_index: u32,
    /// One past the last.
    pub end_index: u32,
    /// Bytes of records.
    pub record_bytes: u32,
    /// The records, in index order.
    pub records: Vec<TypeRecord>,
}

impl TypeTable {
    /// Decodes stream `s` of `msf` as a type stream.
    pub fn parse(msf: &Msf, s: usize) -> Result<TypeTable> {
        let mut r = SReader::new(msf, s);
        let version = r.u32("TPI version")?;
        let header_size = r.u32("TPI header size")?;
        let first_index = r.u32("first type index")?;
        let end_index = r.u32("end type index")?;
        let record_bytes = r.u32("type record bytes")?;
        let d = r.data();
        let start = header_size as usize;
        let end = start.checked_add(record_bytes as usize).filter(|&e| e <= d.len()).ok_or_else(|| {
            Error::of(
                ErrorKind::OutOfBounds,
                format!("{record_bytes} bytes of type records run past the stream"),
                r.at(16),
            )
        })?;
        r.seek(start, "type records")?;
        let mut records = Vec::new();
        let mut index = first_index;
        let mut p = start;
        while p + 4 <= end {
            let len = u16::from_le_bytes([d[p], d[p + 1]]) as usize;
            let leaf = u16::from_le_bytes([d[p + 2], d[p + 3]]);
            if len < 2 || p + 2 + len > end {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!("type record of {len} bytes runs past the records"),
                    r.at(p),
                ));
            }
            let body = &d[p + 4..p + 2 + len];
            records.push(TypeRecord { index, leaf, pos: p, len: len + 2, kind: type_kind(leaf, body) });
            index = index.wrapping_add(1);
            p += 2 + len;
        }
        Ok(TypeTable { version, header_size, first_index, end_index, record_bytes, records })
    }

    /// The record of type index `t`.
    pub fn get(&self, t: u32) -> Option<&TypeRecord> {
        let i = t.checked_sub(self.first_index)? as usize;
        self.records.get(i).filter(|r| r.index == t)
    }

    /// The type behind modifiers.
    fn strip(&self, mut t: u32) -> u32 {
        for _ in 0..16 {
            match self.get(t).map(|r| &r.kind) {
                Some(TypeKind::Modifier { base }) => t = *base,
                _ => break,
            }
        }
        t
    }

    /// The member path of the 4-byte piece at byte `offset` of a value of
    /// type `t`: `.uv.x` for a struct member's component, `.x` for a
    /// vector's, nothing for a scalar.
    pub fn piece_path(&self, t: u32, offset: u64) -> String {
        let mut out = String::new();
        let (mut t, mut off) = (t, offset);
        for _ in 0..32 {
            t = self.strip(t);
            match self.get(t).map(|r| &r.kind) {
                Some(TypeKind::Struct { fields, .. }) => {
                    let Some(TypeKind::FieldList(ms)) = self.get(self.strip(*fields)).map(|r| &r.kind) else { break };
                    let Some(m) = ms.iter().rev().find(|m| m.offset <= off) else { break };
                    out.push('.');
                    out.push_str(&m.name);
                    off -= m.offset;
                    t = m.type_index;
                }
                Some(TypeKind::Vector { count, .. }) => {
                    let c = (off / 4) as usize;
                    if c < (*count as usize).min(4) {
                        out.push('.');
                        out.push(b"xyzw"[c] as char);
                    }
                    break;
                }
                Some(TypeKind::Matrix { rows, columns, .. }) => {
                    // Not in the corpus: pieces named by row and column in storage order.
                    let i = off / 4;
                    let c = (*columns).max(1) as u64;
                    if i < *rows as u64 * c {
                        out.push_str(&format!("._m{}{}", i / c, i % c));
                    }
                    break;
                }
                Some(TypeKind::Array { element, size }) => {
                    let n = self.type_size(*element).filter(|&n| n > 0 && n <= *size);
                    let Some(n) = n else { break };
                    out.push_str(&format!("[{}]", off / n));
                    off %= n;
                    t = *element;
                }
                _ => break,
            }
        }
        out
    }

    /// Byte size of type `t` (simple types are 4 bytes, HLSL's scalars).
    fn type_size(&self, t: u32) -> Option<u64> {
        let t = self.strip(t);
        if t < self.first_index {
            return Some(4);
        }
        match &self.get(t)?.kind {
            TypeKind::Struct { size, .. }
            | TypeKind::Vector { size, .. }
            | TypeKind::Matrix { size, .. }
            | TypeKind::Array { size, .. } => Some(*size),
            _ => None,
        }
    }
}

fn type_kind(leaf: u16, b: &[u8]) -> TypeKind {
    let u32_at = |p: usize| b.get(p..p + 4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]));
    let k = match leaf {
        0x1505 => (|| {
            let fields = u32_at(4)?;
            let (size, n) = numeric(b, 16)?;
            Some(TypeKind::Struct { name: name_at(b, 16 + n), fields, size })
        })(),
        0x1203 => Some(TypeKind::FieldList(members(b))),
        0x151B => (|| {
            let (size, n) = numeric(b, 8)?;
            Some(TypeKind::Vector { name: name_at(b, 8 + n), element: u32_at(0)?, count: u32_at(4)?, size })
        })(),
        0x151C => (|| {
            let (size, n) = numeric(b, 16)?;
            Some(TypeKind::Matrix {
                name: name_at(b, 16 + n),
                element: u32_at(0)?,
                rows: u32_at(4)?,
                columns: u32_at(8)?,
                size,
            })
        })(),
        0x1503 => (|| {
            let (size, _) = numeric(b, 8)?;
            Some(TypeKind::Array { element: u32_at(0)?, size })
        })(),
        0x1001 | 0x1518 => u32_at(0).map(|base| TypeKind::Modifier { base }),
        _ => None,
    };
    k.unwrap_or(TypeKind::Other(leaf))
}

/// The `LF_MEMBER` entries of a field list (others end the walk).
fn members(b: &[u8]) -> Vec<Member> {
    let mut out = Vec::new();
    let mut p = 0;
    while p + 2 <= b.len() {
        let leaf = u16::from_le_bytes([b[p], b[p + 1]]);
        if b[p] >= 0xF0 {
            // Padding byte (0xF1..0xF3) before the next member.
            p += 1;
            continue;
        }
        if leaf != 0x150D {
            break;
        }
        let Some(t) = b.get(p + 4..p + 8) else { break };
        let type_index = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let Some((offset, n)) = numeric(b, p + 8) else { break };
        let name = name_at(b, p + 8 + n);
        p += 8 + n + name.len() + 1;
        out.push(Member { name, type_index, offset });
    }
    out
}

// ---------------------------------------------------------------- module

/// The module's symbols and line information.
#[derive(Clone, Debug, Serialize)]
pub struct Module {
    /// Its stream.
    pub stream: usize,
    /// Bytes of symbols (the 4-byte signature included).
    pub symbol_bytes: u32,
    /// Bytes of C13 line information.
    pub c13_bytes: u32,
    /// Module name from the DBI stream.
    pub name: String,
    /// `S_COMPILE3`'s compiler string.
    pub compiler: Option<String>,
    /// `S_ENVBLOCK`'s key/value pairs (hlslTarget, hlslEntry, hlslFlags…).
    pub environment: Vec<(String, String)>,
    /// The entry point: name, code offset and length.
    pub entry: Option<Procedure>,
    /// Every symbol record: position in the stream, length, kind.
    pub records: Vec<SymbolRecord>,
    /// Variables and where their pieces live.
    pub locals: Vec<Local>,
    /// Inline sites, outermost first.
    pub inline_sites: Vec<InlineSite>,
    /// File checksums (`0xF4`).
    pub files: Vec<FileChecksum>,
    /// Line entries (`0xF2`), in table order.
    pub lines: Vec<LineEntry>,
    /// First lines of inlined functions (`0xF6`): inlinee, file, line.
    pub inlinees: Vec<(u32, u32, u32)>,
    /// Every C13 subsection: position, kind, byte size.
    pub subsections: Vec<(usize, u32, u32)>,
}

/// A symbol record's place.
#[derive(Clone, Debug, Serialize)]
pub struct SymbolRecord {
    /// Position of its length word in the module stream.
    pub pos: usize,
    /// Bytes, the length word included.
    pub len: usize,
    /// Record kind (`S_*`).
    pub kind: u16,
}

/// `S_GPROC32`.
#[derive(Clone, Debug, Serialize)]
pub struct Procedure {
    /// Function name.
    pub name: String,
    /// Code offset of its first instruction.
    pub code_offset: u32,
    /// Code bytes.
    pub code_len: u32,
}

/// A variable (`S_LOCAL`) and its pieces.
#[derive(Clone, Debug, Serialize)]
pub struct Local {
    /// Its name (`<main return value>` for the result).
    pub name: String,
    /// Its type.
    pub type_index: u32,
    /// `S_LOCAL` flags (bit 0: parameter).
    pub flags: u16,
    /// Where each piece lives, in record order.
    pub ranges: Vec<DefRange>,
}

/// `S_DEFRANGE_HLSL`: one piece of a variable in one register over a code range.
#[derive(Clone, Debug, Serialize)]
pub struct DefRange {
    /// Position of the record in the module stream.
    pub pos: usize,
    /// Register file: 0 temp, 1 input, 2 output, 3 indexable temp.
    pub register_type: u16,
    /// Flags: bits 0–1 the number of register indices, then the UDT-member bit and the memory space.
    pub flags: u16,
    /// Byte offset of the piece in its variable.
    pub offset_in_parent: u16,
    /// Byte size of the piece.
    pub size_in_parent: u16,
    /// Code offset where the range starts.
    pub start: u32,
    /// Section of the range.
    pub section: u16,
    /// Code bytes the range covers.
    pub length: u16,
    /// Gaps inside the range: offset from the start, length.
    pub gaps: Vec<(u16, u16)>,
    /// Register indices in bytes (16 per register, 4 per component).
    pub indices: Vec<u32>,
}

impl DefRange {
    /// The register piece as fxc names it, e.g. `r1.x` or `o0.w`.
    pub fn register_name(&self) -> String {
        let file = match self.register_type {
            0 => "r",
            1 => "v",
            2 => "o",
            3 => "x",
            _ => "?",
        };
        let comp = |i: u32| b"xyzw"[((i % 16) / 4) as usize] as char;
        match self.indices.as_slice() {
            [] => file.to_string(),
            [i] => format!("{file}{}.{}", i / 16, comp(*i)),
            [a, b, ..] => format!("{file}{}[{}].{}", a, b / 16, comp(*b)),
        }
    }

    /// True when the record marks the piece as part of a larger value
    /// (flag bit 2): a structure member or a vector component.
    pub fn is_member(&self) -> bool {
        self.flags & 4 != 0
    }

    /// Code offsets where the piece (re)appears in its register: the range
    /// start, and the end of each gap that ends inside the range.
    pub fn arrivals(&self) -> Vec<u32> {
        let end = self.start as u64 + self.length as u64;
        let mut v = vec![self.start];
        for &(o, l) in &self.gaps {
            let back = self.start as u64 + o as u64 + l as u64;
            if back < end {
                v.push(back as u32);
            }
        }
        v
    }
}

/// `S_INLINESITE` with its decoded annotations.
#[derive(Clone, Debug, Serialize)]
pub struct InlineSite {
    /// Position of the record in the module stream.
    pub pos: usize,
    /// The inlined function (an item id).
    pub inlinee: u32,
    /// Code ranges with their lines.
    pub ranges: Vec<InlineRange>,
}

/// One range of an inline site: absolute code offset (the entry point's
/// offset added), byte length, file and line.
#[derive(Clone, Debug, Serialize)]
pub struct InlineRange {
    /// Code offset.
    pub start: u32,
    /// Bytes.
    pub length: u32,
    /// File checksum offset.
    pub file: u32,
    /// Line.
    pub line: u32,
    /// Range kind: true for statements (the default), false after
    /// `ChangeRangeKind 0` (expressions).
    pub statement: bool,
}

/// One entry of the file checksum subsection.
#[derive(Clone, Debug, Serialize)]
pub struct FileChecksum {
    /// Its byte offset in the subsection (what line tables name).
    pub offset_in_table: u32,
    /// Offset of the name in `/names`.
    pub name_offset: u32,
    /// The name.
    pub name: String,
    /// Checksum kind (1 MD5).
    pub kind: u8,
    /// The checksum bytes as hex.
    pub checksum: String,
}

/// One line entry.
#[derive(Clone, Debug, Serialize)]
pub struct LineEntry {
    /// Code offset.
    pub offset: u32,
    /// File checksum offset.
    pub file: u32,
    /// Line number.
    pub line: u32,
    /// Statement flag.
    pub statement: bool,
    /// First and one-past-last column, when the table has columns.
    pub columns: Option<(u16, u16)>,
}

/// Symbol kinds this decoder reads.
pub mod sym {
    /// End of a scope.
    pub const S_END: u16 = 0x0006;
    /// A global procedure.
    pub const S_GPROC32: u16 = 0x1110;
    /// Compiler.
    pub const S_COMPILE3: u16 = 0x113C;
    /// Environment strings.
    pub const S_ENVBLOCK: u16 = 0x113D;
    /// A variable.
    pub const S_LOCAL: u16 = 0x113E;
    /// An inline site.
    pub const S_INLINESITE: u16 = 0x114D;
    /// End of an inline site.
    pub const S_INLINESITE_END: u16 = 0x114E;
    /// An HLSL register range of a variable piece.
    pub const S_DEFRANGE_HLSL: u16 = 0x1150;
}

impl Module {
    /// Finds the first module in DBI stream `dbi` and decodes its stream.
    pub fn parse(msf: &Msf, dbi: usize, names: Option<&NameTable>) -> Result<Option<Module>> {
        let mut r = SReader::new(msf, dbi);
        if r.data().is_empty() {
            return Ok(None);
        }
        r.seek(24, "DBI module info size")?;
        let mod_size = r.u32("DBI module info size")? as usize;
        if mod_size == 0 {
            return Ok(None);
        }
        // Module info starts after the 64-byte header; stream at +34.
        r.seek(64 + 34, "module stream")?;
        let stream = r.u16("module stream")? as usize;
        let symbol_bytes = r.u32("module symbol bytes")?;
        let _c11 = r.u32("module C11 bytes")?;
        let c13_bytes = r.u32("module C13 bytes")?;
        let name = name_at(r.data(), 64 + 64);
        if stream >= msf.streams.len() {
            return Err(Error::of(
                ErrorKind::OutOfBounds,
                format!("module stream {stream} is past the {} streams", msf.streams.len()),
                r.at(64 + 34),
            ));
        }
        let mut m = Module {
            stream,
            symbol_bytes,
            c13_bytes,
            name,
            compiler: None,
            environment: Vec::new(),
            entry: None,
            records: Vec::new(),
            locals: Vec::new(),
            inline_sites: Vec::new(),
            files: Vec::new(),
            lines: Vec::new(),
            inlinees: Vec::new(),
            subsections: Vec::new(),
        };
        let s = SReader::new(msf, stream);
        let d = s.data();
        let sym_end = symbol_bytes as usize;
        let c13_end = sym_end.saturating_add(c13_bytes as usize);
        if c13_end > d.len() || sym_end < 4 {
            return Err(Error::of(
                ErrorKind::OutOfBounds,
                format!("module sizes {symbol_bytes} + {c13_bytes} do not fit its {}-byte stream", d.len()),
                r.at(64 + 36),
            ));
        }
        m.parse_symbols(&s, d, sym_end)?;
        m.parse_c13(&s, d, sym_end, c13_end, names)?;
        m.fix_inline_lines();
        Ok(Some(m))
    }

    fn parse_symbols(&mut self, s: &SReader, d: &[u8], end: usize) -> Result<()> {
        let mut p = 4;
        while p + 4 <= end {
            let len = u16::from_le_bytes([d[p], d[p + 1]]) as usize;
            let kind = u16::from_le_bytes([d[p + 2], d[p + 3]]);
            if len < 2 || p + 2 + len > end {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!("symbol record of {len} bytes runs past the symbols"),
                    s.at(p),
                ));
            }
            let b = &d[p + 4..p + 2 + len];
            self.records.push(SymbolRecord { pos: p, len: len + 2, kind });
            let u32_at = |q: usize| b.get(q..q + 4).map_or(0, |x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]));
            let u16_at = |q: usize| b.get(q..q + 2).map_or(0, |x| u16::from_le_bytes([x[0], x[1]]));
            match kind {
                sym::S_COMPILE3 => self.compiler = Some(name_at(b, 22)),
                sym::S_ENVBLOCK => {
                    let mut parts = b.get(1..).unwrap_or(&[]).split(|&c| c == 0).map(|x| name_at(x, 0));
                    while let (Some(k), Some(v)) = (parts.next(), parts.next()) {
                        if k.is_empty() {
                            break;
                        }
                        self.environment.push((k, v));
                    }
                }
                sym::S_GPROC32 if self.entry.is_none() => {
                    self.entry = Some(Procedure { name: name_at(b, 35), code_offset: u32_at(28), code_len: u32_at(12) })
                }
                sym::S_LOCAL => self.locals.push(Local {
                    name: name_at(b, 6),
                    type_index: u32_at(0),
                    flags: u16_at(4),
                    ranges: Vec::new(),
                }),
                sym::S_DEFRANGE_HLSL => {
                    let flags = u16_at(2);
                    let dims = (flags & 3) as usize;
                    let fixed = 16;
                    let n_gaps = b.len().saturating_sub(fixed + 4 * dims) / 4;
                    let gaps = (0..n_gaps).map(|i| (u16_at(fixed + 4 * i), u16_at(fixed + 4 * i + 2))).collect();
                    let ix = fixed + 4 * n_gaps;
                    let indices = (0..dims).filter(|i| ix + 4 * i + 4 <= b.len()).map(|i| u32_at(ix + 4 * i)).collect();
                    let dr = DefRange {
                        pos: p,
                        register_type: u16_at(0),
                        flags,
                        offset_in_parent: u16_at(4),
                        size_in_parent: u16_at(6),
                        start: u32_at(8),
                        section: u16_at(12),
                        length: u16_at(14),
                        gaps,
                        indices,
                    };
                    if let Some(l) = self.locals.last_mut() {
                        l.ranges.push(dr);
                    }
                }
                sym::S_INLINESITE => {
                    let base = self.entry.as_ref().map_or(0, |e| e.code_offset);
                    let ranges = annotations(b.get(12..).unwrap_or(&[]), base);
                    self.inline_sites.push(InlineSite { pos: p, inlinee: u32_at(8), ranges });
                }
                _ => {}
            }
            p += 2 + len;
        }
        Ok(())
    }

    fn parse_c13(&mut self, s: &SReader, d: &[u8], start: usize, end: usize, names: Option<&NameTable>) -> Result<()> {
        let mut p = start;
        let mut raw_lines: Vec<(usize, usize)> = Vec::new();
        while p + 8 <= end {
            let kind = crate::reader::dword(&d[p..], 0);
            let size = crate::reader::dword(&d[p..], 1);
            let body_end = (p + 8).checked_add(size as usize).filter(|&e| e <= end).ok_or_else(|| {
                Error::of(
                    ErrorKind::OutOfBounds,
                    format!("C13 subsection of {size} bytes runs past the module"),
                    s.at(p + 4),
                )
            })?;
            self.subsections.push((p, kind, size));
            let b = &d[p + 8..body_end];
            match kind {
                0xF4 => {
                    let mut q = 0;
                    while q + 6 <= b.len() {
                        let name_offset = crate::reader::dword(&b[q..], 0);
                        let n = b[q + 4] as usize;
                        let ck = b[q + 5];
                        let sum = b.get(q + 6..q + 6 + n).unwrap_or(&[]);
                        let name = names.and_then(|t| t.get(name_offset)).unwrap_or_default();
                        self.files.push(FileChecksum {
                            offset_in_table: q as u32,
                            name_offset,
                            name,
                            kind: ck,
                            checksum: super::hex(sum),
                        });
                        q = (q + 6 + n + 3) & !3;
                    }
                }
                0xF2 => raw_lines.push((p + 8, body_end)),
                0xF6 if b.len() >= 4 => {
                    let mut q = 4;
                    while q + 12 <= b.len() {
                        let w = |i| crate::reader::dword(&b[q..], i);
                        self.inlinees.push((w(0), w(1), w(2)));
                        q += 12;
                    }
                }
                _ => {}
            }
            p = (body_end + 3) & !3;
        }
        for (a, e) in raw_lines {
            self.parse_lines(s, &d[..e], a)?;
        }
        Ok(())
    }

    fn parse_lines(&mut self, s: &SReader, d: &[u8], a: usize) -> Result<()> {
        let short = |at: usize| Error::of(ErrorKind::Truncated, "line table header runs past its subsection", s.at(at));
        if a + 12 > d.len() {
            return Err(short(a));
        }
        let base = crate::reader::dword(&d[a..], 0);
        let flags = u16::from_le_bytes([d[a + 6], d[a + 7]]);
        let columns = flags & 1 != 0;
        let mut q = a + 12;
        while q + 12 <= d.len() {
            let file = crate::reader::dword(&d[q..], 0);
            let n = crate::reader::dword(&d[q..], 1) as usize;
            let block = crate::reader::dword(&d[q..], 2) as usize;
            let need = 12usize.saturating_add(n.saturating_mul(if columns { 12 } else { 8 }));
            if block < need || q.saturating_add(block) > d.len() {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!("line block of {n} lines ({block} bytes) runs past its subsection"),
                    s.at(q + 4),
                ));
            }
            for i in 0..n {
                let e = q + 12 + 8 * i;
                let off = crate::reader::dword(&d[e..], 0);
                let bits = crate::reader::dword(&d[e..], 1);
                let cols = columns.then(|| {
                    let c = q + 12 + 8 * n + 4 * i;
                    (u16::from_le_bytes([d[c], d[c + 1]]), u16::from_le_bytes([d[c + 2], d[c + 3]]))
                });
                self.lines.push(LineEntry {
                    offset: base.wrapping_add(off),
                    file,
                    line: bits & 0x00FF_FFFF,
                    statement: bits >> 31 != 0,
                    columns: cols,
                });
            }
            q += block;
        }
        Ok(())
    }

    /// The first line entry at code offset `off` (the statement's).
    pub fn line_at(&self, off: u32) -> Option<&LineEntry> {
        self.lines.iter().find(|l| l.offset == off)
    }

    /// The line the innermost inline site gives code offset `off`, with its file.
    pub fn inline_line_at(&self, off: u32) -> Option<(u32, u32)> {
        self.inline_sites
            .iter()
            .rev()
            .find_map(|s| s.ranges.iter().find(|r| r.statement && r.start <= off && off - r.start < r.length))
            .map(|r| (r.file, r.line))
    }
}

/// Decodes CodeView binary annotations into ranges. The code offset starts
/// at `base`, the enclosing function's offset; `ChangeCodeOffset` moves it
/// and `CodeOffset` sets it outright (fxc restarts it that way for its
/// second, expression-kind pass over the same code). The first line is the
/// inlinee's (`0xF6`), which the caller does not know yet, so lines here are
/// relative to 0 and fixed up by [`Module::fix_inline_lines`].
fn annotations(b: &[u8], base: u32) -> Vec<InlineRange> {
    let mut p = 0;
    let unsigned = |p: &mut usize| -> Option<u32> {
        let b0 = *b.get(*p)? as u32;
        if b0 & 0x80 == 0 {
            *p += 1;
            return Some(b0);
        }
        if b0 & 0xC0 == 0x80 {
            let b1 = *b.get(*p + 1)? as u32;
            *p += 2;
            return Some(((b0 & 0x3F) << 8) | b1);
        }
        if b0 & 0xE0 == 0xC0 {
            let r = b.get(*p + 1..*p + 4)?;
            *p += 4;
            return Some(((b0 & 0x1F) << 24) | ((r[0] as u32) << 16) | ((r[1] as u32) << 8) | r[2] as u32);
        }
        None
    };
    let signed = |u: u32| -> i64 {
        if u & 1 != 0 {
            -((u >> 1) as i64)
        } else {
            (u >> 1) as i64
        }
    };
    let (mut code, mut line, mut file, mut statement) = (base, 0i64, 0u32, true);
    let mut out: Vec<InlineRange> = Vec::new();
    // Ranges without an explicit length end where the next one starts.
    let mut open = false;
    let emit = |out: &mut Vec<InlineRange>, open: &mut bool, start: u32, line: i64, file: u32, statement: bool| {
        if *open {
            if let Some(last) = out.last_mut() {
                last.length = start.saturating_sub(last.start);
            }
        }
        if out.len() < 4096 {
            out.push(InlineRange { start, length: 0, file, line: line.clamp(0, u32::MAX as i64) as u32, statement });
        }
        *open = true;
    };
    while p < b.len() {
        let Some(op) = unsigned(&mut p) else { break };
        let ok = match op {
            0 => break,
            1 => unsigned(&mut p).map(|u| code = u),
            2 => unsigned(&mut p).map(|_| ()),
            3 => unsigned(&mut p).map(|u| {
                code = code.wrapping_add(u);
                emit(&mut out, &mut open, code, line, file, statement);
            }),
            4 => unsigned(&mut p).map(|u| {
                if let Some(l) = out.last_mut() {
                    l.length = u;
                }
                open = false;
            }),
            5 => unsigned(&mut p).map(|u| file = u),
            6 => unsigned(&mut p).map(|u| line += signed(u)),
            8 => unsigned(&mut p).map(|u| statement = u != 0),
            7 | 9 | 13 => unsigned(&mut p).map(|_| ()),
            10 => unsigned(&mut p).map(|_| ()),
            11 => unsigned(&mut p).map(|u| {
                line += signed(u >> 4);
                code = code.wrapping_add(u & 0xF);
                emit(&mut out, &mut open, code, line, file, statement);
            }),
            12 => unsigned(&mut p).and_then(|len| {
                unsigned(&mut p).map(|u| {
                    code = code.wrapping_add(u);
                    emit(&mut out, &mut open, code, line, file, statement);
                    if let Some(l) = out.last_mut() {
                        l.length = len;
                    }
                    open = false;
                })
            }),
            _ => None,
        };
        if ok.is_none() {
            break;
        }
    }
    out
}

impl Module {
    /// Adds each inlinee's first line (`0xF6`) to its sites' relative lines.
    pub(super) fn fix_inline_lines(&mut self) {
        for s in &mut self.inline_sites {
            if let Some(&(_, file, first)) = self.inlinees.iter().find(|i| i.0 == s.inlinee) {
                for r in &mut s.ranges {
                    r.line = r.line.wrapping_add(first);
                    if r.file == 0 {
                        r.file = file;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(gaps: Vec<(u16, u16)>, indices: Vec<u32>, register_type: u16) -> DefRange {
        DefRange {
            pos: 0,
            register_type,
            flags: 5,
            offset_in_parent: 0,
            size_in_parent: 4,
            start: 0x60,
            section: 1,
            length: 0x224,
            gaps,
            indices,
        }
    }

    #[test]
    fn a_piece_arrives_at_its_start_and_after_each_gap_inside_the_range() {
        let r = range(vec![(0xa0, 0x16c), (0x200, 0x100)], vec![0x0c], 2);
        // The second gap runs past the range's end: the piece never comes back.
        assert_eq!(r.arrivals(), vec![0x60, 0x26c]);
        assert_eq!(r.register_name(), "o0.w");
        assert_eq!(range(vec![], vec![0x24], 1).register_name(), "v2.y");
        assert_eq!(range(vec![], vec![3, 0x18], 3).register_name(), "x3[1].z");
    }

    #[test]
    fn annotations_give_statement_ranges_from_the_function_offset() {
        // ColumnStart 3, LineOffset +11, CodeOffset +0xa0 (two-byte form),
        // LineOffset +1, CodeOffset +0x1c, CodeLengthAndCodeOffset (0x20, +0x1c),
        // RangeKind 0 (expressions), CodeOffset set to 0x100, CodeOffset +0.
        let b = [9, 3, 6, 22, 3, 0x80, 0xa0, 6, 2, 3, 0x1c, 12, 0x20, 0x1c, 8, 0, 1, 0x81, 0x00, 3, 0];
        let r = annotations(&b, 0x60);
        let got: Vec<(u32, u32, u32, bool)> = r.iter().map(|r| (r.start, r.length, r.line, r.statement)).collect();
        assert_eq!(
            got,
            vec![(0x100, 0x1c, 11, true), (0x11c, 0x1c, 12, true), (0x138, 0x20, 12, true), (0x100, 0, 12, false)]
        );
    }

    #[test]
    fn numeric_leaves_and_member_paths() {
        assert_eq!(numeric(&[0x24, 0x00], 0), Some((0x24, 2)));
        assert_eq!(numeric(&[0x04, 0x80, 1, 2, 3, 4], 0), Some((0x04030201, 6)));
        assert_eq!(numeric(&[0x05, 0x80], 0), None);
        // struct S { float4 pos; float2 uv; } with a field list.
        let t = TypeTable {
            version: 0,
            header_size: 56,
            first_index: 0x1000,
            end_index: 0x1004,
            record_bytes: 0,
            records: vec![
                TypeRecord {
                    index: 0x1000,
                    leaf: 0x151b,
                    pos: 0,
                    len: 0,
                    kind: TypeKind::Vector { name: "float4".into(), element: 0x40, count: 4, size: 16 },
                },
                TypeRecord {
                    index: 0x1001,
                    leaf: 0x151b,
                    pos: 0,
                    len: 0,
                    kind: TypeKind::Vector { name: "float2".into(), element: 0x40, count: 2, size: 8 },
                },
                TypeRecord {
                    index: 0x1002,
                    leaf: 0x1203,
                    pos: 0,
                    len: 0,
                    kind: TypeKind::FieldList(vec![
                        Member { name: "pos".into(), type_index: 0x1000, offset: 0 },
                        Member { name: "uv".into(), type_index: 0x1001, offset: 16 },
                    ]),
                },
                TypeRecord {
                    index: 0x1003,
                    leaf: 0x1505,
                    pos: 0,
                    len: 0,
                    kind: TypeKind::Struct { name: "S".into(), fields: 0x1002, size: 24 },
                },
            ],
        };
        assert_eq!(t.piece_path(0x1003, 20), ".uv.y");
        assert_eq!(t.piece_path(0x1003, 8), ".pos.z");
        assert_eq!(t.piece_path(0x1000, 12), ".w");
        assert_eq!(t.piece_path(0x40, 0), "");
    }
}
