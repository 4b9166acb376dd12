// The translation worker. Lowering a shader to naga IR, validating it and
// running naga's writers takes up to a tenth of a second on large shaders,
// and naga is most of the code: both live in a second wasm (dxbc-worker,
// built by Trunk from web/src/worker.rs) that only this worker loads, on
// the first translation or preview. The page's own wasm stays small.
//
// The page imports this file (wasm-bindgen copies it among the snippets)
// for worker_request; started as a module worker, the same file serves
// the requests.

let worker = null;
let seq = 0;
const waiting = new Map();

/**
 * Runs `kind` ('translate': the translation pane's outcome; 'preview': the
 * live preview's translation) on `shader` (file bytes) in the worker and
 * resolves to the JSON it returns; rejects when no worker can run.
 */
export function worker_request(kind, shader) {
  if (!worker) {
    if (typeof Worker === 'undefined') return Promise.reject(new Error('this browser runs no Web Workers'));
    worker = new Worker(import.meta.url, { type: 'module' });
    // Trunk writes the worker's files, unhashed, beside index.html.
    worker.urls = {
      js: new URL('dxbc-worker.js', document.baseURI).href,
      wasm: new URL('dxbc-worker_bg.wasm', document.baseURI).href,
    };
    worker.onmessage = (e) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (w) e.data.error ? w.reject(new Error(e.data.error)) : w.resolve(e.data.json);
    };
    worker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(e.message || 'the translation worker failed'));
      waiting.clear();
      worker = null;
    };
  }
  const id = ++seq;
  // A copy: the argument is a view into the wasm memory, which must not be cloned whole.
  const bytes = shader.slice();
  const w = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, kind, shader: bytes, ...w.urls }, [bytes.buffer]);
  });
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let app = null;
  self.onmessage = async (e) => {
    const { id, kind, js, wasm, shader } = e.data;
    try {
      if (!app) app = import(js).then(async (m) => { await m.default({ module_or_path: wasm }); return m; });
      const m = await app;
      const json = kind === 'translate' ? m.translate_json(shader) : m.preview_translate_json(shader);
      self.postMessage({ id, json });
    } catch (err) {
      self.postMessage({ id, error: String((err && err.message) || err) });
    }
  };
}
