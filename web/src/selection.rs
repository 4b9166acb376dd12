//! What is selected and how the keyboard moves it. Plain Rust over
//! [`Model`]; the components only store a [`Selection`] in a signal.

use crate::model::Model;

/// Bytes per hex-view row: four dwords.
pub const ROW_BYTES: usize = 16;

/// A selected byte range, usually one span (a token), optionally one
/// bitfield of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// First byte.
    pub start: u32,
    /// Length in bytes (at least 1).
    pub len: u32,
    /// The span the selection is about (for the inspector).
    pub span: Option<usize>,
    /// Lowest bit of the selected field of that span's dword.
    pub field: Option<u8>,
}

impl Selection {
    /// Whether byte `b` is selected.
    pub fn contains(&self, b: usize) -> bool {
        let b = b as u32;
        b >= self.start && b - self.start < self.len
    }
}

/// Selects the span holding byte `b` and the field under it.
pub fn select_byte(m: &Model, b: usize) -> Option<Selection> {
    let i = m.span_at(b)?;
    let s = m.spans[i];
    Some(Selection { start: s.start, len: s.len, span: Some(i), field: m.field_at_byte(b) })
}

/// Selects a whole span.
pub fn select_span(m: &Model, i: usize) -> Option<Selection> {
    let s = *m.spans.get(i)?;
    Some(Selection { start: s.start, len: s.len, span: Some(i), field: None })
}

/// Selects the bytes of one field of span `i`.
pub fn select_field(m: &Model, i: usize, lo: u8) -> Option<Selection> {
    let f = m.fields(i).into_iter().find(|f| f.lo == lo)?;
    let (start, len) = m.field_bytes(i, f.lo, f.hi);
    Some(Selection { start, len, span: Some(i), field: Some(lo) })
}

/// Selects the bytes of a disassembly line; the inspector shows its first
/// token (the opcode token, or the version token for the profile line).
pub fn select_line(m: &Model, line: usize) -> Option<Selection> {
    let (start, len) = m.line_bytes(line)?;
    Some(Selection { start, len, span: m.span_at(start as usize), field: None })
}

/// Selects bytes `start..start + len` (a translated line's instruction);
/// the inspector shows the token at `start`.
pub fn select_range(m: &Model, start: u32, len: u32) -> Option<Selection> {
    let end = (start as usize).checked_add(len as usize)?;
    if len == 0 || end > m.bytes.len() {
        return None;
    }
    Some(Selection { start, len, span: m.span_at(start as usize), field: None })
}

/// Selects what an error's byte offset names: the whole instruction that
/// starts there, or else the span holding that byte.
pub fn select_instruction_at(m: &Model, offset: usize) -> Option<Selection> {
    if let Some(ins) = m.program().and_then(|p| p.instructions.iter().find(|i| i.offset as usize == offset)) {
        return select_range(m, ins.offset, ins.length * 4);
    }
    select_byte(m, offset.min(m.bytes.len().saturating_sub(1))).map(|s| Selection { field: None, ..s })
}

/// Rebuilds a selection from a permalink's stored range and field.
pub fn restore(m: &Model, start: u32, len: u32, field: Option<u8>) -> Option<Selection> {
    let span = m.span_at(start as usize)?;
    let end = (start as usize).checked_add(len as usize)?;
    if len == 0 || end > m.bytes.len() {
        return None;
    }
    Some(Selection {
        start,
        len,
        span: Some(span),
        field: field.filter(|lo| m.fields(span).iter().any(|f| f.lo == *lo)),
    })
}

/// Which of the `ROW_BYTES` bytes from `base` the selection holds (bit k:
/// byte `base + k`).
pub fn row_mask(sel: &Selection, base: usize) -> u16 {
    (0..ROW_BYTES).filter(|&k| sel.contains(base + k)).fold(0, |m, k| m | 1 << k)
}

/// For the hovered byte `h`: which bytes from `base` share its span (lit),
/// and which of those also share its field (filled).
pub fn hover_masks(m: &Model, h: usize, base: usize) -> (u16, u16) {
    let Some(hs) = m.span_at(h) else { return (0, 0) };
    let hf = m.field_at_byte(h);
    let (mut hov, mut hovf) = (0, 0);
    for k in 0..ROW_BYTES {
        let b = base + k;
        if b < m.bytes.len() && m.span_at(b) == Some(hs) {
            hov |= 1 << k;
            if hf.is_some() && m.field_at_byte(b) == hf {
                hovf |= 1 << k;
            }
        }
    }
    (hov, hovf)
}

