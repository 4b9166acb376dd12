//! Reference results: what the native renderer computed for a plan, in a
//! small file the explorer's "compare" mode reads, and the comparison
//! itself (shared by the page, the native tests and the browser tests'
//! expectations).
//!
//! ```text
//! file      := "DXPR" version:u32 (= 1) fingerprint:u64 adapter:str count:u32 readback{count}
//! str       := len:u32 utf8[len]
//! readback  := len:u32 bytes[len]          (in Plan::readbacks order)
//! ```
//! All integers little-endian. The fingerprint ([`fingerprint`]) covers the
//! shader bytes, the control values and the settings, so a reference is
//! only ever compared with the inputs it was computed from.
//!
//! **Tolerance** ([`crate::plan::Tolerance`], carried by the plan). Floats
//! are compared as vkd3d's runner does: both values mapped to a monotonic
//! integer line and allowed to differ by at most `ulps` steps (+0 equals
//! −0, NaN equals NaN); where the APIs leave precision open (linear
//! filtering, perspective interpolation) a relative allowance applies too,
//! and on meshes a small fraction of pixels (triangle edges) may differ
//! outright. Integer targets, integer buffer words and words of unknown
//! type are compared exactly.

use crate::plan::{Plan, Readback, Resource};

/// Magic of a reference file.
pub const MAGIC: &[u8; 4] = b"DXPR";
/// Version written.
pub const VERSION: u32 = 1;
/// Largest reference file read (a plan reads back at most a few MiB).
pub const MAX_FILE: usize = 256 << 20;
/// Default tolerance in units in the last place, as the browser tests use it.
pub const DEFAULT_ULPS: u32 = 64;

/// FNV-1a (64-bit) of the shader, the encoded values and the encoded
/// settings, each preceded by its length.
pub fn fingerprint(shader: &[u8], values: &[u8], settings: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [shader, values, settings] {
        for &b in (part.len() as u64).to_le_bytes().iter().chain(part) {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// [`fingerprint`] of a pipeline preview: the previewed shader's inputs,
/// then each companion shader's bytes (run with its defaults), each
/// preceded by its length. With no companions it is [`fingerprint`].
pub fn pipeline_fingerprint(shader: &[u8], values: &[u8], settings: &[u8], companions: &[&[u8]]) -> u64 {
    let mut h = fingerprint(shader, values, settings);
    for part in companions {
        for &b in (part.len() as u64).to_le_bytes().iter().chain(*part) {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// A decoded reference file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// [`fingerprint`] of the inputs.
    pub fingerprint: u64,
    /// The adapter that computed it (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`).
    pub adapter: String,
    /// Read-backs in plan order.
    pub readbacks: Vec<Vec<u8>>,
}

/// Writes a reference file.
pub fn encode(r: &Reference) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend(VERSION.to_le_bytes());
    out.extend(r.fingerprint.to_le_bytes());
    out.extend((r.adapter.len() as u32).to_le_bytes());
    out.extend_from_slice(r.adapter.as_bytes());
    out.extend((r.readbacks.len() as u32).to_le_bytes());
    for b in &r.readbacks {
        out.extend((b.len() as u32).to_le_bytes());
        out.extend_from_slice(b);
    }
    out
}

/// Why a reference file did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceError {
    /// Larger than [`MAX_FILE`].
    TooLarge {
        /// The file's size.
        size: usize,
    },
    /// It does not start with `DXPR`.
    NotAReference,
    /// The file ends inside a field.
    Truncated {
        /// The field.
        what: &'static str,
        /// Where the field starts.
        offset: usize,
    },
    /// A version this build does not read.
    Version {
        /// The version found.
        found: u32,
    },
    /// Bytes after the last read-back.
    TrailingBytes {
        /// How many.
        count: usize,
        /// Where they start.
        offset: usize,
    },
}

impl ReferenceError {
    /// The byte offset the error names.
    pub fn offset(&self) -> usize {
        match self {
            ReferenceError::TooLarge { .. } | ReferenceError::NotAReference => 0,
            ReferenceError::Version { .. } => 4,
            ReferenceError::Truncated { offset, .. } | ReferenceError::TrailingBytes { offset, .. } => *offset,
        }
    }
}

impl std::fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReferenceError::TooLarge { size } => write!(f, "reference file of {size} bytes is larger than {MAX_FILE}"),
            ReferenceError::NotAReference => {
                write!(f, "not a DXBC Explorer reference file: it does not start with DXPR")
            }
            ReferenceError::Truncated { what, .. } => write!(f, "reference file ends inside the {what}"),
            ReferenceError::Version { found } => write!(f, "reference file version {found}, expected {VERSION}"),
            ReferenceError::TrailingBytes { count, .. } => write!(f, "{count} bytes after the last read-back"),
        }?;
        write!(f, " (at offset {:#x})", self.offset())
    }
}

impl std::error::Error for ReferenceError {}

