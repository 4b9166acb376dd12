// Trunk's post_build hook (Trunk.toml) for release builds: splits the UI's
// wasm in the staging dir so the first view loads only what it runs.
//  1. `wasm-split instrument` makes a copy of wasm-bindgen's output (not yet
//     optimised by wasm-opt: see below) that marks each function it runs;
//  2. headless Chromium opens the staged site with that copy and does what
//     a first view does (the example, a sample of corpus shaders by
//     permalink, hovering bytes, clicking lines, arrow keys);
//  3. `wasm-split split` moves every function that did not run to the
//     secondary, and the data no kept function can reach; both halves get
//     content-hashed names and index.html's loader tag gets data-cold
//     (web/boot.js reads it);
//  4. wasm-opt optimises each half for size.
// Dev builds (`trunk serve`) stay whole. The profile is made from the exact
// module being split, on every build, so it never goes stale.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FXC = path.resolve(ROOT, '..', 'shared', 'corpus', 'fxc');
/**
 * Corpus shaders opened while profiling (sorted by name): every
 * USE_STEP-th is used as below; every OPEN_STEP-th other one is opened,
 * its bytes on screen hovered in part and one line clicked (its decoder
 * and listing paths, cheaply).
 */
const USE_STEP = 16;
const OPEN_STEP = 4;

if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);
const staging = process.env.TRUNK_STAGING_DIR;
const htmlPath = path.join(staging, 'index.html');
const html = fs.readFileSync(htmlPath, 'utf8');
// The loader's tag. Trunk's minifier sorts attributes and drops the quotes it can.
const bootTag = html.match(/<script\b[^>]*>/g)?.find((t) => /\sid="?dxbc-boot"?[\s>]/.test(t));
const wasmUrl = bootTag?.match(/\sdata-wasm="?([^"\s>]+)/)?.[1];
/** `page` with data-cold="`url`" added to the loader's tag. */
const withCold = (page, url) => page.replace(bootTag, bootTag.replace(/^<script/, `<script data-cold="${url}"`));
if (!wasmUrl) throw new Error(`${htmlPath}: no dxbc-boot script with data-wasm`);
const wasmName = path.basename(wasmUrl);
const wasmPath = path.join(staging, wasmName);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-split-'));

function tool(...args) {
  const r = spawnSync('cargo', ['run', '--quiet', '--locked', '--offline', '-p', 'wasm-split', '--', ...args],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`wasm-split ${args[0]} failed`);
}

const instrumented = path.join(work, 'instrumented.wasm');
tool('instrument', wasmPath, instrumented);

/**
 * The page as profiled: split, with a secondary that never arrives (a
 * name the server does not have), so web/boot.js never reports it ready
 * and what the app holds back until then (web/src/dom.rs,
 * when_secondary_ready) stays out of the profile, as it stays out of the
 * first view.
 */
const profiledHtml = withCold(html, '/__wasm_split_profiling_cold.wasm');

/** Serves the staging dir, with the instrumented module in place of the UI's. */
function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    if (name === 'index.html') {
      res.writeHead(200, { 'content-type': types['.html'] }).end(profiledHtml);
      return;
    }
    const file = name === wasmName ? instrumented : path.join(staging, path.normalize(name));
    if (!file.startsWith(staging) && file !== instrumented || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A #v1/ permalink of `bytes` (record 1: the shader; deflate-raw; base64url), as the page makes them. */
function link(bytes) {
  const len = [];
  let n = bytes.length;
  do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; len.push(b); } while (n);
  const payload = Buffer.concat([Buffer.from([1, ...len]), Buffer.from(bytes)]);
  return '#v1/' + zlib.deflateRawSync(payload, { level: 9 }).toString('base64url');
}

/**
 * Moves the pointer over every `step`-th element matching `selector`, one
 * task each (so the effects a hover queues run before the next).
 */
async function hoverEach(page, selector, step) {
  await page.evaluate(async ([selector, step]) => {
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const els = [...document.querySelectorAll(selector)].filter((_, i) => i % step === 0);
    for (const e of els) {
      e.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      await task();
    }
  }, [selector, step]);
}

