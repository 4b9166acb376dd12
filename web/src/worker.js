// The translation worker (and the listing editor's assembler). Lowering a shader to naga IR, validating it and
// running naga's writers takes up to a tenth of a second on large shaders,
// and naga is most of the code: both live in a second wasm (dxbc-worker,
// built by Trunk from web/src/worker.rs) that only this worker loads, on
// the first translation or preview. The page's own wasm stays small.
// Files that are not one container are carved here too, step by step,
// with progress messages and a cancel heard between steps.
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
  return post(kind, shader, null);
}

/**
 * Assembles listing `text` for the file `shader` (bytes) in the worker
 * (the assembler lives there) and resolves to the JSON of the outcome.
 */
export function assemble_request(shader, text) {
  return post('assemble', shader, null, text);
}

/**
 * Runs the step debugger's request (JSON `text`) on the file `shader` in
 * the worker (the interpreter lives there) and resolves to the session's JSON.
 */
export function debug_request(shader, text) {
  return post('debug', shader, null, text);
}

/**
 * Computes the preview's read-backs on the interpreter for the request
 * (JSON `text`: the preview's link state) in the worker and resolves to the
 * reference file's bytes (a Uint8Array); rejects with the refusal.
 */
export function cpu_reference_request(shader, text) {
  return post('cpu-reference', shader, null, text);
}

/**
 * Measures the link whose payload is `payload` (bytes) in the worker and
 * resolves to its length in characters.
 */
export function link_length_request(payload) {
  return post('link-length', payload, null);
}

/**
 * Carves `bytes` (a whole file) in the worker, one step per message;
 * `on_progress(position, len)` follows the steps. Resolves to the JSON of
 * the listing, or to null when carve_cancel stopped it.
 */
export function carve_request(bytes, on_progress) {
  carve_cancel();
  const p = post('carve', bytes, on_progress);
  carving = seq;
  return p;
}

/** Stops the carve in progress, if any (its promise resolves to null). */
export function carve_cancel() {
  if (carving !== null && worker) worker.postMessage({ id: carving, kind: 'cancel' });
  carving = null;
}

let carving = null;

function post(kind, shader, on_progress, text) {
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
      if (e.data.progress !== undefined) {
        if (w && w.on_progress) w.on_progress(e.data.progress, e.data.len);
        return;
      }
      waiting.delete(e.data.id);
      if (e.data.id === carving) carving = null;
      if (w) e.data.error ? w.reject(new Error(e.data.error)) : w.resolve(e.data.json);
    };
    worker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(e.message || 'the translation worker failed'));
      waiting.clear();
      worker = null;
      carving = null;
    };
  }
  const id = ++seq;
  // A copy: the argument is a view into the wasm memory, which must not be cloned whole.
  const bytes = shader.slice();
  const w = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, on_progress });
    w.postMessage({ id, kind, shader: bytes, text, ...w.urls }, [bytes.buffer]);
  });
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let app = null;
  // Ids of carves told to stop; a carve checks between its steps.
  const cancelled = new Set();
  // The id of the carve whose session the wasm holds.
  let current = null;
  self.onmessage = async (e) => {
    const { id, kind, js, wasm, shader, text } = e.data;
    if (kind === 'cancel') {
      cancelled.add(id);
      return;
    }
    try {
      if (!app) app = import(js).then(async (m) => { await m.default({ module_or_path: wasm }); return m; });
      const m = await app;
      if (kind === 'carve') {
        self.postMessage({ id, json: await carve(m, id, shader) });
        return;
      }
      const json = kind === 'translate' ? m.translate_json(shader)
        : kind === 'assemble' ? m.assemble_listing_json(shader, text)
        : kind === 'debug' ? m.debug_json(shader, text)
        : kind === 'cpu-reference' ? m.cpu_reference(shader, text)
        : kind === 'link-length' ? m.link_length(shader)
        : m.preview_translate_json(shader);
      self.postMessage({ id, json });
    } catch (err) {
      self.postMessage({ id, error: String((err && err.message) || err) });
    }
  };

  // Carves step by step, yielding between steps so that a cancel (or a
  // translation) is heard; null when cancelled.
  async function carve(m, id, bytes) {
    current = id;
    m.carve_begin(bytes);
    const len = bytes.length;
    for (;;) {
      // Cancelled, or replaced by a newer carve (whose session this one must not drop).
      if (cancelled.delete(id) || current !== id) {
        if (current === id) {
          m.carve_drop();
          current = null;
        }
        return null;
      }
      const at = m.carve_step();
      if (at < 0) return null;
      self.postMessage({ id, progress: at, len });
      if (at >= len) {
        current = null;
        return m.carve_finish_json();
      }
      await new Promise((r) => setTimeout(r, 0));
    }
  }
}
