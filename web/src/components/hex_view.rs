//! The virtualised hex view: little-endian dword rows, coloured by span
//! and field, linked to the selection and the hover. A shader carved out
//! of a file is shown in place: rows numbered by file offsets, with the
//! file's bytes around it dimmed (`carved::Surroundings`).
//!
//! Drawing. A row's sixteen bytes are one run of text (`.run`). The runs'
//! colours (the span colours, the alternate span's shade, the field
//! underlines) are painted on one canvas under the slots, one canvas pixel
//! a character across and a CSS pixel down, scaled to the runs without
//! smoothing (see hex_row.js). A byte gets an element of its own (`.b`)
//! only where it shows something over the run: a mark (selection, hover,
//! search, diff, def-use, source), its own digits in a colour of their own
//! (padding and undecoded bytes, the carved file's bytes), where decoding
//! stopped. Such a cell carries the byte's offset (`data-b`), its
//! accessible name and selection (`role="option"`, `aria-selected`); the
//! rest of a slot's sixteen cells are hidden and name no byte. Which byte
//! the pointer is over is worked out from the row and the run's character
//! geometry (`hex_byte_at`).
//!
//! Why so few elements: a jump rewrites every visible row. Sixteen styled
//! text cells per row made the browser restyle, lay out and paint some 700
//! elements (25–28 ms to redraw every row here); one text node and one
//! style property per row took about half that (13–16 ms); the colours on
//! one canvas, a quarter less again. Sixteen empty cells a row that were
//! laid out and painted on every jump still cost about 3 ms of a 10–13 ms
//! search step (median), and more in the slow steps, whatever their
//! containment; hidden, they cost nothing. One canvas for the view, not
//! one a row: each canvas is a compositing layer of its own, and forty of
//! them cost more to layerize than the gradients they replaced.

