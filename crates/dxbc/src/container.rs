//! The DXBC container: a 32-byte header, a table of chunk offsets, and the
//! chunks themselves (each a FourCC, a byte size and a payload).
//!
//! ```text
//! 0x00  "DXBC"
//! 0x04  checksum (16 bytes, see `checksum`)
//! 0x14  u32 1 (container format version)
//! 0x18  u32 total size in bytes
//! 0x1c  u32 chunk count N
//! 0x20  u32 offset[N]   absolute offset of each chunk header
//! ...   chunk: FourCC, u32 payload size, payload
//! ```

use crate::checksum::dxbc_checksum;
use crate::error::{ChunkRef, Error, ErrorKind, Result};
use crate::reader::Reader;
use serde::Serialize;
use std::ops::Range;

/// Largest container we accept: sizes come from the file, so anything read
/// is bounded by this (real shaders are far smaller).
pub const MAX_CONTAINER_SIZE: usize = 64 << 20;

/// Bytes before the chunk table (magic, checksum, version, size, count).
pub const HEADER_SIZE: usize = 32;

/// One entry of the chunk table.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ChunkEntry {
    /// The chunk's four-character code, e.g. `SHEX` (serialised as text).
    #[serde(rename = "fourcc", serialize_with = "serialize_fourcc")]
    pub tag: [u8; 4],
    /// Absolute offset of the chunk header (the FourCC).
    pub offset: usize,
    /// Absolute offset of the table slot that points at this chunk.
    pub table_offset: usize,
    /// Payload size in bytes (excluding the 8-byte chunk header): the size
    /// field, or the bytes that are there when the payload runs past the
    /// end of the input (an error in [`Container::errors`] gives the field).
    pub size: usize,
}

/// Serialises a FourCC as text.
pub fn serialize_fourcc<S: serde::Serializer>(tag: &[u8; 4], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&fourcc_text(tag))
}

impl ChunkEntry {
    /// The FourCC as text (non-ASCII bytes escaped).
    pub fn fourcc(&self) -> String {
        fourcc_text(&self.tag)
    }

    /// Absolute byte range of the payload.
    pub fn data_range(&self) -> Range<usize> {
        self.offset + 8..self.offset + 8 + self.size
    }
    /// Absolute byte range of the whole chunk including its header.
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + 8 + self.size
    }
}

/// The container header and chunk table.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Container {
    /// Checksum words as stored at bytes 4..20.
    pub checksum: [u32; 4],
    /// Container format version (always 1 in practice).
    pub version: u32,
    /// Total size field.
    pub total_size: u32,
    /// The readable chunks in table order (a table slot whose chunk header
    /// is outside the input or misaligned has no entry; see `errors`).
    pub chunks: Vec<ChunkEntry>,
    /// Faults in the header and chunk table, each naming its table slot or
    /// field. Empty for a well-formed file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<Error>,
}

/// Tells whether `fourcc` is a chunk whose payload this crate decodes fully.
pub fn chunk_kind_description(tag: &[u8; 4]) -> &'static str {
    match tag {
        b"RDEF" => {
            "Resource definitions: constant buffers, their variables and types, resource bindings, creator string"
        }
        b"ISGN" => "Input signature: the elements a stage reads, their registers, masks and semantics",
        b"OSGN" => "Output signature: the elements a stage writes",
        b"OSG5" => "Output signature with stream indices (geometry shaders, SM5)",
        b"PCSG" => "Patch-constant signature (hull and domain shaders)",
        b"ISG1" | b"OSG1" | b"PSG1" => "Signature with stream index and minimum precision (SM5.1)",
        b"SHDR" => "Shader program, SM4 token stream",
        b"SHEX" => "Shader program, SM5 token stream",
        b"STAT" => "Statistics: instruction, temp and declaration counts the compiler recorded",
        b"SFI0" => "Shader feature info: flags for optional hardware features the shader needs",
        b"IFCE" => "Interfaces: class instances and interface slots for dynamic linkage",
        b"Aon9" => "Feature-level 9 (SM2.x) program fxc embeds for level_9 profiles",
        b"RTS0" => "Root signature (D3D12)",
        b"PRIV" => "Private data the application attached",
        b"SPDB" => "Debug info in PDB (MSF) format",
        b"SDBG" => "Debug info (legacy format)",
        b"XNAP" => "XNA prepass program: a second feature-level 9 (SM2.x) program, laid out as Aon9",
        b"XNAS" => "XNA program: a feature-level 9 (SM2.x) program, laid out as Aon9",
        b"ILDB" | b"ILDN" | b"DXIL" | b"HASH" | b"PSV0" | b"RDAT" => "DXIL container part (SM6)",
        _ => "Unknown chunk (shown, not decoded)",
    }
}