/// Reads a reference file; the error names the byte offset.
pub fn decode(data: &[u8]) -> Result<Reference, ReferenceError> {
    if data.len() > MAX_FILE {
        return Err(ReferenceError::TooLarge { size: data.len() });
    }
    let mut at = 0usize;
    let mut take = |n: usize, what: &'static str| -> Result<&[u8], ReferenceError> {
        if data.len() - at < n {
            return Err(ReferenceError::Truncated { what, offset: at });
        }
        at += n;
        Ok(&data[at - n..at])
    };
    if take(4, "magic")? != MAGIC {
        return Err(ReferenceError::NotAReference);
    }
    let u32le = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let v = u32le(take(4, "version")?);
    if v != VERSION {
        return Err(ReferenceError::Version { found: v });
    }
    let f = take(8, "fingerprint")?;
    let fingerprint = u64::from_le_bytes([f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]]);
    let n = u32le(take(4, "adapter name length")?) as usize;
    let adapter = String::from_utf8_lossy(take(n, "adapter name")?).into_owned();
    let count = u32le(take(4, "read-back count")?) as usize;
    let mut readbacks = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        let n = u32le(take(4, "read-back length")?) as usize;
        readbacks.push(take(n, "read-back bytes")?.to_vec());
    }
    if at != data.len() {
        return Err(ReferenceError::TrailingBytes { count: data.len() - at, offset: at });
    }
    Ok(Reference { fingerprint, adapter, readbacks })
}

/// How 32-bit words of a read-back are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordKind {
    /// Float, within the tolerance.
    Float,
    /// Exactly.
    Exact,
}

/// The kind of word `i` of read-back `r` of `plan`.
pub fn word_kind(plan: &Plan, r: &Readback, i: usize) -> WordKind {
    match r {
        Readback::Target { index, .. } => match plan.draw.as_ref().and_then(|d| d.targets.get(*index)) {
            Some(t) if t.format == "rgba32float" => WordKind::Float,
            _ => WordKind::Exact,
        },
        Readback::Buffer { float_words, stride, .. } => {
            let w = (i % (*stride as usize / 4).max(1)) as u32;
            if float_words.contains(&w) {
                WordKind::Float
            } else {
                WordKind::Exact
            }
        }
        Readback::StorageTexture { entry } => match &plan.entries[*entry].resource {
            Resource::StorageTexture { format: "r32float", .. } => WordKind::Float,
            _ => WordKind::Exact,
        },
    }
}

fn ordered(f: f32) -> i64 {
    let x = f.to_bits() as i32;
    (if x < 0 { i32::MIN.wrapping_sub(x) } else { x }) as i64
}

/// Distance in ulps between two floats (0 for NaN against NaN).
pub fn ulps_apart(a: f32, b: f32) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    (ordered(a) - ordered(b)).unsigned_abs()
}

/// How one read-back compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Words compared.
    pub words: usize,
    /// Words outside the tolerance.
    pub mismatches: usize,
    /// Pixels (texels of 4 words, for colour targets) with a word outside the tolerance.
    pub pixels_off: usize,
    /// Pixels allowed to differ (mesh edges).
    pub pixels_allowed: usize,
    /// Largest float distance seen, in ulps (words outside the tolerance included).
    pub max_ulps: u64,
    /// Largest float distance among the words within the tolerance, in ulps.
    pub max_ulps_within: u64,
    /// Words that are not bit for bit equal (within the tolerance or not).
    pub inexact: usize,
    /// First word outside the tolerance: index, got, expected.
    pub first: Option<(usize, u32, u32)>,
    /// Set when the sizes differ (nothing else is compared).
    pub size_mismatch: Option<(usize, usize)>,
}

/// What a comparison found, as the summary states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every word is bit for bit equal.
    Identical,
    /// Every word is within the tolerance; `inexact` are not bit-equal.
    WithinTolerance {
        /// Words that differ within the tolerance.
        inexact: usize,
        /// Largest float distance, in ulps.
        max_ulps: u64,
    },
    /// Some pixels differ beyond the tolerance, no more than the mesh-edge allowance.
    EdgePixels {
        /// Pixels outside the tolerance.
        pixels_off: usize,
        /// Pixels allowed to be.
        pixels_allowed: usize,
    },
    /// Words differ beyond the tolerance (and the allowance).
    Differs {
        /// Words outside the tolerance.
        mismatches: usize,
        /// First of them: index, here, in the reference.
        first: (usize, u32, u32),
    },
    /// The read-backs have different sizes: nothing else was compared.
    SizeMismatch {
        /// Bytes here.
        got: usize,
        /// Bytes in the reference.
        expected: usize,
    },
}

impl Comparison {
    /// True when every word is within the tolerance, but for the pixels allowed.
    pub fn ok(&self) -> bool {
        self.size_mismatch.is_none() && (self.mismatches == 0 || self.pixels_off <= self.pixels_allowed)
    }

