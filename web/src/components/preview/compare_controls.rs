//! Compares the preview with a reference picture, with an honest summary.

use crate::preview;
use crate::preview_pane::js_message;
use crate::{st, State};
use leptos::prelude::*;
use preview_model::reference::{self, Reference};
use std::sync::Arc;
use wasm_bindgen::JsCast;

#[component]
pub fn CompareControls() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    let on_file = move |ev: web_sys::Event| {
        let Some(inp) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(f) = inp.files().and_then(|l| l.get(0)) else { return };
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
                Ok(b) => js_sys::Uint8Array::new(&b).to_vec(),
                Err(e) => {
                    pv.compare_note.set(Some(format!("could not read the file: {}", js_message(e))));
                    return;
                }
            };
            accept_reference(s, &bytes, "rerun the command");
        });
    };
    // The same reference computed on the interpreter, in the worker.
    let cpu_running = RwSignal::new(false);
    let on_cpu = move |_| {
        let bytes = s.model.with_untracked(|m| m.bytes.clone());
        let (values, settings) = pv.link_state();
        let Ok(json) = serde_json::to_string(&dxbc_web::cpu_compare::Request { values, settings }) else { return };
        cpu_running.set(true);
        pv.compare_note.set(None);
        wasm_bindgen_futures::spawn_local(async move {
            let answer = crate::worker_client::cpu_reference(&bytes, &json).await;
            cpu_running.set(false);
            match answer {
                Ok(file) => {
                    // For the browser tests: the file the interpreter computed.
                    if let Ok(stats) = js_sys::Reflect::get(&js_sys::global(), &"__dxbcPreview".into()) {
                        let a = js_sys::Uint8Array::from(file.as_slice());
                        let _ = js_sys::Reflect::set(&stats, &"cpuReference".into(), &a);
                    }
                    accept_reference(s, &file, "compare again");
                }
                Err(why) => pv.compare_note.set(Some(format!("No CPU reference: {why}"))),
            }
        });
    };
    let summary = move || {
        let (p, got, r) = (pv.prepared.get()?, pv.readbacks.get()?, live_reference(s)?);
        let rows = preview::compare_all(&p.plan, &got, &r);
        let outcome = preview::CompareOutcome::of(&rows);
        let class = if outcome == preview::CompareOutcome::Differs { "terror" } else { "valid" };
        Some(view! {
            <div data-testid="preview-compare" data-outcome=outcome.name() class=class>
                <p data-testid="preview-compare-headline">{preview::compare_headline(outcome, &r.adapter, &p.plan.tolerance)}</p>
                {rows.iter().map(|(l, c)| view! {
                    <p class="small mono" data-testid="preview-compare-row" data-verdict=verdict_name(c)>{preview::comparison_text(l, c)}</p>
                }).collect_view()}
            </div>
        })
    };
    view! {
        <h3>"Compare with the native renderer"</h3>
        <p class="small">"Copy the link, run "<code class="mono">"shader-runner preview 'LINK' --out ref.dxpr"</code>" (wgpu on Vulkan, same plan, same inputs), then load ref.dxpr here."</p>
        <input type="file" data-testid="preview-reference-input" accept=".dxpr" on:change=on_file/>
        <p class="small">"Or compute the same read-backs here, on the CPU interpreter (every pixel or thread, in the worker): "
            <button class="btn small" data-testid="preview-compare-cpu" disabled=move || cpu_running.get() on:click=on_cpu>
                {move || if cpu_running.get() { "Running the interpreter…" } else { "Compare with the CPU interpreter" }}</button></p>
        {move || pv.compare_note.get().map(|n| view! { <p class="terror small" data-testid="preview-compare-note">{n}</p> })}
        {summary}
    }
}

/// Takes a reference file (loaded, or computed on the interpreter) for the
/// compare read-out, if it was computed from the page's inputs; `redo`
/// says how to get one that was.
pub(crate) fn accept_reference(s: State, bytes: &[u8], redo: &str) {
    let pv = s.pv;
    let (Some(p), m) = (pv.prepared.get_untracked(), s.model.get_untracked()) else { return };
    match reference::decode(bytes) {
        Err(e) => pv.compare_note.set(Some(e.to_string())),
        Ok(r) => {
            let want = preview::fingerprint(
                &p,
                &m.bytes,
                &pv.values.get_untracked(),
                &pv.settings.get_untracked(),
                &pv.companions.get_untracked(),
            );
            if r.fingerprint != want {
                pv.compare_note.set(Some(format!(
                    "this reference was computed for other inputs (fingerprint {:016x}, the page's is {want:016x}): copy the link again and {redo}",
                    r.fingerprint
                )));
            } else {
                pv.compare_note.set(None);
                pv.reference.set(Some(Arc::new(r)));
            }
        }
    }
}

/// The loaded reference while it still stands for the page's inputs: one
/// computed for other values, settings, shader or companions is not shown
/// (it shows again if the inputs come back). Derived where it is read, so
/// no effect has to clear it.
pub(crate) fn live_reference(s: State) -> Option<Arc<Reference>> {
    let pv = s.pv;
    let r = pv.reference.get()?;
    let p = pv.prepared.get()?;
    (r.fingerprint == crate::preview_pane::inputs_fingerprint(s, &p)).then_some(r)
}

fn verdict_name(c: &reference::Comparison) -> &'static str {
    match c.verdict() {
        reference::Verdict::Identical => "identical",
        reference::Verdict::WithinTolerance { .. } => "within",
        reference::Verdict::EdgePixels { .. } => "edges",
        reference::Verdict::Differs { .. } => "differs",
        reference::Verdict::SizeMismatch { .. } => "size",
    }
}
