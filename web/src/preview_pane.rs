//! The live preview pane: signals, the WebGPU calls (web/src/preview.js)
//! and the widgets. Logic lives in [`crate::preview`].
//!
//! Work is split so the page never freezes: translation and planning run
//! in separate slices with a yield between them, pipelines compile with
//! WebGPU's async calls, and a control that moves while a frame is on the
//! GPU only marks the next frame as wanted (frames never queue up).

use crate::components::debug_panel::DebugPanel;
use crate::components::pipeline_control::PipelineControl;
use crate::dom::yield_now;
use crate::layout::PANE_PREVIEW;
use crate::preview::{self, Prepared};
use crate::{selection, st, State};
use leptos::prelude::*;
use preview_model::camera::{camera_values, Camera};
use preview_model::compute::{check_group, GroupTooLarge};
use preview_model::controls::{matrix_preset, ControlKind, MatrixConvention, MatrixPreset};
use preview_model::mesh::MeshKind;
use preview_model::plan::{PlanError, Resource};
use preview_model::reference::{self, Reference};
use preview_model::settings::{Settings, VertexView};
use preview_model::textures::Pattern;
use preview_model::{Control, Stage, Value, Values};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/preview.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn preview_create(canvas: &web_sys::HtmlCanvasElement) -> Result<JsValue, JsValue>;
    fn preview_adapter(gpu: &JsValue) -> String;
    #[wasm_bindgen(catch)]
    async fn preview_load(gpu: &JsValue, plan: &str, blobs: &js_sys::Array) -> Result<JsValue, JsValue>;
    fn preview_update(gpu: &JsValue, entry: u32, bytes: &[u8]);
    #[wasm_bindgen(catch)]
    async fn preview_frame(gpu: &JsValue, show: i32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn preview_readback(gpu: &JsValue) -> Result<JsValue, JsValue>;
    fn preview_show_rgba8(gpu: &JsValue, width: u32, height: u32, pixels: &[u8]);
    fn preview_resize(gpu: &JsValue, width: u32, height: u32);
    fn preview_limits(gpu: &JsValue) -> Vec<f64>;
    #[wasm_bindgen(catch)]
    async fn preview_decode_image(file: &web_sys::File) -> Result<JsValue, JsValue>;
}

/// Translation for the preview, in the translation worker (the page's wasm
/// has no translator). Records where it ran in `__dxbcPreview.translatedIn`
/// for the tests.
async fn translate_off_thread(bytes: &[u8]) -> Result<preview_model::plan::Translated, PlanError> {
    let r = match crate::worker_client::request(crate::worker_client::Kind::Preview, bytes).await {
        Ok(json) => preview::translated_from_json(&json),
        Err(e) => Err(PlanError::Unsupported(format!("the translation worker did not run: {e}"))),
    };
    if let Ok(stats) = js_sys::Reflect::get(&js_sys::global(), &"__dxbcPreview".into()) {
        let _ = js_sys::Reflect::set(&stats, &"translatedIn".into(), &"worker".into());
    }
    r
}

/// Decodes a dropped or chosen picture and gives it to texture `register`.
fn use_image(pv: PreviewSignals, register: u32, file: web_sys::File) {
    wasm_bindgen_futures::spawn_local(async move {
        let decoded = preview_decode_image(&file).await.map_err(js_message).and_then(|v| {
            let a: js_sys::Array = v.unchecked_into();
            let (w, h) = (a.get(0).as_f64().unwrap_or(0.0) as u32, a.get(1).as_f64().unwrap_or(0.0) as u32);
            let px = a.get(2).unchecked_into::<js_sys::Uint8Array>().to_vec();
            preview_model::textures::Image::from_rgba8(w, h, px)
                .ok_or_else(|| format!("a {w}×{h} picture cannot be used"))
        });
        match decoded {
            Ok(img) => {
                pv.texture_note.set(None);
                pv.settings.update(|s| s.set_image(register, Some(img)));
            }
            Err(e) => pv.texture_note.set(Some(format!("{}: {e}", file.name()))),
        }
    });
}

thread_local! {
    /// The WebGPU device and canvas context (a JS object), while the pane is open.
    static GPU: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    /// A frame is on the GPU.
    static BUSY: Cell<bool> = const { Cell::new(false) };
    /// Another frame was asked for meanwhile.
    static AGAIN: Cell<bool> = const { Cell::new(false) };
    /// Bumped after every burst of frames; a pending read-back checks it is still the latest.
    static FRAME: Cell<u32> = const { Cell::new(0) };
    /// Bumped on every rebuild; older async work stops when it sees a newer one.
    static GENERATION: Cell<u32> = const { Cell::new(0) };
    /// Where the pointer was at the last drag step over the canvas.
    static DRAG_FROM: Cell<Option<(i32, i32)>> = const { Cell::new(None) };
}

