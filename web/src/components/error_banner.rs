//! The decoding errors, each with a button that selects its bytes.

use crate::{selection, st};
use leptos::prelude::*;

/// One line per decoding error: its kind, chunk, message and offset (a
/// button that selects the bytes), then what is still shown.
#[component]
pub fn ErrorBanner() -> impl IntoView {
    let s = st();
    view! {
        <Show when=move || !s.model.get().faults.is_empty()>
            <div class="error" data-testid="error" role="alert">
                {move || {
                    let m = s.model.get();
                    let summary = match &m.shader {
                        Some(sh) => format!(
                            "{} decoding error{}. Every chunk that decoded is shown ({} chunks, {} instructions); undecoded bytes are marked red.",
                            m.faults.len(),
                            if m.faults.len() == 1 { "" } else { "s" },
                            sh.container.chunks.len(),
                            m.n_instructions
                        ),
                        None => "The container header could not be read.".to_string(),
                    };
                    let rows = m.faults.iter().map(|f| {
                        let at = f.offset;
                        view! {
                            <li data-testid="fault">
                                <strong>{f.kind}</strong>
                                {f.chunk.as_ref().map(|c| format!(" in {c}"))}
                                {format!(": {} ", f.message)}
                                <button class="offlink" title="Select these bytes" on:click=move |_| {
                                    let m = s.model.get_untracked();
                                    s.select(selection::select_byte(&m, at.min(m.bytes.len().saturating_sub(1))));
                                }>{format!("(at offset {at:#x})")}</button>
                            </li>
                        }
                    }).collect_view();
                    let first = m.faults[0].offset;
                    view! {
                        <strong>{format!("Decoding stopped at offset {first:#x}.")}</strong>" "
                        <p class="small">{summary}</p><ul class="faults">{rows}</ul>
                    }
                }}
            </div>
        </Show>
    }
}