impl Container {
    /// Parses the header and chunk table; chunk payloads are bounds-checked
    /// but not decoded here.
    ///
    /// Only input that is not a container at all fails: too large, no
    /// `DXBC` magic, or shorter than the 32-byte header. Any other fault (a
    /// total size that disagrees with the input, a chunk table or chunk cut
    /// short, an offset outside the file or misaligned) is recorded in
    /// [`Container::errors`] and parsing goes on, so every readable chunk is
    /// listed. A chunk cut short is listed with the bytes that are there.
    pub fn parse(data: &[u8]) -> Result<Container> {
        if data.len() > MAX_CONTAINER_SIZE {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                format!(
                    "input is {} bytes; the largest accepted container is {} bytes",
                    data.len(),
                    MAX_CONTAINER_SIZE
                ),
                0,
            ));
        }
        let mut r = Reader::new(data, 0);
        match r.bytes(4, "container magic") {
            Ok(m) if m == b"DXBC" => {}
            _ => return Err(not_dxbc(data)),
        }
        let mut checksum = [0u32; 4];
        for c in &mut checksum {
            *c = r.u32("container checksum")?;
        }
        let version = r.u32("container version")?;
        let total_size = r.u32("container total size")?;
        let count_at = r.offset();
        let count = r.u32("chunk count")? as usize;
        let mut errors = Vec::new();
        if total_size as usize != data.len() {
            errors.push(total_size_error(total_size as usize, data.len()));
        }
        let fit = r.remaining() / 4;
        if count > fit {
            errors.push(count_error(count, fit, total_size as usize, data.len(), count_at));
        }
        let mut chunks = Vec::with_capacity(count.min(fit));
        for slot in 0..count.min(fit) {
            let table_offset = r.offset();
            let offset = r.u32("chunk offset")? as usize;
            // Well-formed entry: aligned, header and payload inside the file.
            if offset.is_multiple_of(4) && data.len() >= 8 && offset <= data.len() - 8 {
                let size = crate::reader::dword(data, offset / 4 + 1) as usize;
                if size <= data.len() - offset - 8 {
                    let t = &data[offset..offset + 4];
                    chunks.push(ChunkEntry { tag: [t[0], t[1], t[2], t[3]], offset, table_offset, size });
                    continue;
                }
            }
            let (entry, e) = damaged_entry(data, total_size as usize, slot, table_offset, offset);
            chunks.extend(entry);
            errors.push(e);
        }
        Ok(Container { checksum, version, total_size, chunks, errors })
    }

    /// The checksum computed over `data` (the bytes this container was
    /// parsed from). Kept out of parsing: it costs more than decoding.
    pub fn computed_checksum(&self, data: &[u8]) -> [u32; 4] {
        dxbc_checksum(data)
    }

    /// True when the stored checksum matches the bytes.
    pub fn checksum_ok(&self, data: &[u8]) -> bool {
        self.checksum == dxbc_checksum(data)
    }

    /// First chunk with the given tag.
    pub fn find(&self, tag: &[u8; 4]) -> Option<&ChunkEntry> {
        self.chunks.iter().find(|c| &c.tag == tag)
    }
}

#[cold]
#[inline(never)]
fn not_dxbc(data: &[u8]) -> Error {
    let e = match data.get(..4) {
        Some(m) => {
            format!("expected container magic \"DXBC\", found {:02x} {:02x} {:02x} {:02x}", m[0], m[1], m[2], m[3])
        }
        None => format!("expected container magic \"DXBC\", the input has {} bytes", data.len()),
    };
    Error::of(ErrorKind::NotDxbc, e, 0)
}

/// Whether bytes up to `end` are missing only because the input stops
/// short of the size the container declares (a truncated file).
fn cut_short(end: usize, total: usize, len: usize) -> bool {
    total > len && end <= total
}

