// Starts the app. Trunk's default loader is an inline <script>, which the
// page's Content-Security-Policy (index.html) does not allow; Trunk.toml's
// `pattern_script` emits <script id="dxbc-boot" src="boot.js" data-js=… data-wasm=…>
// instead, and this file reads the hashed file names from it.
const boot = document.getElementById('dxbc-boot');
const { default: init } = await import(boot.dataset.js);
await init({ module_or_path: boot.dataset.wasm });
