//! How the hex view draws a byte apart from the marks that come and go:
//! its span's colour family (a custom property of the style sheet), the
//! alternate span's shade, its field's underline, a text colour of its own
//! for undecoded and padding bytes, and where decoding stopped.

use crate::model::{Model, SpanKind};
use dxbc::program::TokenRole;
use dxbc::spans::{Kind as LeafKind, Leaf};

/// CSS class of a span (its kind of colour). Leaves take their chunk's
/// colour family, so the chunks stand out in the hex view.
pub fn span_class(m: &Model, i: usize) -> &'static str {
    match m.spans[i].kind {
        SpanKind::Leaf(l) => leaf_class(&m.leaves[l as usize]),
        SpanKind::Undecoded => "k-bad",
        SpanKind::Gap => "k-gap",
        SpanKind::Token(t) => match m.tokens[t as usize].role {
            TokenRole::Version | TokenRole::Length => "k-ver",
            TokenRole::Opcode | TokenRole::InstructionLength => "k-op",
            TokenRole::ExtendedOpcode => "k-ext",
            TokenRole::Operand { .. } => "k-opd",
            TokenRole::ExtendedOperand { .. } => "k-ext",
            TokenRole::Immediate { .. } => "k-imm",
            TokenRole::Index { .. } => "k-idx",
            TokenRole::Payload(_) => "k-pay",
        },
    }
}

/// How the hex view draws byte `b`, apart from the marks that come and go
/// (selection, hover, search, diff, def-use, source).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteLook {
    /// Its span's colour: a custom property of the style sheet, without
    /// the leading `--` (`None`: no colour, e.g. a gap).
    pub colour: Option<&'static str>,
    /// Every other span a shade darker, so neighbours of one colour part.
    pub alt: bool,
    /// Its field's place in its token, modulo the four underline colours.
    pub field: Option<u8>,
    /// A class that changes the text's own colour (undecoded and padding
    /// bytes): the hex view draws such a byte in its own cell.
    pub text_class: Option<&'static str>,
    /// Decoding stopped here.
    pub stop: bool,
}

/// The look of each byte from `base` on, one per element of `out` (bytes
/// past the end keep the default look). Fields are worked out once per
/// span, not per byte.
pub fn byte_looks(m: &Model, base: usize, out: &mut [ByteLook]) {
    let mut fields: Option<(usize, Vec<dxbc::program::FieldValue>)> = None;
    for (k, look) in out.iter_mut().enumerate() {
        let b = base + k;
        let Some(i) = m.span_at(b) else { continue };
        let class = span_class(m, i);
        look.colour = span_colour(class);
        look.text_class = matches!(class, "k-gap" | "k-bad").then_some(class);
        look.alt = i % 2 == 1;
        look.stop = m.stop_offset() == Some(b);
        if fields.as_ref().map(|f| f.0) != Some(i) {
            fields = Some((i, m.fields(i)));
        }
        let f = &fields.as_ref().map_or(&[][..], |f| &f.1[..]);
        look.field = m.field_of_byte(i, b, f).map(|lo| (f.iter().position(|x| x.lo == lo).unwrap_or(0) % 4) as u8);
    }
}

/// The look of byte `b` alone.
pub fn byte_look(m: &Model, b: usize) -> ByteLook {
    let mut look = [ByteLook::default()];
    byte_looks(m, b, &mut look);
    look[0]
}

/// The colour property of a span class (`k-op` → `op`); gaps have none,
/// and undecoded bytes take theirs from their own cell's class.
fn span_colour(class: &'static str) -> Option<&'static str> {
    match class {
        "k-gap" | "k-bad" => None,
        c => c.strip_prefix("k-"),
    }
}

/// A leaf's colour: undecoded red, padding grey, else its chunk's family
/// (the path's first component, without a `#k` repeat suffix).
fn leaf_class(l: &Leaf) -> &'static str {
    match l.kind {
        LeafKind::Undecoded => return "k-bad",
        LeafKind::Padding | LeafKind::Unreferenced => return "k-gap",
        LeafKind::Field => {}
    }
    let root = l.path.split(['/', '#']).next().unwrap_or("");
    if root == "header" || root.starts_with("chunk_table") {
        return "k-hdr";
    }
    match root {
        "RDEF" => "k-rdef",
        "ISGN" | "ISG1" | "OSGN" | "OSG5" | "OSG1" | "PCSG" | "PSG1" => "k-sig",
        "STAT" => "k-stat",
        "SFI0" => "k-sfi0",
        "IFCE" => "k-ifce",
        "Aon9" | "XNAP" | "XNAS" => "k-aon9",
        "SHDR" | "SHEX" => "k-chunk",
        _ => "k-data",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Model {
        Model::new(dxbc::examples::tint_pixel_shader())
    }

    #[test]
    fn byte_looks_name_the_span_field_and_stop() {
        let m = example();
        let mul = &m.program().unwrap().instructions[4];
        let b = mul.offset as usize + 4;
        // An operand token's byte 2 lies in its second field (operand type,
        // after component selection's bits 4..11 and the mode's 2..3).
        let i = m.span_at(b).unwrap();
        let f = m.fields(i).iter().position(|x| x.lo == 12).unwrap();
        let look = byte_look(&m, b + 2);
        assert_eq!(look.colour, Some("opd"));
        assert_eq!(look.field, Some((f % 4) as u8));
        assert_eq!(look.alt, i % 2 == 1);
        assert!(!look.stop);
        assert_eq!(look.text_class, None);
        // Each byte of a row gets its own span's look; past the end, none.
        let mut row = [ByteLook::default(); 16];
        byte_looks(&m, b - 4, &mut row);
        assert_eq!(row[6], look);
        assert!(byte_look(&m, 0).colour.is_some());
        assert_eq!(byte_look(&m, m.bytes.len()), ByteLook::default());
        // A file cut inside its program stops at the cut: that byte is marked.
        let mut cut = m.bytes.clone();
        cut.truncate(b + 2);
        let t = Model::new(cut);
        let stop = t.stop_offset().unwrap();
        assert!(byte_look(&t, stop).stop);
    }
}
