//! The page's side of the translation worker (`worker.js`): one request,
//! one JSON answer.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/worker.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn worker_request(kind: &str, shader: &[u8]) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn assemble_request(shader: &[u8], text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn debug_request(shader: &[u8], text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn cpu_reference_request(shader: &[u8], text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn link_length_request(payload: &[u8]) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn carve_request(bytes: &[u8], on_progress: &js_sys::Function) -> Result<JsValue, JsValue>;
    fn carve_cancel();
}

/// What the worker is asked for.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// The translation pane's outcome (`translation::Outcome`).
    Translate,
    /// The live preview's translation (`preview_model::plan::Translated`).
    Preview,
}

/// Sends `shader` (file bytes) to the worker; the JSON answer, or why the
/// worker did not run.
pub async fn request(kind: Kind, shader: &[u8]) -> Result<String, String> {
    let name = match kind {
        Kind::Translate => "translate",
        Kind::Preview => "preview",
    };
    match worker_request(name, shader).await {
        Ok(v) => Ok(v.as_string().unwrap_or_default()),
        Err(e) => Err(failure(e)),
    }
}

/// Assembles listing `text` for the file `shader` in the worker: the JSON
/// of `listing_edit`'s outcome (see `listing_edit::from_json`), or why the
/// worker did not run.
pub async fn assemble(shader: &[u8], text: &str) -> Result<String, String> {
    match assemble_request(shader, text).await {
        Ok(v) => Ok(v.as_string().unwrap_or_default()),
        Err(e) => Err(failure(e)),
    }
}

/// Runs the debugger's request (JSON) on the file `shader` in the worker:
/// the JSON of `Result<debugger::Session, String>`, or why the worker did not run.
pub async fn debug(shader: &[u8], request: &str) -> Result<String, String> {
    match debug_request(shader, request).await {
        Ok(v) => Ok(v.as_string().unwrap_or_default()),
        Err(e) => Err(failure(e)),
    }
}

/// Computes the preview's reference file on the interpreter in the worker
/// (`request`: the JSON of a `cpu_compare::Request`): its bytes, or why
/// there are none (the interpreter's refusal, or the worker's failure).
pub async fn cpu_reference(shader: &[u8], request: &str) -> Result<Vec<u8>, String> {
    match cpu_reference_request(shader, request).await {
        Ok(v) => {
            v.dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).map_err(|_| "the worker sent no reference".into())
        }
        Err(e) => Err(failure(e)),
    }
}

/// The length of the link with `payload` (`dxbc::permalink::payload`),
/// measured in the worker, or why the worker did not run.
pub async fn link_length(payload: &[u8]) -> Result<usize, String> {
    match link_length_request(payload).await {
        Ok(v) => v.as_f64().map(|n| n as usize).ok_or_else(|| "the worker sent no length".into()),
        Err(e) => Err(failure(e)),
    }
}

fn failure(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| "the translation worker failed".into())
}

/// Carves `bytes` (a whole file) in the worker; `on_progress(position,
/// len)` follows its steps. The JSON of `carved::Listing`, None when
/// [`cancel_carve`] stopped it, or why the worker did not run.
pub async fn carve(bytes: &[u8], on_progress: impl FnMut(f64, f64) + 'static) -> Result<Option<String>, String> {
    let progress = Closure::<dyn FnMut(f64, f64)>::new(on_progress);
    let r = carve_request(bytes, progress.as_ref().unchecked_ref()).await;
    // The closure lives until the answer came: no progress follows it.
    drop(progress);
    r.map(|v| v.as_string()).map_err(failure)
}

/// Stops the carve in progress, if any.
pub fn cancel_carve() {
    carve_cancel();
}
