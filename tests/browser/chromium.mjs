// Launching Debian's Chromium for the browser tests: a fresh profile,
// no background networking (this machine's network is closed), and
// optionally WebGPU on the bundled SwiftShader (the flag set known to give
// a working canvas; see ../shared/notes/toolchain.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

/** The built site under test, the checkout, and the corpus beside it. */
export const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

/** The release `dxbc` CLI (the tests' oracle); fails loudly when it is not built. */
export function dxbcCli() {
  const p = process.env.DXBC_CLI ?? path.join(ROOT, 'target', 'release', 'dxbc');
  if (!fs.existsSync(p)) throw new Error(`missing dxbc (cargo build --release -p dxbc-cli): ${p}`);
  return p;
}

export const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=vulkan'];

/**
 * A fresh directory under the system's temporary folder, removed when the
 * process exits (or earlier, by `removeScratch`): a test run opens about
 * seventy Chromium profiles and writes a few dozen files, and what was left
 * behind filled the disk CI builds on, about 400 MB a run.
 */
export function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.add(dir);
  return dir;
}
/** A fresh Chromium profile directory (see `scratchDir`). */
export const scratchProfile = () => scratchDir('pw-');
const scratch = new Set();
process.once('exit', () => scratch.forEach(removeScratch));
export function removeScratch(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  scratch.delete(dir);
}

/** Runs `fn(page, errors)` in a new headless Chromium; `errors` collects uncaught page errors. */
export async function withPage(fn, { webgpu = false } = {}) {
  const profile = scratchProfile();
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1440, height: 1000 },
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic', ...(webgpu ? WEBGPU_ARGS : [])],
  });
  try {
    const page = ctx.pages()[0] ?? await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await fn(page, errors);
  } finally {
    await ctx.close();
    removeScratch(profile);
  }
}

/**
 * The page's permalink for its current state. The page builds the link
 * when asked (deflating a large shader on every selection change would cost
 * frames), so this presses "Copy link" and reads the field it fills.
 */
export async function currentLink(page) {
  await page.getByTestId('copy-link').click();
  return page.getByTestId('permalink').inputValue();
}

/**
 * The bytes the hex view draws, as [offset, value] pairs. A row's digits
 * are one run of text (two characters a byte, a space between dwords); a
 * byte has a cell of its own only where it shows something, and a cell
 * that draws its own digits (selected, hovered, padding) shows those. The
 * byte under each place of a row is what hex_row.js keeps on the row
 * (`__offsets`, 0xffffffff past the end), the map the page's own pointer
 * handling reads.
 */
export async function drawnBytes(page) {
  return page.$$eval('[data-testid=hex-view] .hrow.slot:not([hidden])', (rows) => rows.flatMap((row) => {
    const run = row.querySelector('.run').textContent;
    const cells = row.querySelectorAll('.cells > .b');
    return [...(row.__offsets ?? [])].flatMap((b, j) => {
      if (b === 0xffffffff) return [];
      const own = cells[j].hidden ? '' : cells[j].textContent;
      const digits = own !== '' ? own : run.substr(Math.floor(j / 4) * 9 + (j % 4) * 2, 2);
      return [[b, parseInt(digits, 16)]];
    });
  }));
}

/**
 * Where the hex view draws byte `b`: the box of its two characters in the
 * run of the row that shows it, once that row lies inside the view
 * (scrolled to, when it is drawn out of sight). Waits for a row to show it.
 */
export async function byteBox(page, b, timeout = 5000) {
  const handle = await page.waitForFunction((b) => {
    const view = document.querySelector('[data-testid=hex-view]');
    for (const row of view.querySelectorAll('.hrow.slot:not([hidden])')) {
      const j = row.__offsets ? row.__offsets.indexOf(b) : -1;
      if (j < 0) continue;
      const r = row.querySelector('.run').getBoundingClientRect();
      const v = view.getBoundingClientRect();
      if (r.top < v.top || r.bottom > v.bottom) {
        view.scrollTop += r.top < v.top ? r.top - v.top : r.bottom - v.bottom;
        return null;
      }
      const ch = r.width / 35;
      return { x: r.left + (Math.floor(j / 4) * 9 + (j % 4) * 2) * ch, y: r.top, width: 2 * ch, height: r.height };
    }
    return null;
  }, b, { timeout });
  return handle.jsonValue();
}

/** Moves the pointer over byte `b` of the hex view (see byteBox). */
export async function hoverByte(page, b) {
  const box = await byteBox(page, b);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

/** Clicks byte `b` of the hex view (see byteBox). */
export async function clickByte(page, b) {
  const box = await byteBox(page, b);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Checks that the hex view paints byte `b`'s cell in the colour of custom
 * property `--prop`, as the root element resolves it now, or in its shade
 * on every other span (7 % black over it in the light theme, 6 % white in
 * the dark), near the top of the cell (above the digits).
 */
export async function assertPaintedIn(page, b, prop) {
  const box = await byteBox(page, b);
  const [value, dark] = await page.evaluate((p) => [getComputedStyle(document.documentElement).getPropertyValue(`--${p}`), getComputedStyle(document.documentElement).colorScheme === 'dark'], prop);
  // A colour-mix computes to color(srgb r g b) with channels in 0..1, or to rgb(r, g, b).
  const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)/.exec(value.trim());
  const plain = srgb ? srgb.slice(1).map((c) => Number(c) * 255) : value.match(/\d+/g).slice(0, 3).map(Number);
  const shaded = plain.map((c) => (dark ? c * 0.94 + 255 * 0.06 : c * 0.93));
  const px = await pixelAt(page, Math.round(box.x + 3), Math.round(box.y + 1));
  const near = (want) => want.every((c, k) => Math.abs(c - px[k]) <= 2);
  assert.ok(near(plain) || near(shaded), `byte ${b} in --${prop}: painted ${px}, ${value}`);
}

/** The [r, g, b] the page paints at (x, y), from a one-pixel screenshot. */
export async function pixelAt(page, x, y) {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  // A PNG: the signature, then chunks; the IDAT data inflates to one row
  // (a filter byte, then the pixel). With no neighbours, every filter
  // leaves the first pixel as it is.
  const idat = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const row = zlib.inflateSync(Buffer.concat(idat));
  return [row[1], row[2], row[3]];
}
