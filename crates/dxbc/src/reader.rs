//! A bounds-checked little-endian reader that knows the absolute offset of
//! every byte it hands out.

use crate::error::{Error, ErrorKind, Result};

/// Reads little-endian values from a slice whose first byte sits at absolute
/// offset `base` in the original input.
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    data: &'a [u8],
    base: usize,
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, whose byte 0 is at absolute offset `base`.
    #[inline]
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Reader { data, base, pos: 0 }
    }

    /// Absolute offset of the next byte to be read.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Position relative to the start of this reader's slice.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whole slice of this reader.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Absolute offset of byte 0 of this reader's slice.
    #[inline]
    pub fn base(&self) -> usize {
        self.base
    }

    /// Moves to relative position `pos`; fails if it lies past the end.
    #[inline]
    pub fn seek(&mut self, pos: usize, what: &str) -> Result<()> {
        if pos > self.data.len() {
            return Err(Error::of(
                ErrorKind::OutOfBounds,
                format!("{what} points past the end of its {}-byte block", self.data.len()),
                self.base + self.data.len(),
            ));
        }
        self.pos = pos;
        Ok(())
    }

    /// Reads `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        match self.data.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.short(n, what)),
        }
    }

    #[cold]
    #[inline(never)]
    fn short(&self, n: usize, what: &str) -> Error {
        Error::of(
            ErrorKind::Truncated,
            format!("expected {n} bytes of {what}, found {}", self.remaining()),
            self.offset(),
        )
    }

    /// Reads `N` bytes as an array; the fixed size lets the check and the
    /// load compile to a compare and one move.
    #[inline(always)]
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let end = self.pos.wrapping_add(N);
        match self.data.get(self.pos..end) {
            Some(s) => {
                let mut a = [0u8; N];
                a.copy_from_slice(s);
                self.pos = end;
                Ok(a)
            }
            None => Err(self.short(N, what)),
        }
    }

    /// Reads a little-endian u32.
    #[inline(always)]
    pub fn u32(&mut self, what: &str) -> Result<u32> {
        self.array::<4>(what).map(u32::from_le_bytes)
    }

    /// Reads a little-endian u16.
    #[inline(always)]
    pub fn u16(&mut self, what: &str) -> Result<u16> {
        self.array::<2>(what).map(u16::from_le_bytes)
    }

    /// Reads one byte.
    #[inline(always)]
    pub fn u8(&mut self, what: &str) -> Result<u8> {
        self.array::<1>(what).map(|[b]| b)
    }

    /// Reads a NUL-terminated string starting at relative position `pos`
    /// without moving the cursor. Bytes are taken as Latin-1 so that any
    /// input yields text (names are shown, never trusted).
    #[inline]
    pub fn cstr_at(&self, pos: usize, what: &str) -> Result<String> {
        let start = pos;
        if start >= self.data.len() {
            return Err(Error::of(
                ErrorKind::OutOfBounds,
                format!("{what} string offset {pos:#x} lies outside its {}-byte block", self.data.len()),
                self.base + start.min(self.data.len()),
            ));
        }
        let rest = &self.data[start..];
        let (end, ascii) = match nul_and_ascii(rest) {
            Some(found) => found,
            None => {
                return Err(Error::of(
                    ErrorKind::Truncated,
                    format!("{what} string is not NUL-terminated"),
                    self.base + start,
                ))
            }
        };
        let bytes = &rest[..end];
        if ascii {
            // ASCII is valid UTF-8 as is: one copy, no per-char work.
            return Ok(String::from_utf8(bytes.to_vec()).unwrap_or_default());
        }
        Ok(bytes.iter().map(|&b| b as char).collect())
    }

    /// Little-endian u32 at relative position `pos`, without moving.
    #[inline]
    pub fn u32_at(&self, pos: usize, what: &str) -> Result<u32> {
        let mut r = *self;
        r.seek(pos, what)?;
        r.u32(what)
    }
}

/// Reads the little-endian dword at byte `i*4` of `data` (caller checked bounds).
#[inline]
pub fn dword(data: &[u8], i: usize) -> u32 {
    let o = i * 4;
    match data.get(o..o + 4) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        // Callers check bounds first; never reached, and no panic if it were.
        None => 0,
    }
}

/// Position of the first NUL in `s`, and whether every byte before it is
/// ASCII; `None` when there is no NUL. Scans eight bytes at a time.
#[inline]
fn nul_and_ascii(s: &[u8]) -> Option<(usize, bool)> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut high = 0u64;
    let mut i = 0;
    while let Some(chunk) = s.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let v = u64::from_le_bytes(w);
        // The lowest set bit of `zero` marks the first zero byte exactly.
        let zero = v.wrapping_sub(ONES) & !v & HIGHS;
        if zero != 0 {
            let k = (zero.trailing_zeros() / 8) as usize;
            // Bytes below the NUL only (k is 0..=7, so the shift is < 64).
            let below = (1u64 << (8 * k)) - 1;
            return Some((i + k, (high | (v & below)) & HIGHS == 0));
        }
        high |= v;
        i += 8;
    }
    for (j, &b) in s.iter().enumerate().skip(i) {
        if b == 0 {
            return Some((j, high & HIGHS == 0));
        }
        high |= (b & 0x80) as u64;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_and_ascii_matches_a_plain_scan() {
        let alphabet = [0u8, 1, b'a', 0x7f, 0x80, 0xff, b' '];
        let mut seed = 0x1234_5678u32;
        for len in 0..40 {
            for _ in 0..200 {
                let s: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        alphabet[(seed >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let plain = s.iter().position(|&b| b == 0).map(|e| (e, s[..e].is_ascii()));
                assert_eq!(nul_and_ascii(&s), plain, "{s:?}");
            }
        }
    }
}
