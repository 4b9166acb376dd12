//! The listing as an editor: the whole listing in a textarea, assembled
//! once typing pauses (one edit per pause). An error is shown with its
//! line and a marker beside that line; the text stays as typed and the
//! bytes as they were. The assembler runs in the worker (loaded on the
//! first edit); "Assembling…" shows while a text is with it.

use crate::dom::ROW_H;
use crate::st;
use leptos::prelude::*;

#[component]
pub fn ListingEditor() -> impl IntoView {
    let s = st();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let scroll = RwSignal::new(0.0f64);
    let err_line = Memo::new(move |_| s.draft_error.with(|e| e.as_ref().and_then(|e| e.line())));
    // Puts the caret at the start of the error's line and scrolls to it.
    let go_to_error = move |_| {
        let (Some(l), Some(el)) = (err_line.get_untracked(), area.get_untracked()) else { return };
        let text = el.value();
        let at = text.split_inclusive('\n').take(l).map(|x| x.encode_utf16().count()).sum::<usize>() as u32;
        let _ = el.focus();
        let _ = el.set_selection_range(at, at);
        el.set_scroll_top(((l as f64 - 3.0).max(0.0) * ROW_H) as i32);
    };
    view! {
        <div class="listing-editor">
            <textarea class="editor" data-testid="listing-editor" node_ref=area spellcheck="false" wrap="off"
                aria-label="Listing text: edit and pause to assemble"
                prop:value=move || { s.draft_reset.track(); s.draft.get_untracked().unwrap_or_default() }
                on:input=move |ev| { s.draft.set(Some(event_target_value(&ev))); s.schedule_draft(); }
                on:scroll=move |_| { if let Some(el) = area.get_untracked() { scroll.set(el.scroll_top() as f64) } }/>
            {move || err_line.get().map(|l| view! {
                <span class="err-mark" data-testid="listing-error-marker" data-line=l + 1 aria-hidden="true"
                    style:top=move || format!("{}px", l as f64 * ROW_H + 4.0 - scroll.get())>"●"</span>
            })}
            {move || (s.assembling.get() > 0).then(|| view! {
                <p class="assembling" data-testid="assembling" role="status">"Assembling…"</p>
            })}
            {move || s.draft_error.get().map(|e| view! {
                <p class="listing-error" data-testid="listing-error" data-line=e.line().map(|l| l + 1) role="alert"
                    title="Go to the line" on:click=go_to_error>{e.message()}</p>
            })}
        </div>
    }
}

/// What the listing pane shows while the editor is closed but holds text
/// that did not assemble: resume it, or discard it.
#[component]
pub fn DraftKept() -> impl IntoView {
    let s = st();
    // Not while the text is with the assembler: it may yet be accepted.
    let kept = move || !s.editing.get() && s.assembling.get() == 0 && s.draft.with(Option::is_some);
    view! {
        <Show when=kept>
            <div class="draft-kept" data-testid="draft-kept" role="status">
                <span>{move || s.draft_error.get().map(|e| format!("Your edited listing was not applied ({}).", e.message()))}</span>
                <button class="btn small" data-testid="draft-resume" on:click=move |_| s.toggle_editor()>"Resume editing"</button>
                <button class="btn small" data-testid="draft-discard" on:click=move |_| s.discard_draft()>"Discard it"</button>
            </div>
        </Show>
    }
}
