//! The fxc listing, virtualised, linked to the bytes.

use crate::dom::{data_attr, LOOKAHEAD, ROW_H};
use crate::viewport::Viewport;
use crate::{selection, st, syntax};
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn Disassembly() -> impl IntoView {
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
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(l) = data_attr(&ev, "data-line") {
            let m = s.model.get_untracked();
            if let Some(sel) = selection::select_line(&m, l) {
                s.select(Some(sel));
            }
        }
    };
    view! {
        <div class="dis" data-testid="disassembly" node_ref=s.dis_ref role="listbox" aria-label="fxc listing" on:click=on_click
            on:scroll=move |_| { if let Some(el) = s.dis_ref.get_untracked() { vp.scrolled(&el) } }>
            <div class="spacer" style:height=move || format!("{}px", n() as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    // Keyed by file and line: rows still in the window keep their
                    // element while scrolling, so a click during a scroll is not lost.
                    <For each=move || {
                        let m = s.model.get();
                        let first = top.get().min(n().saturating_sub(1));
                        let last = (first + vp.fitting_rows(LOOKAHEAD)).min(n());
                        (first..last).map(move |l| (m.clone(), l)).collect::<Vec<_>>()
                    } key=|(m, l)| (Arc::as_ptr(m) as usize, *l) let((m, l))>
                        {
                            let linked = m.line_bytes(l).is_some();
                            let class = move || {
                                let mut c = String::from(if linked { "line linked" } else { "line" });
                                if hover_line.get() == Some(l) { c.push_str(" hl"); }
                                if sel_line.get() == Some(l) { c.push_str(" sel"); }
                                if s.hits.with(|h| h.has_line(l)) { c.push_str(" hit"); }
                                if s.diff.with(|d| d.as_ref().is_some_and(|d| d.marks_line(l))) { c.push_str(" dchg"); }
                                c
                            };
                            let pieces = syntax::highlight(&m.lines[l]).into_iter().map(|(c, t)| {
                                view! { <span class=c.css()>{t.to_string()}</span> }
                            }).collect_view();
                            view! { <div class=class data-line=l role="option"
                                aria-selected=move || (sel_line.get() == Some(l)).to_string()>{pieces}</div> }
                        }
                    </For>
                </div>
            </div>
        </div>
    }
}
