//! What the diff view compares with: the unedited original (offered while
//! the file is edited) or a second file, opened, dropped on the picker or
//! pasted in any form the main input reads (hex, base64, a C array, a link).

use crate::diff_view::CompareWith;
use crate::text::fmt_thousands;
use crate::{input, st, State};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

#[component]
pub fn DiffSource() -> impl IntoView {
    let s = st();
    let edited = Memo::new(move |_| s.model.with(|m| s.history.with(|h| h.is_edited(&m.bytes))));
    let on_original = move |_| s.compare.set(CompareWith::Original);
    let on_file = move |ev: web_sys::Event| {
        let Some(inp) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if let Some(f) = inp.files().and_then(|l| l.get(0)) {
            read_second_file(s, f);
        }
        inp.set_value("");
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        // Dropped here, a file is the second side (not the page's new file).
        ev.prevent_default();
        ev.stop_propagation();
        if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) {
            read_second_file(s, f);
        }
    };
    let paste = RwSignal::new(String::new());
    let on_paste = move |_| match input::detect_text(&paste.get_untracked()) {
        Ok(d) => {
            let name = format!("the pasted {}", d.kind.label());
            compare_with(s, name, d.bytes);
        }
        Err(e) => s.refuse(format!("Could not read the pasted text to compare with: {e}.")),
    };
    let label = move || match s.compare.get() {
        CompareWith::Original if edited.get() => "the unedited original".to_string(),
        CompareWith::Original => "the original (the file is not edited: nothing differs yet)".to_string(),
        CompareWith::File { name, bytes } => format!("{name} ({} bytes)", fmt_thousands(bytes.len())),
    };
    view! {
        <div class="diffsrc" on:drop=on_drop>
            <span class="diffwith" data-testid="diff-with">"Comparing with " {label}</span>
            <span class="diffpick">
                <button class="btn" data-testid="diff-original" on:click=on_original
                    class:on=move || s.compare.with(|c| *c == CompareWith::Original)
                    disabled=move || !edited.get()
                    title="Compare with the file as it was opened, before your edits">"Unedited original"</button>
                <label class="btn">"Second file…"
                    <input type="file" data-testid="diff-file" accept=".cso,.dxbc,.o,.fxo,.bin,.h,.txt" on:change=on_file/>
                </label>
                <textarea data-testid="diff-paste" rows="1" placeholder="or paste one" title="Paste hex, base64, a C array or a link to compare with"
                    prop:value=move || paste.get() on:input=move |ev| paste.set(event_target_value(&ev))></textarea>
                <button class="btn" data-testid="diff-decode" on:click=on_paste>"Compare"</button>
            </span>
        </div>
    }
}

fn compare_with(s: State, name: String, bytes: Vec<u8>) {
    s.status.set(format!("Comparing with {name}."));
    s.compare.set(CompareWith::File { name, bytes: Arc::new(bytes) });
}

fn read_second_file(s: State, f: web_sys::File) {
    let name = f.name();
    if f.size() > input::MAX_INPUT_BYTES as f64 {
        s.refuse(format!(
            "{name} is {} bytes; the explorer compares files up to {} MiB. Nothing was read.",
            fmt_thousands(f.size() as usize),
            input::MAX_INPUT_BYTES >> 20
        ));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
            Ok(buf) => match input::detect_file(&js_sys::Uint8Array::new(&buf).to_vec()) {
                Ok(d) => compare_with(s, name, d.bytes),
                Err(e) => s.refuse(format!("{name}: {e}")),
            },
            Err(_) => s.status.set(format!("Could not read {name}.")),
        }
    });
}
