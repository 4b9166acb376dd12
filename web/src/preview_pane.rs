//! The live preview's engine: its signals, the effects that prepare a
//! shader and draw frames, and the WebGPU calls (web/src/preview.js). The
//! widgets are in [`crate::components::preview`], one per file; the logic
//! is in [`crate::preview`].
//!
//! Work is split so the page never freezes: translation and planning run
//! in separate slices with a yield between them, pipelines compile with
//! WebGPU's async calls, and a control that moves while a frame is on the
//! GPU only marks the next frame as wanted (frames never queue up).

use crate::dom::yield_now;
use crate::layout::PANE_PREVIEW;
use crate::preview::{self, Prepared};
use crate::State;
use leptos::prelude::*;
use preview_model::camera::Camera;
use preview_model::compute::{check_group, GroupTooLarge};
use preview_model::plan::PlanError;
use preview_model::reference::Reference;
use preview_model::settings::Settings;
use preview_model::{Stage, Values};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/preview.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn preview_create(canvas: &web_sys::HtmlCanvasElement) -> Result<JsValue, JsValue>;
    fn preview_adapter(gpu: &JsValue) -> String;
    fn preview_lost(gpu: &JsValue) -> Option<String>;
    #[wasm_bindgen(catch)]
    async fn preview_load(gpu: &JsValue, plan: &str, blobs: &js_sys::Array) -> Result<JsValue, JsValue>;
    fn preview_update(gpu: &JsValue, entry: u32, bytes: &[u8]);
    #[wasm_bindgen(catch)]
    async fn preview_frame(gpu: &JsValue, show: i32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn preview_readback(gpu: &JsValue) -> Result<JsValue, JsValue>;
    fn preview_show_rgba8(gpu: &JsValue, width: u32, height: u32, pixels: &[u8]);
    fn preview_resize(gpu: &JsValue, width: u32, height: u32);
    fn preview_draw_2d(canvas: &web_sys::HtmlCanvasElement, width: u32, height: u32, pixels: &[u8]) -> bool;
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
pub(crate) fn use_image(pv: PreviewSignals, register: u32, file: web_sys::File) {
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
    pub(crate) static GPU: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    /// A frame is on the GPU.
    static BUSY: Cell<bool> = const { Cell::new(false) };
    /// Another frame was asked for meanwhile.
    static AGAIN: Cell<bool> = const { Cell::new(false) };
    /// Bumped after every burst of frames; a pending read-back checks it is still the latest.
    static FRAME: Cell<u32> = const { Cell::new(0) };
    /// Bumped on every rebuild; older async work stops when it sees a newer one.
    static GENERATION: Cell<u32> = const { Cell::new(0) };
    /// Devices lost since the last frame read back: a device lost again
    /// right away is not opened a third time.
    static LOSSES: Cell<u32> = const { Cell::new(0) };
}

/// Two optional picture payloads waiting to be applied.
pub type PendingPictures = (Option<Vec<u8>>, Option<Vec<u8>>);

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
    pub(crate) status: RwSignal<Status>,
    /// The prepared shader (None while preparing or when not previewable).
    pub prepared: RwSignal<Option<Arc<Prepared>>>,
    /// Shaders added to make a pipeline with the open one (not in links).
    pub companions: RwSignal<Vec<preview::Companion>>,
    /// Why the last file offered as a companion was not taken.
    pub companion_note: RwSignal<Option<String>>,
    /// The GPU's read-backs of the last frame.
    pub readbacks: RwSignal<Option<Arc<Vec<Vec<u8>>>>>,
    /// Without WebGPU: the CPU interpreter's read-backs of the last run asked
    /// for, kept across new inputs (its fingerprint tells they moved on; the
    /// canvas still shows its picture).
    pub(crate) cpu_run: RwSignal<Option<Arc<CpuRun>>>,
    /// The pixel picked for the debugger (a click on the picture).
    pub debug_pick: RwSignal<Option<(u32, u32)>>,
    /// The debugger's invocation and step, for links.
    pub debug_link: RwSignal<Option<dxbc::permalink::DebugView>>,
    /// A link's debugger state, taken by the Debug panel when it opens.
    pub debug_restore: RwSignal<Option<dxbc::permalink::DebugView>>,
    pub(crate) hover: RwSignal<Option<(u32, u32)>>,
    pub(crate) reference: RwSignal<Option<Arc<Reference>>>,
    pub(crate) compare_note: RwSignal<Option<String>>,
    pub(crate) texture_note: RwSignal<Option<String>>,
    pub(crate) frame_ms: RwSignal<f64>,
    /// The orbit camera (drag and wheel on the canvas).
    pub(crate) camera: RwSignal<Camera>,
    /// Bumped when the GPU device was lost: the pane opens a new one.
    pub(crate) reopen: RwSignal<u32>,
    pub(crate) canvas: NodeRef<leptos::html::Canvas>,
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
            cpu_run: RwSignal::new(None),
            debug_pick: RwSignal::new(None),
            debug_link: RwSignal::new(None),
            debug_restore: RwSignal::new(None),
            hover: RwSignal::new(None),
            reference: RwSignal::new(None),
            compare_note: RwSignal::new(None),
            texture_note: RwSignal::new(None),
            frame_ms: RwSignal::new(0.0),
            camera: RwSignal::new(Camera::default()),
            reopen: RwSignal::new(0),
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

pub(crate) fn js_message(e: JsValue) -> String {
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
        pv.reopen.track();
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
    let gpu = match GPU.with(|g| g.borrow().clone()).filter(|g| preview_lost(g).is_none()) {
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
        if !reopen_if_lost(pv, &gpu) {
            pv.status.set(Status::GpuError(js_message(e)));
        }
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
            if reopen_if_lost(pv, &gpu) {
                // No read-back from the lost device (it would count as a
                // second loss): the rebuild draws and reads back anew.
                drawn = None;
                break;
            }
            for (entry, bytes) in preview::uniform_updates(&p, &pv.values.get_untracked()) {
                preview_update(&gpu, entry, &bytes);
            }
            let location = pv.settings.with_untracked(|s| s.target);
            // -1: no draw (compute), nothing to present.
            let show = preview::shown_target(&p.plan, location).map_or(-1, |i| i as i32);
            if let Err(e) = preview_frame(&gpu, show).await {
                if reopen_if_lost(pv, &gpu) {
                    drawn = None;
                } else {
                    pv.status.set(Status::GpuError(js_message(e)));
                }
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
                LOSSES.with(|l| l.set(0));
            }
            Err(e) => {
                if !reopen_if_lost(pv, &gpu) {
                    pv.status.set(Status::GpuError(js_message(e)));
                }
            }
        }
    });
}

