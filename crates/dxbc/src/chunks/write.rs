//! A little-endian byte writer for chunk encoders: records are laid down in
//! order, offsets are patched in once their targets are placed, and strings
//! go through a pool so that a name written once is pointed at again (fxc
//! and vkd3d both share identical strings inside a chunk).
//!
//! Padding follows the compilers: a block that must start dword-aligned is
//! preceded by `0xAB` filler bytes.

use std::collections::HashMap;

/// Filler byte fxc and vkd3d write to align blocks.
pub const FILL: u8 = 0xAB;

/// Grows a chunk payload; every position is relative to the payload start.
#[derive(Default)]
pub struct Writer {
    /// The bytes so far.
    pub out: Vec<u8>,
    strings: HashMap<String, u32>,
}

impl Writer {
    /// Current length, i.e. the offset the next byte will have.
    pub fn pos(&self) -> u32 {
        self.out.len() as u32
    }

    /// Appends a u32 and returns where it went (for a later [`Writer::patch`]).
    pub fn u32(&mut self, v: u32) -> usize {
        let at = self.out.len();
        self.out.extend_from_slice(&v.to_le_bytes());
        at
    }

    /// Appends a u16.
    pub fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }

    /// Overwrites the u32 at `at` (a position returned by [`Writer::u32`]).
    pub fn patch(&mut self, at: usize, v: u32) {
        if let Some(s) = self.out.get_mut(at..at + 4) {
            s.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Pads with [`FILL`] to a multiple of four.
    pub fn align(&mut self) {
        while !self.out.len().is_multiple_of(4) {
            self.out.push(FILL);
        }
    }

    /// Writes `s` NUL-terminated unless the same text was already written,
    /// and returns its offset. Text is stored as Latin-1, the way the
    /// decoder read it.
    pub fn string(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.strings.get(s) {
            return at;
        }
        let at = self.string_unshared(s);
        self.strings.insert(s.to_string(), at);
        at
    }

    /// Writes `s` NUL-terminated without looking for an earlier copy (the
    /// copy is not offered to later [`Writer::string`] calls either).
    pub fn string_unshared(&mut self, s: &str) -> u32 {
        let at = self.pos();
        self.out.extend(s.chars().map(|c| c as u32 as u8));
        self.out.push(0);
        at
    }

    /// Offset of `s` if it was written through [`Writer::string`].
    pub fn find_string(&self, s: &str) -> Option<u32> {
        self.strings.get(s).copied()
    }
}