/**
 * Clicks `line` where a reader selects it: on its first word (the
 * mnemonic), not its middle, which the page's layout moves on and off a
 * register (a click on one shows its reads and writes, code the profile
 * then kept in the first view: 3.7 KB brotli when a wider listing put
 * registers under the middle), nor its left edge, where an instruction
 * line's breakpoint gutter is (a click there toggles a breakpoint and
 * selects nothing, so line selection was profiled only by chance).
 */
async function clickLine(line) {
  const word = line.locator('.s-mn').first();
  await (await word.count() ? word : line).click();
}

/**
 * What a first view does with the open shader: the pointer over every
 * byte on screen (the inspector explains each kind of field) and over the
 * listing, clicks on lines across the listing, the arrow keys.
 */
async function useFirstView(page, thorough) {
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
  await page.waitForFunction(() => performance.getEntriesByName('dxbc-ready').length > 0);
  // First, what a reader does first: click an instruction. The first
  // selection of a freshly opened shader builds views that later ones
  // only update, and a click after the hovers below reaches that code only
  // when a frame happens to fall between them (a profile without it sent
  // a click's first call to the secondary in half of the builds).
  const word = page.locator('[data-testid=disassembly] .line .s-mn').nth(3);
  if (await word.count()) await word.click();
  await hoverEach(page, '[data-testid=hex-view] .b[data-b]', thorough ? 1 : 4);
  // The real pointer too, between the listing, the bytes and the panes
  // (their enter and leave handlers), ending outside them all.
  const byteCells = page.locator('[data-testid=hex-view] .b[data-b]');
  const listLines = page.locator('[data-testid=disassembly] .line');
  for (let i = 0; i < 3; i++) {
    if (await listLines.nth(i).count()) await listLines.nth(i).hover();
    if (await byteCells.nth(i * 7).count()) await byteCells.nth(i * 7).hover();
  }
  for (const id of ['inspector', 'reflection', 'chunks', 'disassembly', 'hex-view']) {
    const pane = page.getByTestId(id);
    if (await pane.count() && await pane.isVisible()) await pane.hover();
  }
  await page.mouse.move(1, 1);
  if (!thorough) {
    const line = page.locator('[data-testid=disassembly] .line').nth(1);
    if (await line.count()) await clickLine(line);
    return;
  }
  await hoverEach(page, '[data-testid=disassembly] .line', 3);
  // The listing draws only the rows near its scroll position, and a hover
  // on the bytes scrolls it: lines are picked by their number in the whole
  // listing (its spacer is a row per line) and scrolled to before the click.
  const pane = page.getByTestId('disassembly');
  const total = await pane.evaluate((el) => Math.round(el.querySelector('.spacer').offsetHeight / el.querySelector('.line').offsetHeight));
  for (let i = 0; i < Math.min(total, 3); i++) {
    const l = Math.floor(((i + 1) * total) / 4);
    await pane.evaluate((el, l) => { el.scrollTop = l * el.querySelector('.line').offsetHeight; }, l);
    await clickLine(page.locator(`[data-testid=disassembly] .line[data-line="${l}"]`));
    await hoverEach(page, '[data-testid=hex-view] .b[data-b]', 5);
  }
  await page.getByTestId('hex-view').focus();
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);
}

async function profile() {
  const server = await serve();
  const url = `http://127.0.0.1:${server.address().port}/`;
  const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(work, 'pw-')), {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 1000 },
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic'],
  });
  try {
    const page = ctx.pages()[0] ?? await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The instrumented module exports its marks (globals); keep them where the profiler can read them.
    await page.addInitScript(() => {
      for (const name of ['instantiate', 'instantiateStreaming']) {
        const original = WebAssembly[name];
        WebAssembly[name] = async (...args) => {
          const result = await original.apply(WebAssembly, args);
          const exports = (result.instance ?? result).exports;
          if (exports.__split_ran0) globalThis.__splitMarks = exports;
          return result;
        };
      }
    });
    // Each page load instantiates the module afresh: the marks of every load are merged.
    let marks = null;
    const visit = async (href, thorough) => {
      await page.goto('about:blank');
      await page.goto(href);
      await useFirstView(page, thorough);
      const run = await page.evaluate(() => {
        const marks = [];
        for (let i = 0; globalThis.__splitMarks['__split_ran' + i]; i++) marks.push(globalThis.__splitMarks['__split_ran' + i].value);
        return marks;
      });
      marks = marks ? marks.map((m, i) => m | run[i]) : run;
    };
    await visit(url, true);
    const shaders = fs.existsSync(FXC) ? fs.readdirSync(FXC).filter((f) => f.endsWith('.dxbc')).sort() : [];
    const opened = shaders.filter((_, i) => i % USE_STEP === 0 || i % OPEN_STEP === 0);
    for (const [i, f] of shaders.entries()) {
      if (i % USE_STEP === 0 || i % OPEN_STEP === 0) await visit(url + link(fs.readFileSync(path.join(FXC, f))), i % USE_STEP === 0);
    }
    if (errors.length) throw new Error(`page errors while profiling: ${errors.join('; ')}`);
    console.log(`wasm-split: profiled the example and ${opened.length} corpus shaders`);
    return Buffer.from(marks);
  } finally {
    await ctx.close();
    server.close();
  }
}