/// The disassembly line to light up for a selection.
pub fn line_of(m: &Model, s: &Selection) -> Option<usize> {
    m.line_of_span(s.span?)
}

/// Keys the hex view understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Previous span.
    Left,
    /// Next span.
    Right,
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// A page of rows up.
    PageUp,
    /// A page of rows down.
    PageDown,
    /// First span.
    Home,
    /// Last span.
    End,
    /// Next field of the token (Tab), wrapping to the next token.
    NextField,
}

/// Moves the selection. Row moves keep the column; `page` is rows per page.
pub fn step(m: &Model, cur: Option<Selection>, key: Key, page: usize) -> Option<Selection> {
    if m.spans.is_empty() {
        return None;
    }
    let Some(cur) = cur else {
        return select_span(m, 0);
    };
    let i = cur.span.unwrap_or_else(|| m.span_at(cur.start as usize).unwrap_or(0));
    let last = m.bytes.len() - 1;
    let by_rows = |rows: isize| {
        let b = cur.start as isize + rows * ROW_BYTES as isize;
        select_byte(m, b.clamp(0, last as isize) as usize).map(|mut s| {
            s.field = None;
            s
        })
    };
    match key {
        Key::Left => select_span(m, i.saturating_sub(1)),
        Key::Right => select_span(m, (i + 1).min(m.spans.len() - 1)),
        Key::Up => by_rows(-1),
        Key::Down => by_rows(1),
        Key::PageUp => by_rows(-(page as isize)),
        Key::PageDown => by_rows(page as isize),
        Key::Home => select_span(m, 0),
        Key::End => select_span(m, m.spans.len() - 1),
        Key::NextField => {
            let fields = m.fields(i);
            let next = match cur.field {
                None => fields.first(),
                Some(lo) => fields.iter().find(|f| f.lo > lo),
            };
            match next {
                Some(f) => select_field(m, i, f.lo),
                None => {
                    let j = (i + 1).min(m.spans.len() - 1);
                    match m.fields(j).first() {
                        Some(f) => select_field(m, j, f.lo),
                        None => select_span(m, j),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Model {
        Model::new(dxbc::examples::tint_pixel_shader())
    }

    #[test]
    fn row_masks_follow_the_selection_and_the_hovered_token() {
        let m = example();
        let sel = select_line(&m, m.program_line.unwrap() + 1).unwrap();
        let (o, base) = (sel.start as usize, sel.start as usize & !(ROW_BYTES - 1));
        assert_eq!(row_mask(&sel, base) & (1 << (o - base)), 1 << (o - base));
        assert_eq!(row_mask(&sel, base + 64 * ROW_BYTES), 0);
        // Hovering a byte of a program token lights its four bytes; the
        // filled ones are those of its field.
        let (hov, hovf) = hover_masks(&m, o + 1, base);
        assert_eq!(hov, 0b1111 << (o - base));
        assert!(hovf != 0 && hovf & !hov == 0);
        assert_eq!(hover_masks(&m, m.bytes.len() + 5, base), (0, 0));
    }

    #[test]
    fn byte_selects_token_and_field() {
        let m = example();
        let p = m.program().unwrap();
        let op = p.instructions[4].offset as usize;
        let s = select_byte(&m, op).unwrap();
        assert_eq!((s.start as usize, s.len), (op, 4));
        assert_eq!(s.field, Some(0)); // the opcode number, bits 0..10
        assert!(s.contains(op + 3) && !s.contains(op + 4));
        assert_eq!(m.lines[line_of(&m, &s).unwrap()], "mul o0.xyzw, v0.xyzw, cb0[0].xyzw");
        // Byte 3: instruction length (24..30) wins over extended (31).
        assert_eq!(select_byte(&m, op + 3).unwrap().field, Some(24));
    }

    #[test]
    fn line_selects_instruction_bytes() {
        let m = example();
        let pl = m.program_line.unwrap();
        let s = select_line(&m, pl + 5).unwrap();
        let ins = &m.program().unwrap().instructions[4];
        assert_eq!((s.start, s.len), (ins.offset, 32));
        assert_eq!(m.spans[s.span.unwrap()].start, ins.offset);
        assert_eq!(select_line(&m, 0), None); // a header comment line
    }

    #[test]
    fn field_selection_and_restore() {
        let m = example();
        let op = m.program().unwrap().instructions[4].offset;
        let i = m.span_starting(op + 4).unwrap();
        let s = select_field(&m, i, 12).unwrap();
        assert_eq!((s.start, s.len, s.field), (op + 5, 2, Some(12)));
        assert_eq!(restore(&m, s.start, s.len, s.field), Some(s));
        assert_eq!(restore(&m, 0, 0, None), None);
        assert_eq!(restore(&m, 0, 1 << 30, None), None);
        assert_eq!(restore(&m, 1 << 30, 4, None), None);
        // A field the token does not have is dropped.
        assert_eq!(restore(&m, op + 4, 4, Some(9)).unwrap().field, None);
    }

    #[test]
    fn ranges_and_error_offsets() {
        let m = example();
        let ins = &m.program().unwrap().instructions[4];
        let s = select_range(&m, ins.offset, ins.length * 4).unwrap();
        assert_eq!((s.start, s.len), (ins.offset, 32));
        assert_eq!(m.lines[line_of(&m, &s).unwrap()], "mul o0.xyzw, v0.xyzw, cb0[0].xyzw");
        assert_eq!(select_range(&m, 0, 0), None);
        assert_eq!(select_range(&m, m.bytes.len() as u32 - 2, 4), None);
        assert_eq!(select_instruction_at(&m, ins.offset as usize), Some(s));
        // Not an instruction start: the span under the byte.
        assert_eq!(select_instruction_at(&m, 5).unwrap().start, 4);
        let last = select_instruction_at(&m, 1 << 30).unwrap();
        assert_eq!((last.start + last.len) as usize, m.bytes.len());
    }

    #[test]
    fn arrows_and_tab_walk_the_leaves() {
        let m = Model::new(dxbc::examples::textured_pixel_shader());
        let isgn = m.shader.as_ref().unwrap().container.chunks.iter().find(|c| &c.tag == b"ISGN").unwrap();
        let at = isgn.offset as u32;
        let s = select_byte(&m, at as usize + 1).unwrap();
        assert_eq!((s.start, s.len, s.field), (at, 4, None));
        assert_eq!(m.leaf(s.span.unwrap()).unwrap().path, "ISGN/fourcc");
        let r = step(&m, Some(s), Key::Right, 10).unwrap();
        assert_eq!((r.start, m.leaf(r.span.unwrap()).unwrap().path.as_str()), (at + 4, "ISGN/size"));
        // Tab: a leaf has no bitfields, so it moves to the next leaf.
        let t = step(&m, Some(r), Key::NextField, 10).unwrap();
        assert_eq!((t.start, m.leaf(t.span.unwrap()).unwrap().path.as_str()), (at + 8, "ISGN/element_count"));
        assert_eq!(step(&m, Some(t), Key::Left, 10).unwrap(), r);
        // Down: 16 bytes on. Element 0 starts 8 bytes into the payload (its
        // element_offset), so that is element 0's second dword.
        assert_eq!(&m.bytes[at as usize + 12..at as usize + 16], &8u32.to_le_bytes());
        let d = step(&m, Some(r), Key::Down, 10).unwrap();
        assert_eq!(d.start, at + 20);
        assert_eq!(m.leaf(d.span.unwrap()).unwrap().path, "ISGN/elements[0]/semantic_index");
    }

    #[test]
    fn keyboard_moves() {
        let m = example();
        let s0 = step(&m, None, Key::Right, 10).unwrap();
        assert_eq!(s0.start, 0);
        let s1 = step(&m, Some(s0), Key::Right, 10).unwrap();
        assert_eq!((s1.start, s1.len), (4, 16)); // the checksum
        assert_eq!(step(&m, Some(s1), Key::Left, 10).unwrap().start, 0);
        let d = step(&m, Some(s0), Key::Down, 10).unwrap();
        assert_eq!(d.start, 16 - 12); // byte 16 lies in the checksum (4..20)
        let end = step(&m, Some(s0), Key::End, 10).unwrap();
        assert_eq!(end.start + end.len, m.bytes.len() as u32);
        assert_eq!(step(&m, Some(end), Key::PageDown, 10).unwrap().start, end.start);
        assert_eq!(step(&m, Some(end), Key::Home, 10).unwrap().start, 0);
        // Tab walks the fields of a token, then moves on.
        let op = m.program().unwrap().instructions[4].offset;
        let t = select_span(&m, m.span_starting(op).unwrap()).unwrap();
        let f1 = step(&m, Some(t), Key::NextField, 10).unwrap();
        assert_eq!(f1.field, Some(0));
        let f2 = step(&m, Some(f1), Key::NextField, 10).unwrap();
        assert_eq!(f2.field, Some(13)); // saturate
        let mut s = f2;
        for _ in 0..4 {
            s = step(&m, Some(s), Key::NextField, 10).unwrap();
        }
        assert_eq!(s.start, op + 4); // next token's first field
        assert_eq!(s.field, Some(0));
    }
}
