//! The virtualised hex view: little-endian dword rows, coloured by span
//! and field, linked to the selection and the hover.

use crate::dom::{data_attr, ROW_H};
use crate::layout;
use crate::model::byte_class;
use crate::selection::{self, Key, ROW_BYTES};
use crate::st;
use crate::viewport::Viewport;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[component]
pub fn HexView() -> impl IntoView {
    let s = st();
    let vp = Viewport::new();
    vp.watch(s.hex_ref);
    let slots = Memo::new(move |_| vp.fitting_rows(SLOT_MARGIN));
    let rows = move || s.model.with(|m| m.bytes.len().div_ceil(ROW_BYTES));
    // Keep the selection in view (also when the pane comes back from a fold tab).
    Effect::new(move |_| {
        s.fold.track();
        vp.track_size();
        if let (Some(sel), Some(el)) = (s.sel.get(), s.hex_ref.get()) {
            vp.ensure_visible(&el, sel.start as usize / ROW_BYTES, rows());
        }
    });
    let on_scroll = move |_| {
        if let Some(el) = s.hex_ref.get_untracked() {
            vp.scrolled(&el);
        }
    };
    let on_over = move |ev: web_sys::MouseEvent| {
        let b = data_attr(&ev, "data-b");
        if s.hover.get_untracked() != b {
            s.hover.set(b);
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(b) = data_attr(&ev, "data-b") {
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
            on:scroll=on_scroll on:mouseover=on_over
            on:click=on_click on:keydown=on_key>
            <div class="spacer" style:height=move || format!("{}px", rows() as f64 * ROW_H)>
                // Recycled row slots, as many as fit: a scroll or a jump rewrites
                // the text and classes of the slots whose row changed instead of
                // building rows anew. Each slot places itself at its row.
                <For each=move || 0..slots.get() key=|i| *i let:i>
                    <HexSlot i=i vp=vp slots=slots/>
                </For>
            </div>
        </div>
    }
}

/// Rows drawn beyond those that fit (a partly visible row at each end).
const SLOT_MARGIN: usize = 2;

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

/// What a slot shows: the file (by identity), its row, and the marks.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Shown {
    file: usize,
    row: Option<usize>,
    marks: Marks,
}

/// Byte of the row starting at `base` shown by cell `j`: each dword's
/// bytes from the highest (the dword reads as a little-endian number).
fn cell_byte(base: usize, j: usize) -> usize {
    base + j / 4 * 4 + 3 - j % 4
}

/// Row slot `i` of `slots`: shows the row [`layout::slot_row`] gives it.
/// One effect writes the DOM: the whole row when the row or the file
/// changed, else only the cells whose selection, hover, search, diff or
/// def-use marks changed.
#[component]
fn HexSlot(i: usize, vp: Viewport, slots: Memo<usize>) -> impl IntoView {
    let s = st();
    let row_ref = NodeRef::<leptos::html::Div>::new();
    let cells_ref = NodeRef::<leptos::html::Span>::new();
    Effect::new(move |prev: Option<Shown>| {
        let prev = prev.unwrap_or_default();
        let m = s.model.get();
        let rows = m.bytes.len().div_ceil(ROW_BYTES);
        let row = Some(layout::slot_row(vp.top.get(), slots.get(), i)).filter(|&r| r < rows);
        let (Some(row_el), Some(cells)) = (row_ref.get(), cells_ref.get()) else {
            return prev;
        };
        let file = Arc::as_ptr(&m) as usize;
        let Some(r) = row else {
            if prev.row.is_some() {
                // Past the end: hidden, and no longer naming any byte.
                row_el.set_hidden(true);
                let mut cell = cells.first_element_child();
                while let Some(el) = cell {
                    el.set_class_name("b");
                    for a in ["data-b", "role", "aria-selected"] {
                        let _ = el.remove_attribute(a);
                    }
                    cell = el.next_element_sibling();
                }
            }
            return Shown { file, row: None, marks: Marks::default() };
        };
        let base = r * ROW_BYTES;
        let (hov, hovf) = s.hover.get().map_or((0, 0), |h| selection::hover_masks(&m, h, base));
        let (dtok, dbyte) = s.diff.with(|d| d.as_ref().map_or((0, 0), |d| d.marks.row_masks(base)));
        let marks = Marks {
            sel: s.sel.get().map_or(0, |sel| selection::row_mask(&sel, base)),
            hov,
            hovf,
            hit: s.hits.with(|h| h.row_mask(base)),
            dtok,
            dbyte,
            du: s.du.with(|d| d.as_ref().map_or(0, |d| d.row_mask(base))),
            src: s.src.marks.with(|x| x.row_mask(base)),
        };
        let now = Shown { file, row, marks };
        if prev.file == file && prev.row == row {
            toggle_marks(&cells, prev.marks, marks);
            return now;
        }
        fill_row(&row_el, &m, r, marks);
        now
    });
    view! {
        <div class="hrow slot" node_ref=row_ref hidden=true>
            <span class="off"></span>
            <span class="cells" node_ref=cells_ref>
                {(0..ROW_BYTES).map(|j| view! { <span class=if j % 4 == 3 { "b dwend" } else { "b" }></span> }).collect_view()}
            </span>
            <span class="ascii"></span>
        </div>
    }
}

#[wasm_bindgen(module = "/src/hex_row.js")]
extern "C" {
    /// Writes a row slot in one crossing (see hex_row.js).
    #[allow(clippy::too_many_arguments)]
    fn fill_hex_row(
        row: &web_sys::Element,
        y: f64,
        offset: &str,
        ascii: &str,
        classes: &str,
        digits: &str,
        offsets: &[u32],
        selected: u32,
    );
}

/// Offset written for a padding cell past the end of the file.
const NO_BYTE: u32 = u32::MAX;

/// Shows row `r` of the file in the slot `row_el`, with `marks`.
fn fill_row(row_el: &web_sys::Element, m: &crate::model::Model, r: usize, marks: Marks) {
    let base = r * ROW_BYTES;
    let ascii: String = m.bytes[base..(base + ROW_BYTES).min(m.bytes.len())]
        .iter()
        .map(|&c| if c.is_ascii_graphic() { c as char } else { '·' })
        .collect();
    let mut classes = String::with_capacity(ROW_BYTES * 24);
    let mut digits = String::with_capacity(ROW_BYTES * 2);
    let mut offsets = [NO_BYTE; ROW_BYTES];
    let mut selected = 0u32;
    for (j, off) in offsets.iter_mut().enumerate() {
        let b = cell_byte(base, j);
        let bit = 1u16 << (b - base);
        let dwend = if j % 4 == 3 { " dwend" } else { "" };
        if j > 0 {
            classes.push('\n');
        }
        if b < m.bytes.len() {
            classes.push_str(&byte_class(m, b));
            classes.push_str(dwend);
            for (mask, name) in marks.masks().iter().zip(Marks::CLASSES) {
                if mask & bit != 0 {
                    classes.push(' ');
                    classes.push_str(name);
                }
            }
            digits.push_str(hex2(m.bytes[b]));
            *off = b as u32;
            if marks.sel & bit != 0 {
                selected |= 1 << j;
            }
        } else {
            // Padding keeps the dword gaps, so the text column stays aligned.
            classes.push_str("b pad");
            classes.push_str(dwend);
            digits.push_str("  ");
        }
    }
    fill_hex_row(row_el, r as f64 * ROW_H, &format!("{base:08x}"), &ascii, &classes, &digits, &offsets, selected);
}

/// Toggles the marks that changed, on just the cells they changed on.
fn toggle_marks(cells: &web_sys::Element, before: Marks, now: Marks) {
    let changed = now.masks().iter().zip(before.masks()).fold(0u16, |c, (a, b)| c | (a ^ b));
    if changed == 0 {
        return;
    }
    let mut cell = cells.first_element_child();
    let mut j = 0;
    while let Some(el) = cell {
        let bit = 1u16 << (cell_byte(0, j));
        if changed & bit != 0 {
            let list = el.class_list();
            for (mask, class) in now.masks().iter().zip(Marks::CLASSES) {
                let _ = list.toggle_with_force(class, mask & bit != 0);
            }
            if (now.sel ^ before.sel) & bit != 0 {
                let _ = el.set_attribute("aria-selected", if now.sel & bit != 0 { "true" } else { "false" });
            }
        }
        cell = el.next_element_sibling();
        j += 1;
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
