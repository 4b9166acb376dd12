//! Permalinks: a shader and a view of it, packed into a URL fragment.
//!
//! ```text
//! #v1/<base64url, no padding>( deflate-raw( payload ) )
//! payload := record*
//! record  := tag:u8  length:varint  data[length]
//! ```
//! Varints are LEB128 (7 bits per byte, low first, at most 5 bytes).
//! Records of version 1:
//!
//! | tag | data |
//! |---|---|
//! | 1 | the shader file's bytes (required, once) |
//! | 2 | selection: varint byte offset, varint byte length |
//! | 3 | selected bitfield: u8 lowest bit of the field |
//! | 4 | open panes: varint bit set (meaning chosen by the app) |
//! | 5 | tour step: varint |
//! | 6 | preview control values (opaque to this module; the app's codec) |
//! | 7 | preview settings (opaque to this module; the app's codec) |
//! | 8 | the file the shader is compared with in the diff view (its bytes) |
//! | 9 | the step debugger: varint kind (0 pixel, 1 vertex, 2 thread), its numbers as varints (x, y / n / group xyz, thread xyz), varint step |
//!
//! Record 8 was added after the first links were written: an older reader
//! skips it and opens the shader alone, so a diff link stays a `#v1/` link.
//!
//! Decoders skip records whose tag they do not know, so a later writer can
//! add records without breaking old readers; a change that old readers
//! would misread gets a new prefix (`#v2/`), and this module keeps
//! decoding every earlier version forever (golden links are in the tests).
//!
//! **Limits.** [`decode`] refuses fragments longer than
//! [`MAX_FRAGMENT_LEN`] characters before doing any work, and stops
//! inflating at [`MAX_INFLATED`] bytes (4 MiB: twenty-five times the largest
//! shader of the corpus), so a small link cannot expand into a huge
//! allocation. Every failure is a [`PermalinkError`]; nothing panics.

use std::fmt;

/// Prefix of version-1 fragments (after the optional `#`).
pub const PREFIX_V1: &str = "v1/";
/// Longest fragment accepted, in characters (Chromium's URL limit is 2 MiB).
pub const MAX_FRAGMENT_LEN: usize = 4 << 20;
/// Largest inflated payload accepted, in bytes.
pub const MAX_INFLATED: usize = 4 << 20;

const TAG_SHADER: u8 = 1;
const TAG_SELECTION: u8 = 2;
const TAG_FIELD: u8 = 3;
const TAG_PANES: u8 = 4;
const TAG_TOUR: u8 = 5;
const TAG_PREVIEW_VALUES: u8 = 6;
const TAG_PREVIEW_SETTINGS: u8 = 7;
const TAG_COMPARE: u8 = 8;
const TAG_DEBUG: u8 = 9;

/// Bits of [`ViewState::panes`]: which panes of the explorer are open.
pub mod panes {
    /// The container map.
    pub const MAP: u32 = 1;
    /// Reflection tables.
    pub const REFLECTION: u32 = 2;
    /// The translation pane.
    pub const TRANSLATION: u32 = 4;
    /// The live preview.
    pub const PREVIEW: u32 = 8;
    /// The diff view (against [`super::ViewState::compare`] when the link
    /// carries a file, else against the unedited original).
    pub const DIFF: u32 = 16;
    /// Panes open when a link does not say.
    pub const DEFAULT: u32 = MAP | REFLECTION;
}

/// The view a link restores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewState {
    /// Selected byte range: offset and length.
    pub selection: Option<(u32, u32)>,
    /// Lowest bit of the selected bitfield of the selected token.
    pub field_lo: Option<u8>,
    /// Open panes, as a bit set the app defines.
    pub panes: u32,
    /// Step of the guided tour, when it is open.
    pub tour_step: Option<u32>,
    /// The live preview's control values, in the app's own encoding.
    pub preview_values: Option<Vec<u8>>,
    /// The live preview's other choices, in the app's own encoding.
    pub preview_settings: Option<Vec<u8>>,
    /// The file the shader is compared with (the diff view's first side;
    /// the shader is the second).
    pub compare: Option<Vec<u8>>,
    /// The step debugger's invocation and position.
    pub debug: Option<DebugView>,
}