/// What the pane says about itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Translating, planning or compiling.
    Preparing,
    /// Running on the named adapter.
    Running(String),
    /// WebGPU is missing; everything else keeps working.
    NoWebGpu(String),
    /// HS/DS, or nothing to run.
    NotPreviewable(String),
    /// The translator refused: message and offset.
    NotTranslated(String, Option<usize>),
    /// The preview cannot feed this shader.
    Unsupported(String),
    /// WebGPU refused the plan.
    GpuError(String),
    /// The compute shader's groups are larger than the adapter allows.
    GroupTooLarge(GroupTooLarge),
}

/// The preview's signals (part of the app state; they outlive the pane).
#[derive(Clone, Copy)]
pub struct PreviewSignals {
    /// Control values by id.
    pub values: RwSignal<Values>,
    /// Output, mesh, groups, patterns.
    pub settings: RwSignal<Settings>,
    /// Values and settings from a link, applied at the next preparation.
    pub pending: RwSignal<Option<PendingPictures>>,
    status: RwSignal<Status>,
    /// The prepared shader (None while preparing or when not previewable).
    pub prepared: RwSignal<Option<Arc<Prepared>>>,
    /// Shaders added to make a pipeline with the open one (not in links).
    pub companions: RwSignal<Vec<preview::Companion>>,
    /// Why the last file offered as a companion was not taken.
    pub companion_note: RwSignal<Option<String>>,
    /// The GPU's read-backs of the last frame.
    pub readbacks: RwSignal<Option<Arc<Vec<Vec<u8>>>>>,
    /// The pixel picked for the debugger (a click on the picture).
    pub debug_pick: RwSignal<Option<(u32, u32)>>,
    /// The debugger's invocation and step, for links.
    pub debug_link: RwSignal<Option<dxbc::permalink::DebugView>>,
    /// A link's debugger state, taken by the Debug panel when it opens.
    pub debug_restore: RwSignal<Option<dxbc::permalink::DebugView>>,
    hover: RwSignal<Option<(u32, u32)>>,
    reference: RwSignal<Option<Arc<Reference>>>,
    compare_note: RwSignal<Option<String>>,
    texture_note: RwSignal<Option<String>>,
    frame_ms: RwSignal<f64>,
    /// The orbit camera (drag and wheel on the canvas).
    camera: RwSignal<Camera>,
    canvas: NodeRef<leptos::html::Canvas>,
}

impl PreviewSignals {
    pub fn new() -> PreviewSignals {
        PreviewSignals {
            values: RwSignal::new(Values::new()),
            settings: RwSignal::new(Settings::default()),
            pending: RwSignal::new(None),
            status: RwSignal::new(Status::Preparing),
            prepared: RwSignal::new(None),
            companions: RwSignal::new(Vec::new()),
            companion_note: RwSignal::new(None),
            readbacks: RwSignal::new(None),
            debug_pick: RwSignal::new(None),
            debug_link: RwSignal::new(None),
            debug_restore: RwSignal::new(None),
            hover: RwSignal::new(None),
            reference: RwSignal::new(None),
            compare_note: RwSignal::new(None),
            texture_note: RwSignal::new(None),
            frame_ms: RwSignal::new(0.0),
            camera: RwSignal::new(Camera::default()),
            canvas: NodeRef::new(),
        }
    }

    /// The preview's permalink records (None while nothing is prepared).
    pub fn link_state(&self) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
        match self.prepared.get() {
            Some(p) => {
                let (v, s) = p.model.link_state(&self.values.get(), &self.settings.get());
                (Some(v), Some(s))
            }
            None => self.pending.get().unwrap_or((None, None)),
        }
    }
}

