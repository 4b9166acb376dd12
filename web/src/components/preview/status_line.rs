//! The preview's status: what runs, on which adapter, or why not.

use crate::preview_pane::Status;
use crate::{selection, st};
use leptos::prelude::*;

#[component]
pub fn StatusLine() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    move || {
        match pv.status.get() {
        Status::Preparing => view! { <p class="small" data-testid="preview-status">"Preparing the preview…"</p> }.into_any(),
        Status::Running(a) => view! { <p class="valid" data-testid="preview-status">{format!("✓ Running on {a}. Hover the picture to read exact output values.")}</p> }.into_any(),
        Status::NoWebGpu(why) => view! {
            <div class="terror" data-testid="preview-status"><strong>"WebGPU unavailable: "</strong>{why}
            <p class="small">"Everything else in the explorer keeps working. The native renderer computes the same preview: shader-runner preview FILE."</p></div>
        }.into_any(),
        Status::NotPreviewable(why) => view! { <div class="terror" data-testid="preview-status"><strong>"Not previewable: "</strong>{why}</div> }.into_any(),
        Status::Unsupported(why) => view! { <div class="terror" data-testid="preview-status"><strong>"Not previewable yet: "</strong>{why}</div> }.into_any(),
        Status::GpuError(why) => view! { <div class="terror" data-testid="preview-status"><strong>"WebGPU refused the preview: "</strong>{why}</div> }.into_any(),
        Status::GroupTooLarge(t) => {
            let [x, y, z] = t.clamped;
            view! {
                <div class="terror" data-testid="preview-status"><strong>"This adapter cannot run these groups: "</strong>{t.to_string()}" "
                    <button class="btn small" data-testid="preview-clamp" title="Edit dcl_thread_group (undo brings it back)"
                        on:click=move |_| { s.edit("the thread-group size", |m| preview_model::compute::set_thread_group(&m.bytes, t.clamped)); }>
                        {format!("Clamp to {x}×{y}×{z}")}</button></div>
            }.into_any()
        }
        Status::NotTranslated(msg, off) => {
            let link = off.map(|o| view! {
                <button class="offlink" data-testid="preview-offset" title="Select these bytes"
                    on:click=move |_| { let m = s.model.get_untracked(); s.select(selection::select_instruction_at(&m, o)); }>
                    {format!("at offset {o:#x}")}</button>
            });
            view! { <div class="terror" data-testid="preview-status"><strong>"Not translated: "</strong>{msg}" "{link}</div> }.into_any()
        }
    }
    }
}
