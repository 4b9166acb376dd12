//! Light and dark colours: the system's preference unless the user chose,
//! the choice remembered in localStorage and shown as `data-theme` on
//! `<html>` (style.css holds both palettes as custom properties).

use crate::layout::Theme;
use crate::{dom, st, State};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

const QUERY: &str = "(prefers-color-scheme: dark)";
/// localStorage key of the user's theme.
pub const THEME_KEY: &str = "dxbc-theme";

/// Whether the system asks for dark colours now.
pub fn system_prefers_dark() -> bool {
    window().match_media(QUERY).ok().flatten().is_some_and(|m| m.matches())
}

/// Follows the system's preference and keeps `data-theme` on `<html>`
/// (called once by the app).
pub fn install(s: State) {
    if let Ok(Some(mq)) = window().match_media(QUERY) {
        let on_change = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(move |e: web_sys::MediaQueryListEvent| {
            s.system_dark.set(e.matches())
        });
        let _ = mq.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget(); // lives as long as the page
    }
    // Writes the DOM only.
    Effect::new(move |_| {
        let t = Theme::effective(s.theme.get(), s.system_dark.get());
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-theme", t.name());
        }
    });
}

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let s = st();
    let now = move || Theme::effective(s.theme.get(), s.system_dark.get());
    view! {
        <button class="btn" data-testid="theme-toggle" aria-pressed=move || (now() == Theme::Dark).to_string()
            title="Switch between light and dark colours (remembered in this browser)"
            on:click=move |_| {
                let t = now().other();
                s.theme.set(Some(t));
                dom::store(THEME_KEY, t.name());
            }>
            {move || if now() == Theme::Dark { "☀ Light" } else { "☾ Dark" }}
        </button>
    }
}