fn js_message(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

fn current(gen: u32) -> bool {
    GENERATION.with(|g| g.get()) == gen
}

/// Starts the effects that keep the preview in step (called once by the app).
pub fn install(s: State) {
    let pv = s.pv;
    // Rebuild when the file or a plan-shaping setting changes while the pane is open.
    Effect::new(move |_| {
        let open = s.panes.get() & PANE_PREVIEW != 0;
        let m = s.model.get();
        pv.settings.track();
        pv.companions.track();
        if !open {
            GPU.with(|g| g.borrow_mut().take());
            return;
        }
        let gen = GENERATION.with(|g| {
            g.set(g.get() + 1);
            g.get()
        });
        wasm_bindgen_futures::spawn_local(rebuild(s, m, gen));
    });
    // A control moved: new constants, next frame.
    Effect::new(move |_| {
        pv.values.track();
        if pv.prepared.get_untracked().is_some() {
            request_frame(pv);
        }
    });
}

async fn rebuild(s: State, m: Arc<crate::model::Model>, gen: u32) {
    let pv = s.pv;
    pv.status.set(Status::Preparing);
    pv.prepared.set(None);
    pv.readbacks.set(None);
    yield_now().await;
    if !current(gen) {
        return;
    }
    let Some(sh) = m.shader.as_ref() else {
        pv.status.set(Status::NotPreviewable("the file is not a readable container".into()));
        return;
    };
    let t = match translate_off_thread(&m.bytes).await {
        Ok(t) => t,
        Err(e) => {
            if current(gen) {
                fail(pv, e);
            }
            return;
        }
    };
    yield_now().await;
    if !current(gen) {
        return;
    }
    let t0 = mark("dxbc-preview-plan-start");
    let model = preview_model::PreviewModel::new(sh);
    // Values: from a link when one is waiting, kept when they fit this shader, else defaults.
    let values = match pv.pending.get_untracked() {
        Some((v, st)) => {
            pv.pending.set(None);
            match model.restore_state(v.as_deref(), st.as_deref()) {
                Ok((values, settings)) => {
                    pv.values.set(values.clone());
                    if settings != pv.settings.get_untracked() {
                        // Setting it starts another rebuild with these values.
                        pv.settings.set(settings);
                        return;
                    }
                    values
                }
                Err(e) => {
                    s.refuse(e.to_string());
                    model.defaults()
                }
            }
        }
        None => {
            let defaults = model.defaults();
            let kept = pv.values.get_untracked();
            if !kept.is_empty() && kept.keys().eq(defaults.keys()) {
                kept
            } else {
                pv.camera.set(Camera::default());
                defaults
            }
        }
    };
    let settings = pv.settings.get_untracked();
    let companions = pv.companions.get_untracked();
    let prepared = if companions.is_empty() {
        preview::prepare(sh, &t, model, &values, &settings)
    } else {
        // The companions are translated by the worker too.
        let mut translations = vec![t];
        for c in &companions {
            match translate_off_thread(&c.bytes).await {
                Ok(ct) => translations.push(ct),
                Err(e) => {
                    if current(gen) {
                        fail(pv, PlanError::Pipeline(format!("{}: {e}", c.name)));
                    }
                    return;
                }
            }
        }
        if !current(gen) {
            return;
        }
        preview::prepare_pipeline(sh, model, &values, &settings, &companions, &translations)
    };
    let prepared = match prepared {
        Ok(p) => Arc::new(p),
        Err(e) => return fail(pv, e),
    };
    measure("dxbc-preview-plan", t0);
    pv.values.set(values);
    // The device, once per opening of the pane.
    let gpu = match GPU.with(|g| g.borrow().clone()) {
        Some(g) => g,
        None => {
            let Some(canvas) = pv.canvas.get_untracked() else { return };
            match preview_create(&canvas).await {
                Ok(g) => {
                    GPU.with(|c| *c.borrow_mut() = Some(g.clone()));
                    g
                }
                Err(e) => {
                    pv.status.set(Status::NoWebGpu(js_message(e)));
                    pv.prepared.set(Some(prepared));
                    return;
                }
            }
        }
    };
    if !current(gen) {
        return;
    }
    // Groups larger than the adapter allows would be refused with a raw
    // validation message: say what it allows and offer the clamp instead.
    if let (Some(d), Some(limits)) = (&prepared.model.dispatch, preview::group_limits(&preview_limits(&gpu))) {
        if let Some(too_large) = check_group(d.workgroup_size, limits) {
            pv.status.set(Status::GroupTooLarge(too_large));
            pv.prepared.set(Some(prepared));
            return;
        }
    }
    let t1 = mark("dxbc-preview-upload-start");
    let blobs = js_sys::Array::new();
    for b in &prepared.plan.blobs {
        blobs.push(&js_sys::Uint8Array::from(b.as_slice()));
    }
    if prepared.plan.draw.is_some() {
        preview_resize(&gpu, prepared.plan.width, prepared.plan.height);
    }
    let loading = preview_load(&gpu, &prepared.plan_json, &blobs);
    measure("dxbc-preview-upload", t1);
    if let Err(e) = loading.await {
        pv.status.set(Status::GpuError(js_message(e)));
        return;
    }
    if !current(gen) {
        return;
    }
    pv.status.set(Status::Running(preview_adapter(&gpu)));
    pv.prepared.set(Some(prepared));
    request_frame(pv);
}

/// Starts a `performance.measure` named `name` (the benchmark reads these).
fn mark(name: &'static str) -> &'static str {
    if let Some(p) = window().performance() {
        let _ = p.mark(name);
    }
    name
}

/// Ends the measure started by [`mark`].
fn measure(name: &str, start: &str) {
    if let Some(p) = window().performance() {
        let _ = p.measure_with_start_mark(name, start);
    }
}

fn fail(pv: PreviewSignals, e: PlanError) {
    pv.status.set(match e {
        PlanError::StageNotPreviewable(m) => Status::NotPreviewable(m),
        PlanError::Translation { message, offset, .. } => Status::NotTranslated(message, offset),
        PlanError::Unsupported(m) | PlanError::Pipeline(m) => Status::Unsupported(m),
        e @ PlanError::Link { .. } => Status::Unsupported(e.to_string()),
    });
}

/// Quiet time after a change before the exact values are read back.
const READBACK_DELAY_MS: i32 = 120;

async fn sleep_ms(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Asks for a frame; coalesces requests made while one is on the GPU.
fn request_frame(pv: PreviewSignals) {
    if BUSY.with(|b| b.get()) {
        AGAIN.with(|a| a.set(true));
        return;
    }
    BUSY.with(|b| b.set(true));
    wasm_bindgen_futures::spawn_local(async move {
        let mut drawn = None;
        loop {
            AGAIN.with(|a| a.set(false));
            let (Some(gpu), Some(p)) = (GPU.with(|g| g.borrow().clone()), pv.prepared.get_untracked()) else { break };
            for (entry, bytes) in preview::uniform_updates(&p, &pv.values.get_untracked()) {
                preview_update(&gpu, entry, &bytes);
            }
            let show = pv.settings.with_untracked(|s| s.target) as i32;
            let show = if p.plan.stage == Stage::Pixel {
                p.plan
                    .draw
                    .as_ref()
                    .map_or(-1, |d| d.targets.iter().position(|t| t.location as i32 == show).unwrap_or(0) as i32)
            } else {
                0
            };
            if let Err(e) = preview_frame(&gpu, show).await {
                pv.status.set(Status::GpuError(js_message(e)));
                break;
            }
            let ms = js_sys::Reflect::get(&js_sys::global(), &"__dxbcPreview".into())
                .and_then(|o| js_sys::Reflect::get(&o, &"lastFrameMs".into()))
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0);
            pv.frame_ms.set(ms);
            drawn = Some((gpu, p));
            if !AGAIN.with(|a| a.get()) {
                break;
            }
        }
        BUSY.with(|b| b.set(false));
        let Some((gpu, p)) = drawn else { return };
        let frame = FRAME.with(|f| {
            f.set(f.get() + 1);
            f.get()
        });
        // Exact values are read back once the controls rest (compute results at once),
        // so dragging a control only renders.
        if p.plan.stage != Stage::Compute {
            sleep_ms(READBACK_DELAY_MS).await;
        }
        if FRAME.with(|f| f.get()) != frame || BUSY.with(|b| b.get()) {
            return; // a newer frame reads back for itself
        }
        match preview_readback(&gpu).await {
            Ok(v) => {
                let arr: js_sys::Array = v.unchecked_into();
                let data: Vec<Vec<u8>> =
                    arr.iter().map(|x| x.unchecked_into::<js_sys::Uint8Array>().to_vec()).collect();
                if p.plan.stage == Stage::Compute {
                    let pic =
                        p.plan.readbacks.iter().zip(&data).find_map(|(r, d)| preview::storage_picture(&p.plan, r, d));
                    if let Some((w, h, px)) = pic {
                        preview_show_rgba8(&gpu, w, h, &px);
                    }
                }
                pv.readbacks.set(Some(Arc::new(data)));
            }
            Err(e) => pv.status.set(Status::GpuError(js_message(e))),
        }
    });
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

/// A warning when the shown picture is all NaN, infinite or black.
#[component]
fn BlankWarning() -> impl IntoView {
    let pv = st().pv;
    let picture = Memo::new(move |_| {
        let (p, data) = (pv.prepared.get()?, pv.readbacks.get()?);
        preview::shown_picture(&p, &data, pv.settings.with(|s| s.target))
    });
    move || {
        picture
            .get()
            .and_then(|pic| pic.warning())
            .map(|w| view! { <p class="terror small" data-testid="preview-warning">{w}</p> })
    }
}

#[component]
fn StatusLine() -> impl IntoView {
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
                        on:click=move |_| { s.edit("the thread-group size", |b| preview_model::compute::set_thread_group(b, t.clamped)); }>
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

#[component]
fn PixelReadout() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    move || {
        let (p, data, (x, y)) = (pv.prepared.get()?, pv.readbacks.get()?, pv.hover.get()?);
        if p.plan.stage == Stage::Compute {
            // The picture is the first storage texture (layer 0), one channel.
            let (i, word) = preview::storage_texel(&p.plan, &data, x, y)?;
            let fmt = match &p.plan.entries[i].resource {
                Resource::StorageTexture { format, .. } => *format,
                _ => "",
            };
            let text = preview::storage_text(fmt, word);
            let native = live_reference(s)
                .and_then(|r| preview::storage_texel(&p.plan, &r.readbacks, x, y))
                .map(|(_, w)| format!("native: {}", preview::storage_text(fmt, w)));
            return Some(view! {
                <p class="mono" data-testid="preview-pixel">{format!("{} texel ({x}, {y}): {text}", p.plan.entries[i].register)}</p>
                {native.map(|n| view! { <p class="mono" data-testid="preview-pixel-native">{n}</p> })}
            }.into_any());
        }
        let draw = p.plan.draw.as_ref()?;
        let shown = if p.plan.stage == Stage::Pixel {
            let want = pv.settings.with(|s| s.target);
            draw.targets.iter().position(|t| t.location == want).unwrap_or(0)
        } else {
            0
        };
        let ri = preview::target_readback(&p.plan, shown)?;
        let fmt = draw.targets[shown].format;
        let words = preview::texel(&p.plan, data.get(ri)?, x, y)?;
        let text = |w: [u32; 4]| w.iter().map(|&c| preview::component_text(fmt, c)).collect::<Vec<_>>().join(", ");
        let native = live_reference(s).and_then(|r| {
            let d = r.readbacks.get(ri)?;
            preview::texel(&p.plan, d, x, y).map(|w| format!("native: ({})", text(w)))
        });
        Some(
            view! {
                <p class="mono" data-testid="preview-pixel">{format!("pixel ({x}, {y}): ({})", text(words))}</p>
                {native.map(|n| view! { <p class="mono" data-testid="preview-pixel-native">{n}</p> })}
            }
            .into_any(),
        )
    }
}

#[component]
fn StageControls() -> impl IntoView {
    let pv = st().pv;
    move || {
        let p = pv.prepared.get()?;
        Some(match p.plan.stage {
            Stage::Pixel => {
                let choices = preview::target_choices(&p);
                (choices.len() > 1).then(|| view! {
                    <label class="ctl">"Output shown "
                        <select data-testid="preview-target" on:change=move |ev| {
                            if let Ok(l) = event_target_value(&ev).parse::<u32>() { pv.settings.update(|s| s.target = l); }
                        }>
                            {choices.into_iter().map(|(i, label)| {
                                let loc = p.plan.draw.as_ref().map_or(0, |d| d.targets[i].location);
                                view! { <option value=loc.to_string() selected=move || pv.settings.with(|s| s.target == loc)>{label}</option> }
                            }).collect_view()}
                        </select></label>
                }).into_any()
            }
            Stage::Vertex | Stage::Geometry => {
                let outs = p.vertex_outputs.clone();
                // What runs around a lone geometry shader, said plainly.
                let gs_note = (p.plan.stage == Stage::Geometry).then(|| view! {
                    <p class="small" data-testid="preview-gs-note">
                        "Geometry shader through compute: a built-in pass-through vertex shader feeds it the mesh (each input takes the mesh attribute its semantic names; SV_Position and POSITION the object-space position), it runs once per primitive and instance, and its output is drawn with a built-in pixel shader that shows the chosen output as colour."
                    </p>
                });
                view! {
                    {gs_note}
                    <label class="ctl">"Mesh "
                        <select data-testid="preview-mesh" on:change=move |ev| {
                            let m = match event_target_value(&ev).as_str() { "plane" => MeshKind::Plane, "cube" => MeshKind::Cube, _ => MeshKind::Sphere { segments: 32 } };
                            pv.settings.update(|s| s.mesh = m);
                        }>
                            {[("sphere", "Sphere"), ("cube", "Cube"), ("plane", "Plane")].into_iter().map(|(v, l)| {
                                let on = move || pv.settings.with(|s| matches!((s.mesh, v), (MeshKind::Plane, "plane") | (MeshKind::Cube, "cube") | (MeshKind::Sphere { .. }, "sphere")));
                                view! { <option value=v selected=on>{l}</option> }
                            }).collect_view()}
                        </select></label>
                    <label class="ctl">"Show "
                        <select data-testid="preview-vertex-view" on:change=move |ev| {
                            let v = event_target_value(&ev);
                            pv.settings.update(|s| match v.parse::<u32>() {
                                Ok(l) => { s.view = VertexView::Colour; s.target = l; }
                                Err(_) => s.view = VertexView::Wireframe,
                            });
                        }>
                            {outs.into_iter().map(|(l, scalar, n)| view! {
                                <option value=l.to_string() selected=move || pv.settings.with(|s| s.view == VertexView::Colour && s.target == l)>
                                    {format!("o{l} as colour ({scalar} × {n})")}</option>
                            }).collect_view()}
                            <option value="wire" selected=move || pv.settings.with(|s| s.view == VertexView::Wireframe)>"Wireframe"</option>
                        </select></label>
                }.into_any()
            }
            // What runs around a lone domain shader, said plainly.
            Stage::Domain => view! {
                <p class="small" data-testid="preview-ds-note">
                    {format!("Domain shader over one patch: its control points are the plane's corners (a 3 × 3 or 4 × 4 grid over the plane for 9 or 16 points), each input taking the attribute its semantic names; every tessellation factor is {} with fractional_odd partitioning; the D3D11 tessellator runs as compute, and the domain shader draws its points with a built-in pixel shader that shows its first output after the position as colour.", preview_model::plan::DOMAIN_TESS_FACTOR)}
                </p>
            }
            .into_any(),
            // What runs around a lone hull shader, said plainly.
            Stage::Hull => view! {
                <p class="small" data-testid="preview-hs-note">
                    "Hull shader through compute over one patch: a built-in pass-through vertex shader gives it its input control points (the plane's corners, each input taking the attribute its semantic names), its control-point and patch-constant phases run as compute, the D3D11 tessellator (also compute) turns its factors into domain points, and a built-in domain shader draws them at their (u, v) in a square (a triangle for tri domains), each primitive coloured by the (u, v, w) of its first point."
                </p>
            }
            .into_any(),
            _ => {
                let wg = p.model.dispatch.as_ref().map_or([1, 1, 1], |d| d.workgroup_size);
                let dispatch = p.plan.dispatch;
                view! {
                    <div class="ctl" data-testid="preview-groups">{format!("Groups of {}×{}×{} threads; dispatch ", wg[0], wg[1], wg[2])}
                        {(0..3).map(|k| view! {
                            <input type="number" min="1" step="1" class="num" data-testid=format!("preview-groups-{k}")
                                prop:value=move || dispatch.map_or(1, |(_, g)| g[k]).to_string()
                                on:change=move |ev| {
                                    if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                                        let now = pv.prepared.get_untracked().and_then(|p| p.plan.dispatch).map_or([1, 1, 1], |(_, g)| g);
                                        pv.settings.update(|s| { s.groups = now; s.groups[k] = n.max(1); });
                                    }
                                }/>
                        }).collect_view()}
                    </div>
                }.into_any()
            }
        })
    }
}

#[component]
fn TextureControls() -> impl IntoView {
    let pv = st().pv;
    move || {
        let p = pv.prepared.get()?;
        let rows: Vec<_> = p
            .plan
            .entries
            .iter()
            .filter(|e| matches!(e.resource, Resource::Texture { .. }))
            .filter_map(|e| {
                let reg: u32 = e.register.get(1..)?.split(',').next()?.parse().ok()?;
                let label = if e.name.is_empty() { e.register.clone() } else { format!("{} ({})", e.name, e.register) };
                let current = pv.settings.with_untracked(|s| s.pattern(reg));
                let default = p.model.textures.iter().find(|t| t.register == reg).and_then(|t| match t.source {
                    preview_model::textures::TextureSource::Pattern(pp) => Some(pp),
                    _ => None,
                });
                // What the plan generates when the settings hold no pattern.
                let natural = default.unwrap_or(Pattern::Checker);
                let shown = current.unwrap_or(natural);
                let user = pv.settings.with_untracked(|s| s.image(reg).map(|i| format!("{}×{}", i.width, i.height)));
                Some(view! {
                    <div class="ctl" title="Drop a picture here to use it"
                        on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); ev.stop_propagation(); }
                        on:drop=move |ev: web_sys::DragEvent| {
                            // Not a shader: keep the page-wide drop handler out of it.
                            ev.prevent_default();
                            ev.stop_propagation();
                            if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) { use_image(pv, reg, f); }
                        }>
                        <span class="clabel mono">{label}</span>
                        <select data-testid=format!("preview-texture-t{reg}") on:change=move |ev| {
                            // The model's own choice is no override: the settings (and so
                            // links and reference fingerprints) stay as if never touched.
                            let p = Pattern::from_name(&event_target_value(&ev)).filter(|&pp| pp != natural);
                            pv.settings.update(|s| { s.set_image(reg, None); s.set_pattern(reg, p); });
                        }>
                            {user.clone().map(|u| view! { <option value="" selected=true>{format!("your picture ({u})")}</option> })}
                            {Pattern::ALL.into_iter().map(|pp| view! { <option value=pp.name() selected=user.is_none() && pp == shown>{pp.name()}</option> }).collect_view()}
                        </select>
                        <label class="btn small">"Picture…"
                            <input type="file" accept="image/*" data-testid=format!("preview-image-t{reg}") on:change=move |ev| {
                                let f = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).and_then(|i| i.files()).and_then(|l| l.get(0));
                                if let Some(f) = f { use_image(pv, reg, f); }
                            }/>
                        </label>
                    </div>
                })
            })
            .collect();
        (!rows.is_empty()).then(|| view! {
            <h3>"Textures " <small>"— a pattern, or drop a picture on the row"</small></h3>{rows}
            {move || pv.texture_note.get().map(|n| view! { <p class="terror small" data-testid="preview-texture-note">{n}</p> })}
        })
    }
}

