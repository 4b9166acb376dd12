//! Small DOM helpers shared by the components: reading `data-*` attributes
//! from events, scrolling a virtualised list to a row, localStorage, and
//! yielding to the browser between slices of work.

use crate::layout;
use leptos::prelude::window;
use wasm_bindgen::JsCast;

/// Height of one row of the virtualised views (hex, listing, code), in px.
pub const ROW_H: f64 = 20.0;
/// Rows drawn at once by a virtualised view.
pub const POOL: usize = 64;

/// Scrolls `el` so that row `row` is visible (only when it is not, and only
/// when the pane is laid out).
pub fn ensure_visible(el: &web_sys::HtmlElement, row: usize) {
    let h = el.client_height() as f64;
    if let Some(top) = layout::scroll_to_row(el.scroll_top() as f64, h, row, ROW_H) {
        el.set_scroll_top(top as i32);
    }
}

/// The number in attribute `name` of the event target or its closest
/// ancestor that has one.
pub fn data_attr(ev: &web_sys::Event, name: &str) -> Option<usize> {
    let t = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let el = t.closest(&format!("[{name}]")).ok()??;
    el.get_attribute(name)?.parse().ok()
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// A value remembered in localStorage (None when storage is off).
pub fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Remembers a value in localStorage (silently does nothing when storage is off).
pub fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// Lets the browser draw and handle input before the next slice of work.
pub async fn yield_now() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}