/// The invocation the step debugger runs (and `dxbc run`, and
/// `preview_model::debug`, which names it `Invocation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DebugInvocation {
    /// A pixel of the preview.
    Pixel {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// A vertex of the mesh.
    Vertex(u32),
    /// A compute thread: group id, thread id in the group.
    Thread {
        /// SV_GroupID.
        group: [u32; 3],
        /// SV_GroupThreadID.
        thread: [u32; 3],
    },
}

impl std::fmt::Display for DebugInvocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DebugInvocation::Pixel { x, y } => write!(f, "pixel {x},{y}"),
            DebugInvocation::Vertex(n) => write!(f, "vertex {n}"),
            DebugInvocation::Thread { group: g, thread: t } => {
                write!(f, "thread {},{},{}:{},{},{}", g[0], g[1], g[2], t[0], t[1], t[2])
            }
        }
    }
}

/// The step debugger's state in a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugView {
    /// What runs.
    pub invocation: DebugInvocation,
    /// Instructions executed.
    pub step: u32,
}

/// A shader plus the view of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Permalink {
    /// The shader file.
    pub shader: Vec<u8>,
    /// What was on screen.
    pub view: ViewState,
}

/// Why a fragment could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PermalinkError {
    /// The fragment does not start with a known version prefix.
    UnknownVersion(String),
    /// The fragment is longer than [`MAX_FRAGMENT_LEN`].
    TooLong(usize),
    /// A character outside the base64url alphabet, at this position.
    BadBase64(usize),
    /// The deflate stream is damaged or truncated.
    BadDeflate,
    /// The payload inflates beyond [`MAX_INFLATED`] bytes.
    TooLarge,
    /// A record is cut short or malformed, at this payload offset.
    BadRecord(usize),
    /// No shader record.
    NoShader,
}

impl fmt::Display for PermalinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PermalinkError::UnknownVersion(p) => {
                write!(f, "not a DXBC Explorer link: expected the fragment to start with \"v1/\", found \"{p}\"")
            }
            PermalinkError::TooLong(n) => {
                write!(f, "link is {n} characters long; the longest accepted is {MAX_FRAGMENT_LEN}")
            }
            PermalinkError::BadBase64(i) => write!(f, "link is damaged: character {i} of the payload is not base64url"),
            PermalinkError::BadDeflate => write!(f, "link is damaged: its compressed data does not inflate"),
            PermalinkError::TooLarge => write!(f, "link inflates to more than {MAX_INFLATED} bytes; refused"),
            PermalinkError::BadRecord(o) => write!(f, "link is damaged: record at payload byte {o} is cut short"),
            PermalinkError::NoShader => write!(f, "link holds no shader"),
        }
    }
}

impl std::error::Error for PermalinkError {}

/// Encodes to a fragment `#v1/…`.
pub fn encode(link: &Permalink) -> String {
    encode_payload(&payload(link))
}

/// The fragment `#v1/…` of a link's [`payload`]: [`encode`]'s second half,
/// apart so that the deflating (most of the time) can run elsewhere.
pub fn encode_payload(payload: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(payload, 9);
    let mut s = String::with_capacity(4 + packed.len() * 4 / 3 + 4);
    s.push('#');
    s.push_str(PREFIX_V1);
    base64url_encode(&packed, &mut s);
    s
}

/// The uncompressed binary payload of `link` (exposed for size figures).
pub fn payload(link: &Permalink) -> Vec<u8> {
    let other = link.view.compare.as_ref().map_or(0, Vec::len);
    let mut p = Vec::with_capacity(link.shader.len() + other + 32);
    record(&mut p, TAG_SHADER, &link.shader);
    let v = &link.view;
    if let Some((o, l)) = v.selection {
        let mut d = Vec::new();
        varint(&mut d, o);
        varint(&mut d, l);
        record(&mut p, TAG_SELECTION, &d);
    }
    if let Some(b) = v.field_lo {
        record(&mut p, TAG_FIELD, &[b]);
    }
    if v.panes != 0 {
        let mut d = Vec::new();
        varint(&mut d, v.panes);
        record(&mut p, TAG_PANES, &d);
    }
    if let Some(t) = v.tour_step {
        let mut d = Vec::new();
        varint(&mut d, t);
        record(&mut p, TAG_TOUR, &d);
    }
    if let Some(b) = &v.preview_values {
        record(&mut p, TAG_PREVIEW_VALUES, b);
    }
    if let Some(b) = &v.preview_settings {
        record(&mut p, TAG_PREVIEW_SETTINGS, b);
    }
    if let Some(b) = &v.compare {
        record(&mut p, TAG_COMPARE, b);
    }
    if let Some(d) = &v.debug {
        let mut data = Vec::new();
        let (kind, nums): (u32, Vec<u32>) = match d.invocation {
            DebugInvocation::Pixel { x, y } => (0, vec![x, y]),
            DebugInvocation::Vertex(n) => (1, vec![n]),
            DebugInvocation::Thread { group: g, thread: t } => (2, vec![g[0], g[1], g[2], t[0], t[1], t[2]]),
        };
        varint(&mut data, kind);
        for n in nums {
            varint(&mut data, n);
        }
        varint(&mut data, d.step);
        record(&mut p, TAG_DEBUG, &data);
    }
    p
}

