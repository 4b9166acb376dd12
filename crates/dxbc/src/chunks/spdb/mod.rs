//! SPDB: the debug information fxc writes with `/Zi`, a whole PDB file.
//!
//! ## What fxc puts in it (read from the corpus bytes)
//! * The PDB is an MSF 7.0 container ([`msf`]); its streams are numbered.
//! * Stream 1 is the **PDB info stream**: version, signature, age, GUID,
//!   then a *named-stream map* (a string buffer and a hash table of
//!   string offset → stream number). fxc names `/LinkInfo`, `/names`,
//!   `/src/headerblock` and one `/src/files/<path>` per source file, the
//!   path in lower case.
//! * **Source files** are those `/src/files/…` streams: each holds the
//!   file's text, raw. The spelling as written on the command line (case
//!   kept) is in the `/names` string table, which the line tables point
//!   into; fxc also repeats the main file's text there.
//! * Stream 2 is the type stream (TPI): CodeView type records. HLSL adds
//!   vector (`0x151B`) and matrix (`0x151C`) records; structures and their
//!   field lists are the usual ones. They give the member path of a
//!   variable piece (`<main return value>.uv.x`).
//! * Stream 3 is the DBI stream. Its module list names, for the one
//!   module fxc writes, the **module stream** and the byte sizes of its
//!   symbols and of its C13 line information.
//! * The module stream starts with the C13 signature (4), then CodeView
//!   symbol records: compiler (`S_COMPILE3`), environment block (target,
//!   entry, flags), the entry point (`S_GPROC32`, its code offset and
//!   length), inline sites (`S_INLINESITE` with binary line annotations),
//!   and **variables**: each `S_LOCAL` (name, type) is followed by its
//!   `S_DEFRANGE_HLSL` records, one per 4-byte piece: register file
//!   (0 temp `r`, 1 input `v`, 2 output `o`, 3 indexable temp `x`), the
//!   piece's byte offset and size in the variable, the code range where the
//!   piece lives in that register, gaps inside the range where it does not,
//!   and the register index in bytes (16 per register, 4 per component).
//! * After the symbols come C13 subsections: file checksums (`0xF4`: name
//!   offset in `/names`, MD5), lines (`0xF2`: per file block, code offset,
//!   line, statement flag, and columns) and inlinee lines (`0xF6`: the first
//!   line of each inlined function).
//! * **Code offsets** count bytes from the start of the SHDR/SHEX payload
//!   (its version token is offset 0): the entry point's range ends exactly
//!   at the program's length in every corpus file.
//! * fxc writes two line entries per instruction: the statement's (flag
//!   set) first, then the expression's. The first is the one its listing
//!   prints.
//!
//! Every stream decodes on its own: a fault in one is recorded in
//! [`Spdb::faults`] and the others still decode; only a broken container
//! fails the chunk.

pub mod msf;
pub mod symbols;

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
pub use msf::Msf;
use serde::Serialize;
pub use symbols::{DefRange, InlineSite, LineEntry, Local, Module, TypeTable};

/// The decoded SPDB chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Spdb {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// The container.
    pub msf: Msf,
    /// Stream 1.
    pub info: Option<PdbInfo>,
    /// `/names`: the string table the line tables point into.
    pub names: Option<NameTable>,
    /// The embedded source files, in named-stream order.
    pub sources: Vec<SourceFile>,
    /// The type records of stream 2.
    pub types: Option<TypeTable>,
    /// The module's symbols and lines.
    pub module: Option<Module>,
    /// Streams that did not decode; the rest still did.
    pub faults: Vec<Error>,
}

/// The PDB info stream.
#[derive(Clone, Debug, Serialize)]
pub struct PdbInfo {
    /// Absolute offset of the version dword.
    pub offset: usize,
    /// Format version (20000404 for VC7.0).
    pub version: u32,
    /// Time stamp the compiler wrote.
    pub signature: u32,
    /// How often the PDB was written.
    pub age: u32,
    /// The GUID that ties the PDB to its binary, as text.
    pub guid: String,
    /// Named streams: name and stream number, in hash-table order.
    pub named_streams: Vec<NamedStream>,
}

/// One entry of the named-stream map.
#[derive(Clone, Debug, Serialize)]
pub struct NamedStream {
    /// Its name, e.g. `/src/files/c:\shaders\a.hlsl`.
    pub name: String,
    /// Its stream number.
    pub stream: u32,
}

/// The `/names` string table.
#[derive(Clone, Debug, Serialize)]
pub struct NameTable {
    /// Stream number.
    pub stream: usize,
    /// Table version (1).
    pub version: u32,
    /// The string buffer.
    #[serde(skip)]
    pub buffer: Vec<u8>,
}

impl NameTable {
    /// The string at byte `at` of the buffer.
    pub fn get(&self, at: u32) -> Option<String> {
        let rest = self.buffer.get(at as usize..)?;
        let n = rest.iter().position(|&b| b == 0)?;
        Some(latin1(&rest[..n]))
    }