fn set_value(pv: PreviewSignals, id: String, v: Value) {
    pv.values.update(|vals| {
        vals.insert(id, v);
    });
}

fn control_view(pv: PreviewSignals, c: Control) -> AnyView {
    let id = c.id.clone();
    let value = {
        let id = id.clone();
        let dflt = c.default.clone();
        move || pv.values.with(|v| v.get(&id).cloned().unwrap_or_else(|| dflt.clone()))
    };
    let label = c.label.clone();
    let unused = if c.used { "" } else { " (unused)" };
    let testid = format!("control-{}", c.id);
    let widget = match c.kind.clone() {
        ControlKind::Slider { min, max, step } => {
            let (id2, v2, v4) = (id.clone(), value.clone(), value.clone());
            view! {
                <input type="range" data-testid=testid.clone() min=min.to_string() max=max.to_string() step=step.to_string()
                    prop:value=move || match v4() { Value::Floats(x) => x.first().copied().unwrap_or(0.0).to_string(), _ => String::new() }
                    on:input=move |ev| { if let Some(v) = preview::set_component(&v2(), 0, &event_target_value(&ev)) { set_value(pv, id2.clone(), v); } }/>
                <span class="mono small">{move || match value() { Value::Floats(x) => format!("{:.3}", x.first().copied().unwrap_or(0.0)), _ => String::new() }}</span>
            }
            .into_any()
        }
        ControlKind::Color { alpha } => {
            let (id2, v2) = (id.clone(), value.clone());
            let (id3, v3, v5) = (id.clone(), value.clone(), value.clone());
            view! {
                <input type="color" data-testid=testid.clone() prop:value=move || preview::hex_colour(&value())
                    on:input=move |ev| { if let Some(v) = preview::from_hex_colour(&v2(), &event_target_value(&ev)) { set_value(pv, id2.clone(), v); } }/>
                {alpha.then(|| view! {
                    <input type="range" min="0" max="1" step="0.01" title="alpha"
                        prop:value=move || match v5() { Value::Floats(x) => x.get(3).copied().unwrap_or(1.0).to_string(), _ => String::new() }
                        on:input=move |ev| { if let Some(v) = preview::set_component(&v3(), 3, &event_target_value(&ev)) { set_value(pv, id3.clone(), v); } }/>
                })}
            }
            .into_any()
        }
        ControlKind::Checkbox { components } => (0..components as usize)
            .map(|k| {
                let (id2, v2) = (id.clone(), value.clone());
                let v3 = value.clone();
                view! {
                    <input type="checkbox" data-testid=format!("{testid}-{k}")
                        prop:checked=move || matches!(v3(), Value::Bools(x) if x.get(k).copied().unwrap_or(false))
                        on:change=move |ev| {
                            let on = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some_and(|i| i.checked());
                            if let Some(v) = preview::set_component(&v2(), k, if on { "true" } else { "false" }) { set_value(pv, id2.clone(), v); }
                        }/>
                }
            })
            .collect_view()
            .into_any(),
        ControlKind::Matrix { rows, columns, presets } => {
            let cells = (0..rows as usize * columns as usize)
                .map(|k| number_field(pv, id.clone(), value.clone(), k, format!("{testid}-{k}"), "any"))
                .collect_view();
            let preset_buttons = presets
                .into_iter()
                .map(|pr| {
                    let id2 = id.clone();
                    let name = match pr {
                        MatrixPreset::Identity => "identity",
                        MatrixPreset::LookAt => "look-at",
                        MatrixPreset::Perspective => "perspective",
                        MatrixPreset::ViewProjection => "view × projection",
                    };
                    view! {
                        <button class="btn small" on:click=move |_| {
                            set_value(pv, id2.clone(), Value::Floats(matrix_preset(pr, MatrixConvention::RowVector, rows, columns)));
                        }>{name}</button>
                    }
                })
                .collect_view();
            view! {
                <div class="matrix" style:grid-template-columns=format!("repeat({columns}, 5.5em)")>{cells}</div>
                <div>{preset_buttons}</div>
            }
            .into_any()
        }
        ControlKind::Vector { components, step, .. } => (0..components as usize)
            .map(|k| number_field(pv, id.clone(), value.clone(), k, format!("{testid}-{k}"), &step.to_string()))
            .collect_view()
            .into_any(),
        ControlKind::Integer { components, .. } => (0..components as usize)
            .map(|k| number_field(pv, id.clone(), value.clone(), k, format!("{testid}-{k}"), "1"))
            .collect_view()
            .into_any(),
    };
    view! { <div class="ctl"><span class="clabel mono">{label}{unused}</span>" "{widget}</div> }.into_any()
}

