//! The virtualised hex view: little-endian dword rows, coloured by span
//! and field, linked to the selection and the hover.

use crate::dom::{data_attr, ensure_visible, POOL, ROW_H};
use crate::model::{self, Model};
use crate::selection::{self, Key, ROW_BYTES};
use crate::st;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn HexView() -> impl IntoView {
    let s = st();
    let top = RwSignal::new(0usize);
    let rows = move || s.model.with(|m| m.bytes.len().div_ceil(ROW_BYTES));
    // Keep the selection in view (also when the pane comes back from a fold tab).
    Effect::new(move |_| {
        s.fold.track();
        if let (Some(sel), Some(el)) = (s.sel.get(), s.hex_ref.get()) {
            ensure_visible(&el, sel.start as usize / ROW_BYTES);
        }
    });
    let on_scroll = move |_| {
        if let Some(el) = s.hex_ref.get_untracked() {
            top.set((el.scroll_top() as f64 / ROW_H) as usize);
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
        let page = s.hex_ref.get_untracked().map_or(20, |el| (el.client_height() as f64 / ROW_H) as usize);
        s.select(selection::step(&m, s.sel.get_untracked(), key, page.max(1)));
    };
    view! {
        <div class="hex" data-testid="hex-view" tabindex="0" node_ref=s.hex_ref
            role="listbox" aria-multiselectable="true" aria-label="Bytes"
            on:scroll=on_scroll on:mouseover=on_over
            on:click=on_click on:keydown=on_key>
            <div class="spacer" style:height=move || format!("{}px", rows() as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    {move || {
                        let m = s.model.get();
                        let first = top.get().min(rows().saturating_sub(1));
                        let last = (first + POOL).min(rows());
                        (first..last).map(|r| hex_row(&m, r)).collect_view()
                    }}
                </div>
            </div>
        </div>
    }
}

pub fn hex_row(m: &Arc<Model>, r: usize) -> impl IntoView {
    let s = st();
    let base = r * ROW_BYTES;
    let stop = m.stop_offset();
    // Per-row masks: a new selection or hover reruns one memo per row and
    // only the bytes of rows whose mask changed.
    let sel_mask = Memo::new(move |_| s.sel.get().map_or(0, |sel| selection::row_mask(&sel, base)));
    // Search matches and def-use operands in one memo per row.
    let marks = Memo::new(move |_| {
        (s.hits.with(|h| h.row_mask(base)), s.du.with(|d| d.as_ref().map_or(0, |d| d.row_mask(base))))
    });
    let hov_mask = {
        let m = m.clone();
        Memo::new(move |_| s.hover.get().map_or((0, 0), |h| selection::hover_masks(&m, h, base)))
    };
    let mut cells = Vec::with_capacity(ROW_BYTES);
    for w in 0..4 {
        let dw = base + w * 4;
        for k in (0..4).rev() {
            let b = dw + k;
            if b >= m.bytes.len() {
                // Padding keeps the dword gaps, so the text column stays aligned.
                cells.push(view! { <span class=if k == 0 { "b pad dwend" } else { "b pad" }>"  "</span> }.into_any());
                continue;
            }
            let i = m.span_at(b);
            let mut class = String::from("b ");
            if let Some(i) = i {
                class.push_str(model::span_class(m, i));
                if i % 2 == 1 {
                    class.push_str(" alt");
                }
                if let Some(f) = m.field_at_byte(b) {
                    let idx = m.fields(i).iter().position(|x| x.lo == f).unwrap_or(0);
                    class.push_str([" f0", " f1", " f2", " f3"][idx % 4]);
                }
            }
            if stop == Some(b) {
                class.push_str(" stop");
            }
            if k == 0 {
                class.push_str(" dwend");
            }
            let bit = 1u16 << (b - base);
            let dynamic = move || {
                let mut c = class.clone();
                if sel_mask.get() & bit != 0 {
                    c.push_str(" sel");
                }
                let (hov, hovf) = hov_mask.get();
                if hov & bit != 0 {
                    c.push_str(" hov");
                }
                if hovf & bit != 0 {
                    c.push_str(" hovf");
                }
                let (hit, du) = marks.get();
                if hit & bit != 0 {
                    c.push_str(" hit");
                }
                if du & bit != 0 {
                    c.push_str(" du");
                }
                c
            };
            cells.push(
                view! { <span class=dynamic data-b=b role="option"
                aria-selected=move || (sel_mask.get() & bit != 0).to_string()>{format!("{:02x}", m.bytes[b])}</span> }
                .into_any(),
            );
        }
    }
    let ascii: String = m.bytes[base..(base + ROW_BYTES).min(m.bytes.len())]
        .iter()
        .map(|&c| if c.is_ascii_graphic() { c as char } else { '·' })
        .collect();
    view! {
        <div class="hrow"><span class="off">{format!("{base:08x}")}</span><span class="cells">{cells}</span><span class="ascii">{ascii}</span></div>
    }
}
