//! The page's side of the translation worker (`worker.js`): one request,
//! one JSON answer.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/worker.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn worker_request(kind: &str, shader: &[u8]) -> Result<JsValue, JsValue>;
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
        Err(e) => Err(e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .unwrap_or_else(|| "the translation worker failed".into())),
    }
}
