//! The listing pane's tools: copy the whole listing, or download it.

use super::copy_button::CopyButton;
use super::edit_bar::save;
use crate::{st, State};
use leptos::prelude::*;

/// The listing exactly as `dxbc disasm` prints it (None for a file that is
/// not a container).
pub fn listing_text(s: State) -> Option<String> {
    s.model.with_untracked(|m| m.shader.as_ref().map(dxbc::listing::disassemble))
}

#[component]
pub fn ListingTools() -> impl IntoView {
    let s = st();
    view! {
        <span class="tools">
            <button class="btn small" data-testid="edit-listing" aria-pressed=move || s.editing.get().to_string()
                title="Edit the listing as text: it is assembled when you pause typing"
                on:click=move |_| s.toggle_editor()>{move || if s.editing.get() { "✓ Done editing" } else { "✎ Edit listing" }}</button>
            <CopyButton testid="copy-listing" title="Copy the whole listing" text=Callback::new(move |_| listing_text(s))/>
            <button class="btn small" data-testid="download-listing" title="Download the listing (dxbc disasm's output)"
                on:click=move |_| { if let Some(t) = listing_text(s) { save(s, &s.download_name("asm"), t.as_bytes()); } }>"⤓ .asm"</button>
        </span>
    }
}