    /// Every string of the buffer.
    pub fn strings(&self) -> impl Iterator<Item = String> + '_ {
        self.buffer.split(|&b| b == 0).filter(|s| !s.is_empty()).map(latin1)
    }
}

/// One embedded source file.
#[derive(Clone, Debug, Serialize)]
pub struct SourceFile {
    /// The name as the compiler was given it (from `/names`), or the
    /// stream's lower-case name when `/names` lacks it.
    pub name: String,
    /// The stream's name after `/src/files/`.
    pub stream_name: String,
    /// Stream number.
    pub stream: usize,
    /// The text (UTF-8 when it is, else Latin-1).
    pub text: String,
    /// Whether the MD5 the line tables record for this file equals the
    /// MD5 of the stored text; `None` when no MD5 names the file.
    pub checksum_ok: Option<bool>,
}

/// Text from raw bytes, Latin-1 for anything not ASCII.
fn latin1(b: &[u8]) -> String {
    b.iter().map(|&c| c as char).collect()
}

/// Stream numbers fxc's PDBs use for fixed streams.
pub const INFO_STREAM: usize = 1;
/// The type stream.
pub const TPI_STREAM: usize = 2;
/// The DBI stream.
pub const DBI_STREAM: usize = 3;

/// Prefix of the named streams that hold source files.
pub const SOURCE_PREFIX: &str = "/src/files/";

impl Spdb {
    /// Decodes the SPDB payload `data`, which starts at absolute `base`.
    pub fn parse(data: &[u8], base: usize) -> Result<Spdb> {
        let msf = Msf::parse(data, base)?;
        let mut s = Spdb {
            offset: base,
            msf,
            info: None,
            names: None,
            sources: Vec::new(),
            types: None,
            module: None,
            faults: Vec::new(),
        };
        match s.parse_info() {
            Ok(i) => s.info = Some(i),
            Err(e) => s.faults.push(e),
        }
        if let Some(n) = s.named("/names") {
            match s.parse_names(n) {
                Ok(t) => s.names = Some(t),
                Err(e) => s.faults.push(e),
            }
        }
        s.sources = s.collect_sources();
        match TypeTable::parse(&s.msf, TPI_STREAM) {
            Ok(t) => s.types = Some(t),
            Err(e) => s.faults.push(e),
        }
        match Module::parse(&s.msf, DBI_STREAM, s.names.as_ref()) {
            Ok(m) => s.module = m,
            Err(e) => s.faults.push(e),
        }
        s.check_sources();
        Ok(s)
    }

    fn check_sources(&mut self) {
        let Some(m) = &self.module else { return };
        for f in &mut self.sources {
            let Some(sum) = m.files.iter().find(|c| c.kind == 1 && c.name.eq_ignore_ascii_case(&f.name)) else {
                continue;
            };
            let data = self.msf.streams.get(f.stream).map_or(&[][..], |s| &s.data[..]);
            f.checksum_ok = Some(hex(&crate::checksum::md5(data)) == sum.checksum);
        }
    }

    /// Stream number of the named stream `name`.
    pub fn named(&self, name: &str) -> Option<usize> {
        let i = self.info.as_ref()?;
        let n = i.named_streams.iter().find(|n| n.name == name)?;
        Some(n.stream as usize).filter(|&s| s < self.msf.streams.len())
    }

    fn stream(&self, s: usize) -> &[u8] {
        self.msf.streams.get(s).map_or(&[], |st| &st.data)
    }

