//! The MSF 7.0 container ("multi-stream file") that a PDB lives in.
//!
//! The file is cut into blocks of one size (fxc uses 512 bytes). Block 0
//! holds the superblock: a 32-byte magic, the block size, the block of the
//! free-block map, the block count, the byte size of the stream directory,
//! a reserved dword and the block that lists the directory's blocks. The
//! directory is itself scattered over blocks: a stream count, one byte size
//! per stream (`0xFFFF_FFFF` for a deleted stream, taken as empty), then
//! each stream's block numbers in stream order. A stream's bytes are its
//! blocks, concatenated and cut at its size.
//!
//! Every count and block number is checked against the chunk before it is
//! used, and the bytes gathered for all streams together are capped at a
//! small multiple of the chunk, since a hostile directory may name one
//! block many times.

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use serde::Serialize;

/// The 32 bytes every MSF 7.0 file starts with.
pub const MAGIC: &[u8; 32] = b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0";

/// Bytes of the superblock: magic plus six dwords.
pub const SUPERBLOCK_SIZE: usize = 56;

/// The decoded container.
#[derive(Clone, Debug, Serialize)]
pub struct Msf {
    /// Absolute offset of the first byte (the chunk payload).
    pub offset: usize,
    /// Bytes per block.
    pub block_size: u32,
    /// Block holding the free-block map in use (1 or 2).
    pub free_block_map_block: u32,
    /// Blocks in the file.
    pub block_count: u32,
    /// Byte size of the stream directory.
    pub directory_size: u32,
    /// The reserved dword after it (0 in fxc's files).
    pub reserved: u32,
    /// Block that lists the directory's blocks.
    pub directory_map_block: u32,
    /// The blocks the directory occupies.
    pub directory_blocks: Vec<u32>,
    /// Every stream, in directory order.
    pub streams: Vec<Stream>,
}

/// One stream of the container.
#[derive(Clone, Debug, Serialize)]
pub struct Stream {
    /// Byte size (0 for a deleted stream).
    pub size: u32,
    /// True when the directory marked it deleted (size `0xFFFF_FFFF`).
    pub deleted: bool,
    /// Its blocks, in order.
    pub blocks: Vec<u32>,
    /// Its bytes, gathered from the blocks.
    #[serde(skip)]
    pub data: Vec<u8>,
}

impl Msf {
    /// Absolute offset of block `b`.
    pub fn block_offset(&self, b: u32) -> usize {
        self.offset + b as usize * self.block_size as usize
    }

    /// Absolute file offset of byte `pos` of stream `s`, when it lies in the stream's blocks.
    pub fn stream_offset(&self, s: usize, pos: usize) -> Option<usize> {
        let st = self.streams.get(s)?;
        let bs = self.block_size as usize;
        let b = *st.blocks.get(pos / bs)?;
        Some(self.block_offset(b) + pos % bs)
    }

    /// Absolute offset for an error met at byte `pos` of stream `s` (the
    /// chunk start when the position lies past the stream's blocks).
    pub fn error_offset(&self, s: usize, pos: usize) -> usize {
        self.stream_offset(s, pos).or_else(|| self.stream_offset(s, pos.saturating_sub(1))).unwrap_or(self.offset)
    }

    /// Decodes the container in `data`, which starts at absolute `base`.
    pub fn parse(data: &[u8], base: usize) -> Result<Msf> {
        let mut r = Reader::new(data, base);
        let magic = r.bytes(32, "MSF magic")?;
        if magic != MAGIC {
            return Err(Error::new("SPDB does not start with the MSF 7.00 magic", base));
        }
        let block_size = r.u32("block size")?;
        if !matches!(block_size, 512 | 1024 | 2048 | 4096) {
            return Err(Error::new(format!("MSF block size {block_size} is not 512, 1024, 2048 or 4096"), base + 32));
        }
        let free_block_map_block = r.u32("free block map block")?;
        let block_count = r.u32("block count")?;
        let bs = block_size as usize;
        if block_count as usize > data.len() / bs {
            return Err(Error::of(
                ErrorKind::OutOfBounds,
                format!("MSF claims {block_count} blocks of {bs} bytes but the chunk holds {} bytes", data.len()),
                base + 40,
            ));
        }
        let directory_size = r.u32("directory size")?;
        let reserved = r.u32("reserved")?;
        let directory_map_block = r.u32("directory block map")?;
        let block_at = |b: u32, at: usize, what: &str| -> Result<&[u8]> {
            if b >= block_count {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!("{what} block {b} is past the {block_count} blocks of the file"),
                    at,
                ));
            }
            Ok(&data[b as usize * bs..(b as usize + 1) * bs])
        };
        let dir_blocks = (directory_size as usize).div_ceil(bs);
        if dir_blocks > bs / 4 || directory_size as usize > data.len() {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                format!("stream directory of {directory_size} bytes does not fit the chunk"),
                base + 44,
            ));
        }
        let map = block_at(directory_map_block, base + 52, "directory map")?;
        let map_at = base + directory_map_block as usize * bs;
        let mut directory_blocks = Vec::with_capacity(dir_blocks);
        let mut dir = Vec::with_capacity(dir_blocks * bs);
        for i in 0..dir_blocks {
            let b = crate::reader::dword(map, i);
            dir.extend_from_slice(block_at(b, map_at + 4 * i, "directory")?);
            directory_blocks.push(b);
        }
        dir.truncate(directory_size as usize);
        let mut msf = Msf {
            offset: base,
            block_size,
            free_block_map_block,
            block_count,
            directory_size,
            reserved,
            directory_map_block,
            directory_blocks,
            streams: Vec::new(),
        };
        // Offsets inside the directory map back to the file through its blocks.
        let dir_at = |pos: usize| {
            let b = msf.directory_blocks.get(pos / bs).copied().unwrap_or(0);
            base + b as usize * bs + pos % bs
        };
        let mut d = Reader::new(&dir, 0);
        let count = d.u32("stream count").map_err(|e| e.at(dir_at(0)))? as usize;
        if count > dir.len() / 4 {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                format!("{count} streams cannot fit a {}-byte directory", dir.len()),
                dir_at(0),
            ));
        }
        let mut sizes = Vec::with_capacity(count);
        for i in 0..count {
            sizes.push(d.u32("stream size").map_err(|e| e.at(dir_at(4 + 4 * i)))?);
        }
        // Everything gathered together stays within a small multiple of the chunk.
        let mut budget = data.len().saturating_mul(2);
        let mut streams = Vec::with_capacity(count);
        for (i, &size) in sizes.iter().enumerate() {
            let deleted = size == u32::MAX;
            let size = if deleted { 0 } else { size };
            let n = (size as usize).div_ceil(bs);
            if n > block_count as usize {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!("stream {i} of {size} bytes needs more blocks than the file has"),
                    dir_at(4 + 4 * i),
                ));
            }
            if size as usize > budget {
                return Err(Error::of(
                    ErrorKind::LimitExceeded,
                    format!("stream {i} of {size} bytes exceeds what the chunk can hold"),
                    dir_at(4 + 4 * i),
                ));
            }
            budget -= size as usize;
            let mut blocks = Vec::with_capacity(n);
            let mut bytes = Vec::with_capacity(n * bs);
            for _ in 0..n {
                let at = dir_at(d.pos());
                let b = d.u32("stream block").map_err(|e| e.at(at))?;
                bytes.extend_from_slice(block_at(b, at, "stream")?);
                blocks.push(b);
            }
            bytes.truncate(size as usize);
            streams.push(Stream { size, deleted, blocks, data: bytes });
        }
        msf.streams = streams;
        Ok(msf)
    }
}
