//! The search box: opcodes, registers, reflection names, hex byte patterns
//! and offsets (`dxbc::search`). Shows the match count; Enter goes to the
//! next match (Shift+Enter the previous); matches light the bytes and the
//! listing lines.

use crate::st;
use leptos::prelude::*;

#[component]
pub fn SearchBox() -> impl IntoView {
    let s = st();
    let count = move || {
        let h = s.hits.get();
        if s.query.with(|q| q.trim().is_empty()) {
            return String::new();
        }
        let n = h.matches.len();
        let more = if h.truncated { "+" } else { "" };
        match h.current(s.sel.get().as_ref()) {
            Some(k) => format!("{} / {n}{more}", k + 1),
            None if n == 0 => "no match".to_string(),
            None => format!("{n}{more} {}", if n == 1 { "match" } else { "matches" }),
        }
    };
    let go = move |forward: bool| {
        let h = s.hits.get_untracked();
        let m = s.model.get_untracked();
        if let Some(k) = h.step(s.sel.get_untracked().as_ref(), forward) {
            if let Some(sel) = h.select(&m, k) {
                s.select(Some(sel));
            }
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
        "Enter" => {
            ev.prevent_default();
            go(!ev.shift_key());
        }
        "Escape" => s.query.set(String::new()),
        _ => {}
    };
    view! {
        <span class="search" role="search">
            <input type="search" data-testid="search" aria-label="Search"
                placeholder="Search: mul, r3, cb0[5], 0x8a8"
                title="Opcodes, registers (r3, cb0[5], v1, o0, t0, s0, u0), names from the reflection data, hex byte patterns, offsets (0x8a8). Enter: next match; Shift+Enter: previous."
                prop:value=move || s.query.get()
                on:input=move |ev| s.query.set(event_target_value(&ev))
                on:keydown=on_key/>
            <span class="count" data-testid="search-count" aria-live="polite">{count}</span>
        </span>
    }
}
