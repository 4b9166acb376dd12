//! fxc-identical text listings.

pub mod debug;
pub mod header;
pub mod lines;
pub mod program;

use crate::Shader;

/// Which fxc generation's spelling to follow where releases differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// Pick from the creator string in RDEF (releases before 10.0 are
    /// legacy); files without one are printed in the modern spelling.
    #[default]
    Auto,
    /// d3dcompiler_47 and later (fxc 10.x).
    Modern,
    /// fxc 9.x and 6.3.
    Legacy,
    /// fxc 9.30 (Windows 8 SDK): the legacy spelling, and a `///` header
    /// line where 9.29 echoed its command line. Files with a creator string
    /// print the header their compiler wrote whatever is asked; this choice
    /// matters for stripped files, whose bytes cannot tell.
    Legacy930,
    /// The listings 3Dmigoto dumps from games (Microsoft's disassembler,
    /// with each float whose six decimals would read back as another float
    /// printed again with nine significant digits: `l(3.14159274)`,
    /// `l(0.000976562500)`), so that the text holds every float exactly.
    /// The rest is spelled as fxc 10 spells it, though those dumps write a
    /// stripped file's constant buffers as fxc 9 did (`cb0[4]`, not
    /// `CB0[4]`).
    Exact,
}

/// The whole listing as `fxc /Fc` writes it.
pub fn disassemble(shader: &Shader) -> String {
    disassemble_with(shader, Dialect::Auto)
}

/// The listing in a chosen dialect.
pub fn disassemble_with(shader: &Shader, dialect: Dialect) -> String {
    print(shader, dialect, &mut ())
}

/// The listing ([`disassemble`]) and its line map ([`lines::LineMap::new`])
/// from one printing: the explorer needs both for every file and edit, and
/// printing a large program twice costs more than a frame.
pub fn disassemble_mapped(shader: &Shader) -> (String, lines::LineMap) {
    let mut marks = Vec::new();
    let text = print(shader, Dialect::Auto, &mut marks);
    let map = lines::LineMap::from_marks(shader, &text, &marks);
    (text, map)
}

/// Prints the listing; with `marks`, notes where each instruction's line
/// starts and its text ends (byte offsets into the listing).
fn print<M: program::Marks>(shader: &Shader, dialect: Dialect, marks: &mut M) -> String {
    let mut out = String::with_capacity(shader.bytes.len() * 4);
    header::write_header_with(shader, dialect, &mut out);
    let (legacy, ties_away) = spelling(shader, dialect);
    // The header ends where the profile line starts.
    marks.mark(out.len(), out.len());
    if let Some(p) = &shader.program {
        let cx = program::Ctx {
            sm51: p.version.is_sm51(),
            legacy,
            ties_away: ties_away || legacy,
            exact: dialect == Dialect::Exact,
        };
        program::write_program_marked(p, cx, debug::annotations(shader).as_ref(), &mut out, marks);
    }
    write_trailer(shader, &mut out);
    out
}

/// Whether `shader`'s program is spelled as fxc 9 did (`legacy`), and
/// whether its floats round ties away from zero.
fn spelling(shader: &Shader, dialect: Dialect) -> (bool, bool) {
    let legacy = match dialect {
        Dialect::Auto => creator_major(shader).is_some_and(|m| m < 10),
        // The exact form keeps fxc 10's spelling: fxc 9's drops the
        // interpolation mode of system-generated inputs, which the text
        // must hold.
        Dialect::Modern | Dialect::Exact => false,
        Dialect::Legacy | Dialect::Legacy930 => true,
    };
    // The Durango (Xbox One) toolchain's C runtime rounds ties away from
    // zero like fxc 9's; its XPDP chunk is what names it in the header too.
    let ties_away = legacy || shader.container.find(b"XPDP").is_some();
    (legacy, ties_away)
}

/// The context [`disassemble`] prints `shader`'s instructions in, for
/// printing one of them alone with [`program::write_instruction`].
pub fn program_ctx(shader: &Shader) -> Option<program::Ctx> {
    let p = shader.program.as_ref()?;
    let (legacy, ties_away) = spelling(shader, Dialect::Auto);
    Some(program::Ctx { sm51: p.version.is_sm51(), legacy, ties_away: ties_away || legacy, exact: false })
}

