//! Syntax classes for a line of fxc's listing. The pieces concatenate back
//! to the line exactly; the page renders them as text nodes.

/// Class of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `// …`
    Comment,
    /// The instruction or declaration name.
    Mnemonic,
    /// A register (`r0`, `cb0`, `v1`, `o0`, `t3`, `s0`, `u1`, `x0` …).
    Register,
    /// Swizzle or mask after a dot.
    Swizzle,
    /// A number.
    Number,
    /// Everything else (punctuation, spaces, keywords).
    Plain,
}

impl Class {
    /// CSS class.
    pub fn css(self) -> &'static str {
        match self {
            Class::Comment => "s-com",
            Class::Mnemonic => "s-mn",
            Class::Register => "s-reg",
            Class::Swizzle => "s-swz",
            Class::Number => "s-num",
            Class::Plain => "",
        }
    }
}

const REG_PREFIXES: &[&str] = &[
    "icb",
    "cb",
    "CB",
    "r",
    "v",
    "o",
    "t",
    "T",
    "s",
    "S",
    "u",
    "U",
    "x",
    "g",
    "l",
    "m",
    "fb",
    "vCycleCounter",
    "vThreadID",
    "vThreadGroupID",
    "vThreadIDInGroup",
    "vThreadIDInGroupFlattened",
    "vPrim",
    "vCoverage",
    "vOutputControlPointID",
    "vForkInstanceID",
    "vJoinInstanceID",
    "vDomain",
    "vicp",
    "vocp",
    "vpc",
    "vGSInstanceID",
    "oDepth",
    "oMask",
    "rasterizer",
];

fn is_register(w: &str) -> bool {
    if w.starts_with('v') && w.len() > 1 && w[1..].chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
        return true;
    }
    if w.starts_with("oDepth") || w == "oMask" {
        return true;
    }
    REG_PREFIXES
        .iter()
        .any(|p| w.strip_prefix(p).is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())))
}

/// Splits `line` into classed pieces.
pub fn highlight(line: &str) -> Vec<(Class, &str)> {
    let mut out = Vec::new();
    let (code, comment) = match line.find("//") {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    };
    let b = code.as_bytes();
    let mut i = 0;
    let mut seen_word = false;
    let mut after_dot = false;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &code[start..i];
            let class = if !seen_word {
                Class::Mnemonic
            } else if after_dot {
                Class::Swizzle
            } else if is_register(w) {
                Class::Register
            } else {
                Class::Plain
            };
            seen_word = true;
            after_dot = false;
            out.push((class, w));
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'+' && b[i - 1] == b'e') {
                i += 1;
            }
            after_dot = false;
            out.push((Class::Number, &code[start..i]));
        } else {
            after_dot = c == b'.';
            i += 1;
            out.push((Class::Plain, &code[start..i]));
        }
    }
    if !comment.is_empty() {
        out.push((Class::Comment, comment));
    }
    merge_plain(line, out, Class::Plain)
}

/// The classes a listing piece can have besides plain text, in the order
/// [`packed_pieces`] numbers them from 1.
pub const PIECE_CLASSES: [Class; 5] = [Class::Comment, Class::Mnemonic, Class::Register, Class::Swizzle, Class::Number];

/// Line `line`'s pieces as the listing's row writer takes them (one
/// crossing into JS a row): four numbers a piece, its class (0 for plain
/// text, else 1 + its place in [`PIECE_CLASSES`]), where it starts and
/// ends in UTF-16 units of the line (JS strings count those), and its
/// index among the pieces when it is a register (the `data-p` a click
/// reads back), else `u32::MAX`.
pub fn packed_pieces(line: &str) -> Vec<u32> {
    let pieces = highlight(line);
    let mut out = Vec::with_capacity(pieces.len() * 4);
    let mut at = 0u32;
    for (k, (c, t)) in pieces.into_iter().enumerate() {
        let len = if t.is_ascii() { t.len() } else { t.encode_utf16().count() } as u32;
        let class = PIECE_CLASSES.iter().position(|&x| x == c).map_or(0, |i| i as u32 + 1);
        let p = if c == Class::Register { k as u32 } else { u32::MAX };
        out.extend([class, at, at + len, p]);
        at += len;
    }
    out
}

/// The CSS classes of [`PIECE_CLASSES`], separated by spaces.
pub fn piece_class_names() -> String {
    PIECE_CLASSES.map(Class::css).join(" ")
}

/// Joins neighbouring `plain` pieces of `line` (consecutive slices of it)
/// so lines stay light in the DOM; shared by the listing and HLSL
/// highlighters.
pub(crate) fn merge_plain<'a, C: Copy + PartialEq>(
    line: &'a str,
    out: Vec<(C, &'a str)>,
    plain: C,
) -> Vec<(C, &'a str)> {
    let mut merged: Vec<(C, &str)> = Vec::with_capacity(out.len());
    for (c, s) in out {
        if let Some(last) = merged.last_mut() {
            if last.0 == c && c == plain {
                let a = last.1.as_ptr() as usize - line.as_ptr() as usize;
                last.1 = &line[a..a + last.1.len() + s.len()];
                continue;
            }
        }
        merged.push((c, s));
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_rebuild_the_line() {
        for l in [
            "mul o0.xyzw, v0.xyzw, cb0[0].xyzw",
            "  sample_l_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)",
            "// Name                 Index   Mask Register SysValue  Format   Used",
            "dcl_thread_group 8, 8, 1",
            "",
            "mov r0.x, l(-1.500000e+10) // trailing",
        ] {
            let p = highlight(l);
            assert_eq!(p.iter().map(|x| x.1).collect::<String>(), l);
        }
    }

    #[test]
    fn packed_pieces_cover_the_line_in_utf16_units() {
        for l in ["mul o0.xyzw, v0.xyzw, cb0[0].xyzw // tail", "// Name été 𝄞 r0", "dcl_resource_structured t0, 16", ""]
        {
            let packed = packed_pieces(l);
            let pieces = highlight(l);
            assert_eq!(packed.len(), 4 * pieces.len());
            let utf16: Vec<u16> = l.encode_utf16().collect();
            let mut end = 0;
            for (k, (q, (c, t))) in packed.chunks(4).zip(pieces).enumerate() {
                assert_eq!(q[1], end, "pieces follow each other");
                assert_eq!(String::from_utf16(&utf16[q[1] as usize..q[2] as usize]).unwrap(), t);
                let class = if q[0] == 0 { Class::Plain } else { PIECE_CLASSES[q[0] as usize - 1] };
                assert_eq!(class, c);
                assert_eq!(q[3], if c == Class::Register { k as u32 } else { u32::MAX });
                end = q[2];
            }
            assert_eq!(end as usize, utf16.len());
        }
        assert_eq!(piece_class_names(), "s-com s-mn s-reg s-swz s-num");
    }

    #[test]
    fn classes() {
        let p = highlight("mul o0.xyzw, v0.xyzw, cb0[0].xyzw");
        assert_eq!(p[0], (Class::Mnemonic, "mul"));
        assert_eq!(p[2], (Class::Register, "o0"));
        assert_eq!(p[4], (Class::Swizzle, "xyzw"));
        assert!(p.contains(&(Class::Number, "0")));
        let p = highlight("mov r1.x, l(1.500000)");
        assert!(p.contains(&(Class::Number, "1.500000")));
        assert_eq!(highlight("// hi")[0], (Class::Comment, "// hi"));
        assert!(highlight("ld r0.xyzw, vThreadID.xyzz, t0.xyzw").contains(&(Class::Register, "vThreadID")));
    }
}
