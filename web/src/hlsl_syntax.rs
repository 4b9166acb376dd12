//! Syntax classes for HLSL source lines (the source pane). The pieces of a
//! line concatenate back to it exactly; the page renders them as text
//! nodes. Block comments run across lines, so each line starts in the
//! state [`comment_states`] gives it, found in one pass over the file.

/// Class of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `// …` or `/* … */`.
    Comment,
    /// A keyword (`return`, `if`, `cbuffer`, `in` …).
    Keyword,
    /// A built-in type (`float4`, `Texture2D`, `SamplerState` …).
    Type,
    /// A number.
    Number,
    /// A string literal (`#include "x.hlsl"`).
    Str,
    /// A preprocessor directive (`#define`).
    Directive,
    /// Names, punctuation and spaces.
    Plain,
}

impl Class {
    /// CSS class.
    pub fn css(self) -> &'static str {
        match self {
            Class::Comment => "s-com",
            Class::Keyword => "s-kw",
            Class::Type => "s-ty",
            Class::Number => "s-num",
            Class::Str => "s-str",
            Class::Directive => "s-pp",
            Class::Plain => "",
        }
    }
}

const KEYWORDS: &[&str] = &[
    "break",
    "case",
    "cbuffer",
    "centroid",
    "class",
    "column_major",
    "const",
    "continue",
    "default",
    "discard",
    "do",
    "else",
    "export",
    "extern",
    "false",
    "for",
    "globallycoherent",
    "groupshared",
    "if",
    "in",
    "inline",
    "inout",
    "interface",
    "linear",
    "namespace",
    "nointerpolation",
    "noperspective",
    "out",
    "packoffset",
    "precise",
    "register",
    "return",
    "row_major",
    "sample",
    "shared",
    "static",
    "struct",
    "switch",
    "tbuffer",
    "true",
    "typedef",
    "uniform",
    "volatile",
    "while",
    "point",
    "line",
    "triangle",
    "lineadj",
    "triangleadj",
];

/// Scalar base names that take vector and matrix suffixes (`float3x4`).
const SCALARS: &[&str] = &[
    "bool",
    "int",
    "uint",
    "dword",
    "half",
    "float",
    "double",
    "min16float",
    "min10float",
    "min16int",
    "min12int",
    "min16uint",
    "int64_t",
    "uint64_t",
    "float16_t",
    "int16_t",
    "uint16_t",
];

const OBJECT_TYPES: &[&str] = &[
    "void",
    "vector",
    "matrix",
    "string",
    "sampler",
    "SamplerState",
    "SamplerComparisonState",
    "Texture1D",
    "Texture1DArray",
    "Texture2D",
    "Texture2DArray",
    "Texture2DMS",
    "Texture2DMSArray",
    "Texture3D",
    "TextureCube",
    "TextureCubeArray",
    "Buffer",
    "ByteAddressBuffer",
    "StructuredBuffer",
    "RWBuffer",
    "RWByteAddressBuffer",
    "RWStructuredBuffer",
    "RWTexture1D",
    "RWTexture1DArray",
    "RWTexture2D",
    "RWTexture2DArray",
    "RWTexture3D",
    "AppendStructuredBuffer",
    "ConsumeStructuredBuffer",
    "InputPatch",
    "OutputPatch",
    "PointStream",
    "LineStream",
    "TriangleStream",
    "ConstantBuffer",
];

fn is_type(w: &str) -> bool {
    if OBJECT_TYPES.contains(&w) {
        return true;
    }
    SCALARS.iter().any(|s| {
        let Some(rest) = w.strip_prefix(s) else { return false };
        let b = rest.as_bytes();
        match b {
            [] => true,
            [n] => (b'1'..=b'4').contains(n),
            [r, b'x', c] => (b'1'..=b'4').contains(r) && (b'1'..=b'4').contains(c),
            _ => false,
        }
    })
}

/// Whether each line of `text` (split as [`str::lines`] does) starts inside
/// a block comment.
pub fn comment_states<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<bool> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in lines {
        out.push(inside);
        inside = highlight(l, inside).1;
    }
    out
}

