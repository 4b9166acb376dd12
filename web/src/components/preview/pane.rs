//! The live preview pane: the canvas with its orbit and zoom, and the
//! widgets around it. Signals, effects and the WebGPU calls live in
//! `crate::preview_pane`; the logic in `crate::preview`.

use super::{
    blank_warning::BlankWarning, buffer_tables::BufferTables, compare_controls::CompareControls,
    constant_controls::ConstantControls, cpu_picture::CpuPicture, pixel_readout::PixelReadout,
    stage_controls::StageControls, status_line::StatusLine, texture_controls::TextureControls,
};
use crate::components::debug_panel::DebugPanel;
use crate::components::pipeline_control::PipelineControl;
use crate::preview_pane::{PreviewSignals, GPU};
use crate::st;
use leptos::prelude::*;
use preview_model::camera::{camera_values, Camera};
use preview_model::plan::Resource;
use preview_model::Stage;
use std::cell::Cell;

thread_local! {
    /// Where the pointer was at the last drag step over the canvas.
    static DRAG_FROM: Cell<Option<(i32, i32)>> = const { Cell::new(None) };
}

#[component]
pub fn PreviewPane() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    on_cleanup(|| {
        GPU.with(|g| g.borrow_mut().take());
    });
    view! {
        <section class="panel" data-testid="preview-pane">
            <h2>"Live preview " <small>"the translated shader on your GPU (WebGPU), inputs made from its reflection"</small></h2>
            <StatusLine/>
            <div class="pcols">
                <div class="pview">
                    <canvas data-testid="preview" class="pcanvas" width="256" height="256" node_ref=pv.canvas
                        data-camera=move || pv.camera.get().text()
                        title="Drag to orbit the mesh, wheel to zoom; hover to read exact values"
                        on:mousedown=move |ev: web_sys::MouseEvent| {
                            if ev.button() == 0 {
                                ev.prevent_default();
                                DRAG_FROM.with(|d| d.set(Some((ev.client_x(), ev.client_y()))));
                            }
                        }
                        on:mouseup=move |_| DRAG_FROM.with(|d| d.set(None))
                        on:click=move |ev: web_sys::MouseEvent| {
                            if let Some(p) = canvas_pixel(pv, &ev) { pv.debug_pick.set(Some(p)); }
                        }
                        on:wheel=move |ev: web_sys::WheelEvent| {
                            ev.prevent_default();
                            let steps = ev.delta_y().signum() as f32;
                            move_camera(pv, pv.camera.get_untracked().zoom(steps));
                        }
                        on:mousemove=move |ev: web_sys::MouseEvent| {
                            if ev.buttons() & 1 == 1 {
                                if let Some((x0, y0)) = DRAG_FROM.with(|d| d.replace(Some((ev.client_x(), ev.client_y())))) {
                                    let (dx, dy) = ((ev.client_x() - x0) as f32, (ev.client_y() - y0) as f32);
                                    move_camera(pv, pv.camera.get_untracked().orbit(dx, dy));
                                }
                            } else {
                                DRAG_FROM.with(|d| d.set(None));
                            }
                            if let Some(p) = canvas_pixel(pv, &ev) { pv.hover.set(Some(p)); }
                        }
                        on:mouseleave=move |_| { pv.hover.set(None); DRAG_FROM.with(|d| d.set(None)); }></canvas>
                    <CpuPicture/>
                    <BlankWarning/>
                    <PixelReadout/>
                    {move || pv.prepared.get().filter(|p| {
                        p.plan.stage == Stage::Compute && !p.plan.entries.iter().any(|e| matches!(e.resource, Resource::StorageTexture { .. }))
                    }).map(|_| view! { <p class="small" data-testid="preview-no-image">"This shader writes no texture: its buffers are shown as tables below."</p> })}
                    <p class="small" data-testid="preview-frame-ms">{move || {
                        let ms = pv.frame_ms.get();
                        if ms > 0.0 { format!("Last frame: {ms:.1} ms from the change to the GPU finishing.") } else { String::new() }
                    }}</p>
                </div>
                <div class="pcontrols">
                    <PipelineControl/>
                    <StageControls/>
                    <TextureControls/>
                    <ConstantControls/>
                    <CompareControls/>
                </div>
            </div>
            <BufferTables/>
            <DebugPanel/>
        </section>
    }
}

/// The picture's pixel under the mouse.
fn canvas_pixel(pv: PreviewSignals, ev: &web_sys::MouseEvent) -> Option<(u32, u32)> {
    let c = pv.canvas.get_untracked()?;
    // offsetX/Y count from the padding edge; clientWidth/Height exclude the border.
    let (w, h) = (c.client_width() as f64, c.client_height() as f64);
    if w <= 0.0 || h <= 0.0 {
        return None;
    }
    let x = (ev.offset_x() as f64 / w * c.width() as f64).floor();
    let y = (ev.offset_y() as f64 / h * c.height() as f64).floor();
    (x >= 0.0 && y >= 0.0 && x < c.width() as f64 && y < c.height() as f64).then_some((x as u32, y as u32))
}

/// Moves the orbit camera and rewrites the controls that hold it (the next frame follows).
fn move_camera(pv: PreviewSignals, camera: Camera) {
    pv.camera.set(camera);
    if let Some(p) = pv.prepared.get_untracked() {
        let changed = camera_values(&p.model, &camera);
        if !changed.is_empty() {
            pv.values.update(|v| v.extend(changed));
        }
    }
}
