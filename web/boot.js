// Starts the app. Trunk's default loader is an inline <script>, which the
// page's Content-Security-Policy (index.html) does not allow; Trunk.toml's
// `pattern_script` emits <script id="dxbc-boot" src="boot.js" data-js=… data-wasm=…>
// instead, and this file reads the hashed file names from it.
//
// The release build splits the UI's wasm (tools/wasm-split, run by Trunk's
// post_build hook, which adds data-cold): the functions the first view never
// runs live in a second module, fetched once the first view has painted,
// compiled off the main thread and then instantiated in that same background
// task. A call to one of them before that reaches the primary's import
// `__split.load`, which instantiates it on the spot; wasm-bindgen's glue does
// not know of that import, so the import object the glue builds gets it
// added here. Dev builds (`trunk serve`) are not split and have no data-cold.
//
// Why not wait for the first call: instantiating writes the secondary's data
// and table and wakes V8's garbage collector, some 8 ms inside the frame of
// whatever interaction first needed it (the first field edit, say).
//
// Once the secondary is compiled, `dxbcSecondaryReady` is true and the
// `dxbc-secondary-ready` event fires: the app holds back work that only
// moved functions do until then (web/src/dom.rs, when_secondary_ready).
// Builds that are not split are ready at once.
const boot = document.getElementById('dxbc-boot');
const { default: init } = await import(boot.dataset.js);
const coldUrl = boot.dataset.cold;

function secondaryReady() {
  globalThis.dxbcSecondaryReady = true;
  dispatchEvent(new Event('dxbc-secondary-ready'));
}

let primary = null; // the primary instance's exports, which the secondary imports
let cold = null; // the secondary, compiled in the background (a WebAssembly.Module)
let coldBytes = null; // or only its bytes
let loaded = false; // whether the secondary is instantiated

/**
 * `__split.load`: instantiates the secondary, once; its element segment
 * fills the primary's table and its data segments write its data. The
 * primary's stubs call it on their first call until one has (they keep
 * their own flag), so it may come after the background task loaded it.
 */
function loadCold() {
  if (loaded) return;
  const module = cold ?? new WebAssembly.Module(coldBytes ?? fetchNow(coldUrl));
  new WebAssembly.Instance(module, { __primary: primary });
  loaded = true;
}

/**
 * The bytes at `url`, fetched synchronously: only when a moved function runs
 * before the background fetch has finished (the wasm call cannot wait).
 */
function fetchNow(url) {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  // A synchronous request in a page cannot ask for an ArrayBuffer; this
  // charset maps each byte to one char code unchanged.
  xhr.overrideMimeType('text/plain; charset=x-user-defined');
  xhr.send();
  if (xhr.status !== 200) throw new Error(`${url}: HTTP ${xhr.status}`);
  const text = xhr.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

if (coldUrl) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  const withLoad = (imports) => ({ ...imports, __split: { load: loadCold } });
  const keep = (result) => {
    primary = (result.instance ?? result).exports;
    return result;
  };
  WebAssembly.instantiate = (source, imports) => instantiate(source, withLoad(imports)).then(keep);
  WebAssembly.instantiateStreaming = (source, imports) => instantiateStreaming(source, withLoad(imports)).then(keep);
  try {
    await init({ module_or_path: boot.dataset.wasm });
  } finally {
    Object.assign(WebAssembly, { instantiate, instantiateStreaming });
  }
  // After the first view's frame: fetch and compile the secondary off the
  // main thread, then instantiate it, so no interaction waits for either.
  requestAnimationFrame(() => setTimeout(async () => {
    try {
      const response = await fetch(coldUrl);
      if (!response.ok) return;
      coldBytes = new Uint8Array(await response.arrayBuffer());
      cold = await WebAssembly.compile(coldBytes);
      loadCold();
      secondaryReady();
    } catch {
      // Offline or refused: loadCold fetches it when first needed.
    }
  }));
} else {
  secondaryReady();
  await init({ module_or_path: boot.dataset.wasm });
}