    fn parse_info(&self) -> Result<PdbInfo> {
        let data = self.stream(INFO_STREAM);
        let at = |p: usize| self.msf.error_offset(INFO_STREAM, p);
        let mut r = Reader::new(data, 0);
        let fix = |e: Error| {
            let o = at(e.offset());
            e.at(o)
        };
        let version = r.u32("PDB version").map_err(fix)?;
        let signature = r.u32("PDB signature").map_err(fix)?;
        let age = r.u32("PDB age").map_err(fix)?;
        let g = r.bytes(16, "PDB GUID").map_err(fix)?;
        let guid = format!(
            "{:08X}-{:04X}-{:04X}-{}-{}",
            u32::from_le_bytes([g[0], g[1], g[2], g[3]]),
            u16::from_le_bytes([g[4], g[5]]),
            u16::from_le_bytes([g[6], g[7]]),
            hex(&g[8..10]),
            hex(&g[10..16])
        );
        let names_len = r.u32("named-stream string size").map_err(fix)? as usize;
        let names_at = r.pos();
        let names = r.bytes(names_len, "named-stream strings").map_err(fix)?;
        let count = r.u32("named-stream count").map_err(fix)? as usize;
        let _capacity = r.u32("named-stream capacity").map_err(fix)?;
        let present_words = r.u32("present bit-vector size").map_err(fix)? as usize;
        if present_words > r.remaining() / 4 {
            return Err(Error::of(ErrorKind::LimitExceeded, "present bit-vector past the stream", at(r.pos())));
        }
        for _ in 0..present_words {
            r.u32("present bits").map_err(fix)?;
        }
        let deleted_words = r.u32("deleted bit-vector size").map_err(fix)? as usize;
        if deleted_words > r.remaining() / 4 {
            return Err(Error::of(ErrorKind::LimitExceeded, "deleted bit-vector past the stream", at(r.pos())));
        }
        for _ in 0..deleted_words {
            r.u32("deleted bits").map_err(fix)?;
        }
        if count > r.remaining() / 8 {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                format!("{count} named streams cannot fit the info stream"),
                at(r.pos()),
            ));
        }
        let mut named_streams = Vec::with_capacity(count);
        for _ in 0..count {
            let key_at = r.pos();
            let key = r.u32("named-stream name offset").map_err(fix)? as usize;
            let stream = r.u32("named-stream number").map_err(fix)?;
            let Some(rest) = names.get(key..) else {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!("named-stream name offset {key:#x} is past its {names_len}-byte strings"),
                    at(key_at),
                ));
            };
            let Some(n) = rest.iter().position(|&b| b == 0) else {
                return Err(Error::of(
                    ErrorKind::Truncated,
                    "named-stream name is not NUL-terminated",
                    at(names_at + key),
                ));
            };
            named_streams.push(NamedStream { name: latin1(&rest[..n]), stream });
        }
        Ok(PdbInfo { offset: at(0), version, signature, age, guid, named_streams })
    }

    fn parse_names(&self, s: usize) -> Result<NameTable> {
        let data = self.stream(s);
        let mut r = Reader::new(data, 0);
        let fix = |e: Error| {
            let o = self.msf.error_offset(s, e.offset());
            e.at(o)
        };
        let magic = r.u32("string table magic").map_err(fix)?;
        if magic != 0xEFFE_EFFE {
            return Err(Error::new(
                format!("/names starts with {magic:#010x}, not the string table magic 0xeffeeffe"),
                self.msf.error_offset(s, 0),
            ));
        }
        let version = r.u32("string table version").map_err(fix)?;
        let len = r.u32("string buffer size").map_err(fix)? as usize;
        let buffer = r.bytes(len, "string buffer").map_err(fix)?.to_vec();
        Ok(NameTable { stream: s, version, buffer })
    }

    fn collect_sources(&self) -> Vec<SourceFile> {
        let Some(info) = &self.info else { return Vec::new() };
        let mut out = Vec::new();
        for n in &info.named_streams {
            let Some(stream_name) = n.name.strip_prefix(SOURCE_PREFIX) else { continue };
            let s = n.stream as usize;
            let Some(st) = self.msf.streams.get(s) else { continue };
            let text = match std::str::from_utf8(&st.data) {
                Ok(t) => t.to_string(),
                Err(_) => latin1(&st.data),
            };
            let name = self
                .names
                .as_ref()
                .and_then(|t| t.strings().find(|x| x.eq_ignore_ascii_case(stream_name)))
                .unwrap_or_else(|| stream_name.to_string());
            out.push(SourceFile { name, stream_name: stream_name.to_string(), stream: s, text, checksum_ok: None });
        }
        out
    }

    /// The embedded source files as `dxbc source` prints them: per file a
    /// header line naming it, its stream and size, then its text as stored
    /// (line ends kept), ending in a newline.
    pub fn source_text(&self) -> String {
        let mut out = String::new();
        let n = self.sources.len();
        for (i, f) in self.sources.iter().enumerate() {
            out.push_str(&format!(
                "// ==== source {}/{n}: {} (stream {}, {} bytes) ====\n",
                i + 1,
                f.name,
                f.stream,
                self.msf.streams.get(f.stream).map_or(0, |s| s.size)
            ));
            out.push_str(&f.text);
            if !f.text.ends_with('\n') {
                out.push('\n');
            }
        }
        out
    }

    /// One line per source file for `dxbc info`: size, whether the recorded MD5 matches, name.
    pub fn source_summary(&self) -> String {
        let mut out = format!("sources   {}\n", self.sources.len());
        for f in &self.sources {
            let size = self.msf.streams.get(f.stream).map_or(0, |s| s.size);
            let md5 = match f.checksum_ok {
                Some(true) => "md5 ok",
                Some(false) => "md5 MISMATCH",
                None => "no md5",
            };
            out.push_str(&format!("  {size:>7} bytes  {md5}  {}\n", f.name));
        }
        out
    }

    /// The name of the file with checksum-table offset `file`, as the line tables spell it.
    pub fn file_name(&self, file: u32) -> Option<&str> {
        let m = self.module.as_ref()?;
        m.files.iter().find(|f| f.offset_in_table == file).map(|f| f.name.as_str())
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}
