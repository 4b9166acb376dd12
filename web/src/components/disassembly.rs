//! The fxc listing, virtualised, linked to the bytes. A click on a
//! register lights every line writing or reading it (def-use); a
//! double-click, or Enter, opens the selected line for editing in place;
//! the "Edit listing" toggle swaps the view for the text editor.

use super::listing_editor::ListingEditor;
use crate::dom::{data_attr, LOOKAHEAD, ROW_H};
use crate::row_window::{Rotation, RowWindow};
use crate::viewport::Viewport;
use crate::{def_use, listing_edit, selection, st, syntax, Assembled, State};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Assembles the line editor's text in place of line `l`; accepted, the
/// editor closes.
fn apply_line(s: State, l: usize, text: &str) {
    let full = s.model.with_untracked(|m| listing_edit::splice_line(&m.lines, l, text));
    s.apply_listing(full, move |r| match r {
        Assembled::Accepted => {
            s.line_edit.set(None);
            s.line_error.set(None);
        }
        Assembled::Refused(e) => s.line_error.set(Some(e)),
        // Another file or an undo came first: the edited line no longer applies.
        Assembled::Stale => s.line_edit.set(None),
    });
}

/// Opens the line editor on the selected line.
fn open_line_editor(s: State, l: usize) {
    if s.model.with_untracked(|m| m.line_ins.get(l).copied().flatten().is_some()) {
        s.line_error.set(None);
        s.line_edit.set(Some(l));
    }
}

#[component]
pub fn Disassembly() -> impl IntoView {
    let s = st();
    view! {
        <Show when=move || s.editing.get() fallback=|| view! { <ListingView/> }>
            <ListingEditor/>
        </Show>
    }
}