fn parse_debug(d: &[u8]) -> Option<DebugView> {
    let mut i = 0;
    let mut next = || read_varint(d, &mut i);
    let invocation = match next()? {
        0 => DebugInvocation::Pixel { x: next()?, y: next()? },
        1 => DebugInvocation::Vertex(next()?),
        2 => DebugInvocation::Thread { group: [next()?, next()?, next()?], thread: [next()?, next()?, next()?] },
        _ => return None,
    };
    Some(DebugView { invocation, step: next()? })
}

/// Decodes a fragment, with or without the leading `#`; a whole URL is
/// accepted too (everything up to the first `#` is ignored).
pub fn decode(fragment: &str) -> Result<Permalink, PermalinkError> {
    if fragment.len() > MAX_FRAGMENT_LEN {
        return Err(PermalinkError::TooLong(fragment.len()));
    }
    let frag = match fragment.find('#') {
        Some(i) => &fragment[i + 1..],
        None => fragment,
    };
    let Some(body) = frag.strip_prefix(PREFIX_V1) else {
        let shown: String = frag.chars().take(12).collect();
        return Err(PermalinkError::UnknownVersion(shown));
    };
    let packed = base64url_decode(body.trim_end())?;
    let payload =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED).map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => PermalinkError::TooLarge,
            _ => PermalinkError::BadDeflate,
        })?;
    parse_payload(&payload)
}

fn parse_payload(p: &[u8]) -> Result<Permalink, PermalinkError> {
    let mut at = 0;
    let mut shader = None;
    let mut view = ViewState::default();
    while at < p.len() {
        let start = at;
        let bad = || PermalinkError::BadRecord(start);
        let tag = p[at];
        at += 1;
        let len = read_varint(p, &mut at).ok_or_else(bad)? as usize;
        if len > p.len() - at {
            return Err(bad());
        }
        let d = &p[at..at + len];
        at += len;
        match tag {
            TAG_SHADER => shader = Some(d.to_vec()),
            TAG_SELECTION => {
                let mut i = 0;
                let o = read_varint(d, &mut i).ok_or_else(bad)?;
                let l = read_varint(d, &mut i).ok_or_else(bad)?;
                view.selection = Some((o, l));
            }
            TAG_FIELD => view.field_lo = Some(*d.first().ok_or_else(bad)?),
            TAG_PANES => view.panes = read_varint(d, &mut 0).ok_or_else(bad)?,
            TAG_TOUR => view.tour_step = Some(read_varint(d, &mut 0).ok_or_else(bad)?),
            TAG_PREVIEW_VALUES => view.preview_values = Some(d.to_vec()),
            TAG_PREVIEW_SETTINGS => view.preview_settings = Some(d.to_vec()),
            TAG_COMPARE => view.compare = Some(d.to_vec()),
            TAG_DEBUG => view.debug = Some(parse_debug(d).ok_or_else(bad)?),
            _ => {} // a later writer's record: skipped
        }
    }
    Ok(Permalink { shader: shader.ok_or(PermalinkError::NoShader)?, view })
}

fn record(p: &mut Vec<u8>, tag: u8, data: &[u8]) {
    p.push(tag);
    varint(p, data.len() as u32);
    p.extend_from_slice(data);
}

fn varint(p: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            p.push(b);
            return;
        }
        p.push(b | 0x80);
    }
}