fn number_field(
    pv: PreviewSignals,
    id: String,
    value: impl Fn() -> Value + Clone + Send + Sync + 'static,
    k: usize,
    testid: String,
    step: &str,
) -> impl IntoView {
    let v2 = value.clone();
    view! {
        <input type="number" class="num" step=step.to_string() data-testid=testid
            prop:value=move || match value() {
                Value::Floats(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
                Value::Ints(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
                Value::Uints(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
                Value::Bools(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
            }
            on:input=move |ev| { if let Some(v) = preview::set_component(&v2(), k, &event_target_value(&ev)) { set_value(pv, id.clone(), v); } }/>
    }
}

#[component]
fn ConstantControls() -> impl IntoView {
    let pv = st().pv;
    move || {
        let p = pv.prepared.get()?;
        let groups: Vec<_> = p
            .model
            .cbuffers
            .iter()
            .filter(|cb| !cb.controls.is_empty())
            .map(|cb| {
                let reg = cb.register.map_or(String::new(), |r| format!(" (b{r})"));
                let controls = cb.controls.iter().cloned().map(|c| control_view(pv, c)).collect_view();
                // Without reflection the buffer is its declared registers, as raw float4s.
                let raw = cb.raw.then(|| {
                    view! { <small data-testid="preview-raw-note">" — no reflection: raw float4 registers, as declared"</small> }
                });
                view! { <fieldset class="cbuf" data-testid=format!("preview-cbuffer-{}", cb.id)><legend class="mono">{format!("{}{reg}", cb.name)}{raw}</legend>{controls}</fieldset> }
            })
            .collect();
        let reset = move |_| {
            if let Some(p) = pv.prepared.get_untracked() {
                pv.camera.set(Camera::default());
                pv.values.set(p.model.defaults());
            }
        };
        Some(view! {
            <div data-testid="preview-controls">
                <h3>"Constants " <button class="btn small" data-testid="preview-reset" on:click=reset>"Defaults"</button></h3>
                {if groups.is_empty() { view! { <p class="small">"No constant buffers: nothing to set."</p> }.into_any() } else { groups.into_any() }}
            </div>
        })
    }
}

#[component]
fn CompareControls() -> impl IntoView {
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
fn accept_reference(s: State, bytes: &[u8], redo: &str) {
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
fn live_reference(s: State) -> Option<Arc<Reference>> {
    let pv = s.pv;
    let r = pv.reference.get()?;
    let p = pv.prepared.get()?;
    let want = s.model.with(|m| {
        pv.values.with(|v| pv.settings.with(|st| pv.companions.with(|c| preview::fingerprint(&p, &m.bytes, v, st, c))))
    });
    (r.fingerprint == want).then_some(r)
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

#[component]
fn BufferTables() -> impl IntoView {
    let pv = st().pv;
    move || {
        let (p, data) = (pv.prepared.get()?, pv.readbacks.get()?);
        let tables: Vec<_> = p
            .plan
            .readbacks
            .iter()
            .zip(data.iter())
            .filter_map(|(r, d)| {
                let (title, t) = preview::buffer_table(&p, r, d, 64)?;
                let head = t.columns.iter().map(|(n, _)| view! { <th class="mono">{n.clone()}</th> }).collect_view();
                let rows = t
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, row)| view! { <tr><td class="mono">{i}</td>{row.iter().map(|c| view! { <td class="mono">{c.clone()}</td> }).collect_view()}</tr> })
                    .collect_view();
                let more = (t.total_rows > t.rows.len()).then(|| format!("first {} of {} rows", t.rows.len(), t.total_rows));
                Some(view! {
                    <div class="ptable">
                        <h3>{title}" "<small>{more}</small></h3>
                        <table class="tbl" data-testid="preview-buffer"><thead><tr><th>"#"</th>{head}</tr></thead><tbody>{rows}</tbody></table>
                    </div>
                })
            })
            .collect();
        (!tables.is_empty()).then(|| view! { <div class="ptables">{tables}</div> })
    }
}

/// Two optional picture payloads waiting to be applied.
pub type PendingPictures = (Option<Vec<u8>>, Option<Vec<u8>>);