#[cold]
#[inline(never)]
fn total_size_error(total: usize, len: usize) -> Error {
    if total > len {
        let e = format!("container size field says {total} bytes but the input ends after {len}");
        Error::of(ErrorKind::Truncated, e, 0x18)
    } else {
        let e = format!(
            "container size field says {total} bytes but the input has {len} ({} bytes after the end)",
            len - total
        );
        Error::of(ErrorKind::SizeMismatch, e, 0x18)
    }
}

#[cold]
#[inline(never)]
fn count_error(count: usize, fit: usize, total: usize, len: usize, at: usize) -> Error {
    let kind =
        if cut_short(HEADER_SIZE + 4 * count, total, len) { ErrorKind::Truncated } else { ErrorKind::OutOfBounds };
    Error::of(kind, format!("chunk count {count} does not fit in the file; reading the {fit} table slots that do"), at)
}

/// Names the fault of a chunk-table entry that fails the quick check, and
/// returns the entry when its header is readable and aligned (a payload
/// that runs past the end is cut to the bytes that are there).
#[cold]
#[inline(never)]
fn damaged_entry(
    data: &[u8],
    total: usize,
    slot: usize,
    table_offset: usize,
    offset: usize,
) -> (Option<ChunkEntry>, Error) {
    let len = data.len();
    let tag = data.get(offset..offset.saturating_add(4)).map(|t| [t[0], t[1], t[2], t[3]]);
    let chunk = ChunkRef { slot, tag, offset };
    let fail = |kind, msg: String, at| (None, Error::of(kind, msg, at).in_chunk(chunk));
    if offset.saturating_add(8) > len {
        let kind =
            if cut_short(offset.saturating_add(8), total, len) { ErrorKind::Truncated } else { ErrorKind::OutOfBounds };
        return fail(kind, format!("chunk header at {offset:#x} lies outside the {len}-byte input"), table_offset);
    }
    if !offset.is_multiple_of(4) {
        return fail(ErrorKind::Misaligned, format!("chunk offset {offset:#x} is not dword-aligned"), table_offset);
    }
    let tag = tag.unwrap_or_default();
    let declared = crate::reader::dword(data, offset / 4 + 1) as usize;
    let size = len - offset - 8;
    let end = offset.saturating_add(8).saturating_add(declared);
    let kind = if cut_short(end, total, len) { ErrorKind::Truncated } else { ErrorKind::OutOfBounds };
    let e = format!("chunk declares {declared} payload bytes but only {size} remain; decoding those");
    (Some(ChunkEntry { tag, offset, table_offset, size }), Error::of(kind, e, offset + 4).in_chunk(chunk))
}

/// Printable FourCC: ASCII shown as is, other bytes as `\xNN`.
pub fn fourcc_text(tag: &[u8; 4]) -> String {
    if tag.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        // Fast path: plain ASCII, no escaping needed.
        return tag.iter().map(|&b| b as char).collect();
    }
    let mut s = String::new();
    for &b in tag {
        if b.is_ascii_graphic() || b == b' ' {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    s
}

/// Serialises a container from chunk payloads laid out one after another in
/// the given order, with a freshly computed checksum. A payload whose size
/// is not a multiple of four is followed by zero padding (its size field
/// keeps the true size) so that the next chunk starts dword-aligned; the
/// last chunk is not padded (fxc leaves odd-sized trailing chunks as is).
pub fn write_container(version: u32, chunks: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let last = chunks.len().saturating_sub(1);
    let padded = |i: usize, n: usize| if i == last { n } else { n.div_ceil(4) * 4 };
    let header = 32 + 4 * chunks.len();
    let total: usize = header + chunks.iter().enumerate().map(|(i, (_, d))| 8 + padded(i, d.len())).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let mut at = header;
    for (i, (_, d)) in chunks.iter().enumerate() {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + padded(i, d.len());
    }
    for (i, (tag, d)) in chunks.iter().enumerate() {
        out.extend_from_slice(tag);
        out.extend_from_slice(&(d.len() as u32).to_le_bytes());
        out.extend_from_slice(d);
        out.resize(out.len() + padded(i, d.len()) - d.len(), 0);
    }
    let sum = dxbc_checksum(&out);
    for (i, w) in sum.iter().enumerate() {
        out[4 + i * 4..8 + i * 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}
