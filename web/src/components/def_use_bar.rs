//! The def-use read-out: the clicked register's counts, and buttons to
//! step through the lines that write or read it.

use crate::{selection, st, State};
use leptos::prelude::*;

/// Selects the next (or previous) line touching the register.
fn step(s: State, forward: bool) {
    let Some(h) = s.du.get_untracked() else { return };
    let m = s.model.get_untracked();
    let from = s.sel.with_untracked(|x| x.as_ref().and_then(|x| selection::line_of(&m, x)));
    if let Some(sel) = h.step(from, forward).and_then(|l| selection::select_line(&m, l)) {
        s.select(Some(sel));
    }
}

#[component]
pub fn DefUseBar() -> impl IntoView {
    let s = st();
    view! {
        {move || s.du.get().map(|h| view! {
            <span class="defuse" role="group" aria-label="Def-use">
                <span class="count" data-testid="defuse-count">{h.summary.clone()}</span>
                <button class="btn small" data-testid="defuse-prev" title="Previous write or read"
                    on:click=move |_| step(s, false)>"◀"</button>
                <button class="btn small" data-testid="defuse-next" title="Next write or read"
                    on:click=move |_| step(s, true)>"▶"</button>
                <button class="btn small" data-testid="defuse-clear" title="Clear (Escape)"
                    on:click=move |_| s.du_reg.set(None)>"✕"</button>
            </span>
        })}
    }
}
