//! SPDB: the MSF superblock and stream directory field by field, and each
//! stream's blocks as one leaf per block, named after the stream (what the
//! stream holds is decoded into the model, not yet claimed field by field).
//! Blocks no stream uses (the free-block maps, slack) fall to the filler.

use super::{Builder, Texts};
use crate::chunks::spdb::{msf::Msf, msf::SUPERBLOCK_SIZE as SUPERBLOCK, Spdb};

const TEXTS: Texts = &[
    ("magic", "\"Microsoft C/C++ MSF 7.00\": the signature of a multi-stream file, the container a PDB lives in."),
    ("block_size", "Bytes per block; the whole file is cut into blocks of this size."),
    ("free_block_map_block", "The block whose bitmap marks the free blocks (1 or 2; the other is the previous map)."),
    ("block_count", "Blocks in the file: the SPDB payload is this many blocks."),
    ("directory_size", "Byte size of the stream directory (stream count, stream sizes, block lists)."),
    ("reserved", "Reserved; 0."),
    ("directory_map_block", "The block that lists which blocks hold the stream directory."),
    ("directory_block", "A block number of the stream directory."),
    ("stream_count", "Number of streams in the file."),
    ("stream_size", "Byte size of one stream (0xFFFFFFFF: deleted)."),
    ("stream_block", "A block number of a stream, in stream order."),
    ("stream_data", "Bytes of a stream: its blocks, concatenated, make the stream."),
    ("slack", "The rest of a block past the structure or stream it holds: never read."),
    ("free_block_map", "A free-block map: one bit per block, set when the block is free."),
    ("unused_block", "A block no stream, directory or map uses."),
];

/// What fxc keeps in each stream, to name its blocks.
fn stream_role(p: &Spdb, i: usize) -> String {
    let named = p.info.as_ref().and_then(|n| n.named_streams.iter().find(|s| s.stream as usize == i));
    if let Some(n) = named {
        return n.name.clone();
    }
    if p.module.as_ref().is_some_and(|m| m.stream == i) {
        return "module symbols and lines".into();
    }
    match i {
        0 => "old directory".into(),
        1 => "PDB info".into(),
        2 => "types (TPI)".into(),
        3 => "debug info (DBI)".into(),
        4 => "ids (IPI)".into(),
        _ => String::new(),
    }
}

/// Claims the container's structures and stream blocks.
pub(super) fn claim(p: &Spdb, prefix: &str, b: &mut Builder) {
    let m = &p.msf;
    let o = m.offset;
    let sb = format!("{prefix}/superblock");
    b.field(TEXTS, "magic", format!("{sb}/magic"), o, 32, super::Value::Bytes, std::borrow::Cow::Borrowed("MSF 7.00"));
    let fields = [
        ("block_size", m.block_size),
        ("free_block_map_block", m.free_block_map_block),
        ("block_count", m.block_count),
        ("directory_size", m.directory_size),
        ("reserved", m.reserved),
        ("directory_map_block", m.directory_map_block),
    ];
    for (i, (k, v)) in fields.iter().enumerate() {
        b.num(TEXTS, k, format!("{sb}/{k}"), o + 32 + 4 * i, 4, *v as u64);
    }
    let map = m.block_offset(m.directory_map_block);
    for (i, &d) in m.directory_blocks.iter().enumerate() {
        b.num(TEXTS, "directory_block", format!("{prefix}/directory_map[{i}]"), map + 4 * i, 4, d as u64);
    }
    directory(m, prefix, b);
    let bs = m.block_size as usize;
    let n_blocks = m.block_count as usize;
    let mut used = vec![false; n_blocks];
    let mut mark = |blk: u32| {
        if let Some(u) = used.get_mut(blk as usize) {
            *u = true;
        }
    };
    mark(0);
    mark(m.directory_map_block);
    m.directory_blocks.iter().for_each(|&d| mark(d));
    m.streams.iter().flat_map(|s| &s.blocks).for_each(|&d| mark(d));
    let slack = |b: &mut Builder, path: String, block: u32, from: usize| {
        if from < bs {
            let at = m.block_offset(block);
            b.bytes(TEXTS, "slack", path, at + from..at + bs);
        }
    };
    slack(b, format!("{sb}/slack"), 0, SUPERBLOCK);
    slack(b, format!("{prefix}/directory_map/slack"), m.directory_map_block, 4 * m.directory_blocks.len());
    if let Some(&last) = m.directory_blocks.last() {
        let fill = m.directory_size as usize - (m.directory_blocks.len() - 1) * bs;
        slack(b, format!("{prefix}/directory/slack"), last, fill);
    }
    for (i, s) in m.streams.iter().enumerate() {
        if let Some(&last) = s.blocks.last() {
            slack(b, format!("{prefix}/streams[{i}]/slack"), last, s.size as usize - (s.blocks.len() - 1) * bs);
        }
    }
    for (k, u) in used.iter().enumerate() {
        if !*u {
            let at = m.block_offset(k as u32);
            // Blocks 1 and 2 (and every block_size-th after them) hold the free-block maps.
            let key = if k % bs == 1 || k % bs == 2 { "free_block_map" } else { "unused_block" };
            b.bytes(TEXTS, key, format!("{prefix}/blocks[{k}]/{key}"), at..at + bs);
        }
    }
    for (i, s) in m.streams.iter().enumerate() {
        let role = stream_role(p, i);
        let bs = m.block_size as usize;
        for (k, &blk) in s.blocks.iter().enumerate() {
            let len = (s.size as usize - k * bs).min(bs);
            let at = m.block_offset(blk);
            b.field(
                TEXTS,
                "stream_data",
                format!("{prefix}/streams[{i}]/block[{k}]"),
                at,
                len,
                super::Value::Bytes,
                std::borrow::Cow::Owned(role.clone()),
            );
        }
    }
}

/// The directory's dwords, each at its place in the directory's blocks.
fn directory(m: &Msf, prefix: &str, b: &mut Builder) {
    let bs = m.block_size as usize;
    let at = |pos: usize| m.directory_blocks.get(pos / bs).map(|&d| m.block_offset(d) + pos % bs);
    let d = format!("{prefix}/directory");
    if let Some(a) = at(0) {
        b.num(TEXTS, "stream_count", format!("{d}/stream_count"), a, 4, m.streams.len() as u64);
    }
    let mut pos = 4;
    for (i, s) in m.streams.iter().enumerate() {
        if let Some(a) = at(pos) {
            let v = if s.deleted { u32::MAX } else { s.size };
            b.num(TEXTS, "stream_size", format!("{d}/stream_sizes[{i}]"), a, 4, v as u64);
        }
        pos += 4;
    }
    for (i, s) in m.streams.iter().enumerate() {
        for (k, &blk) in s.blocks.iter().enumerate() {
            if let Some(a) = at(pos) {
                b.num(TEXTS, "stream_block", format!("{d}/streams[{i}]/blocks[{k}]"), a, 4, blk as u64);
            }
            pos += 4;
        }
    }
}
