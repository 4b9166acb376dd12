//! The playground's bar: undo and redo, the "edited" badge while the bytes
//! differ from the opened file, and the downloads of the current, re-signed
//! container and of its listing.

use crate::{dom, st, State};
use leptos::prelude::*;

/// Downloads `data` as `name`; a refusal goes to the status line.
pub fn save(s: State, name: &str, data: &[u8]) {
    if let Err(e) = dom::download(name, data) {
        s.status.set(format!("Could not download {name}: {e}."));
    }
}

#[component]
pub fn EditBar() -> impl IntoView {
    let s = st();
    let edited = move || s.model.with(|m| s.history.with(|h| h.is_edited(&m.bytes)));
    view! {
        <span class="editbar" role="group" aria-label="Edits">
            <button class="btn" data-testid="undo" title="Undo the last edit (Ctrl+Z)"
                prop:disabled=move || !s.history.with(|h| h.can_undo()) on:click=move |_| s.undo()>"↶ Undo"</button>
            <button class="btn" data-testid="redo" title="Redo (Ctrl+Shift+Z)"
                prop:disabled=move || !s.history.with(|h| h.can_redo()) on:click=move |_| s.redo()>"↷ Redo"</button>
            <Show when=edited>
                <span class="badge edited" data-testid="edited" title="The bytes differ from the file as opened; the link carries the edited bytes">"edited"</span>
            </Show>
            <button class="btn" data-testid="download-dxbc" title="Download the current bytes (re-signed) as a .dxbc file"
                on:click=move |_| { let b = s.model.with_untracked(|m| m.bytes.clone()); save(s, &s.download_name("dxbc"), &b); }>"⤓ .dxbc"</button>
        </span>
    }
}
