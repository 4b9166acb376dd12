//! Control values as a compact, versioned byte payload for permalinks.
//!
//! ```text
//! payload := version:u8 (= 1)  count:varint  entry{count}
//! entry   := shared:varint  suffix_len:varint  suffix[suffix_len]
//!            tag:u8  n:varint  data
//! tag 0 floats: n × f32 little-endian   tag 1 ints:  n × zigzag varint
//! tag 2 uints:  n × varint              tag 3 bools: ceil(n / 8) bytes, bit i = component i
//! ```
//! Varints are LEB128 (at most 5 bytes, no bits beyond 32). Ids are sorted
//! and front-coded — `shared` bytes are taken from the previous id — since
//! every id of a buffer starts with the buffer's name; floats stay raw so
//! values round-trip bit for bit (NaN payloads included).
//!
//! Stability: the encoding of a given set of values never changes within
//! version 1; a reader of a later version keeps decoding version 1. The
//! decoder checks every length against the bytes left and the limits
//! below before allocating, requires strictly increasing ids and no
//! trailing bytes, and reports the offset of the first fault; it never
//! panics. (The explorer's permalink wraps this in its own record, so the
//! payload carries no magic of its own.)

use crate::controls::{Value, Values};

/// The version this module writes.
pub const VERSION: u8 = 1;
/// Most entries a payload may hold.
pub const MAX_ENTRIES: usize = 4096;
/// Longest id accepted.
pub const MAX_ID_LEN: usize = 512;
/// Most components one value may have (a 4×4 matrix has 16).
pub const MAX_COMPONENTS: usize = 64;

/// Why a payload did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadError {
    /// What is wrong.
    pub message: String,
    /// Byte offset in the payload.
    pub offset: usize,
}

impl std::fmt::Display for PayloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at offset {:#x})", self.message, self.offset)
    }
}

impl std::error::Error for PayloadError {}

pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Encodes `values` (in id order). Values with more than
/// [`MAX_COMPONENTS`] components or ids longer than [`MAX_ID_LEN`] are
/// left out, as the decoder would refuse them; so are entries past [`MAX_ENTRIES`].
pub fn encode(values: &Values) -> Vec<u8> {
    let kept: Vec<(&String, &Value)> =
        values.iter().filter(|(k, v)| k.len() <= MAX_ID_LEN && v.len() <= MAX_COMPONENTS).take(MAX_ENTRIES).collect();
    let mut out = vec![VERSION];
    put_varint(&mut out, kept.len() as u32);
    let mut prev: &[u8] = &[];
    for (id, v) in kept {
        let id = id.as_bytes();
        let shared = prev.iter().zip(id).take_while(|(a, b)| a == b).count();
        put_varint(&mut out, shared as u32);
        put_varint(&mut out, (id.len() - shared) as u32);
        out.extend_from_slice(&id[shared..]);
        prev = id;
        let (tag, n) = match v {
            Value::Floats(x) => (0u8, x.len()),
            Value::Ints(x) => (1, x.len()),
            Value::Uints(x) => (2, x.len()),
            Value::Bools(x) => (3, x.len()),
        };
        out.push(tag);
        put_varint(&mut out, n as u32);
        match v {
            Value::Floats(x) => x.iter().for_each(|f| out.extend(f.to_le_bytes())),
            Value::Ints(x) => x.iter().for_each(|&i| put_varint(&mut out, ((i << 1) ^ (i >> 31)) as u32)),
            Value::Uints(x) => x.iter().for_each(|&u| put_varint(&mut out, u)),
            Value::Bools(x) => {
                for chunk in x.chunks(8) {
                    out.push(chunk.iter().enumerate().fold(0u8, |b, (i, &on)| b | ((on as u8) << i)));
                }
            }
        }
    }
    out
}

pub(crate) struct Cursor<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) at: usize,
}