/// Splits `line` into classed pieces, starting inside a block comment when
/// `in_comment`; also says whether the line ends inside one.
pub fn highlight(line: &str, in_comment: bool) -> (Vec<(Class, &str)>, bool) {
    let b = line.as_bytes();
    let mut out: Vec<(Class, &str)> = Vec::new();
    let mut i = 0;
    let mut inside = in_comment;
    // Only spaces so far: a `#` here starts a directive.
    let mut line_start = true;
    while i < b.len() {
        let start = i;
        if inside {
            match line[i..].find("*/") {
                Some(k) => {
                    i += k + 2;
                    inside = false;
                }
                None => i = b.len(),
            }
            out.push((Class::Comment, &line[start..i]));
            continue;
        }
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            out.push((Class::Comment, &line[i..]));
            break;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            inside = true;
            i += 2;
            match line[i..].find("*/") {
                Some(k) => {
                    i += k + 2;
                    inside = false;
                }
                None => i = b.len(),
            }
            out.push((Class::Comment, &line[start..i]));
            continue;
        }
        if c == b'#' && line_start {
            i += 1;
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            line_start = false;
            out.push((Class::Directive, &line[start..i]));
            continue;
        }
        if !(c == b' ' || c == b'\t') {
            line_start = false;
        }
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push((Class::Str, &line[start..i]));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &line[start..i];
            let class = if KEYWORDS.contains(&w) {
                Class::Keyword
            } else if is_type(w) {
                Class::Type
            } else {
                Class::Plain
            };
            out.push((class, w));
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            out.push((Class::Number, &line[start..i]));
        } else {
            // One character (whole, so a multi-byte one is never split).
            i += line[i..].chars().next().map_or(1, char::len_utf8);
            out.push((Class::Plain, &line[start..i]));
        }
    }
    (crate::syntax::merge_plain(line, out, Class::Plain), inside)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(line: &str) -> Vec<(Class, &str)> {
        highlight(line, false).0.into_iter().filter(|p| p.0 != Class::Plain).collect()
    }

    #[test]
    fn pieces_rebuild_the_line() {
        for l in [
            "float4 PSMain(PS_INPUT Input) : SV_TARGET",
            "    float fLighting = saturate(dot(g_vLightDir, Input.vNormal)); // comment",
            "#define PI 3.14159265f /* half */ x",
            "  Texture2D<float4> t : register(t0);  é \"q\\\"s\" ",
            "",
            "*/ after",
        ] {
            for inside in [false, true] {
                let (p, _) = highlight(l, inside);
                assert_eq!(p.iter().map(|x| x.1).collect::<String>(), l);
            }
        }
    }

    #[test]
    fn keywords_types_numbers_comments() {
        assert_eq!(
            classes("float4 main(in float2 uv : TEXCOORD0) { return 1.5e-3f; } // done"),
            [
                (Class::Type, "float4"),
                (Class::Keyword, "in"),
                (Class::Type, "float2"),
                (Class::Keyword, "return"),
                (Class::Number, "1.5e-3f"),
                (Class::Comment, "// done"),
            ]
        );
        assert_eq!(
            classes("row_major float3x4 m; half2x2 h; float5 no;"),
            [(Class::Keyword, "row_major"), (Class::Type, "float3x4"), (Class::Type, "half2x2"),]
        );
        assert_eq!(
            classes("#include \"common.hlsli\""),
            [(Class::Directive, "#include"), (Class::Str, "\"common.hlsli\"")]
        );
        // A # inside a line is no directive; a name holding a keyword is a name.
        assert_eq!(classes("x = a # b; returned = 0x1F;"), [(Class::Number, "0x1F")]);
    }

    #[test]
    fn block_comments_run_across_lines() {
        let text = "a /* one\ntwo\nthree */ b\nc";
        assert_eq!(comment_states(text.lines()), [false, true, true, false]);
        let (p, inside) = highlight("three */ float b", true);
        assert_eq!(p[0], (Class::Comment, "three */"));
        assert!(p.contains(&(Class::Type, "float")));
        assert!(!inside);
        let (p, inside) = highlight("x /* open", false);
        assert_eq!(p.last(), Some(&(Class::Comment, "/* open")));
        assert!(inside);
    }
}
