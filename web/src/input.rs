//! Turning whatever the user dropped or pasted into shader bytes.
//!
//! Files are taken as they are (a `.cso`, `.dxbc`, `.o`, `.fxo` is the
//! container itself), unless they are text, which goes through the same
//! detection as pasted text: a permalink, a C byte or DWORD array (a whole
//! `fxc /Fh` header included), an `xxd` or `hexdump -C` dump, hex (bytes or
//! little-endian dwords), or base64. Base64 is taken only when it is
//! well-formed (its alphabet, a length that whole bytes give, padding only
//! at the end) and either decodes to a container or is one unbroken block,
//! so prose is never read as base64. Refusals carry an [`InputErrorKind`]
//! to decide by and a sentence for the page.

// An explicit path: the fuzz target includes this file by `#[path]`, where
// the implicit `input/` directory would not be looked up.
#[path = "input/dumps.rs"]
mod dumps;

/// Largest shader the page opens, in bytes (16 MiB): files above it are
/// refused before they are read, and so are texts that decode to more.
/// The biggest shaders in the corpus are a few hundred KiB.
pub const MAX_INPUT_BYTES: usize = 16 << 20;

/// Longest text the page tries to decode (hex takes up to three characters
/// per byte, a C array up to six).
pub const MAX_TEXT_CHARS: usize = 6 * MAX_INPUT_BYTES;

/// Why input was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// More bytes (or text) than the explorer opens.
    TooLarge,
    /// A permalink that does not decode.
    BadPermalink,
    /// A C array that does not read.
    BadCArray,
    /// Text that is none of the recognised forms.
    NotRecognised,
}

/// A refusal: its kind and the sentence the page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// What kind of refusal.
    pub kind: InputErrorKind,
    /// In words.
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

fn refuse(kind: InputErrorKind, message: impl Into<String>) -> InputError {
    InputError { kind, message: message.into() }
}

fn too_large(n: usize) -> InputError {
    refuse(
        InputErrorKind::TooLarge,
        format!("{n} bytes is more than the explorer opens ({} MiB)", MAX_INPUT_BYTES >> 20),
    )
}

/// What the input was recognised as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// Raw container bytes.
    Binary,
    /// A `#v1/` permalink.
    Permalink,
    /// A C array of bytes (`fxc /Fh` writes these).
    CByteArray,
    /// A C array of 32-bit words.
    CDwordArray,
    /// Hex digits, one byte per pair.
    Hex,
    /// Hex dwords (8 digits each) holding little-endian tokens.
    HexDwords,
    /// base64 or base64url.
    Base64,
    /// `xxd` output.
    Xxd,
    /// `hexdump -C` output.
    HexdumpC,
}

impl InputKind {
    /// How the page names it.
    pub fn label(self) -> &'static str {
        match self {
            InputKind::Binary => "binary file",
            InputKind::Permalink => "permalink",
            InputKind::CByteArray => "C byte array",
            InputKind::CDwordArray => "C DWORD array",
            InputKind::Hex => "hex bytes",
            InputKind::HexDwords => "hex dwords",
            InputKind::Base64 => "base64",
            InputKind::Xxd => "xxd dump",
            InputKind::HexdumpC => "hexdump -C dump",
        }
    }
}

/// Recognised input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    /// What it was.
    pub kind: InputKind,
    /// The container bytes (for a permalink: its shader).
    pub bytes: Vec<u8>,
    /// The permalink's view, when the input was one.
    pub view: Option<dxbc::permalink::ViewState>,
}

/// Detects a file's content (bytes as read from disk).
pub fn detect_file(data: &[u8]) -> Result<Detected, InputError> {
    if data.len() > MAX_INPUT_BYTES {
        return Err(too_large(data.len()));
    }
    if data.starts_with(b"DXBC") {
        return Ok(binary(data));
    }
    match std::str::from_utf8(data) {
        Ok(text) if !text.trim().is_empty() => detect_text(text).or_else(|_| Ok(binary(data))),
        // Not text: show the bytes anyway; the decoder says what is wrong.
        _ => Ok(binary(data)),
    }
}