impl Cursor<'_> {
    pub(crate) fn fail<T>(&self, message: impl Into<String>) -> Result<T, PayloadError> {
        Err(PayloadError { message: message.into(), offset: self.at })
    }

    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, PayloadError> {
        match self.data.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.fail(format!("payload ends before the {what}")),
        }
    }

    fn bytes(&mut self, n: usize, what: &str) -> Result<&[u8], PayloadError> {
        if self.data.len() - self.at < n {
            return self.fail(format!("{what}: {n} bytes needed, {} left", self.data.len() - self.at));
        }
        let s = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    pub(crate) fn varint(&mut self, what: &str) -> Result<u32, PayloadError> {
        let start = self.at;
        let mut v: u64 = 0;
        for i in 0..5 {
            let b = self.u8(what)?;
            v |= ((b & 0x7f) as u64) << (7 * i);
            if b & 0x80 == 0 {
                return u32::try_from(v).or_else(|_| {
                    self.at = start;
                    self.fail(format!("{what} does not fit in 32 bits"))
                });
            }
        }
        self.at = start;
        self.fail(format!("{what} is a varint longer than 5 bytes"))
    }

    fn count(&mut self, max: usize, what: &str) -> Result<usize, PayloadError> {
        let start = self.at;
        let n = self.varint(what)? as usize;
        if n > max {
            self.at = start;
            return self.fail(format!("{what} {n} is more than {max}"));
        }
        Ok(n)
    }
}

/// Decodes a payload written by [`encode`] (any version this crate knows).
pub fn decode(data: &[u8]) -> Result<Values, PayloadError> {
    let mut c = Cursor { data, at: 0 };
    let version = c.u8("version")?;
    if version != VERSION {
        c.at = 0;
        return c.fail(format!("unknown payload version {version} (this build reads {VERSION})"));
    }
    let n = c.count(MAX_ENTRIES, "entry count")?;
    let mut values = Values::new();
    let mut prev: Vec<u8> = Vec::new();
    for _ in 0..n {
        let start = c.at;
        let shared = c.varint("shared id length")? as usize;
        if shared > prev.len() {
            c.at = start;
            return c.fail(format!("id shares {shared} bytes with a {}-byte previous id", prev.len()));
        }
        let suffix_len = c.count(MAX_ID_LEN, "id length")?;
        if shared + suffix_len > MAX_ID_LEN {
            c.at = start;
            return c.fail(format!("id longer than {MAX_ID_LEN} bytes"));
        }
        let suffix = c.bytes(suffix_len, "id")?;
        let mut id = prev[..shared].to_vec();
        id.extend_from_slice(suffix);
        if id <= prev && !(prev.is_empty() && values.is_empty()) {
            c.at = start;
            return c.fail("ids are not in strictly increasing order");
        }
        let text = match std::str::from_utf8(&id) {
            Ok(t) => t.to_string(),
            Err(_) => {
                c.at = start;
                return c.fail("id is not UTF-8");
            }
        };
        let tag_at = c.at;
        let tag = c.u8("value tag")?;
        let n = c.count(MAX_COMPONENTS, "component count")?;
        let v = match tag {
            0 => Value::Floats(
                c.bytes(4 * n, "float components")?
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect(),
            ),
            1 => {
                let mut x = Vec::with_capacity(n);
                for _ in 0..n {
                    let z = c.varint("int component")?;
                    x.push(((z >> 1) as i32) ^ -((z & 1) as i32));
                }
                Value::Ints(x)
            }
            2 => {
                let mut x = Vec::with_capacity(n);
                for _ in 0..n {
                    x.push(c.varint("uint component")?);
                }
                Value::Uints(x)
            }
            3 => {
                let bits = c.bytes(n.div_ceil(8), "bool components")?;
                Value::Bools((0..n).map(|i| bits[i / 8] >> (i % 8) & 1 == 1).collect())
            }
            t => {
                c.at = tag_at;
                return c.fail(format!("unknown value tag {t}"));
            }
        };
        values.insert(text, v);
        prev = id;
    }
    if c.at != data.len() {
        return c.fail(format!("{} bytes after the last entry", data.len() - c.at));
    }
    Ok(values)
}

/// The entries of `values` that differ from `defaults` (what a permalink
/// needs to store; [`crate::pack::pack`] fills in the rest).
pub fn changed(values: &Values, defaults: &Values) -> Values {
    values
        .iter()
        .filter(|(k, v)| defaults.get(*k).is_none_or(|d| !same_bits(d, v)))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Equality of the stored bits (so a NaN equals itself and −0 ≠ +0).
fn same_bits(a: &Value, b: &Value) -> bool {
    a.scalar() == b.scalar() && a.len() == b.len() && (0..a.len()).all(|i| a.bits(i) == b.bits(i))
}