#[component]
fn ListingView() -> impl IntoView {
    let s = st();
    let vp = Viewport::new();
    vp.watch(s.dis_ref);
    let top = vp.top;
    let n = move || s.model.with(|m| m.lines.len());
    let hover_line = Memo::new(move |_| {
        let m = s.model.get();
        let h = s.hover.get()?;
        m.line_of_span(m.span_at(h)?)
    });
    let sel_line = Memo::new(move |_| {
        let m = s.model.get();
        selection::line_of(&m, &s.sel.get()?)
    });
    // Bring the selected line into view, and the hovered byte's line while
    // the pointer is over the bytes (the DOM is written, no signal).
    Effect::new(move |_| {
        s.fold.track();
        vp.track_size();
        if let (Some(l), Some(el)) = (hover_line.get().or(sel_line.get()), s.dis_ref.get()) {
            vp.ensure_visible(&el, l, n());
        }
    });
    let rows_ref = NodeRef::<leptos::html::Div>::new();
    // The rows of the window, recycled: a scroll rewrites the rows that
    // enter, a jump every row in place, an edit the rows whose text changed.
    // They are drawn with the marks of the moment; the effects below keep
    // them current. The DOM is written, no signal.
    let window = StoredValue::new(RowWindow::default());
    Effect::new(move |_| {
        let m = s.model.get();
        let n = m.lines.len();
        let first = top.get().min(n.saturating_sub(1));
        let count = vp.drawn_rows(LOOKAHEAD).min(n - first);
        let Some(rows) = rows_ref.get() else { return };
        let (h, sl) = (hover_line.get_untracked(), sel_line.get_untracked());
        window.update_value(|w| {
            draw_window(&rows, w, first, count, &m.lines, |el, l| {
                let class = line_class(s, &m, l, h, sl);
                let gutter = breakpoint_offset(&m, l).is_some();
                let text = &m.lines[l];
                PIECE_CLASS_NAMES.with(|names| {
                    fill_listing_row(
                        el,
                        l as u32,
                        &class,
                        sl == Some(l),
                        gutter,
                        text,
                        &syntax::packed_pieces(text),
                        names,
                    )
                });
            })
        });
    });
    // Marks follow in place, on just the rows they change: the hover and
    // the selection touch at most four rows, search hits, the diff and
    // def-use (rarer) every drawn row. The DOM is written, no signal.
    Effect::new(move |prev: Option<(Option<usize>, Option<usize>)>| {
        let now = (hover_line.get(), sel_line.get());
        let Some(rows) = rows_ref.get_untracked() else { return now };
        let (ph, ps) = prev.unwrap_or_default();
        let m = s.model.get_untracked();
        let mut lines = [ph, ps, now.0, now.1].into_iter().flatten().collect::<Vec<_>>();
        lines.sort_unstable();
        lines.dedup();
        let children = rows.children();
        for l in lines {
            if let Some(el) = window.with_value(|w| w.row_of(l)).and_then(|i| children.item(i as u32)) {
                el.set_class_name(&line_class(s, &m, l, now.0, now.1));
                let _ = el.set_attribute("aria-selected", if now.1 == Some(l) { "true" } else { "false" });
            }
        }
        now
    });
    Effect::new(move |_| {
        // A new file or an edit keeps the rows whose text it kept (below):
        // their marks are drawn again here.
        s.model.track();
        s.hits.track();
        s.diff.track();
        s.du.track();
        s.src.marks.track();
        s.breakpoints.track();
        let Some(rows) = rows_ref.get_untracked() else { return };
        let m = s.model.get_untracked();
        let (h, sl) = (hover_line.get_untracked(), sel_line.get_untracked());
        let children = rows.children();
        window.with_value(|w| {
            for (i, l) in w.shown() {
                if let Some(el) = children.item(i as u32) {
                    el.set_class_name(&line_class(s, &m, l, h, sl));
                }
            }
        });
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        // The gutter toggles a breakpoint on the line's instruction.
        if let Some(l) = data_attr(&ev, "data-gutter") {
            if let Some(at) = s.model.with_untracked(|m| breakpoint_offset(m, l)) {
                s.breakpoints.update(|b| crate::debugger::toggle_breakpoint(b, at));
            }
            return;
        }
        if let Some(l) = data_attr(&ev, "data-line") {
            let m = s.model.get_untracked();
            // A register piece: light its writes and reads; elsewhere: clear.
            let reg = data_attr(&ev, "data-p").and_then(|k| def_use::register_at(&m.lines[l], k));
            if s.du_reg.get_untracked() != reg {
                s.du_reg.set(reg);
            }
            if s.line_edit.get_untracked().is_some_and(|e| e != l) {
                s.line_edit.set(None);
            }
            if let Some(sel) = selection::select_line(&m, l) {
                s.select(Some(sel));
            }
        }
    };
    // The hovered instruction lights its source line (the source pane).
    let on_over = move |ev: web_sys::MouseEvent| {
        let k = data_attr(&ev, "data-line").and_then(|l| s.model.with_untracked(|m| m.instruction_of_line(l)));
        if s.src.hover_ins.get_untracked() != k {
            s.src.hover_ins.set(k);
        }
    };
    let on_leave = move |_: web_sys::MouseEvent| {
        if s.src.hover_ins.get_untracked().is_some() {
            s.src.hover_ins.set(None);
        }
    };
    let on_dblclick = move |ev: web_sys::MouseEvent| {
        if let Some(l) = data_attr(&ev, "data-line") {
            open_line_editor(s, l);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && !crate::dom::in_text_field(&ev) {
            if let Some(l) = sel_line.get_untracked() {
                ev.prevent_default();
                open_line_editor(s, l);
            }
        }
    };
    view! {
        <div class="dis" data-testid="disassembly" node_ref=s.dis_ref role="listbox" aria-label="fxc listing" tabindex="0"
            on:click=on_click on:dblclick=on_dblclick on:keydown=on_key on:mouseover=on_over on:mouseleave=on_leave
            on:scroll=move |_| { if let Some(el) = s.dis_ref.get_untracked() { vp.scrolled(&el) } }>
            <div class="spacer" style:height=move || format!("{}px", n() as f64 * ROW_H)>
                <div class="rows" node_ref=rows_ref style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    // Written by the effect above (recycled rows, see row_window.rs).
                </div>
                // The line editor lies over its row (the rows stay plain, so
                // drawing them costs nothing more).
                {move || s.line_edit.get().map(|l| {
                    let text = s.model.with_untracked(|m| m.lines.get(l).cloned().unwrap_or_default());
                    line_editor(s, l, text)
                })}
            </div>
        </div>
    }
}

#[wasm_bindgen(module = "/src/listing_row.js")]
extern "C" {
    /// Writes a listing row: classes, line, selection, pieces and gutter
    /// (see listing_row.js).
    #[allow(clippy::too_many_arguments)]
    fn fill_listing_row(
        row: &web_sys::Element,
        line: u32,
        class: &str,
        selected: bool,
        gutter: bool,
        text: &str,
        pieces: &[u32],
        classes: &str,
    );
}

thread_local! {
    /// The pieces' class names, as `fill_listing_row` takes them.
    static PIECE_CLASS_NAMES: String = syntax::piece_class_names();
}

/// Moves the window of `rows` to `count` lines from `first` (see
/// [`RowWindow`]): rotates the row elements, hides those past the window,
/// adds the missing ones, and has `write(row, line)` write each row whose
/// line or text changed.
fn draw_window(
    rows: &web_sys::HtmlDivElement,
    w: &mut RowWindow,
    first: usize,
    count: usize,
    lines: &[String],
    write: impl Fn(&web_sys::HtmlElement, usize),
) {
    let before = w.len();
    match w.shift(first, count) {
        Rotation::Stay => {}
        Rotation::FrontToBack(k) => {
            let end = rows.children().item(before as u32);
            for _ in 0..k {
                if let Some(el) = rows.first_element_child() {
                    let _ = rows.insert_before(&el, end.as_ref().map(|e| e.as_ref()));
                }
            }
        }
        Rotation::BackToFront(k) => {
            for _ in 0..k {
                if let (Some(el), Some(start)) = (rows.children().item(before as u32 - 1), rows.first_element_child()) {
                    let _ = rows.insert_before(&el, Some(&start));
                }
            }
        }
    }
    // Rows past the window are hidden, not removed: the window shrinks to
    // what fits at a jump and grows again after its frame.
    let children = rows.children();
    for i in count..before {
        if let Some(el) = children.item(i as u32) {
            hide_row(&el);
        }
    }
    for i in 0..count {
        let Some(el) = children.item(i as u32).or_else(|| new_row(rows)) else { return };
        if w.needs_write(i, &lines[first + i]) {
            let el = el.unchecked_into::<web_sys::HtmlElement>();
            el.set_hidden(false);
            write(&el, first + i);
        }
    }
}

/// A row element added at the end of `rows`, written by the caller.
fn new_row(rows: &web_sys::HtmlDivElement) -> Option<web_sys::Element> {
    let el = document().create_element("div").ok()?;
    let _ = el.set_attribute("role", "option");
    rows.append_child(&el).ok()?;
    Some(el)
}

/// Hides a row the window no longer needs, and makes it name no line (a
/// search for lines or marks must not find it).
fn hide_row(el: &web_sys::Element) {
    let el = el.unchecked_ref::<web_sys::HtmlElement>();
    if !el.hidden() {
        el.set_hidden(true);
        el.set_class_name("");
        let _ = el.remove_attribute("data-line");
    }
}

/// The offset a breakpoint on line `l` stops at: its instruction's opcode
/// token, on the instruction's first line (None for other lines).
fn breakpoint_offset(m: &crate::model::Model, l: usize) -> Option<u32> {
    let k = m.instruction_of_line(l)?;
    (m.ins_line.get(k).copied()? as usize == l).then_some(())?;
    m.line_bytes(l).map(|(start, _)| start)
}

/// The classes of listing line `l`, given the hovered and selected lines
/// (search hits, the diff and def-use are read as they are now).
fn line_class(s: State, m: &crate::model::Model, l: usize, hover: Option<usize>, sel: Option<usize>) -> String {
    let mut c = String::from(if m.line_bytes(l).is_some() { "line linked" } else { "line" });
    if hover == Some(l) {
        c.push_str(" hl");
    }
    if sel == Some(l) {
        c.push_str(" sel");
    }
    if s.hits.with_untracked(|h| h.has_line(l)) {
        c.push_str(" hit");
    }
    if s.diff.with_untracked(|d| d.as_ref().is_some_and(|d| d.marks_line(l))) {
        c.push_str(" dchg");
    }
    // The instruction's first line only: the debug lines (#line, blank) printed
    // after it, before the next instruction, also count as its lines.
    let own = m.instruction_of_line(l).filter(|&k| m.ins_line.get(k).is_some_and(|&first| l == first as usize));
    if own.is_some_and(|k| s.src.marks.with_untracked(|x| x.has_instruction(k))) {
        c.push_str(" src");
    }
    if breakpoint_offset(m, l).is_some_and(|o| s.breakpoints.with_untracked(|b| b.binary_search(&o).is_ok())) {
        c.push_str(" bp");
    }
    if let Some(r) = s.du.with_untracked(|d| d.as_ref().and_then(|d| d.classes(l))) {
        c.push(' ');
        c.push_str(r);
    }
    c
}

/// The quick editor of line `l`: Enter assembles it in place of the line,
/// Escape closes it.
fn line_editor(s: State, l: usize, text: String) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    // Focus once it is in the document (unless it was closed before: the
    // input is gone then, and so is its NodeRef).
    request_animation_frame(move || {
        if let Some(el) = input.try_get_untracked().flatten() {
            let _ = el.focus();
        }
    });
    view! {
        <span class="line-edit" style:top=format!("{}px", l as f64 * ROW_H)>
            <input class="line-input" data-testid="line-editor" node_ref=input value=text spellcheck="false"
                aria-label="Edit this line: Enter assembles it, Escape cancels"
                on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
                on:dblclick=|ev: web_sys::MouseEvent| ev.stop_propagation()
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    ev.stop_propagation();
                    match ev.key().as_str() {
                        "Enter" => apply_line(s, l, &event_target_value(&ev)),
                        "Escape" => { s.line_edit.set(None); s.line_error.set(None); }
                        _ => {}
                    }
                }/>
            {move || (s.assembling.get() > 0).then(|| view! {
                <span class="assembling" data-testid="assembling" role="status">"Assembling…"</span>
            })}
            {move || s.line_error.get().map(|e| view! {
                <span class="line-error" data-testid="line-error" role="alert">{e.message()}</span>
            })}
        </span>
    }
}
