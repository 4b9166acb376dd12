//! The explorer's worker wasm: the translator and the preview's translation,
//! and the listing editor's assembler, loaded on first use by `worker.js`
//! in a Web Worker, so that the page's own wasm (the first view) carries
//! neither naga nor the assembler. File bytes in, JSON out.
//! It also carves files that are not one container, a step per call so
//! that `worker.js` can report progress and hear a cancel between steps.

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

/// The listing editor: `text` assembled for the file `bytes`, as the JSON
/// of `Result<listing_edit::Outcome, listing_edit::Refusal>`. The
/// assembler lives here, not in the first view's wasm.
#[wasm_bindgen]
pub fn assemble_listing_json(bytes: &[u8], text: &str) -> String {
    dxbc_web::listing_edit::apply_json(bytes, text)
}

/// The step debugger: one invocation run on the interpreter with the
/// preview's inputs (`request_json`: a [`dxbc_web::debugger::Request`]), as
/// the JSON of `Result<debugger::Session, String>`.
#[wasm_bindgen]
pub fn debug_json(bytes: &[u8], request_json: &str) -> String {
    dxbc_web::debugger::session_json(bytes, request_json)
}

/// "Compare with the CPU interpreter": the preview's read-backs computed on
/// the interpreter for the page's inputs (`request_json`: a
/// [`dxbc_web::cpu_compare::Request`]), as a reference file; the error
/// (thrown) says why there is none.
#[wasm_bindgen]
pub fn cpu_reference(bytes: &[u8], request_json: &str) -> Result<Vec<u8>, String> {
    dxbc_web::cpu_compare::reference_file_json(bytes, request_json)
}

/// The length of the link whose payload (`dxbc::permalink::payload`) is
/// `payload`: the page's link meter, measured here for large files, whose
/// deflating took some milliseconds of the page's main thread.
#[wasm_bindgen]
pub fn link_length(payload: &[u8]) -> u32 {
    dxbc::permalink::encode_payload(payload).len() as u32
}

thread_local! {
    /// The carve in progress (one at a time: a new one replaces it).
    static CARVING: std::cell::RefCell<Option<dxbc_web::carved::Session>> = const { std::cell::RefCell::new(None) };
}

/// Starts carving `bytes` (a whole file), replacing any carve in progress.
#[wasm_bindgen]
pub fn carve_begin(bytes: &[u8]) {
    let session = dxbc_web::carved::Session::new(bytes.to_vec());
    CARVING.with(|c| *c.borrow_mut() = Some(session));
}

/// Carves the next step; returns how many bytes have been looked at, or
/// -1 when no carve is in progress.
#[wasm_bindgen]
pub fn carve_step() -> f64 {
    CARVING.with(|c| c.borrow_mut().as_mut().map_or(-1.0, |s| s.step() as f64))
}

/// Ends the carve in progress: what it found, as the JSON of
/// [`dxbc_web::carved::Listing`] (an empty listing when none was in progress).
#[wasm_bindgen]
pub fn carve_finish_json() -> String {
    let listing = CARVING.with(|c| c.borrow_mut().take()).map(|s| s.listing()).unwrap_or_default();
    serde_json::to_string(&listing).unwrap_or_default()
}

/// Drops the carve in progress (cancelled).
#[wasm_bindgen]
pub fn carve_drop() {
    CARVING.with(|c| *c.borrow_mut() = None);
}

fn main() {
    console_error_panic_hook::set_once();
}