fn read_varint(p: &[u8], at: &mut usize) -> Option<u32> {
    let mut v: u64 = 0;
    for i in 0..5 {
        let b = *p.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return u32::try_from(v).ok();
        }
    }
    None
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn base64url_encode(data: &[u8], out: &mut String) {
    for c in data.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        let chars = c.len() + 1;
        for i in 0..chars {
            out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
}

fn b64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' | b'+' => 62,
        b'_' | b'/' => 63,
        _ => return None,
    } as u32)
}

/// Decodes base64url (the standard alphabet's `+` and `/` are accepted
/// too; trailing `=` padding is ignored).
pub fn base64url_decode(s: &str) -> Result<Vec<u8>, PermalinkError> {
    let b = s.trim_end_matches('=').as_bytes();
    if b.len() % 4 == 1 {
        return Err(PermalinkError::BadBase64(b.len() - 1));
    }
    let mut out = Vec::with_capacity(b.len() * 3 / 4);
    for (ci, c) in b.chunks(4).enumerate() {
        let mut n = 0u32;
        for (i, &ch) in c.iter().enumerate() {
            let v = b64_value(ch).ok_or(PermalinkError::BadBase64(ci * 4 + i))?;
            n |= v << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..c.len() - 1]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Permalink {
        Permalink {
            shader: crate::examples::tint_pixel_shader(),
            view: ViewState {
                selection: Some((0x4c, 4)),
                field_lo: Some(12),
                panes: 0b101,
                tour_step: Some(3),
                ..Default::default()
            },
        }
    }

    #[test]
    fn round_trip() {
        let l = sample();
        let s = encode(&l);
        assert!(s.starts_with("#v1/"), "{s}");
        assert_eq!(decode(&s).unwrap(), l);
        assert_eq!(decode(&s[1..]).unwrap(), l);
        assert_eq!(decode(&format!("http://127.0.0.1:8080/{s}")).unwrap(), l);
        let bare = Permalink { shader: vec![1, 2, 3], view: ViewState::default() };
        assert_eq!(decode(&encode(&bare)).unwrap(), bare);
        let mut with_preview = sample();
        with_preview.view.preview_values = Some(vec![1, 0]);
        with_preview.view.preview_settings = Some(vec![1, 2, 3]);
        assert_eq!(decode(&encode(&with_preview)).unwrap(), with_preview);
        // The preview records sit after the view's, as tags 6 and 7.
        assert!(payload(&with_preview).ends_with(&[6, 2, 1, 0, 7, 3, 1, 2, 3]));
    }

    #[test]
    fn base64url_matches_rfc4648_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut s = String::new();
            base64url_encode(raw.as_bytes(), &mut s);
            assert_eq!(s, enc);
            assert_eq!(base64url_decode(enc).unwrap(), raw.as_bytes());
        }
        let mut s = String::new();
        base64url_encode(&[0xfb, 0xff], &mut s);
        assert_eq!(s, "-_8");
    }

    /// Links written by version 1 of the codec. They must decode to the same
    /// view forever: never edit these strings; add new ones.
    const GOLDEN_FULL: &str = "#v1/NYstDoNAEIXfsEuKQKyqbBE9RFVFf0hFRZOarSXBcA4kgRNgEFwBSYJCIDkJCgcDLJN8ed8k71FMT31_lGNXT717OOdNViVtQQBiZskL83u_tOb8MkcmckB_QPqpB5heoCAGpdY_BLu3-RVwdvdPJs1uuRvPLesjBbmSbJvEDA";

    fn fnv1a(b: &[u8]) -> u32 {
        b.iter().fold(0x811c_9dc5u32, |h, &x| (h ^ u32::from(x)).wrapping_mul(0x0100_0193))
    }

    #[test]
    fn golden_links_keep_working() {
        // tint_pixel_shader, selection 0x4c+4, field at bit 12, panes 0b101, tour step 3.
        // The example shader as it was when the link was written (pinned by
        // length and hash, so later changes to the example don't matter).
        let l = decode(GOLDEN_FULL).unwrap();
        assert_eq!(l.view, sample().view);
        assert_eq!((l.shader.len(), fnv1a(&l.shader)), (132usize, 1_671_808_872u32));
        // Three bytes, no view state.
        let l = decode("#v1/Y2RmZGIGAA").unwrap();
        assert_eq!(l.shader, vec![1, 2, 3]);
        assert_eq!(l.view, ViewState::default());
    }

    #[test]
    fn the_debuggers_invocation_and_step_round_trip() {
        for invocation in [
            DebugInvocation::Pixel { x: 37, y: 201 },
            DebugInvocation::Vertex(300),
            DebugInvocation::Thread { group: [1, 2, 3], thread: [7, 0, 129] },
        ] {
            let mut l = sample();
            l.view.debug = Some(DebugView { invocation, step: 1000 });
            assert_eq!(decode(&encode(&l)).unwrap(), l);
        }
        // Record 9 cut short (a pixel without its y) is a bad record.
        let mut p = payload(&sample());
        let at = p.len();
        p.extend_from_slice(&[TAG_DEBUG, 2, 0, 5]);
        let mut s = String::from("#v1/");
        base64url_encode(&miniz_oxide::deflate::compress_to_vec(&p, 6), &mut s);
        assert_eq!(decode(&s), Err(PermalinkError::BadRecord(at)));
    }

    #[test]
    fn unknown_records_are_skipped() {
        let mut p = payload(&sample());
        p.extend_from_slice(&[0x7f, 2, 0xaa, 0xbb]);
        let mut s = String::from("#v1/");
        base64url_encode(&miniz_oxide::deflate::compress_to_vec(&p, 6), &mut s);
        assert_eq!(decode(&s).unwrap(), sample());
    }

    #[test]
    fn garbage_gives_clear_errors() {
        assert!(matches!(decode("#v9/abc"), Err(PermalinkError::UnknownVersion(_))));
        assert!(matches!(decode(""), Err(PermalinkError::UnknownVersion(_))));
        assert_eq!(decode("#v1/ab$d"), Err(PermalinkError::BadBase64(2)));
        assert_eq!(decode("#v1/a"), Err(PermalinkError::BadBase64(0)));
        assert_eq!(decode("#v1/AAAA"), Err(PermalinkError::BadDeflate));
        let long = format!("#v1/{}", "A".repeat(MAX_FRAGMENT_LEN));
        assert_eq!(decode(&long), Err(PermalinkError::TooLong(long.len())));
        // Empty payload: no shader.
        let mut s = String::from("#v1/");
        base64url_encode(&miniz_oxide::deflate::compress_to_vec(&[], 6), &mut s);
        assert_eq!(decode(&s), Err(PermalinkError::NoShader));
        // Truncated record.
        let mut s = String::from("#v1/");
        base64url_encode(&miniz_oxide::deflate::compress_to_vec(&[1, 9, 0], 6), &mut s);
        assert_eq!(decode(&s), Err(PermalinkError::BadRecord(0)));
        // Over-long varint.
        let mut s = String::from("#v1/");
        base64url_encode(&miniz_oxide::deflate::compress_to_vec(&[1, 0xff, 0xff, 0xff, 0xff, 0xff, 1], 6), &mut s);
        assert_eq!(decode(&s), Err(PermalinkError::BadRecord(0)));
        for e in [PermalinkError::TooLarge, PermalinkError::BadDeflate] {
            assert!(!e.to_string().is_empty());
        }
    }

    /// A diff link: the edited example compared with the original.
    fn diff_sample() -> Permalink {
        let original = crate::examples::tint_pixel_shader();
        let mut shader = original.clone();
        shader[0x40] ^= 0x20;
        Permalink {
            shader,
            view: ViewState {
                selection: Some((0x40, 4)),
                panes: panes::DEFAULT | panes::DIFF,
                compare: Some(original),
                ..Default::default()
            },
        }
    }

    #[test]
    fn diff_links_round_trip_and_old_links_have_no_compare() {
        let l = diff_sample();
        let s = encode(&l);
        assert!(s.starts_with("#v1/"), "a diff link stays a version-1 link: {s}");
        assert_eq!(decode(&s).unwrap(), l);
        // The compared file is the last record, tag 8, after the view's.
        let p = payload(&l);
        let other = l.view.compare.as_ref().unwrap();
        let mut tail = vec![8u8];
        varint(&mut tail, other.len() as u32);
        tail.extend_from_slice(other);
        assert!(p.ends_with(&tail));
        // What an older reader sees: everything but record 8, which it skips.
        let mut old = l.clone();
        old.view.compare = None;
        assert_eq!(&p[..p.len() - tail.len()], payload(&old).as_slice());
        // Links written before record 8 existed decode without a compared file.
        assert_eq!(decode(GOLDEN_FULL).unwrap().view.compare, None);
        // An empty compared file is kept as empty (not dropped).
        let mut empty = l.clone();
        empty.view.compare = Some(Vec::new());
        assert_eq!(decode(&encode(&empty)).unwrap(), empty);
    }

    /// A diff link written when record 8 was added: never edit it.
    const GOLDEN_DIFF: &str = "#v1/rY49CoNAEIXfmIVskWIhkDLZIodIFUJ-JGUgzdoKNp7DUvQENhZewVKwsrD0JFZ2OqKeQB98vK-YgUcBvc3zlXV10TeH_SUp4zysUgIQMGNfmf_3Ywz3jzkxvgQ5gLAjDT3fuQq7VimM8cCuJ78BcnH7PHekseTO75b1EIKOcv0abLBmAA";

    #[test]
    fn golden_diff_link_keeps_working() {
        // The example as GOLDEN_FULL pins it, compared with a copy whose byte 0x40 has bit 5 flipped.
        let l = decode(GOLDEN_DIFF).unwrap();
        let other = l.view.compare.as_deref().unwrap();
        assert_eq!((other.len(), fnv1a(other)), (132usize, 1_671_808_872u32));
        let flipped: Vec<usize> = (0..132).filter(|&k| l.shader[k] != other[k]).collect();
        assert_eq!((l.shader.len(), flipped, l.shader[0x40] ^ other[0x40]), (132, vec![0x40], 0x20));
        assert_eq!(l.view.selection, Some((0x40, 4)));
        assert_eq!(l.view.panes, panes::MAP | panes::REFLECTION | panes::DIFF);
        assert_eq!((l.view.field_lo, l.view.tour_step, l.view.preview_values), (None, None, None));
    }

    #[test]
    fn damaged_diff_links_fail_cleanly() {
        let l = diff_sample();
        let p = payload(&l);
        let pack = |p: &[u8]| {
            let mut s = String::from("#v1/");
            base64url_encode(&miniz_oxide::deflate::compress_to_vec(p, 6), &mut s);
            s
        };
        // The compare record cut short: its length says more than is left.
        let n = l.view.compare.as_ref().unwrap().len();
        let mut len = Vec::new();
        varint(&mut len, n as u32);
        let at = p.len() - n - len.len() - 1;
        assert_eq!(p[at], 8, "the compare record's tag");
        assert_eq!(decode(&pack(&p[..p.len() - 1])), Err(PermalinkError::BadRecord(at)));
        // A length varint that never ends.
        let mut bad = p[..at].to_vec();
        bad.extend_from_slice(&[8, 0xff, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(decode(&pack(&bad)), Err(PermalinkError::BadRecord(at)));
        // A length beyond u32.
        let mut bad = p[..at].to_vec();
        bad.extend_from_slice(&[8, 0xff, 0xff, 0xff, 0xff, 0x7f]);
        assert_eq!(decode(&pack(&bad)), Err(PermalinkError::BadRecord(at)));
        // Cut or flipped characters of the fragment: an error or some link, never a panic.
        let s = encode(&l);
        for cut in (4..s.len()).step_by(7) {
            assert!(decode(&s[..cut]).is_err() || cut > s.len() - 4, "cut at {cut}");
        }
        let mut chars: Vec<u8> = s.into_bytes();
        for k in (4..chars.len()).step_by(5) {
            let keep = chars[k];
            chars[k] = if keep == b'A' { b'B' } else { b'A' };
            let _ = decode(std::str::from_utf8(&chars).unwrap());
            chars[k] = keep;
        }
    }

    #[test]
    fn inflation_is_capped() {
        // 5 MiB of zeros compresses to a few KiB but must be refused.
        let bomb = vec![0u8; MAX_INFLATED + (1 << 20)];
        let mut s = String::from("#v1/");
        base64url_encode(&miniz_oxide::deflate::compress_to_vec(&bomb, 9), &mut s);
        assert!(s.len() < 64 << 10);
        assert_eq!(decode(&s), Err(PermalinkError::TooLarge));
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut x: u32 = 0x1234_5678;
        for n in 0..400 {
            let mut s = String::from("#v1/");
            for _ in 0..(n % 97) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                s.push(B64[(x & 63) as usize] as char);
            }
            let _ = decode(&s);
        }
    }
}
