//! The explorer's worker wasm: the translator and the preview's translation,
//! loaded on first use by `worker.js` in a Web Worker, so that the
//! page's own wasm (the first view) carries no naga. File bytes in, JSON out.

use wasm_bindgen::prelude::wasm_bindgen;

/// The translation pane: every target's text, the binding map and the WGSL
/// line links, as the JSON of [`dxbc_web::translation::Outcome`].
#[wasm_bindgen]
pub fn translate_json(bytes: &[u8]) -> String {
    dxbc_web::translator::translate_json(bytes)
}

/// The live preview: WGSL, bindings and stage I/O, as the JSON of
/// `Result<preview_model::plan::Translated, PlanError>`.
#[wasm_bindgen]
pub fn preview_translate_json(bytes: &[u8]) -> String {
    dxbc_web::preview::translate_json(bytes)
}

fn main() {
    console_error_panic_hook::set_once();
}
