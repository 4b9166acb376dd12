//! The tabbed pane under the inspector: translation, preview, the diff,
//! reflection and the container map, one tab per open pane. Every open pane stays
//! mounted (hidden when not on show), so switching tabs loses nothing.

use super::container_map::ContainerMap;
use super::diff_pane::DiffPane;
use super::reflection::Reflection;
use super::translation_pane::TranslationPane;
use crate::components::preview::pane::PreviewPane;
use crate::layout::{self, Fold, Side};
use crate::st;
use leptos::prelude::*;

#[component]
pub fn SidePane(#[prop(into)] on: Signal<bool>) -> impl IntoView {
    let s = st();
    let shown = Memo::new(move |_| layout::shown_side(s.panes.get(), s.side.get()));
    let panel = move |side: Side, body: AnyView| {
        view! {
            <div class="tabpanel" role="tabpanel" aria-label=side.label() class:hidden=move || shown.get() != Some(side)>
                {body}
            </div>
        }
    };
    let open = move |side: Side| move || s.panes.get() & side.bit() != 0;
    view! {
        <section class="pane sidepane" class:on=move || on.get()>
            <div class="tabs sidetabs" role="tablist" aria-label="Side panes">
                {move || layout::side_tabs(s.panes.get()).into_iter().map(|t| view! {
                    <button role="tab" class="tab" class:on=move || shown.get() == Some(t)
                        aria-selected=move || (shown.get() == Some(t)).to_string()
                        data-testid=format!("side-tab-{}", t.id())
                        on:click=move |_| { s.side.set(Some(t)); s.fold.set(Fold::Side(t)); }>{t.label()}</button>
                }).collect_view()}
            </div>
            <div class="sidebody">
                <Show when=open(Side::Translation)>{move || panel(Side::Translation, view! { <TranslationPane/> }.into_any())}</Show>
                <Show when=open(Side::Preview)>{move || panel(Side::Preview, view! { <PreviewPane/> }.into_any())}</Show>
                <Show when=open(Side::Diff)>{move || panel(Side::Diff, view! { <DiffPane/> }.into_any())}</Show>
                <Show when=open(Side::Reflection)>{move || panel(Side::Reflection, view! { <Reflection/> }.into_any())}</Show>
                <Show when=open(Side::Map)>{move || panel(Side::Map, view! { <ContainerMap/> }.into_any())}</Show>
            </div>
        </section>
    }
}