use crate::byte_look::{byte_looks, ByteLook};
use crate::carved::{Cell, Surroundings};
use crate::dom::ROW_H;
use crate::layout;
use crate::selection::{self, Key, ROW_BYTES};
use crate::st;
use crate::viewport::{Viewport, EDGE_ROWS};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[component]
pub fn HexView() -> impl IntoView {
    let s = st();
    let vp = Viewport::new();
    vp.watch(s.hex_ref);
    let slots = Memo::new(move |_| vp.fitting_rows(EDGE_ROWS));
    let spacer = NodeRef::<leptos::html::Div>::new();
    let paint = NodeRef::<leptos::html::Canvas>::new();
    draw_slots(s, vp, slots, spacer, paint);
    let rows = move || view_rows(s.model.with(|m| m.bytes.len()), s.carve.around.get());
    // Keep the selection in view (also when the pane comes back from a fold tab).
    Effect::new(move |_| {
        s.fold.track();
        vp.track_size();
        if let (Some(sel), Some(el)) = (s.sel.get(), s.hex_ref.get()) {
            let r = sel.start as usize / ROW_BYTES;
            vp.ensure_visible(&el, s.carve.around.get_untracked().map_or(r, |a| a.view_row(r)), rows());
        }
    });
    let on_scroll = move |_| {
        if let Some(el) = s.hex_ref.get_untracked() {
            vp.scrolled(&el);
        }
    };
    // The byte under the pointer: a drawn cell's, or the run's digits
    // there (most bytes have no cell of their own; hex_row.js).
    let byte_at = |ev: &web_sys::MouseEvent| {
        let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
        usize::try_from(hex_byte_at(&target, ev.client_x() as f64)).ok()
    };
    let on_move = move |ev: web_sys::MouseEvent| {
        let b = byte_at(&ev);
        if s.hover.get_untracked() != b {
            s.hover.set(b);
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(b) = byte_at(&ev) {
            let m = s.model.get_untracked();
            s.select(selection::select_byte(&m, b));
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = match ev.key().as_str() {
            "ArrowLeft" => Key::Left,
            "ArrowRight" => Key::Right,
            "ArrowUp" => Key::Up,
            "ArrowDown" => Key::Down,
            "PageUp" => Key::PageUp,
            "PageDown" => Key::PageDown,
            "Home" => Key::Home,
            "End" => Key::End,
            "Tab" if !ev.shift_key() => Key::NextField,
            _ => return,
        };
        ev.prevent_default();
        let m = s.model.get_untracked();
        s.select(selection::step(&m, s.sel.get_untracked(), key, vp.page_rows()));
    };
    view! {
        <div class="hex" data-testid="hex-view" tabindex="0" node_ref=s.hex_ref
            role="listbox" aria-multiselectable="true" aria-label="Bytes"
            on:scroll=on_scroll on:mousemove=on_move
            on:click=on_click on:keydown=on_key>
            // A row's width, for the workspace to fit the column to
            // (workspace.rs): a row of the widest text, never shown.
            <div class="hex-ruler" aria-hidden="true">
                <span class="off">"00000000"</span>
                <span class="cells"><span>{"0".repeat(RUN_CHARS)}</span></span>
                <span class="ascii">{"0".repeat(ROW_BYTES)}</span>
            </div>
            // Recycled row slots, as many as fit (draw_slots): a scroll or a
            // jump rewrites the text and classes of the slots whose row
            // changed instead of building rows anew. Each slot places
            // itself at its row.
            <div class="spacer" node_ref=spacer style:height=move || format!("{}px", rows() as f64 * ROW_H)>
                // The runs' colours, under the slots (hex_row.js).
                <canvas class="paint" node_ref=paint width=RUN_CHARS.to_string() height="0" aria-hidden="true"></canvas>
            </div>
        </div>
    }
}

/// Rows of the view: the file's, or an opened carved shader's with the
/// carved file's rows around it.
fn view_rows(len: usize, around: Option<Surroundings>) -> usize {
    around.map_or(len.div_ceil(ROW_BYTES), |a| a.rows(len))
}

/// Which of a row's bytes carry each dynamic mark, bit k for byte base + k.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Marks {
    sel: u16,
    hov: u16,
    hovf: u16,
    hit: u16,
    /// Tokens and bytes that differ from the compared file (diff view).
    dtok: u16,
    dbyte: u16,
    /// Operands naming the register clicked in the listing (def-use).
    du: u16,
    /// Instructions of the focused source line (source pane).
    src: u16,
}

impl Marks {
    const CLASSES: [&'static str; 8] = ["sel", "hov", "hovf", "hit", "dtok", "dbyte", "du", "src"];

    fn masks(&self) -> [u16; 8] {
        [self.sel, self.hov, self.hovf, self.hit, self.dtok, self.dbyte, self.du, self.src]
    }
}

/// What a slot shows: the model ([`Model::serial`](crate::model::Model)),
/// its row, and the marks.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Shown {
    serial: u64,
    /// Where the file sits in a carved file.
    around: Option<Surroundings>,
    row: Option<usize>,
    marks: Marks,
}

/// Byte of the row starting at `base` shown by cell `j`: each dword's
/// bytes from the highest (the dword reads as a little-endian number).
fn cell_byte(base: usize, j: usize) -> usize {
    base + j / 4 * 4 + 3 - j % 4
}

/// Where cell `j` starts in its row's run, in characters: two digits a
/// byte, a space between dwords.
fn cell_x(j: usize) -> usize {
    j / 4 * 9 + j % 4 * 2
}

/// Characters in a row's run.
const RUN_CHARS: usize = ROW_BYTES / 4 * 9 - 1;

/// The DOM of one recycled row slot, and what it shows.
struct Slot {
    row: web_sys::HtmlElement,
    shown: Shown,
}

impl Slot {
    /// A hidden slot at the end of `spacer`: the offset, the run with its
    /// cells, the ASCII column.
    fn new(spacer: &web_sys::Element) -> Option<Slot> {
        let doc = spacer.owner_document()?;
        let el = |tag: &str, class: &str| {
            let e = doc.create_element(tag).ok()?;
            e.set_class_name(class);
            Some(e)
        };
        let row: web_sys::HtmlElement = el("div", "hrow slot")?.dyn_into().ok()?;
        row.set_hidden(true);
        let cells = el("span", "cells")?;
        let run = el("span", "run")?;
        cells.append_child(&run).ok()?;
        for _ in 0..ROW_BYTES {
            let cell: web_sys::HtmlElement = el("span", "b")?.dyn_into().ok()?;
            cell.set_hidden(true);
            cells.append_child(&cell).ok()?;
        }
        for child in [el("span", "off")?, cells, el("span", "ascii")?] {
            row.append_child(&child).ok()?;
        }
        spacer.append_child(&row).ok()?;
        Some(Slot { row, shown: Shown::default() })
    }

    /// Shows view row `row` (None: past the end) of `m`, with its marks
    /// (`marks_at` a row's first byte): written when the row, the file or
    /// the row's marks changed. Returns what it shows.
    fn draw(
        &self,
        m: &crate::model::Model,
        around: Option<(Surroundings, Option<&[u8]>)>,
        row: Option<usize>,
        marks_at: &impl Fn(usize) -> Marks,
    ) -> Shown {
        let prev = self.shown;
        let row_el = &self.row;
        let file = around.and_then(|(a, f)| Some((a, f?)));
        let around = around.map(|(a, _)| a);
        let serial = m.serial;
        let Some(r) = row else {
            if prev.row.is_some() {
                // Past the end: hidden, and no longer naming any byte.
                hide_hex_row(row_el);
            }
            return Shown { serial, around, row: None, marks: Marks::default() };
        };
        // The row's first byte in the file shown (negative: a row of the
        // carved file before it, which has no marks).
        let rel = around.map_or((r * ROW_BYTES) as isize, |a| a.row_base(r));
        let Ok(base) = usize::try_from(rel) else {
            if prev.serial != serial || prev.around != around || prev.row != row {
                fill_row(row_el, m, r, rel, file, Marks::default());
            }
            return Shown { serial, around, row, marks: Marks::default() };
        };
        let marks = marks_at(base);
        let now = Shown { serial, around, row, marks };
        // An edit of the model drawn that left this row's bytes as they
        // were (their values and looks) only moves marks too.
        let row_kept = prev.serial == serial
            || m.same_as.as_ref().is_some_and(|x| x.serial == prev.serial && !x.touches(base..base + ROW_BYTES));
        // Else a row whose marks changed is written again: the writes
        // that would change nothing are skipped (hex_row.js).
        if row_kept && prev.around == around && prev.row == row && prev.marks == marks {
            return now;
        }
        fill_row(row_el, m, r, rel, file, marks);
        now
    }
}

/// Draws the row slots of `spacer`: as many as `slots`, slot `i` showing
/// the row [`layout::slot_row`] gives it. One effect for every slot, so
/// that a selection or a hover wakes one subscriber, not one per row: each
/// signal read here had a subscriber per slot, and every run of each
/// re-subscribed to all of them.
fn draw_slots(
    s: crate::State,
    vp: Viewport,
    slots: Memo<usize>,
    spacer: NodeRef<leptos::html::Div>,
    paint: NodeRef<leptos::html::Canvas>,
) {
    Effect::new(move |prev: Option<Vec<Slot>>| {
        let mut drawn = prev.unwrap_or_default();
        let n = slots.get();
        let top = vp.top.get();
        let m = s.model.get();
        let around = s.carve.around.get();
        let sel = s.sel.get();
        let hover = s.hover.get();
        let Some(spacer) = spacer.get() else { return drawn };
        let removed = drawn.len() > n;
        for gone in drawn.drain(n.min(drawn.len())..) {
            gone.row.remove();
        }
        while drawn.len() < n {
            match Slot::new(&spacer) {
                Some(x) => drawn.push(x),
                None => return drawn,
            }
        }
        let rows = view_rows(m.bytes.len(), around);
        let (hits, diff, du, src, file) =
            (s.hits.get(), s.diff.get(), s.du.get(), s.src.marks.get(), s.carve.file.get());
        let marks_at = |base: usize| {
            let (hov, hovf) = hover.map_or((0, 0), |h| selection::hover_masks(&m, h, base));
            let (dtok, dbyte) = diff.as_ref().map_or((0, 0), |d| d.marks.row_masks(base));
            Marks {
                sel: sel.map_or(0, |sel| selection::row_mask(&sel, base)),
                hov,
                hovf,
                hit: hits.row_mask(base),
                dtok,
                dbyte,
                du: du.as_ref().map_or(0, |d| d.row_mask(base)),
                src: src.row_mask(base),
            }
        };
        let around = around.map(|a| (a, file.as_deref().map(|f| &f.bytes[..])));
        // Slots hidden or removed take their colours off the canvas.
        let mut hid = removed;
        for (i, slot) in drawn.iter_mut().enumerate() {
            let row = Some(layout::slot_row(top, n, i)).filter(|&r| r < rows);
            let was = slot.shown.row;
            slot.shown = slot.draw(&m, around, row, &marks_at);
            hid |= was.is_some() && slot.shown.row.is_none();
        }
        if let Some(canvas) = paint.get_untracked() {
            paint_hex_runs(&canvas, &spacer, top as f64 * ROW_H, n as u32, ROW_H as u32, hid);
        }
        drawn
    });
}

#[wasm_bindgen(module = "/src/hex_row.js")]
extern "C" {
    /// Writes a row slot in one crossing (see hex_row.js).
    fn fill_hex_row(row: &web_sys::Element, y: f64, text: &str, own_text: u32, offsets: &[u32], selected: u32);

    /// Hides a slot past the end, its cells naming no byte (see hex_row.js).
    fn hide_hex_row(row: &web_sys::Element);

    /// The byte under the pointer at client x `x` over `target`, or -1
    /// (see hex_row.js).
    fn hex_byte_at(target: &web_sys::Element, x: f64) -> i32;

    /// Paints the colours of the runs of `spacer`'s slots on `canvas`, a
    /// band of `rows` rows of `row_h` px from `top` px, when they changed
    /// or `force` says slots were hidden (see hex_row.js).
    fn paint_hex_runs(
        canvas: &web_sys::Element,
        spacer: &web_sys::Element,
        top: f64,
        rows: u32,
        row_h: u32,
        force: bool,
    );
}

/// Offset written for a padding cell past the end of the file.
const NO_BYTE: u32 = u32::MAX;

/// Marks whose colours replace the run's text colour: a cell with one of
/// them draws its own digits over the run.
fn recolours(marks: Marks) -> u16 {
    marks.sel | marks.hovf
}

/// Shows view row `r` in the slot `row_el`, with `marks`: the file's bytes
/// from `rel` (the row's first byte; rows of a carved file around it count
/// from the shader's start, negative before it), and `around` it, when it
/// was carved, the carved file's bytes, dimmed.
fn fill_row(
    row_el: &web_sys::Element,
    m: &crate::model::Model,
    r: usize,
    rel: isize,
    around: Option<(Surroundings, &[u8])>,
    marks: Marks,
) {
    let len = m.bytes.len();
    let cell = |k: usize| {
        let at = rel + k as isize;
        match around {
            Some((a, _)) => a.cell(len, at),
            None if at >= 0 && (at as usize) < len => Cell::Shader(at as usize),
            None => Cell::Empty,
        }
    };
    let byte = |c: Cell| match (c, around) {
        (Cell::Shader(b), _) => Some(m.bytes[b]),
        (Cell::Around(f), Some((_, file))) => file.get(f).copied(),
        _ => None,
    };
    let ascii: String = (0..ROW_BYTES)
        .map(|k| byte(cell(k)).map_or(' ', |c| if c.is_ascii_graphic() { c as char } else { '·' }))
        .collect::<String>()
        .trim_end()
        .to_string();
    // The shader's bytes in this row start at `first` (a carved row may
    // begin before the shader).
    let first = rel.max(0) as usize;
    let mut looks = [ByteLook::default(); ROW_BYTES];
    byte_looks(m, first, &mut looks);
    let mut run = [b' '; RUN_CHARS];
    let mut colours = [[None; ROW_BYTES]; 3];
    let mut classes = String::with_capacity(ROW_BYTES * 8);
    let mut digits = String::with_capacity(ROW_BYTES * 2);
    let mut offsets = [NO_BYTE; ROW_BYTES];
    let (mut own_text, mut selected) = (0u32, 0u32);
    for (j, off) in offsets.iter_mut().enumerate() {
        let k = cell_byte(0, j);
        let bit = 1u16 << k;
        if j > 0 {
            classes.push('\n');
        }
        let c = cell(k);
        match (c, byte(c)) {
            (Cell::Shader(b), Some(v)) => {
                let look = looks[b - first];
                cell_classes(look, marks, bit, &mut classes);
                if look.text_class.is_some() {
                    own_text |= 1 << j;
                } else {
                    run[cell_x(j)..cell_x(j) + 2].copy_from_slice(hex2(v).as_bytes());
                    colours[0][j] = look.field.map(|f| ["f0", "f1", "f2", "f3"][f as usize]);
                    colours[1][j] = look.alt.then_some("alt-shade");
                    colours[2][j] = look.colour;
                }
                if recolours(marks) & bit != 0 {
                    own_text |= 1 << j;
                }
                digits.push_str(hex2(v));
                *off = b as u32;
                if marks.sel & bit != 0 {
                    selected |= 1 << j;
                }
            }
            // The carved file around the shader: shown, dimmed, not selectable.
            (Cell::Around(_), Some(v)) => {
                classes.push_str("b around");
                digits.push_str(hex2(v));
                own_text |= 1 << j;
            }
            // Padding past the end of the file: shows nothing.
            _ => {
                classes.push('b');
                digits.push_str("  ");
            }
        }
    }
    // Painted bottom up: the span colours, the shade, the underlines.
    let mut paint = String::with_capacity(200);
    for (n, layer) in colours.iter().rev().enumerate() {
        if n > 0 {
            paint.push('|');
        }
        paint_layer(layer, &mut paint);
    }
    let run = std::str::from_utf8(&run).unwrap_or_default();
    let offset = around.map_or(r * ROW_BYTES, |(a, _)| a.row_offset(r, len));
    // The row's strings cross as one, tab-separated (none holds a tab).
    let text = format!("{offset:08x}\t{ascii}\t{run}\t{paint}\t{classes}\t{digits}");
    fill_hex_row(row_el, r as f64 * ROW_H, &text, own_text, &offsets, selected);
}

/// Writes one layer of a row's colours: `name,x0,x1` for each stretch
/// of the run (in characters) that cell colours cover, space-separated
/// (hex_row.js paints them); neighbouring cells of one colour make one
/// stretch.
fn paint_layer(colours: &[Option<&str>; ROW_BYTES], out: &mut String) {
    use std::fmt::Write;
    let start = out.len();
    let mut put = |(c, x0, x1): (&str, usize, usize)| {
        let sep = if out.len() > start { " " } else { "" };
        let _ = write!(out, "{sep}{c},{x0},{x1}");
    };
    let mut open: Option<(&str, usize, usize)> = None;
    for (j, c) in colours.iter().enumerate() {
        let Some(c) = *c else { continue };
        let x = cell_x(j);
        match open.as_mut() {
            Some(s) if s.0 == c && s.2 == x => s.2 = x + 2,
            _ => {
                if let Some(s) = open.replace((c, x, x + 2)) {
                    put(s);
                }
            }
        }
    }
    if let Some(s) = open {
        put(s);
    }
}

/// Appends the classes of a shader byte's cell: its look's, then a class
/// per mark whose mask has `bit`.
fn cell_classes(look: ByteLook, marks: Marks, bit: u16, out: &mut String) {
    out.push('b');
    for class in [look.text_class, look.stop.then_some("stop")].into_iter().flatten() {
        out.push(' ');
        out.push_str(class);
    }
    for (mask, name) in marks.masks().iter().zip(Marks::CLASSES) {
        if mask & bit != 0 {
            out.push(' ');
            out.push_str(name);
        }
    }
}

/// Two hex digits for every byte value, side by side (no formatting per cell).
const HEX_DIGITS: &str = {
    const D: &[u8; 16] = b"0123456789abcdef";
    const T: [u8; 512] = {
        let mut t = [0u8; 512];
        let mut i = 0;
        while i < 256 {
            t[2 * i] = D[i >> 4];
            t[2 * i + 1] = D[i & 15];
            i += 1;
        }
        t
    };
    match std::str::from_utf8(&T) {
        Ok(s) => s,
        Err(_) => panic!("hex digits are ASCII"),
    }
};

/// The two hex digits of `b`.
fn hex2(b: u8) -> &'static str {
    let i = 2 * b as usize;
    &HEX_DIGITS[i..i + 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A drawn cell is placed over its digits: the run's width as a
    /// negative margin starts the cells at its left, and hex_row.js gives
    /// each drawn cell the left margin from the last drawn cell's end to
    /// its byte's first character, which is [`cell_x`] (two characters a
    /// byte, one between dwords); the pointer's character is mapped back to
    /// the cell by the same geometry.
    #[test]
    fn the_stylesheet_and_the_script_place_each_cell_over_its_digits() {
        let css = include_str!("../../style.css");
        assert!(css.contains(&format!(".run {{ flex: none; margin-right: -{RUN_CHARS}ch;")));
        assert!(css.contains(".hex .b { flex: none; width: 2ch;"));
        let js = include_str!("../hex_row.js");
        assert!(js.contains("const x = (j >> 2) * 9 + (j & 3) * 2;"));
        assert!(js.contains("if (c < 0 || c >= 35 || c % 9 === 8) return -1;"));
        assert!(js.contains("row.__offsets[Math.floor(c / 9) * 4 + ((c % 9) >> 1)]"));
        for j in 0..ROW_BYTES {
            assert_eq!((j >> 2) * 9 + (j & 3) * 2, cell_x(j), "cell {j}");
            for c in [cell_x(j), cell_x(j) + 1] {
                assert!(c < RUN_CHARS && c % 9 != 8);
                assert_eq!(c / 9 * 4 + ((c % 9) >> 1), j, "character {c}");
            }
        }
        // The characters between dwords name no cell.
        for c in (8..RUN_CHARS).step_by(9) {
            assert!((0..ROW_BYTES).all(|j| c != cell_x(j) && c != cell_x(j) + 1));
        }
    }

    /// A row's colours cross as stretches of the run in characters:
    /// neighbouring cells of one colour make one stretch, and the space
    /// between dwords parts them.
    #[test]
    fn a_layer_of_colours_is_stretches_of_the_run() {
        let mut colours = [None; ROW_BYTES];
        for c in &mut colours[2..6] {
            *c = Some("op");
        }
        colours[6] = Some("opd");
        colours[15] = Some("imm");
        let mut out = String::new();
        paint_layer(&colours, &mut out);
        // Cells 2-3 end the first dword (characters 4..8); cells 4-5 start
        // the second (9..13), cell 6 follows (13..15), cell 15 ends the row.
        assert_eq!(out, "op,4,8 op,9,13 opd,13,15 imm,33,35");
        out.clear();
        paint_layer(&[None; ROW_BYTES], &mut out);
        assert_eq!(out, "");
    }

    /// A slot's given width holds its text: the offset's eight digits, the
    /// run and one ASCII character per byte, in characters of the one
    /// font, with two gaps and the padding.
    #[test]
    fn a_slot_is_as_wide_as_its_text() {
        let css = include_str!("../../style.css");
        assert!(css.contains(".hrow, .hex-ruler { display: flex; gap: .7rem; padding: 0 .4rem;"));
        let chars = 8 + RUN_CHARS + ROW_BYTES;
        // The canvas of the runs' colours starts where a slot's run does:
        // past its padding, the offset's eight digits and a gap.
        assert!(css.contains(".hex .paint { position: absolute; top: 0; left: calc(.4rem + 8ch + .7rem); width: 35ch;"));
        assert_eq!(RUN_CHARS, 35);
        assert!(css.contains(&format!(".hex .hrow.slot {{ width: calc({chars}ch + 2.2rem + 1px); contain: strict; }}")));
    }
}