    /// What the figures say.
    pub fn verdict(&self) -> Verdict {
        if let Some((got, expected)) = self.size_mismatch {
            return Verdict::SizeMismatch { got, expected };
        }
        if self.mismatches == 0 {
            return if self.inexact == 0 {
                Verdict::Identical
            } else {
                Verdict::WithinTolerance { inexact: self.inexact, max_ulps: self.max_ulps_within }
            };
        }
        if self.pixels_off <= self.pixels_allowed {
            return Verdict::EdgePixels { pixels_off: self.pixels_off, pixels_allowed: self.pixels_allowed };
        }
        Verdict::Differs { mismatches: self.mismatches, first: self.first.unwrap_or((0, 0, 0)) }
    }
}

/// True when `got` is within `t` of `expected` (floats).
pub fn floats_agree(got: f32, expected: f32, t: &crate::plan::Tolerance) -> bool {
    ulps_apart(got, expected) <= t.ulps as u64 || (got - expected).abs() <= t.relative * expected.abs().max(1.0)
}

/// Compares read-back `index` of `plan`: `got` against `expected`, with the plan's tolerance.
pub fn compare(plan: &Plan, index: usize, got: &[u8], expected: &[u8]) -> Comparison {
    let t = plan.tolerance;
    let mut c = Comparison {
        words: 0,
        mismatches: 0,
        pixels_off: 0,
        pixels_allowed: 0,
        max_ulps: 0,
        max_ulps_within: 0,
        inexact: 0,
        first: None,
        size_mismatch: None,
    };
    if got.len() != expected.len() {
        c.size_mismatch = Some((got.len(), expected.len()));
        return c;
    }
    let Some(r) = plan.readbacks.get(index) else {
        c.size_mismatch = Some((got.len(), 0));
        return c;
    };
    let is_target = matches!(r, Readback::Target { .. });
    if is_target {
        c.pixels_allowed = (t.edge_fraction * (got.len() / 16) as f32) as usize;
    }
    let mut last_pixel = usize::MAX;
    for (i, (g, e)) in got.chunks_exact(4).zip(expected.chunks_exact(4)).enumerate() {
        let g = u32::from_le_bytes([g[0], g[1], g[2], g[3]]);
        let e = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
        c.words += 1;
        let bad = match word_kind(plan, r, i) {
            WordKind::Float => {
                let (fg, fe) = (f32::from_bits(g), f32::from_bits(e));
                let ulps = ulps_apart(fg, fe);
                c.max_ulps = c.max_ulps.max(ulps);
                let bad = !floats_agree(fg, fe, &t);
                if !bad {
                    c.max_ulps_within = c.max_ulps_within.max(ulps);
                }
                bad
            }
            WordKind::Exact => g != e,
        };
        if g != e {
            c.inexact += 1;
        }
        if bad {
            c.mismatches += 1;
            c.first.get_or_insert((i, g, e));
            let px = if is_target { i / 4 } else { i };
            if px != last_pixel {
                c.pixels_off += 1;
                last_pixel = px;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_round_trips_and_faults_name_offsets() {
        let r = Reference {
            fingerprint: 0x0123_4567_89ab_cdef,
            adapter: "llvmpipe".into(),
            readbacks: vec![vec![1, 2, 3, 4], vec![]],
        };
        let b = encode(&r);
        assert_eq!(&b[..8], b"DXPR\x01\0\0\0");
        assert_eq!(decode(&b).unwrap(), r);
        let cut = decode(&b[..b.len() - 1]).unwrap_err();
        assert_eq!(cut, ReferenceError::Truncated { what: "read-back length", offset: 0x28 });
        assert_eq!(cut.to_string(), "reference file ends inside the read-back length (at offset 0x28)");
        assert_eq!(decode(b"DXBC").unwrap_err(), ReferenceError::NotAReference);
        let mut extra = b.clone();
        extra.push(0);
        let e = decode(&extra).unwrap_err();
        assert_eq!(e, ReferenceError::TrailingBytes { count: 1, offset: b.len() });
        assert_eq!(e.to_string(), format!("1 bytes after the last read-back (at offset {:#x})", b.len()));
        for n in 0..b.len() {
            assert!(decode(&b[..n]).is_err());
        }
    }

    #[test]
    fn fingerprint_separates_its_parts() {
        assert_ne!(fingerprint(b"ab", b"", b""), fingerprint(b"a", b"b", b""));
        assert_eq!(fingerprint(b"", b"", b""), fingerprint(b"", b"", b""));
    }

    #[test]
    fn ulps_follow_the_float_line() {
        assert_eq!(ulps_apart(1.0, 1.0), 0);
        assert_eq!(ulps_apart(0.0, -0.0), 0);
        assert_eq!(ulps_apart(1.0, f32::from_bits(1.0f32.to_bits() + 3)), 3);
        assert_eq!(ulps_apart(f32::from_bits(1), -f32::from_bits(1)), 2);
        assert_eq!(ulps_apart(f32::NAN, f32::NAN), 0);
    }
}
