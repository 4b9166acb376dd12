// Benchmarks (prints figures, asserts nothing): permalink load -> decoded
// view, and hover -> highlight on the largest corpus shader.
//   APP_URL=http://127.0.0.1:8124/ node tests/browser/bench/bench.mjs [shader.dxbc]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
const BIG = process.argv[2] ?? '../shared/corpus/fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc';

/** A #v1/ link: record 1 (shader bytes), deflate-raw, base64url. */
function link(bytes) {
  const len = [];
  let n = bytes.length;
  do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; len.push(b); } while (n);
  const payload = Buffer.concat([Buffer.from([1, ...len]), Buffer.from(bytes)]);
  return '#v1/' + zlib.deflateRawSync(payload, { level: 9 }).toString('base64url');
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-')), {
  executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 1000 },
  args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-quic'] });
const page = ctx.pages()[0] ?? await ctx.newPage();
page.on('pageerror', (e) => console.log('page error:', String(e)));
page.on('crash', () => console.log('page crashed'));
const big = fs.readFileSync(BIG);
const bigLink = link(big);
console.log(`shader ${path.basename(BIG)}: ${big.length} bytes, link ${bigLink.length} chars`);
for (const [name, l] of [['example (default page)', ''], ['158 KB shader permalink', bigLink]]) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    await page.goto('about:blank');
    await page.goto(APP_URL + l);
    await page.waitForLoadState('load');
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
    await page.waitForFunction(() => performance.getEntriesByName('dxbc-ready').length > 0);
    times.push(await page.evaluate(() => performance.getEntriesByName('dxbc-ready')[0].startTime));
  }
  console.log(`load -> decoded view, ${name}: median ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')}) from navigation start, includes fetching and compiling the wasm`);
}
// Hover -> highlight on the big shader: time from mouseover to the class change
// being in the DOM, and to the next painted frame.
const res = await page.evaluate(async () => {
  const cells = [...document.querySelectorAll('[data-testid=hex-view] .b[data-b]')];
  const dom = []; const frame = [];
  for (let i = 0; i < 60; i++) {
    const el = cells[(i * 37) % cells.length];
    const t0 = performance.now();
    const changed = new Promise((r) => {
      const mo = new MutationObserver(() => { mo.disconnect(); r(performance.now()); });
      mo.observe(el, { attributes: true });
      setTimeout(() => { mo.disconnect(); r(NaN); }, 200);
    });
    el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    const t1 = await changed;
    if (!Number.isNaN(t1)) dom.push(t1 - t0);
    await new Promise((r) => requestAnimationFrame(() => r()));
    frame.push(performance.now() - t0);
  }
  return { dom, frame };
});
console.log(`hover -> highlight (158 KB shader): DOM updated median ${median(res.dom).toFixed(2)} ms, max ${Math.max(...res.dom).toFixed(2)} ms; next frame median ${median(res.frame).toFixed(2)} ms, max ${Math.max(...res.frame).toFixed(2)} ms`);

// Other interactions, each timed from the event to the next painted frame
// (requestAnimationFrame after the handler's DOM work): arrow keys in the
// hex view, clicks on listing lines, Enter in the search box.
async function toFrame(label, n, act) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = await page.evaluate(async ([i, act]) => {
      // The page's CSP forbids eval, so the actions are named, not passed as code.
      const t0 = performance.now();
      if (act === 'arrow') {
        document.querySelector('[data-testid=hex-view]').dispatchEvent(new KeyboardEvent('keydown', { key: i % 2 ? 'ArrowDown' : 'ArrowRight', bubbles: true }));
      } else if (act === 'click') {
        const ls = [...document.querySelectorAll('[data-testid=disassembly] .line.linked')];
        ls[(i * 7) % ls.length].dispatchEvent(new MouseEvent('click', { bubbles: true }));
      } else {
        document.querySelector('[data-testid=search]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      }
      await new Promise((r) => requestAnimationFrame(() => r()));
      return performance.now() - t0;
    }, [i, act]);
    times.push(t);
  }
  console.log(`${label} (158 KB shader): next frame median ${median(times).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms over ${n}`);
}
await page.click('[data-testid=hex-view]');
await toFrame('arrow key', 40, 'arrow');
await toFrame('listing click', 40, 'click');
const box = page.locator('[data-testid=search]');
if (await box.count()) {
  const t0 = Date.now();
  await box.fill('mul');
  await page.waitForFunction(() => document.querySelector('[data-testid=search-count]').textContent !== '');
  console.log(`search typed -> count shown (158 KB shader): ${Date.now() - t0} ms (includes the test driver)`);
  await toFrame('search step (Enter)', 40, 'search');
}
await ctx.close();
