//! Hex dumps as the `xxd` and `hexdump -C` tools print them: an offset
//! column, the bytes in hex, and an ASCII column, all but the bytes ignored.
//!
//! * `xxd`: `00000000: 4458 4243 9103 5d28 …  DXBC..](…` — the offset ends in
//!   `:`, bytes come in groups of two (four digits), and the ASCII column
//!   starts after the first run of two spaces.
//! * `hexdump -C`: `00000000  44 58 42 43 …  |DXBC…|` — the bytes stop at
//!   the first `|`; a line `*` stands for repeats of the line before it up
//!   to the next offset, and a last line holding only an offset gives the
//!   length.
//!
//! Offsets are checked: every line must start where the bytes so far end
//! (or, after `*`, at a whole number of repeats of the previous line).

/// Which tool's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpKind {
    /// `xxd` (also `xxd -a`, which writes `*` too).
    Xxd,
    /// `hexdump -C`.
    HexdumpC,
}

/// The bytes of a dump, when the text is one; `limit` bounds the bytes it may
/// spell out (a `*` line could otherwise claim any length).
pub fn parse(text: &str, limit: usize) -> Option<(DumpKind, Vec<u8>)> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    let kind = if is_offset(first.get(..8)?) && first[8..].starts_with(':') {
        DumpKind::Xxd
    } else if is_offset(first.get(..8)?) && first[8..].starts_with("  ") && first.contains('|') {
        DumpKind::HexdumpC
    } else {
        return None;
    };
    let mut out: Vec<u8> = Vec::new();
    let mut last: Vec<u8> = Vec::new();
    let mut starred = false;
    for line in text.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
        if line == "*" {
            starred = true;
            continue;
        }
        let digits = line.bytes().take_while(u8::is_ascii_hexdigit).count();
        if digits < 7 {
            return None;
        }
        let at = usize::from_str_radix(&line[..digits], 16).ok()?;
        if at > limit {
            return None;
        }
        let rest = &line[digits..];
        if starred {
            // Repeats of the previous line up to this offset.
            if last.is_empty() || at < out.len() || !(at - out.len()).is_multiple_of(last.len()) {
                return None;
            }
            while out.len() < at {
                out.extend_from_slice(&last);
            }
            starred = false;
        }
        if at != out.len() {
            return None;
        }
        let hex = match kind {
            DumpKind::Xxd => {
                let r = rest.strip_prefix(':')?.strip_prefix(' ').unwrap_or("");
                r.split("  ").next().unwrap_or("")
            }
            // An offset alone ends the dump.
            DumpKind::HexdumpC if rest.is_empty() => break,
            DumpKind::HexdumpC => rest.split('|').next().unwrap_or(""),
        };
        let digits: String = hex.split_whitespace().collect();
        if digits.is_empty() || !digits.len().is_multiple_of(2) || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        last = (0..digits.len()).step_by(2).map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap_or(0)).collect();
        if out.len() + last.len() > limit {
            return None;
        }
        out.extend_from_slice(&last);
    }
    (!out.is_empty()).then_some((kind, out))
}

fn is_offset(s: &str) -> bool {
    s.len() == 8 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `xxd`'s default layout: 16 bytes a line in groups of two, the hex
    /// column padded to 39 characters, two spaces, then the bytes as ASCII
    /// (`.` for anything unprintable).
    pub fn xxd(b: &[u8]) -> String {
        let mut s = String::new();
        for (n, row) in b.chunks(16).enumerate() {
            let hex: Vec<String> = row.chunks(2).map(|g| g.iter().map(|x| format!("{x:02x}")).collect()).collect();
            s.push_str(&format!("{:08x}: {:<39}  {}\n", n * 16, hex.join(" "), ascii(row)));
        }
        s
    }

    /// `hexdump -C`: offset, two spaces, eight bytes, an extra space, eight
    /// bytes, the column padded, `|ASCII|`; a run of lines equal to the one
    /// before becomes one `*`; the length ends it.
    pub fn hexdump_c(b: &[u8]) -> String {
        let mut s = String::new();
        let mut prev: Option<&[u8]> = None;
        let mut starred = false;
        for (n, row) in b.chunks(16).enumerate() {
            if prev == Some(row) && row.len() == 16 {
                if !starred {
                    s.push_str("*\n");
                    starred = true;
                }
                continue;
            }
            starred = false;
            prev = Some(row);
            let mut hex = String::new();
            for (i, x) in row.iter().enumerate() {
                hex.push_str(&format!("{x:02x} "));
                if i == 7 {
                    hex.push(' ');
                }
            }
            s.push_str(&format!("{:08x}  {:<49} |{}|\n", n * 16, hex, ascii(row)));
        }
        s.push_str(&format!("{:08x}\n", b.len()));
        s
    }

    fn ascii(row: &[u8]) -> String {
        row.iter().map(|&c| if (0x20..0x7f).contains(&c) { c as char } else { '.' }).collect()
    }

    #[test]
    fn formatters_match_the_real_tools() {
        let bytes =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/fxc/dxdecompiler_vs5_mov.dxbc"))
                .unwrap();
        assert_eq!(xxd(&bytes), include_str!("../../tests/fixtures/dxdecompiler_vs5_mov.xxd.txt"));
        assert_eq!(hexdump_c(&bytes), include_str!("../../tests/fixtures/dxdecompiler_vs5_mov.hexdump-C.txt"));
    }

    #[test]
    fn real_tool_output_reads_back() {
        let bytes =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/fxc/dxdecompiler_vs5_mov.dxbc"))
                .unwrap();
        let x = include_str!("../../tests/fixtures/dxdecompiler_vs5_mov.xxd.txt");
        assert_eq!(parse(x, 1 << 20), Some((DumpKind::Xxd, bytes.clone())));
        let h = include_str!("../../tests/fixtures/dxdecompiler_vs5_mov.hexdump-C.txt");
        assert!(h.contains("\n*\n"), "the fixture exercises `*`");
        assert_eq!(parse(h, 1 << 20), Some((DumpKind::HexdumpC, bytes.clone())));
        // A `*` claiming more than the limit is refused, not spelled out.
        let huge = "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\nffffff00\n";
        assert_eq!(parse(huge, 1 << 20), None);
        // A line out of place is not a dump.
        let gap = "00000000: 4458 4243  DXBC\n00000010: 0000  ..\n";
        assert_eq!(parse(gap, 1 << 20), None);
    }
}
