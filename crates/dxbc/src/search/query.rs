//! Reading a search box's text into a typed query.

use crate::register::Register;
use crate::spec;

/// What the text asks for. Decided from the text alone, in this order:
/// an offset (`0x8a8`, `@2216`), a register (`r3`, `cb0[5]`), an opcode
/// mnemonic (`mul`, `mul_sat`, `sample_indexable`), a hex byte pattern
/// (`8a 00 01 00` or `8a000100`: pairs of hex digits), else a name to look
/// up in the reflection data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// Nothing to look for.
    Empty,
    /// The item covering this byte.
    Offset(usize),
    /// Operands naming the register.
    Register(Register),
    /// Instructions with this mnemonic: the opcode's base name matches every
    /// variant (`mul` finds `mul_sat`), a suffixed one only itself.
    Mnemonic(String),
    /// This byte sequence anywhere in the file.
    Bytes(Vec<u8>),
    /// A constant-buffer variable, resource binding or signature semantic.
    Name(String),
}

/// The most bytes a hex pattern may hold (a search box, not a file).
const MAX_PATTERN: usize = 4096;

impl Query {
    /// Reads a query; never fails (unrecognised text is a [`Query::Name`]).
    pub fn parse(text: &str) -> Query {
        let t = text.trim();
        if t.is_empty() {
            return Query::Empty;
        }
        if let Some(o) = offset(t) {
            return Query::Offset(o);
        }
        if let Some(r) = Register::parse(t) {
            return Query::Register(r);
        }
        if is_mnemonic(t) {
            return Query::Mnemonic(t.to_string());
        }
        if let Some(b) = hex_pattern(t) {
            return Query::Bytes(b);
        }
        Query::Name(t.to_string())
    }
}

fn offset(t: &str) -> Option<usize> {
    if let Some(d) = t.strip_prefix('@') {
        return d.parse().ok();
    }
    let h = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))?;
    if h.is_empty() || h.len() > 8 {
        return None;
    }
    usize::from_str_radix(h, 16).ok()
}

/// A mnemonic of the opcode table, or one followed by `_suffix` (`_sat`,
/// `_indexable`, `_nz`, `_uint`, …).
fn is_mnemonic(t: &str) -> bool {
    if !t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return false;
    }
    spec::OPCODES
        .iter()
        .any(|o| !o.asm.is_empty() && (t == o.asm || t.strip_prefix(o.asm).is_some_and(|r| r.starts_with('_'))))
}

/// Pairs of hex digits, separated by spaces or not (at least two bytes
/// when not separated, so short words stay names).
fn hex_pattern(t: &str) -> Option<Vec<u8>> {
    let groups: Vec<&str> = t.split_whitespace().collect();
    if !groups.iter().all(|g| g.len() % 2 == 0 && g.bytes().all(|b| b.is_ascii_hexdigit())) {
        return None;
    }
    let digits: String = groups.concat();
    if digits.len() < 4 && groups.len() < 2 || digits.len() / 2 > MAX_PATTERN {
        return None;
    }
    (0..digits.len()).step_by(2).map(|i| u8::from_str_radix(&digits[i..i + 2], 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(Query::parse("  "), Query::Empty);
        assert_eq!(Query::parse("0x8a8"), Query::Offset(0x8a8));
        assert_eq!(Query::parse("@2216"), Query::Offset(2216));
        assert!(matches!(Query::parse("r3"), Query::Register(_)));
        assert!(matches!(Query::parse("cb0[5]"), Query::Register(_)));
        assert_eq!(Query::parse("mul"), Query::Mnemonic("mul".into()));
        assert_eq!(Query::parse("mul_sat"), Query::Mnemonic("mul_sat".into()));
        assert_eq!(Query::parse("dcl_constantbuffer"), Query::Mnemonic("dcl_constantbuffer".into()));
        assert_eq!(Query::parse("sample_indexable"), Query::Mnemonic("sample_indexable".into()));
        assert_eq!(Query::parse("8a 00 01 00"), Query::Bytes(vec![0x8a, 0, 1, 0]));
        assert_eq!(Query::parse("8a000100"), Query::Bytes(vec![0x8a, 0, 1, 0]));
        assert_eq!(Query::parse("TEXCOORD"), Query::Name("TEXCOORD".into()));
        assert_eq!(Query::parse("cafe"), Query::Bytes(vec![0xca, 0xfe]));
        assert_eq!(Query::parse("abc"), Query::Name("abc".into()));
        assert_eq!(Query::parse("@x"), Query::Name("@x".into()));
    }
}
