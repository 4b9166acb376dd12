//! A drag handle between two panes: pointer drags (captured, so the
//! pointer may leave the handle), arrow, Page, Home and End keys, and the
//! proportions remembered in localStorage.

use crate::dom;
use crate::layout::Handle;
use crate::st;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// localStorage key of the workspace's proportions.
pub const SPLITS_KEY: &str = "dxbc-splits";

/// A separator for `handle`; positions are measured in `container`.
#[component]
pub fn Splitter(handle: Handle, container: NodeRef<leptos::html::Div>) -> impl IntoView {
    let s = st();
    let across = handle != Handle::InspectorTabs;
    let (label, id) = match handle {
        Handle::BytesListing => ("Resize bytes and listing", "bytes-listing"),
        Handle::ListingSide => ("Resize listing and side column", "listing-side"),
        Handle::InspectorTabs => ("Resize inspector and side pane", "inspector-tabs"),
    };
    let dragging = RwSignal::new(false);
    // Each handle moves from where it is shown (see Splits::moved_from).
    let base = move |sp: crate::layout::Splits| untrack(|| sp.moved_from(handle, s.needs_shown()));
    let at = move |ev: &web_sys::PointerEvent| -> Option<f64> {
        let r = container.get_untracked()?.get_bounding_client_rect();
        Some(if across {
            (ev.client_x() as f64 - r.left()) / r.width()
        } else {
            (ev.client_y() as f64 - r.top()) / r.height()
        })
    };
    let save = move || dom::store(SPLITS_KEY, &s.splits.get_untracked().to_text());
    let stop = move || {
        if dragging.get_untracked() {
            dragging.set(false);
            save();
        }
    };
    view! {
        <div class=if across { "splitter across" } else { "splitter down" } class:dragging=move || dragging.get()
            role="separator" tabindex="0" aria-label=label data-testid=format!("split-{id}")
            aria-orientation=if across { "vertical" } else { "horizontal" }
            aria-valuemin="0" aria-valuemax="100" aria-valuenow=move || s.splits_shown().percent(handle).to_string()
            on:pointerdown=move |ev: web_sys::PointerEvent| {
                if ev.button() != 0 { return; }
                if let Some(t) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                    let _ = t.set_pointer_capture(ev.pointer_id());
                }
                ev.prevent_default();
                dragging.set(true);
            }
            on:pointermove=move |ev: web_sys::PointerEvent| {
                if dragging.get_untracked() {
                    if let Some(x) = at(&ev) { s.splits.update(|sp| *sp = base(*sp).drag(handle, x)); }
                }
            }
            on:pointerup=move |_| stop()
            on:pointercancel=move |_| stop()
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if let Some(n) = base(s.splits.get_untracked()).key(handle, &ev.key()) {
                    ev.prevent_default();
                    s.splits.set(n);
                    save();
                }
            }></div>
    }
}