/// When `gpu`'s device was lost: lets it go and has the pane open a new
/// one (a rebuild, with the values kept), or, when the device opened after
/// the last loss was lost before showing a frame, says so and stops.
/// Whether it was lost.
fn reopen_if_lost(pv: PreviewSignals, gpu: &JsValue) -> bool {
    let Some(why) = preview_lost(gpu) else { return false };
    GPU.with(|g| g.borrow_mut().take());
    let losses = LOSSES.with(|l| {
        l.set(l.get() + 1);
        l.get()
    });
    if losses > 1 {
        pv.status.set(Status::GpuError(format!("the GPU device was lost twice in a row ({why})")));
    } else {
        pv.reopen.update(|n| *n += 1);
    }
    true
}

/// A run of the preview's plan on the CPU interpreter, for the inputs
/// with this fingerprint (the page has no WebGPU).
pub(crate) struct CpuRun {
    pub fingerprint: u64,
    /// In plan order, as the GPU's would be.
    pub readbacks: Arc<Vec<Vec<u8>>>,
    /// The size of the picture drawn on the canvas from it (none for a
    /// compute shader that writes only buffers, or a canvas without 2D).
    pub picture: Option<(u32, u32)>,
    /// How long the run took, from the request to the drawing.
    pub ms: f64,
}

/// The fingerprint of the page's inputs for `p` (tracked): what a
/// reference or a CPU run must carry to stand for them.
pub(crate) fn inputs_fingerprint(s: State, p: &Prepared) -> u64 {
    let pv = s.pv;
    s.model.with(|m| {
        pv.values.with(|v| pv.settings.with(|st| pv.companions.with(|c| preview::fingerprint(p, &m.bytes, v, st, c))))
    })
}

/// The read-backs the preview's widgets show: the GPU's last frame, or
/// without WebGPU the CPU interpreter's last run while it stands for the
/// page's inputs (a run for other inputs may not even match this plan's
/// read-backs). The flag is true for the CPU's.
pub(crate) fn shown_readbacks(s: State, p: &Prepared) -> Option<(Arc<Vec<Vec<u8>>>, bool)> {
    if let Some(d) = s.pv.readbacks.get() {
        return Some((d, false));
    }
    let run = s.pv.cpu_run.get()?;
    (run.fingerprint == inputs_fingerprint(s, p)).then(|| (run.readbacks.clone(), true))
}

/// Draws the CPU interpreter's picture on the canvas (no WebGPU here);
/// false when the canvas cannot take a 2D context.
pub(crate) fn draw_on_cpu_canvas(pv: PreviewSignals, width: u32, height: u32, pixels: &[u8]) -> bool {
    pv.canvas.get_untracked().is_some_and(|c| preview_draw_2d(&c, width, height, pixels))
}