/// Appends `n` in decimal: the digits alone, with none of `format!`'s
/// machinery (names and paths are built on hot paths).
pub fn push_decimal(out: &mut String, n: u64) {
    // Register numbers and small immediates: one or two digits.
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
        return;
    }
    if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let (mut n, mut k) = (n, digits.len());
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits: always UTF-8.
    out.push_str(std::str::from_utf8(&digits[k..]).unwrap_or_default());
}

/// Appends `x` as eight lower-case hex digits (`{:08x}` without its
/// machinery).
pub fn push_hex8(out: &mut String, x: u32) {
    const D: &[u8; 16] = b"0123456789abcdef";
    out.extend((0..8).rev().map(|i| D[(x >> (4 * i) & 0xf) as usize] as char));
}

/// Major version of the compiler named in RDEF's creator string
/// ("Microsoft (R) HLSL Shader Compiler 9.30.9200.16384" gives 9).
pub fn creator_major(shader: &Shader) -> Option<u32> {
    if let Some(r) = &shader.rdef {
        return major_of(&r.creator);
    }
    // An RDEF chunk that did not decode whole may still name its compiler.
    let c = shader.container.find(b"RDEF")?;
    let data = &shader.bytes[c.data_range()];
    let r = crate::reader::Reader::new(data, c.offset + 8);
    let off = r.u32_at(24, "creator offset").ok()? as usize;
    major_of(&r.cstr_at(off, "creator").ok()?)
}

/// The number before the first `.` of the creator string's last word.
fn major_of(creator: &str) -> Option<u32> {
    // Byte scans: spaces and dots are ASCII, so the cuts are char
    // boundaries, and a scan of this short string costs less than a searcher.
    let b = creator.as_bytes();
    let ver = &creator[b.iter().rposition(|&c| c == b' ').map_or(0, |i| i + 1)..];
    ver[..ver.bytes().position(|c| c == b'.').unwrap_or(ver.len())].parse().ok()
}

fn write_trailer(shader: &Shader, out: &mut String) {
    // The first STAT dword is the instruction count fxc reports.
    let stat = shader.container.find(b"STAT").filter(|c| c.size >= 4);
    if let Some(c) = stat {
        let n = crate::reader::dword(&shader.bytes[c.data_range()], 0);
        out.push_str("// Approximately ");
        push_decimal(out, u64::from(n));
        out.push_str(" instruction slots used\n");
    } else {
        out.push_str("// Approximately 0 instruction slots used\n");
    }
}

#[cfg(test)]
mod decimal_tests {
    #[test]
    fn push_decimal_writes_the_digits() {
        for n in [0u64, 7, 9, 10, 99, 100, 4_294_967_295, u64::MAX] {
            let mut s = String::from("r");
            super::push_decimal(&mut s, n);
            assert_eq!(s, format!("r{n}"));
        }
    }

    #[test]
    fn the_creator_major_is_the_last_words_number_before_its_first_dot() {
        // What the string ops gave: `rsplit(' ')`, then `split('.')`, then parse.
        let by_split = |s: &str| -> Option<u32> { s.rsplit(' ').next()?.split('.').next()?.parse().ok() };
        for s in [
            "Microsoft (R) HLSL Shader Compiler 9.29.952.3111",
            "Microsoft (R) HLSL Shader Compiler 10.1",
            "Microsoft (R) HLSL Shader Compiler 6.3.9600.16384",
            "vkd3d-shader 1.17",
            "12",
            "",
            "trailing space ",
            "Compiler x.1",
            "Compiler .5",
            "Compilér 9.30",
        ] {
            assert_eq!(super::major_of(s), by_split(s), "{s:?}");
        }
        assert_eq!(super::major_of("Microsoft (R) HLSL Shader Compiler 9.29.952.3111"), Some(9));
    }

    #[test]
    fn push_hex8_writes_eight_digits() {
        for x in [0u32, 0xa, 0x3f80_0000, 0xdead_beef, u32::MAX] {
            let mut s = String::from("0x");
            super::push_hex8(&mut s, x);
            assert_eq!(s, format!("0x{x:08x}"));
        }
    }
}