fn binary(data: &[u8]) -> Detected {
    Detected { kind: InputKind::Binary, bytes: data.to_vec(), view: None }
}

/// Detects pasted text.
pub fn detect_text(text: &str) -> Result<Detected, InputError> {
    within_limits(text, detect_text_unchecked)
}

/// Reads a permalink and nothing else: what the address bar holds. The
/// first view opens links with this rather than [`detect_text`], so the
/// other readers (hex, base64, C arrays, dumps) stay out of the first
/// view's wasm (tools/wasm-split) until text is pasted.
pub fn detect_link(text: &str) -> Result<Detected, InputError> {
    within_limits(text, |text| {
        let t = text.trim();
        match link_start(t) {
            Some(i) => link(&t[i..]),
            None => Err(refuse(InputErrorKind::BadPermalink, "not a permalink (links hold #v1/)")),
        }
    })
}

/// Refuses text or bytes beyond the limits around `detect`.
fn within_limits(text: &str, detect: impl Fn(&str) -> Result<Detected, InputError>) -> Result<Detected, InputError> {
    if text.len() > MAX_TEXT_CHARS {
        return Err(refuse(
            InputErrorKind::TooLarge,
            format!(
                "{} characters is more text than the explorer reads ({} MiB of shader at most)",
                text.len(),
                MAX_INPUT_BYTES >> 20
            ),
        ));
    }
    let d = detect(text)?;
    if d.bytes.len() > MAX_INPUT_BYTES {
        return Err(too_large(d.bytes.len()));
    }
    Ok(d)
}

/// Where a permalink starts in trimmed text `t`: at `#v1/`, or at its start for a bare `v1/…`.
fn link_start(t: &str) -> Option<usize> {
    t.find("#v1/").or_else(|| t.starts_with("v1/").then_some(0))
}

fn link(l: &str) -> Result<Detected, InputError> {
    let l = dxbc::permalink::decode(l).map_err(|e| refuse(InputErrorKind::BadPermalink, e.to_string()))?;
    Ok(Detected { kind: InputKind::Permalink, bytes: l.shader, view: Some(l.view) })
}

fn detect_text_unchecked(text: &str) -> Result<Detected, InputError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(refuse(InputErrorKind::Empty, "nothing to decode: paste hex, base64, a C array or a permalink"));
    }
    if let Some(i) = link_start(t) {
        return link(&t[i..]);
    }
    // Before C arrays: a dump's ASCII column may hold braces.
    if let Some((kind, bytes)) = dumps::parse(text, MAX_INPUT_BYTES + 1) {
        let kind = match kind {
            dumps::DumpKind::Xxd => InputKind::Xxd,
            dumps::DumpKind::HexdumpC => InputKind::HexdumpC,
        };
        return Ok(found(kind, bytes));
    }
    if t.contains('{') {
        return c_array(t).map_err(|m| refuse(InputErrorKind::BadCArray, m));
    }
    let hex = hex_digits(t);
    let b64 = base64(t);
    let looks_dxbc = |b: &Option<Vec<u8>>| b.as_ref().is_some_and(|b| b.starts_with(b"DXBC"));
    if let Some((ref h, kind)) = hex {
        if h.starts_with(b"DXBC") {
            return Ok(found(kind, h.clone()));
        }
    }
    if looks_dxbc(&b64) {
        return Ok(found(InputKind::Base64, b64.unwrap()));
    }
    if let Some((h, kind)) = hex {
        return Ok(found(kind, h));
    }
    if let Some(b) = b64 {
        return Ok(found(InputKind::Base64, b));
    }
    Err(refuse(InputErrorKind::NotRecognised, "not hex, base64 or a C array"))
}

fn found(kind: InputKind, bytes: Vec<u8>) -> Detected {
    Detected { kind, bytes, view: None }
}