const profilePath = path.join(work, 'profile.bin');
fs.writeFileSync(profilePath, await profile());
const primaryTmp = path.join(work, 'primary.wasm');
const secondaryTmp = path.join(work, 'secondary.wasm');
// wasm-ld's output for this build, linked with --emit-relocs (web/build.rs):
// its data symbols and relocations let the data only moved functions
// reach move too (tools/wasm-split/src/data.rs). index.html builds the UI
// with the `web` cargo profile.
const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
const linked = path.join(targetDir, 'wasm32-unknown-unknown', 'web', 'dxbc-web.wasm');
tool('split', wasmPath, profilePath, primaryTmp, secondaryTmp, linked);
// wasm-opt runs here, on each half, instead of on the whole module before
// the split (index.html gives the UI's wasm data-wasm-opt="0"): on the
// whole module it inlines every function with one caller into that caller,
// so the code of a branch the first view never takes (another chunk kind's
// decoder, say) rode along in the hot function that calls it. Split first,
// each such function is its own and moves; the primary's -Oz then drops
// the bodies of moved functions that only moved code calls. Exports (which
// the secondary imports by name), the table and the memory stay as they
// are. Each half declares the features its code uses (target_features),
// which wasm-opt reads, and the output drops that section.
/** Optimises `file` in place for size. */
function optimise(file, which) {
  // WASM_KEEP_NAMES=1 keeps the function names (wasm-opt -g) for CPU
  // profiles of a release build (tests/browser/bench/profile.mjs): the
  // first view's only, since the split carries no name section into the
  // secondary. The bytes shipped are measured without them.
  const keepNames = process.env.WASM_KEEP_NAMES === '1' ? ['-g'] : [];
  const out = `${file}.opt`;
  const r = spawnSync('wasm-opt', ['-Oz', ...keepNames, '--strip-producers', '--strip-target-features', file, '-o', out],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`wasm-opt on the ${which} failed`);
  fs.renameSync(out, file);
}
optimise(primaryTmp, 'primary');
optimise(secondaryTmp, 'secondary');

// Content-hashed names, so a cache never pairs one build's primary with another's secondary.
const hash = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16);
// Trunk's preload link checks the file's integrity (sha384, base64).
const integrity = (file) => 'sha384-' + crypto.createHash('sha384').update(fs.readFileSync(file)).digest('base64');
const oldIntegrity = integrity(wasmPath);
const stem = wasmName.replace(/-[0-9a-f]+_bg\.wasm$/, '');
const primaryName = `${stem}-${hash(primaryTmp)}_bg.wasm`;
const coldName = `${stem}-${hash(secondaryTmp)}_cold.wasm`;
fs.rmSync(wasmPath);
fs.copyFileSync(primaryTmp, path.join(staging, primaryName));
fs.copyFileSync(secondaryTmp, path.join(staging, coldName));
const base = wasmUrl.slice(0, wasmUrl.length - wasmName.length);
const split = withCold(html, `${base}${coldName}`)
  .replaceAll(wasmName, primaryName)
  .replaceAll(oldIntegrity, integrity(primaryTmp));
fs.writeFileSync(htmlPath, split);
fs.rmSync(work, { recursive: true, force: true });
console.log(`wasm-split: ${primaryName} (first view) + ${coldName} (on first use)`);
