//! What the WGSL text gets after naga's writer: spellings the writer
//! cannot be asked for.
//!
//! naga prints every integer literal in decimal, so a mask reads
//! `(x & 4294967232u)`; a person writes `(x & 0xffffffc0u)`. [`respell`]
//! rewrites the literals that are operands of a bitwise `&`, `|` or `^`
//! (alone, or as every component of a vector of literals) in hex, a field
//! mask (low bits all ones) shifted into place (`(0x7fu << o)`), and
//! all-ones `4294967295u` wherever it is (D3D's true, a mask that
//! `select(0u, 0xffffffffu, b)` builds, a `firstbit` that found none). Only the
//! spelling of a literal changes: the value, the module and every line stay
//! as naga wrote them, so line-to-span links and the SPIR-V are untouched.
//! naga writes each statement on one line and every binary operation in
//! parentheses with a space on each side of its operator (`(a & b)`), so
//! the operands are found from the operator outwards, on one line.
//!
//! naga also writes a resource's `@group(…) @binding(…)` on a line of its
//! own, with a trailing space, above its `var`. [`join_binding_lines`]
//! puts them on the declaration's line, as the WGSL specification's own
//! examples do: `@group(0) @binding(1) var albedo: texture_2d<f32>;`. The
//! lines it joins are declarations, above every function, so the function
//! bodies' lines and their links to the DXBC bytes keep their content.
//!
//! naga writes a float in plain decimal, however small or large:
//! `0.000000000000000000000000000000000000011754944f` is `FLT_MIN`.
//! [`respell`] also writes such a literal in exponent form, the same
//! shortest round-trip digits (`1.1754944e-38f`), when that is at least
//! [`SHORTER_BY`] characters shorter; `0.5f` and `0.000019651916f` stay.

/// u32's all-ones, which reads as what it is only in hex.
const ALL_ONES: &str = "4294967295u";

/// A literal below this stays decimal (`x & 1u`, `x & 7u`: the same digits).
const HEX_FROM: u64 = 10;

/// How many characters the exponent form must save for a float literal to
/// take it.
const SHORTER_BY: usize = 3;

/// The WGSL with bit masks in hex and long floats in exponent form (see
/// the module doc), in one pass over the text.
pub fn respell(wgsl: &str) -> String {
    let mut hex = String::new();
    each_line(wgsl, |line, out| {
        let line = if needs_hex(line) {
            hex.clear();
            hex_masks_in_line(line, &mut hex);
            hex.as_str()
        } else {
            line
        };
        short_floats_in_line(line, out);
    })
}

/// The text with `per_line` applied to each line that is not a comment.
fn each_line(wgsl: &str, mut per_line: impl FnMut(&str, &mut String)) -> String {
    let mut out = String::with_capacity(wgsl.len() + wgsl.len() / 64);
    for (k, line) in wgsl.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        if line.trim_start().starts_with("//") {
            out.push_str(line);
        } else {
            per_line(line, &mut out);
        }
    }
    out
}

fn short_floats_in_line(line: &str, out: &mut String) {
    // A literal the exponent form shortens has a run of zeros.
    if !line.contains("0000") {
        out.push_str(line);
        return;
    }
    let b = line.as_bytes();
    let mut at = 0;
    let mut i = 0;
    while i < b.len() {
        let starts =
            b[i].is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'.')));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'.') {
            end += 1;
        }
        let is_float = b.get(end) == Some(&b'f')
            && !b.get(end + 1).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.');
        if is_float {
            if let Some(short) = exponent_form(&line[i..end]) {
                out.push_str(&line[at..i]);
                out.push_str(&short);
                at = end;
            }
        }
        i = end + 1;
    }
    out.push_str(&line[at..]);
}

/// `digits` (a float literal without its suffix) in exponent form, when
/// that is [`SHORTER_BY`] characters shorter.
fn exponent_form(digits: &str) -> Option<String> {
    let v: f32 = digits.parse().ok()?;
    let short = format!("{v:e}");
    (short.len() + SHORTER_BY <= digits.len()).then_some(short)
}

/// Whether `line` has a bitwise operator, a shift or all-ones to respell.
fn needs_hex(line: &str) -> bool {
    line.contains(" & ")
        || line.contains(" | ")
        || line.contains(" ^ ")
        || line.contains(" << ")
        || line.contains(ALL_ONES)
}

/// The WGSL with every line of binding attributes joined to the `var`
/// declaration below it.
pub fn join_binding_lines(wgsl: &str) -> String {
    let mut out = String::with_capacity(wgsl.len());
    let mut lines = wgsl.split('\n').peekable();
    let mut first = true;
    while let Some(line) = lines.next() {
        if !first {
            out.push('\n');
        }
        first = false;
        out.push_str(line);
        let attributes = line.starts_with("@group(") && line.trim_end().ends_with(')');
        if attributes && lines.peek().is_some_and(|next| next.starts_with("var")) {
            out.truncate(out.trim_end().len());
            out.push(' ');
            out.push_str(lines.next().unwrap_or_default());
        }
    }
    out
}

