//! The preview's pipeline: the open shader and the shaders the user added
//! to run with it (a vertex shader before a geometry or hull shader, a
//! domain shader after a hull shader), each removable. Shown for the
//! stages that chain; the plan links them (`preview_model::plan::build_pipeline`).

use crate::preview;
use crate::st;
use leptos::prelude::*;
use preview_model::Stage;
use wasm_bindgen::JsCast;

/// Short stage name, as profiles spell it.
fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "VS",
        Stage::Hull => "HS",
        Stage::Domain => "DS",
        Stage::Geometry => "GS",
        Stage::Pixel => "PS",
        Stage::Compute => "CS",
        Stage::Other => "?",
    }
}

#[component]
pub fn PipelineControl() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    let open_stage = Memo::new(move |_| s.model.with(|m| m.shader.as_ref().map(Stage::of)));
    let on_file = move |ev: web_sys::Event| {
        let Some(inp) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(f) = inp.files().and_then(|l| l.get(0)) else { return };
        inp.set_value("");
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
                Ok(b) => js_sys::Uint8Array::new(&b).to_vec(),
                Err(_) => {
                    pv.companion_note.set(Some(format!("{}: could not read the file", f.name())));
                    return;
                }
            };
            match preview::companion(&f.name(), bytes) {
                Ok(c) => {
                    pv.companion_note.set(None);
                    pv.companions.update(|list| list.push(c));
                }
                Err(e) => pv.companion_note.set(Some(format!("{}: {e}", f.name()))),
            }
        });
    };
    move || {
        let stage = open_stage.get()?;
        if !matches!(stage, Stage::Vertex | Stage::Hull | Stage::Domain | Stage::Geometry) {
            return None;
        }
        let list = pv.companions.get();
        Some(view! {
            <div class="ctl" data-testid="preview-pipeline">
                <span>"Pipeline: "</span>
                <span class="mono" data-testid="preview-pipeline-open">{format!("{} (this file)", stage_name(stage))}</span>
                {list.into_iter().enumerate().map(|(i, c)| view! {
                    <span class="mono" data-testid="preview-pipeline-stage">{format!(" + {} {}", stage_name(c.stage), c.name)}</span>
                    <button class="small" data-testid="preview-pipeline-remove" title="Remove this shader from the pipeline"
                        on:click=move |_| pv.companions.update(|l| { if i < l.len() { l.remove(i); } })>"×"</button>
                }).collect_view()}
                <label class="small">" Add a shader "
                    <input type="file" data-testid="preview-pipeline-add" accept=".dxbc,.cso,.fxo,.bin" on:change=on_file/>
                </label>
                {move || pv.companion_note.get().map(|n| view! { <p class="terror small" data-testid="preview-pipeline-note">{n}</p> })}
            </div>
        })
    }
}
