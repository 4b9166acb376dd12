//! Without WebGPU, the preview run on the CPU interpreter instead: the same
//! read-backs "Compare with the CPU interpreter" computes (every pixel or
//! thread, in the worker). The picture goes on the canvas as the GPU's
//! would; buffers go to the tables below and an empty picture to the
//! blank warning (both read `preview_pane::shown_readbacks`).

use crate::preview::{self, Prepared};
use crate::preview_pane::{draw_on_cpu_canvas, inputs_fingerprint, CpuRun, Status};
use crate::st;
use leptos::prelude::*;
use preview_model::plan::Readback;
use preview_model::reference;
use preview_model::Stage;
use std::sync::Arc;

#[component]
pub fn CpuPicture() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    let running = RwSignal::new(false);
    let note = RwSignal::new(None::<String>);
    // The interpreter runs pixel and compute shaders (no rasteriser, no
    // geometry or tessellation passes).
    let offered = move || {
        matches!(pv.status.get(), Status::NoWebGpu(_))
            && pv.prepared.get().is_some_and(|p| matches!(p.plan.stage, Stage::Pixel | Stage::Compute))
    };
    let has_picture = |p: &Prepared| {
        p.plan.stage == Stage::Pixel || p.plan.readbacks.iter().any(|r| matches!(r, Readback::StorageTexture { .. }))
    };
    let on_run = move |_| {
        let Some(p) = pv.prepared.get_untracked() else { return };
        let bytes = s.model.with_untracked(|m| m.bytes.clone());
        let (values, settings) = pv.link_state();
        let Ok(json) = serde_json::to_string(&dxbc_web::cpu_compare::Request { values, settings }) else { return };
        let location = pv.settings.with_untracked(|st| st.target);
        running.set(true);
        note.set(None);
        wasm_bindgen_futures::spawn_local(async move {
            let t0 = js_sys::Date::now();
            let answer = crate::worker_client::cpu_reference(&bytes, &json).await;
            running.set(false);
            let r = match answer.and_then(|file| reference::decode(&file).map_err(|e| e.to_string())) {
                Ok(r) => r,
                Err(why) => return note.set(Some(format!("The interpreter ran nothing: {why}"))),
            };
            let ms = js_sys::Date::now() - t0;
            let picture = match preview::canvas_picture(&p.plan, &r.readbacks, location) {
                Some((width, height, px)) if draw_on_cpu_canvas(pv, width, height, &px) => Some((width, height)),
                Some(_) => {
                    note.set(Some("the canvas cannot take a 2D picture here".into()));
                    None
                }
                None => None,
            };
            let readbacks = Arc::new(r.readbacks);
            pv.cpu_run.set(Some(Arc::new(CpuRun { fingerprint: r.fingerprint, readbacks, picture, ms })));
        });
    };
    let label = move || {
        let (run, p) = (pv.cpu_run.get()?, pv.prepared.get()?);
        let stale = run.fingerprint != inputs_fingerprint(s, &p);
        let text = match (stale, run.picture) {
            (true, _) => "This was run on the CPU interpreter for earlier inputs: run it again to follow them.".to_string(),
            (false, Some((w, h))) => format!(
                "Drawn on the CPU interpreter (dxbc-interp), {w}×{h}, in {:.0} ms; the GPU path draws it live where WebGPU runs.",
                run.ms
            ),
            (false, None) => format!("Run on the CPU interpreter (dxbc-interp) in {:.0} ms: its buffers are below.", run.ms),
        };
        Some(view! { <p class="small" data-testid="preview-cpu-drawn" data-stale=stale.to_string()>{text}</p> })
    };
    move || {
        let picture = pv.prepared.with(|p| p.as_deref().is_some_and(has_picture));
        offered().then(|| view! {
            <div class="cpu-picture">
                <button class="btn small" data-testid="preview-cpu-draw" disabled=move || running.get() on:click=on_run>
                    {move || match (running.get(), picture) {
                        (true, _) => "Running the interpreter…",
                        (false, true) => "Draw it on the CPU interpreter",
                        (false, false) => "Run it on the CPU interpreter",
                    }}</button>
                {label}
                {move || note.get().map(|n| view! { <p class="terror small" data-testid="preview-cpu-note">{n}</p> })}
            </div>
        })
    }
}