fn hex_masks_in_line(line: &str, out: &mut String) {
    let b = line.as_bytes();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for i in 1..b.len().saturating_sub(1) {
        let op = b[i];
        // `m << n` with a field mask `m`: the mask is hex, the count is not.
        if op == b'<' && b[i + 1] == b'<' && b[i - 1] == b' ' && b.get(i + 2) == Some(&b' ') {
            let left = left_literals(line, i - 1);
            if left.iter().all(|&(start, end)| is_field_mask(&line[start..end])) {
                spans.extend(left);
            }
            continue;
        }
        if !matches!(op, b'&' | b'|' | b'^') || b[i - 1] != b' ' || b[i + 1] != b' ' {
            continue;
        }
        spans.extend(right_literals(line, i + 2));
        spans.extend(left_literals(line, i - 1));
    }
    let mut from = 0;
    while let Some(k) = line[from..].find(ALL_ONES) {
        let start = from + k;
        let before = line[..start].chars().next_back();
        if before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            && literal_at(line, start).is_some()
        {
            spans.push((start, start + ALL_ONES.len()));
        }
        from = start + ALL_ONES.len();
    }
    spans.sort_unstable();
    spans.dedup();
    let mut at = 0;
    for (start, end) in spans {
        if start < at {
            continue;
        }
        out.push_str(&line[at..start]);
        match hex_literal(&line[start..end]) {
            Some(hex) => out.push_str(&hex),
            None => out.push_str(&line[start..end]),
        }
        at = end;
    }
    out.push_str(&line[at..]);
}

/// An integer literal token at `start`: its end.
fn literal_at(s: &str, start: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = start;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let digits = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if i == digits {
        return None;
    }
    if matches!(b.get(i), Some(b'u' | b'i')) {
        i += 1;
    }
    // A float (`1f`, `0.5f`) or an identifier goes on.
    match b.get(i) {
        Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.' => None,
        _ => Some(i),
    }
}

/// The literal operand starting at `start` (after an operator): a literal,
/// or a vector constructor of literals; the literals' spans.
fn right_literals(s: &str, start: usize) -> Vec<(usize, usize)> {
    if let Some(end) = literal_at(s, start) {
        return vec![(start, end)];
    }
    let rest = &s[start..];
    if !rest.starts_with("vec") {
        return Vec::new();
    }
    let Some(open) = rest.find('(') else { return Vec::new() };
    // `vec4(`, `vec2<u32>(`: nothing else between `vec` and the parenthesis.
    if !rest[..open].chars().all(|c| c.is_ascii_alphanumeric() || c == '<' || c == '>') {
        return Vec::new();
    }
    vector_literals(s, start + open + 1)
}

/// The literals of a constructor whose arguments start at `first`, when
/// every argument is one.
fn vector_literals(s: &str, first: usize) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut spans = Vec::new();
    let mut i = first;
    loop {
        let Some(end) = literal_at(s, i) else { return Vec::new() };
        spans.push((i, end));
        match (b.get(end), b.get(end + 1)) {
            (Some(b')'), _) => return spans,
            (Some(b','), Some(b' ')) => i = end + 2,
            _ => return Vec::new(),
        }
    }
}

/// The literal operand ending just before `end` (before an operator).
fn left_literals(s: &str, end: usize) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    if end == 0 {
        return Vec::new();
    }
    if b[end - 1] == b')' {
        // A vector constructor of literals: back to its parenthesis.
        let Some(open) = s[..end].rfind('(') else { return Vec::new() };
        let head = &s[..open];
        let name_start =
            head.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '<' || c == '>')).map_or(0, |p| p + 1);
        if !head[name_start..].starts_with("vec") {
            return Vec::new();
        }
        let spans = vector_literals(s, open + 1);
        return if spans.last().is_some_and(|&(_, e)| e + 1 == end) { spans } else { Vec::new() };
    }
    let start =
        s[..end].rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')).map_or(0, |p| p + 1);
    match literal_at(s, start) {
        Some(e) if e == end => vec![(start, end)],
        _ => Vec::new(),
    }
}

/// Whether the integer literal `token` has only low bits set, all of them
/// (`127u`: a field's width as a mask).
fn is_field_mask(token: &str) -> bool {
    let digits = token.trim_end_matches(['u', 'i']);
    digits.parse::<u32>().is_ok_and(|v| v != 0 && v & v.wrapping_add(1) == 0)
}

