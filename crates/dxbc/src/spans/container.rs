//! The container header, the chunk table, each chunk's FourCC and size, and
//! the dispatch to the per-chunk modules.
//!
//! A chunk is handed to its module only when it is the chunk the shader
//! decoded (the model's payload offset equals the chunk's); a second chunk
//! of a kind, or a kind this crate does not decode, is one `payload` leaf. A
//! chunk with a fault inside it is a failed scope: whatever its module could
//! not claim is `undecoded`.

use super::{Builder, Texts, Value};
use crate::chunks::aon9::Level9Kind;
use crate::container::{chunk_kind_description, fourcc_text, ChunkEntry, HEADER_SIZE};
use crate::listing::lines::Level9Layout;
use crate::Shader;

const TEXTS: Texts = &[
    ("magic", "Container magic: the four bytes \"DXBC\" that open every shader container."),
    ("checksum", "Checksum: a modified MD5 over the bytes from offset 0x14 to the end, checked by the runtime."),
    ("version", "Container format version (always 1)."),
    ("total_size", "Total size of the container in bytes; must equal the file size."),
    ("chunk_count", "Number of chunks, i.e. of entries in the chunk table that follows."),
    ("chunk_table", "Absolute offset of one chunk's header, in chunk-table order."),
    ("fourcc", "The chunk's four-character code, which says how to read its payload."),
    ("size", "Payload size of the chunk in bytes, not counting this 8-byte chunk header."),
    ("payload", "Chunk payload this tool does not decode (or a repeated chunk the runtime ignores)."),
];

/// Claims the header and table, then every chunk.
pub(super) fn claim(s: &Shader, b: &mut Builder) {
    let c = &s.container;
    b.field(TEXTS, "magic", "header/magic".into(), 0, 4, Value::Text("DXBC".into()), "".into());
    let sum_meaning = if s.checksum_ok() { "matches the file" } else { "does not match the file" };
    b.field(TEXTS, "checksum", "header/checksum".into(), 4, 16, Value::Bytes, sum_meaning.into());
    b.num(TEXTS, "version", "header/version".into(), 0x14, 4, c.version as u64);
    b.num(TEXTS, "total_size", "header/total_size".into(), 0x18, 4, c.total_size as u64);
    // The count and the slots of unreadable chunks are not in the model
    // (the container lists readable chunks only), so they are read here.
    let count = b.dword(0x1c).unwrap_or(0);
    b.num(TEXTS, "chunk_count", "header/chunk_count".into(), 0x1c, 4, count.into());
    let names = prefixes(&c.chunks);
    let mut listed = c.chunks.iter().zip(&names).peekable();
    for slot in 0..count as usize {
        let at = HEADER_SIZE + 4 * slot;
        let Some(v) = b.dword(at) else { break };
        let path = format!("chunk_table[{slot}]");
        match listed.next_if(|(e, _)| e.table_offset == at) {
            Some((e, prefix)) => {
                b.num_m(TEXTS, "chunk_table", path, at, 4, e.offset as u64, prefix.clone());
                chunk(s, e, prefix, b);
            }
            None => b.num_m(TEXTS, "chunk_table", path, at, 4, v.into(), "no readable chunk there"),
        }
    }
}

/// Path prefix of each chunk: its FourCC, with `#k` for the k-th repeat.
fn prefixes(chunks: &[ChunkEntry]) -> Vec<String> {
    let mut seen: Vec<[u8; 4]> = Vec::new();
    let mut out = Vec::with_capacity(chunks.len());
    for e in chunks {
        let k = seen.iter().filter(|t| **t == e.tag).count();
        out.push(if k == 0 { fourcc_text(&e.tag) } else { format!("{}#{k}", fourcc_text(&e.tag)) });
        seen.push(e.tag);
    }
    out
}

fn chunk(s: &Shader, e: &ChunkEntry, prefix: &str, b: &mut Builder) {
    let kind = chunk_kind_description(&e.tag).into();
    b.field(TEXTS, "fourcc", format!("{prefix}/fourcc"), e.offset, 4, Value::Text(fourcc_text(&e.tag)), kind);
    // A chunk cut short by the end of the input is listed with the bytes
    // that are there; the field says more.
    let field = b.dword(e.offset + 4).map_or(e.size as u64, u64::from);
    let cut = if field == e.size as u64 { String::new() } else { format!("cut short: {} bytes present", e.size) };
    b.num_m(TEXTS, "size", format!("{prefix}/size"), e.offset + 4, 4, field, cut);
    let data = e.data_range();
    let failed = s.errors.iter().any(|x| data.start <= x.offset() && x.offset() <= data.end);
    b.scope(data.clone(), prefix.to_string(), failed);
    let base = data.start;
    let decoded = match &e.tag {
        b"RDEF" => s.rdef.as_ref().filter(|m| m.offset == base).map(|m| super::rdef::claim(m, prefix, b)),
        b"ISGN" | b"ISG1" => sig(s.input_signature.as_ref(), base, prefix, b),
        b"OSGN" | b"OSG5" | b"OSG1" => sig(s.output_signature.as_ref(), base, prefix, b),
        b"PCSG" | b"PSG1" => sig(s.patch_constant_signature.as_ref(), base, prefix, b),
        b"SHDR" | b"SHEX" => {
            s.program.as_ref().filter(|m| m.offset == base).map(|m| super::program::claim(m, e.size, prefix, b))
        }
        b"STAT" => s.stat.as_ref().filter(|m| m.offset == base).map(|m| super::small::stat(m, prefix, b)),
        b"SFI0" => s.sfi0.as_ref().filter(|m| m.offset == base).map(|m| super::small::sfi0(m, prefix, b)),
        b"IFCE" => s.ifce.as_ref().filter(|m| m.offset == base).map(|m| super::ifce::claim(m, prefix, b)),
        b"Aon9" | b"XNAP" | b"XNAS" => level9(s, &e.tag, base, prefix, b),
        b"FX10" => crate::effects::Version::from_tag(b.dword(base).unwrap_or(0))
            .map(|_| super::effects::claim(&s.bytes, data.clone(), prefix, b)),
        b"SPDB" => s.spdb.as_ref().filter(|m| m.offset == base).map(|m| super::spdb::claim(m, prefix, b)),
        _ => None,
    };
    if decoded.is_none() && !failed {
        b.bytes(TEXTS, "payload", format!("{prefix}/payload"), data);
    }
}

/// A level-9 chunk, its lines counted on from the first level-9 section's.
fn level9(s: &Shader, tag: &[u8; 4], base: usize, prefix: &str, b: &mut Builder) -> Option<()> {
    let kind = Level9Kind::from_tag(tag)?;
    let a = s.level9(kind).filter(|m| m.offset == base)?;
    let line0 = Level9Layout::new(s).and_then(|l| l.start(kind)).unwrap_or(0);
    super::aon9::claim(a, prefix, line0, b);
    Some(())
}

fn sig(m: Option<&crate::chunks::signature::Signature>, base: usize, prefix: &str, b: &mut Builder) -> Option<()> {
    m.filter(|m| m.offset == base).map(|m| super::signature::claim(m, prefix, b))
}
