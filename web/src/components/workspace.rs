//! The workspace: bytes, listing and a right column (the inspector over
//! the tabbed side pane) side by side, filling the window, with drag
//! handles between them. Below 900 px wide it folds into tabs, one pane at
//! a time (style.css does the folding; the tab bar is drawn here).

use super::disassembly::Disassembly;
use super::hex_view::HexView;
use super::inspector::Inspector;
use super::listing_tools::ListingTools;
use super::side_pane::SidePane;
use super::splitter::Splitter;
use crate::layout::{self, Fold, Handle, Needs};
use crate::st;
use leptos::prelude::*;

#[component]
pub fn Workspace() -> impl IntoView {
    let s = st();
    let ws = NodeRef::<leptos::html::Div>::new();
    let right = NodeRef::<leptos::html::Div>::new();
    let fold = Memo::new(move |_| layout::shown_fold(s.panes.get(), s.fold.get()));
    let side_open = move || !layout::side_tabs(s.panes.get()).is_empty();
    watch_needs(s, ws);
    // The listing's widest line (by bytes: its characters but for rare
    // non-ASCII names), laid out unseen for `watch_needs` to measure.
    let widest =
        Memo::new(move |_| s.model.with(|m| m.lines.iter().max_by_key(|l| l.len()).cloned().unwrap_or_default()));
    let cols = move || {
        let sp = s.splits_shown();
        format!("minmax(0, {}fr) 6px minmax(0, {}fr) 6px minmax(0, {}fr)", sp.bytes, sp.listing, sp.side())
    };
    let rows = move || {
        let i = s.splits.get().inspector;
        if side_open() {
            format!("minmax(0, {i}fr) 6px minmax(0, {}fr)", 1.0 - i)
        } else {
            "minmax(0, 1fr)".to_string()
        }
    };
    view! {
        <nav class="foldtabs tabs" role="tablist" aria-label="Panes" data-testid="fold-tabs">
            {move || layout::fold_tabs(s.panes.get()).into_iter().map(|f| view! {
                <button role="tab" class="tab" class:on=move || fold.get() == f
                    aria-selected=move || (fold.get() == f).to_string() data-testid=format!("fold-{}", f.id())
                    on:click=move |_| {
                        s.fold.set(f);
                        if let Fold::Side(x) = f { s.side.set(Some(x)); }
                    }>{f.label()}</button>
            }).collect_view()}
        </nav>
        <div class="workspace" node_ref=ws style:grid-template-columns=cols>
            <section class="pane hexpane" class:on=move || fold.get() == Fold::Bytes>
                <h2>"Bytes " <small>"dwords, little-endian: bit 31 on the left"</small></h2>
                <HexView/>
            </section>
            <Splitter handle=Handle::BytesListing container=ws/>
            // The embedded HLSL of a /Zi shader sits over its listing.
            <div class="listcol">
                <Show when=move || s.src.map.with(Option::is_some)>
                    <section class="pane srcsection" class:on=move || fold.get() == Fold::Listing>
                        <super::source_pane::SourcePane/>
                    </section>
                </Show>
                <section class="pane dispane" class:on=move || fold.get() == Fold::Listing>
                    <h2>"Listing " <small>"identical to fxc /Fc"</small><ListingTools/></h2>
                    <div class="dis-ruler" aria-hidden="true">{move || widest.get()}</div>
                    <super::listing_editor::DraftKept/>
                    // Floats over the listing: showing or clearing it moves no line.
                    <super::def_use_bar::DefUseBar/>
                    <Disassembly/>
                </section>
            </div>
            <Splitter handle=Handle::ListingSide container=ws/>
            <div class="rightcol" node_ref=right style:grid-template-rows=rows>
                <section class="pane inspane" class:on=move || fold.get() == Fold::Inspector>
                    <h2>"Inspector"</h2>
                    <Inspector/>
                </section>
                <Show when=side_open>
                    <Splitter handle=Handle::InspectorTabs container=right/>
                    <SidePane on=Signal::derive(move || matches!(fold.get(), Fold::Side(_)))/>
                </Show>
            </div>
        </div>
    }
}

/// Keeps `needs` current: what the bytes column needs to show a whole row
/// (the hex view's ruler row) and the listing its widest line (the
/// listing's ruler), each with its pane's padding, border and scrollbar, as
/// shares of the three columns' width. Read in a ResizeObserver's callback,
/// which comes after layout (reading costs no layout), whenever the
/// workspace or a ruler changes size.
fn watch_needs(s: crate::State, ws: NodeRef<leptos::html::Div>) {
    use send_wrapper::SendWrapper;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(ws) = ws.get() else { return false };
        let ws: web_sys::Element = ws.into();
        let (Ok(Some(hex_ruler)), Ok(Some(dis_ruler))) =
            (ws.query_selector(".hex > .hex-ruler"), ws.query_selector(".dispane > .dis-ruler"))
        else {
            return true;
        };
        let el = ws.clone();
        let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| {
            let find = |sel: &str| el.query_selector(sel).ok().flatten();
            let width = |sel: &str| find(sel).map_or(0.0, |e| e.get_bounding_client_rect().width());
            let columns = width(":scope > .hexpane") + width(":scope > .listcol") + width(":scope > .rightcol");
            // A pane's chrome: its width less its view's content box.
            let need = |pane: &str, view: &str, ruler: &str| {
                let v = find(view)?;
                let chrome = width(pane) - v.client_width() as f64;
                // A pixel over, for the fractions the grid rounds.
                (columns > 0.0).then(|| (width(ruler) + chrome + 1.0) / columns)
            };
            let old = s.needs.get_untracked();
            let now = Needs {
                bytes: need(":scope > .hexpane", ".hex", ".hex > .hex-ruler").unwrap_or(f64::INFINITY),
                // No listing view while the whole-text editor is open: what
                // it last needed stands.
                listing: need(".dispane", ".dispane > .dis", ".dispane > .dis-ruler").unwrap_or(old.listing),
            };
            if old != now {
                s.needs.set(now);
            }
        });
        let Ok(ro) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) else { return true };
        ro.observe(&ws);
        ro.observe(&hex_ruler);
        ro.observe(&dis_ruler);
        let keep = SendWrapper::new((ro, cb));
        on_cleanup(move || keep.0.disconnect());
        true
    });
}
