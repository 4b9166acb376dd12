//! The generated code, virtualised; WGSL lines link to their instruction.

use crate::dom::{data_attr, LOOKAHEAD, ROW_H};
use crate::translation::{self, Target};
use crate::viewport::Viewport;
use crate::{selection, st};
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn CodeView(t: Arc<translation::Translated>, target: Target) -> impl IntoView {
    let s = st();
    let node = NodeRef::<leptos::html::Div>::new();
    let vp = Viewport::new();
    vp.watch(node);
    let top = vp.top;
    let lines = match &t.outputs[target.index()] {
        Ok(l) => Arc::new(l.clone()),
        // This target's own refusal (or writer failure); the other tabs still show code.
        Err(f) => return crate::components::translation_pane::failure_view(f.clone()).into_any(),
    };
    let n = lines.len();
    let spans = Arc::new(if target == Target::Wgsl { t.wgsl_spans.clone() } else { Vec::new() });
    // Show the WGSL of each newly selected instruction (a new view, opened
    // on a tab, starts at the top).
    let fx_spans = spans.clone();
    Effect::new(move |ran: Option<()>| {
        let sel = s.sel.get();
        let Some(sel) = sel.filter(|_| ran.is_some()) else { return };
        if let (Some(el), Some(k)) =
            (node.get(), fx_spans.iter().position(|x| x.is_some_and(|(a, l)| sel.start >= a && sel.start < a + l)))
        {
            vp.ensure_visible(&el, k, n);
        }
    });
    let click_spans = spans.clone();
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(k) = data_attr(&ev, "data-wl") {
            if let Some(Some((start, len))) = click_spans.get(k).copied() {
                let m = s.model.get_untracked();
                s.select(selection::select_range(&m, start, len));
            }
        }
    };
    view! {
        <div class="dis code" data-testid="translation-code" node_ref=node on:click=on_click
            on:scroll=move |_| { if let Some(el) = node.get_untracked() { vp.scrolled(&el) } }>
            <div class="spacer" style:height=move || format!("{}px", n as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    // Keyed rows: those still in the window keep their element while
                    // scrolling, so a click during a scroll is not lost.
                    <For each=move || {
                        let first = top.get().min(n.saturating_sub(1));
                        first..(first + vp.drawn_rows(LOOKAHEAD)).min(n)
                    } key=|k| *k let:k>
                        {
                            let span = spans.get(k).copied().flatten();
                            let class = move || {
                                let mut c = String::from(if span.is_some() { "line linked" } else { "line" });
                                if let (Some((a, len)), Some(sel)) = (span, s.sel.get()) {
                                    if sel.start >= a && sel.start < a + len { c.push_str(" sel"); }
                                }
                                c
                            };
                            let title = span.map(|(a, len)| format!("from the instruction at {a:#x}, {len} bytes"));
                            view! { <div class=class data-wl=k title=title data-span=span.map(|(a, len)| format!("{a}+{len}"))>{lines[k].clone()}</div> }
                        }
                    </For>
                </div>
            </div>
        </div>
    }
    .into_any()
}