/// `token` in hex, when it is a non-negative integer literal of at least
/// [`HEX_FROM`].
fn hex_literal(token: &str) -> Option<String> {
    let (digits, suffix) = match token.as_bytes().last() {
        Some(b'u' | b'i') => token.split_at(token.len() - 1),
        _ => (token, ""),
    };
    let v: u64 = digits.parse().ok()?;
    (v >= HEX_FROM).then(|| format!("0x{v:x}{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_hex_and_other_literals_are_not() {
        let cases = [
            ("    let a = (x & 4294967232u);", "    let a = (x & 0xffffffc0u);"),
            ("    let a = (65535u & x);", "    let a = (0xffffu & x);"),
            ("    let a = ((x >> 16u) | 2147483648u);", "    let a = ((x >> 16u) | 0x80000000u);"),
            ("    let a = (x ^ 255i);", "    let a = (x ^ 0xffi);"),
            // Small masks read the same either way; shift counts and sums stay decimal.
            ("    let a = ((x & 1u) + 1040187392u);", "    let a = ((x & 1u) + 1040187392u);"),
            // Every component of a vector of literals, splat or not.
            (
                "    let v = (y & vec4<u32>(1023u, 127u, 3u, 8388607u));",
                "    let v = (y & vec4<u32>(0x3ffu, 0x7fu, 3u, 0x7fffffu));",
            ),
            ("    let v = (vec2(32767u) & y);", "    let v = (vec2(0x7fffu) & y);"),
            // A vector with a non-literal argument, a negative i32, a float: unchanged.
            ("    let v = (y & vec2<u32>(z, 255u));", "    let v = (y & vec2<u32>(z, 255u));"),
            ("    let a = (x & -16i);", "    let a = (x & -16i);"),
            ("    let b = (p && (q || r));", "    let b = (p && (q || r));"),
            ("    let a = (x_255u & y);", "    let a = (x_255u & y);"),
            // All ones, wherever it is.
            ("    let m = select(0u, 4294967295u, b);", "    let m = select(0u, 0xffffffffu, b);"),
            ("    let m = (14294967295u + 4294967295u);", "    let m = (14294967295u + 0xffffffffu);"),
            ("    // (x & 4294967232u)", "    // (x & 4294967232u)"),
            // A field mask shifted into place; other shifted values and every count stay decimal.
            ("    let m = (vec4(127u) << (o & vec4(31u)));", "    let m = (vec4(0x7fu) << (o & vec4(0x1fu)));"),
            ("    let m = (65535u << 16u);", "    let m = (0xffffu << 16u);"),
            ("    let m = (100u << 2u);", "    let m = (100u << 2u);"),
            ("    let m = (vec2<u32>(255u, 12u) << s);", "    let m = (vec2<u32>(255u, 12u) << s);"),
            ("    let m = (x << 255u);", "    let m = (x << 255u);"),
        ];
        for (naga, ours) in cases {
            assert_eq!(respell(naga), ours);
        }
    }

    #[test]
    fn binding_attributes_share_their_declaration_line() {
        let naga = "@group(0) @binding(0) \nvar<uniform> cb: Cb;\n@group(1) @binding(5) \nvar t: texture_2d<f32>;\nvar<private> x: u32;\n";
        let ours = "@group(0) @binding(0) var<uniform> cb: Cb;\n@group(1) @binding(5) var t: texture_2d<f32>;\nvar<private> x: u32;\n";
        assert_eq!(join_binding_lines(naga), ours);
        // Attributes of anything but a `var` stay where they are.
        let entry = "@fragment \nfn main() {\n}\n";
        assert_eq!(join_binding_lines(entry), entry);
    }

    #[test]
    fn long_floats_take_the_exponent_form() {
        let cases = [
            (
                "    let m = max(x, 0.000000000000000000000000000000000000011754944f);",
                "    let m = max(x, 1.1754944e-38f);",
            ),
            ("    let m = min(x, 340282350000000000000000000000000000000f);", "    let m = min(x, 3.4028235e38f);"),
            (
                "    let a = vec2<f32>(100000000000000000000f, 0.00000008742278f);",
                "    let a = vec2<f32>(1e20f, 8.742278e-8f);",
            ),
            // Saving fewer than three characters, or none: unchanged.
            ("    let a = (x * 0.000019651916f);", "    let a = (x * 0.000019651916f);"),
            ("    let a = (x * 10000f);", "    let a = (x * 10000f);"),
            // Not floats: integers, names, hex, comments.
            ("    let a = (bits_00000004_ + 100000000u);", "    let a = (bits_00000004_ + 100000000u);"),
            ("    let a = (x & 0x80000000u);", "    let a = (x & 0x80000000u);"),
            ("    // 0.00000008742278f", "    // 0.00000008742278f"),
        ];
        for (naga, ours) in cases {
            assert_eq!(respell(naga), ours);
        }
        // The same value: every literal the corpus has reads back bit for bit.
        for text in ["0.000000000000000000000000000012621775", "6259853400000000000", "0.00000000000000000005421011"] {
            let short = exponent_form(text).expect("shorter");
            assert_eq!(short.parse::<f32>().unwrap().to_bits(), text.parse::<f32>().unwrap().to_bits(), "{short}");
        }
    }

    #[test]
    fn lines_stay_where_they_are() {
        let text = "fn f() {\n    let a = (x & 65535u);\n}\n";
        let out = respell(text);
        assert_eq!(out.lines().count(), text.lines().count());
        assert!(out.ends_with("}\n"));
    }
}
