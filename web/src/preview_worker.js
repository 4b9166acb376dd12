// The live preview's translation worker: lowering a shader to naga IR,
// validating it and writing WGSL can take a tenth of a second for the
// largest shaders, so the page does it here, off the main thread. The
// worker loads the app's own wasm (the same build; main() sees no window
// and does not start the UI) and calls its exported preview_translate_json.
//
// This file is also imported by the page (wasm-bindgen copies it next to
// preview.js), where it only tells its own URL.

export function preview_worker_url() {
  return import.meta.url;
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let app = null;
  self.onmessage = async (e) => {
    const { id, js, wasm, shader } = e.data;
    try {
      if (!app) app = import(js).then(async (m) => { await m.default({ module_or_path: wasm }); return m; });
      const m = await app;
      self.postMessage({ id, json: m.preview_translate_json(shader) });
    } catch (err) {
      self.postMessage({ id, error: String((err && err.message) || err) });
    }
  };
}