/// Removes `//` and `/* */` comments.
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else {
            // Safe: we only split at ASCII bytes.
            let ch = s[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Removes `#if 0` … `#endif` blocks (where `fxc /Fh` puts the listing,
/// whose declarations hold braces and type-like words). Not nested: the
/// first `#endif` ends the block.
fn strip_disabled(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut off = false;
    for line in s.lines() {
        let l = line.trim();
        if !off && l.strip_prefix("#if").is_some_and(|r| r.trim() == "0") {
            off = true;
        } else if off && l.starts_with("#endif") {
            off = false;
        } else if !off {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A C array initialiser: the first `{ … }` in the text; the declared
/// element type (BYTE, unsigned char, DWORD, uint32_t …) decides the width,
/// or, without one, any value above 255 makes it a DWORD array.
fn c_array(t: &str) -> Result<Detected, String> {
    let s = strip_disabled(&strip_comments(t));
    let open = s.find('{').ok_or("C array: no '{'")?;
    let close = s[open..].find('}').map(|i| open + i).ok_or("C array: no closing '}'")?;
    // The declaration is the statement the brace opens.
    let decl = s[..open].rsplit([';', '}']).next().unwrap_or("").to_ascii_lowercase();
    let mut values = Vec::new();
    for item in s[open + 1..close].split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        values.push(parse_c_int(item).ok_or_else(|| format!("C array: cannot read {item:?}"))?);
    }
    if values.is_empty() {
        return Err("C array: no values between the braces".into());
    }
    let dword_decl = ["dword", "uint32", "unsigned int", "uint ", "int ", "long"].iter().any(|k| decl.contains(k));
    let byte_decl = ["byte", "char", "uint8"].iter().any(|k| decl.contains(k));
    let dwords = dword_decl || (!byte_decl && values.iter().any(|&v| v > 255));
    let bytes = if dwords {
        values.iter().flat_map(|&v| (v as u32).to_le_bytes()).collect()
    } else {
        if let Some(v) = values.iter().find(|&&v| v > 255) {
            return Err(format!("C byte array holds {v}, which is not a byte"));
        }
        values.iter().map(|&v| v as u8).collect()
    };
    Ok(found(if dwords { InputKind::CDwordArray } else { InputKind::CByteArray }, bytes))
}

fn parse_c_int(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else {
        s.parse::<u64>().ok()?
    };
    if neg {
        // A signed char / int initialiser: keep its two's-complement bits.
        Some((v as i64).wrapping_neg() as u64 & 0xffff_ffff)
    } else {
        Some(v)
    }
}

/// Hex: whitespace, commas and `0x` prefixes allowed. Groups of exactly 8
/// digits that do not spell `DXBC` in byte order are read as little-endian
/// dwords (as a token dump prints them).
fn hex_digits(t: &str) -> Option<(Vec<u8>, InputKind)> {
    let groups: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|g| !g.is_empty())
        .map(|g| g.strip_prefix("0x").or_else(|| g.strip_prefix("0X")).unwrap_or(g))
        .collect();
    if groups.is_empty() || !groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit())) {
        return None;
    }
    let all: String = groups.concat();
    if !all.len().is_multiple_of(2) {
        return None;
    }
    let bytes: Vec<u8> =
        (0..all.len()).step_by(2).map(|i| u8::from_str_radix(&all[i..i + 2], 16).unwrap_or(0)).collect();
    if groups.len() > 1 && groups.iter().all(|g| g.len() == 8) && !bytes.starts_with(b"DXBC") {
        let words: Vec<u8> =
            groups.iter().flat_map(|g| u32::from_str_radix(g, 16).unwrap_or(0).to_le_bytes()).collect();
        if words.starts_with(b"DXBC") || !bytes.starts_with(b"DXBC") {
            return Some((words, InputKind::HexDwords));
        }
    }
    Some((bytes, InputKind::Hex))
}

/// Base64 (standard or url alphabet): taken when it decodes to a container,
/// or, failing that, when it is one block with no spaces inside its lines
/// (line-wrapped base64 has none; prose has many).
fn base64(t: &str) -> Option<Vec<u8>> {
    let s: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let body = s.trim_end_matches('=');
    let padding = s.len() - body.len();
    let alphabet = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '-' | '_');
    if s.len() < 4 || padding > 2 || !body.chars().all(alphabet) || body.len() % 4 == 1 {
        return None;
    }
    if padding > 0 && !s.len().is_multiple_of(4) {
        return None;
    }
    let bytes = dxbc::permalink::base64url_decode(&s).ok()?;
    let one_block = t.lines().all(|l| !l.trim().contains(char::is_whitespace));
    (bytes.starts_with(b"DXBC") || one_block && s.len() >= 16).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Vec<u8> {
        dxbc::examples::tint_pixel_shader()
    }

    #[test]
    fn binary_files_pass_through() {
        let b = example();
        let d = detect_file(&b).unwrap();
        assert_eq!((d.kind, d.bytes), (InputKind::Binary, b));
        let junk = [0u8, 1, 2, 0xff];
        assert_eq!(detect_file(&junk).unwrap().kind, InputKind::Binary);
    }

    #[test]
    fn hex_bytes_and_dwords() {
        let b = example();
        let spaced: String = b.iter().map(|x| format!("{x:02X} ")).collect();
        assert_eq!(detect_text(&spaced).unwrap(), found(InputKind::Hex, b.clone()));
        let tight: String = b.iter().map(|x| format!("{x:02x}")).collect();
        assert_eq!(detect_text(&tight).unwrap().bytes, b);
        let words: String =
            b.chunks(4).map(|c| format!("0x{:08x}\n", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))).collect();
        let d = detect_text(&words).unwrap();
        assert_eq!((d.kind, d.bytes), (InputKind::HexDwords, b));
    }

    #[test]
    fn base64_standard_and_url() {
        let b = example();
        let mut s = String::new();
        dxbc::permalink::base64url_encode(&b, &mut s);
        assert_eq!(detect_text(&s).unwrap(), found(InputKind::Base64, b.clone()));
        let mut std64 = s.replace('-', "+").replace('_', "/");
        while !std64.len().is_multiple_of(4) {
            std64.push('=');
        }
        assert_eq!(detect_text(&std64).unwrap().bytes, b);
    }

    #[test]
    fn fxc_header_byte_array() {
        let b = example();
        let mut h = String::from(
            "#if 0\n//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n//\n//   fxc /T ps_5_0 /Fh t.h\n//\nps_5_0\n#endif\n\nconst BYTE g_main[] =\n{\n",
        );
        for row in b.chunks(6) {
            h.push_str("    ");
            h.push_str(&row.iter().map(|x| format!("{x:3}, ")).collect::<String>());
            h.push('\n');
        }
        h.push_str("};\n");
        let d = detect_text(&h).unwrap();
        assert_eq!((d.kind, d.bytes), (InputKind::CByteArray, b));
    }

    #[test]
    fn dword_array_and_suffixes() {
        let b = example();
        let body: Vec<String> =
            b.chunks(4).map(|c| format!("0x{:08x}u", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))).collect();
        let src = format!("static const DWORD g[] = {{ /* c */ {} }};", body.join(", "));
        let d = detect_text(&src).unwrap();
        assert_eq!((d.kind, d.bytes), (InputKind::CDwordArray, b.clone()));
        // No type named: values above 255 make it dwords.
        let d = detect_text(&format!("{{ {} }}", body.join(","))).unwrap();
        assert_eq!(d.kind, InputKind::CDwordArray);
        let d = detect_text("unsigned char a[] = { 68, 88, 66, 67 };").unwrap();
        assert_eq!(d.bytes, b"DXBC");
        assert_eq!(detect_text("const BYTE a[] = { 68, 300 };").unwrap_err().kind, InputErrorKind::BadCArray);
        assert_eq!(detect_text("const BYTE a[] = { 68, zz };").unwrap_err().kind, InputErrorKind::BadCArray);
    }

    #[test]
    fn permalinks_are_recognised() {
        let l = dxbc::permalink::Permalink {
            shader: example(),
            view: dxbc::permalink::ViewState { tour_step: Some(2), ..Default::default() },
        };
        let url = format!("http://127.0.0.1:8080/{}", dxbc::permalink::encode(&l));
        let d = detect_text(&url).unwrap();
        assert_eq!(d.kind, InputKind::Permalink);
        assert_eq!(d.bytes, l.shader);
        assert_eq!(d.view, Some(l.view));
        let e = detect_text("#v1/@@@").unwrap_err();
        assert_eq!(e.kind, InputErrorKind::BadPermalink);
        assert!(e.message.contains("base64url"));
        // The address bar's reader reads the same links the same way, and nothing else.
        assert_eq!(detect_link(&url).unwrap(), d);
        assert_eq!(detect_link("#v1/@@@").unwrap_err(), e);
        let hex: String = l.shader.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(detect_text(&hex).unwrap().bytes, l.shader);
        assert_eq!(detect_link(&hex).unwrap_err().kind, InputErrorKind::BadPermalink);
    }

    #[test]
    fn oversized_input_is_refused() {
        let big = vec![0u8; MAX_INPUT_BYTES + 1];
        let e = detect_file(&big).unwrap_err();
        assert_eq!(e.kind, InputErrorKind::TooLarge);
        assert!(e.to_string().contains("16 MiB"));
        assert!(detect_file(&big[..MAX_INPUT_BYTES]).is_ok());
        let text = "A".repeat(MAX_TEXT_CHARS + 1);
        assert!(detect_text(&text).unwrap_err().message.contains("more text"));
        // Decodes to 16 MiB + 1 bytes: refused after decoding.
        let hex = "00".repeat(MAX_INPUT_BYTES + 1);
        assert_eq!(detect_text(&hex).unwrap_err().kind, InputErrorKind::TooLarge);
    }

    #[test]
    fn nonsense_is_refused() {
        assert_eq!(detect_text("   ").unwrap_err().kind, InputErrorKind::Empty);
        // Prose: every word here is base64's alphabet, and some spell hex.
        for prose in ["hello, world!", "Hello world this is text", "The cafe added a bed", "Please load my shader"] {
            let e = detect_text(prose).unwrap_err();
            assert_eq!(
                (e.kind, e.to_string().as_str()),
                (InputErrorKind::NotRecognised, "not hex, base64 or a C array")
            );
        }
        // Well-formed base64 of something other than a container, in one block, is still base64.
        assert_eq!(detect_text("AAECAwQFBgcICQoLDA0ODw==").unwrap().kind, InputKind::Base64);
        // Bad padding is not.
        assert!(detect_text("AAECAwQFBgcICQoLDA0ODw=").is_err());
    }

    #[test]
    fn xxd_and_hexdump_of_every_corpus_file() {
        for (_, b) in crate::test_corpus::fxc() {
            let d = detect_text(&dumps::tests::xxd(&b)).unwrap();
            assert_eq!((d.kind, &d.bytes), (InputKind::Xxd, &b));
            let d = detect_text(&dumps::tests::hexdump_c(&b)).unwrap();
            assert_eq!((d.kind, &d.bytes), (InputKind::HexdumpC, &b));
        }
    }

    #[test]
    fn our_c_header_reads_back_for_every_corpus_file() {
        for (_, b) in crate::test_corpus::fxc() {
            let h = dxbc::export::c_header(&b, "main");
            let d = detect_text(&h).unwrap();
            assert_eq!((d.kind, &d.bytes), (InputKind::CByteArray, &b));
        }
    }
}

#[cfg(test)]
mod fixture_tests {
    /// The browser tests paste this header; it must stay the example's bytes.
    #[test]
    fn browser_fixture_is_the_tint_example() {
        let h = include_str!("../../tests/browser/fixtures/tint_ps.h");
        let d = super::detect_text(h).unwrap();
        assert_eq!(d.kind, super::InputKind::CByteArray);
        assert_eq!(d.bytes, dxbc::examples::tint_pixel_shader());
    }
}
