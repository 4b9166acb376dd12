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
use crate::layout::{self, Fold, Handle};
use crate::st;
use leptos::prelude::*;

#[component]
pub fn Workspace() -> impl IntoView {
    let s = st();
    let ws = NodeRef::<leptos::html::Div>::new();
    let right = NodeRef::<leptos::html::Div>::new();
    let fold = Memo::new(move |_| layout::shown_fold(s.panes.get(), s.fold.get()));
    let side_open = move || !layout::side_tabs(s.panes.get()).is_empty();
    let cols = move || {
        let sp = s.splits.get();
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
