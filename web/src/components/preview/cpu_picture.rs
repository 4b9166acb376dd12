//! Without WebGPU, the picture drawn on the CPU interpreter instead: the
//! same read-backs "Compare with the CPU interpreter" computes (every pixel
//! or thread, in the worker), shown on the canvas as the GPU's would be.

use crate::preview::{self, Prepared};
use crate::preview_pane::{draw_on_cpu_canvas, Status};
use crate::st;
use leptos::prelude::*;
use preview_model::plan::Readback;
use preview_model::reference;
use preview_model::Stage;
use std::sync::Arc;

/// What the last CPU drawing was made from, to tell when the inputs moved on.
#[derive(Clone, PartialEq)]
struct Drawn {
    fingerprint: u64,
    width: u32,
    height: u32,
    ms: f64,
    /// All NaN, infinite or black: what the GPU path's warning would say.
    warning: Option<String>,
}

#[component]
pub fn CpuPicture() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    let running = RwSignal::new(false);
    let drawn = RwSignal::new(None::<Drawn>);
    let note = RwSignal::new(None::<String>);
    // The interpreter runs pixel and compute shaders (no rasteriser, no
    // geometry or tessellation passes); a compute shader has a picture when
    // it writes a storage texture.
    let offered = move || {
        matches!(pv.status.get(), Status::NoWebGpu(_))
            && pv.prepared.get().is_some_and(|p| match p.plan.stage {
                Stage::Pixel => true,
                Stage::Compute => p.plan.readbacks.iter().any(|r| matches!(r, Readback::StorageTexture { .. })),
                _ => false,
            })
    };
    let fingerprint = move |p: &Prepared| {
        s.model.with(|m| {
            pv.values
                .with(|v| pv.settings.with(|st| pv.companions.with(|c| preview::fingerprint(p, &m.bytes, v, st, c))))
        })
    };
    let on_draw = move |_| {
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
                Err(why) => return note.set(Some(format!("The interpreter drew nothing: {why}"))),
            };
            match preview::canvas_picture(&p.plan, &r.readbacks, location) {
                Some((width, height, px)) if draw_on_cpu_canvas(pv, width, height, &px) => {
                    let ms = js_sys::Date::now() - t0;
                    let warning = preview::shown_target(&p.plan, location)
                        .and_then(|i| preview_model::picture::classify_target(&p.plan, &r.readbacks, i).warning());
                    drawn.set(Some(Drawn { fingerprint: r.fingerprint, width, height, ms, warning }));
                }
                Some(_) => note.set(Some("the canvas cannot take a 2D picture here".into())),
                None => note.set(Some("the interpreter's run holds no picture to draw".into())),
            }
        });
    };
    let label = move || {
        let d = drawn.get()?;
        let p: Arc<Prepared> = pv.prepared.get()?;
        let stale = d.fingerprint != fingerprint(&p);
        Some(view! {
            <p class="small" data-testid="preview-cpu-drawn" data-stale=stale.to_string()>
                {if stale {
                    format!("The picture ({}×{}) was drawn on the CPU interpreter for earlier inputs: draw again to follow them.", d.width, d.height)
                } else {
                    format!("Drawn on the CPU interpreter (dxbc-interp), {}×{}, in {:.0} ms; the GPU path draws it live where WebGPU runs.", d.width, d.height, d.ms)
                }}
            </p>
            {(!stale).then_some(d.warning).flatten().map(|w| view! { <p class="terror small" data-testid="preview-warning">{w}</p> })}
        })
    };
    move || {
        offered().then(|| view! {
            <div class="cpu-picture">
                <button class="btn small" data-testid="preview-cpu-draw" disabled=move || running.get() on:click=on_draw>
                    {move || if running.get() { "Running the interpreter…" } else { "Draw it on the CPU interpreter" }}</button>
                {label}
                {move || note.get().map(|n| view! { <p class="terror small" data-testid="preview-cpu-note">{n}</p> })}
            </div>
        })
    }
}
