// The interactions the benchmarks time (bench.mjs, trace.mjs): each is
// dispatched from inside a requestAnimationFrame callback and timed to the
// task that runs once that frame has painted (bench.mjs says why).
import fs from 'node:fs';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { scratchProfile } from '../chromium.mjs';

/** A #v1/ link: record 1 (shader bytes), deflate-raw, base64url. */
export function link(bytes) {
  const len = [];
  let n = bytes.length;
  do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; len.push(b); } while (n);
  const payload = Buffer.concat([Buffer.from([1, ...len]), Buffer.from(bytes)]);
  return '#v1/' + zlib.deflateRawSync(payload, { level: 9 }).toString('base64url');
}

/** Times `n` runs of the named action (the page's CSP forbids eval, so actions are named, not passed as code). */
export async function interaction(page, act, n, mark = false) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(await page.evaluate(async ([i, act, mark]) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(performance.now()); c.port2.postMessage(0); });
      // The element acted on is found before the timed part: finding it
      // (reading 700 cells, or the rectangles of the listing's lines) is
      // the harness's work, not the page's. Nothing changes the page
      // between here and the event.
      let target = null;
      let at = null;
      if (act === 'hover' || act === 'bytes') {
        // A byte a person can see: its digits in a row inside the view
        // (most bytes have no element of their own; the page finds the
        // byte from the row and the pointer's place).
        const view = document.querySelector('[data-testid=hex-view]').getBoundingClientRect();
        const runs = [...document.querySelectorAll('[data-testid=hex-view] .hrow.slot:not([hidden]) .run')].filter((r) => {
          const b = r.getBoundingClientRect();
          return b.top >= view.top && b.bottom <= view.bottom;
        });
        const r = runs[(i * 7) % runs.length].getBoundingClientRect();
        const j = (i * 37) % 16;
        at = { clientX: r.left + (Math.floor(j / 4) * 9 + (j % 4) * 2 + 1) * (r.width / 35), clientY: r.top + r.height / 2 };
        target = document.elementFromPoint(at.clientX, at.clientY);
      } else if (act === 'arrow' || act === 'scroll') {
        target = document.querySelector('[data-testid=hex-view]');
      } else if (act === 'click') {
        // A line a person can see: the listing also draws rows below its
        // window (its lookahead), which no pointer reaches.
        const pane = document.querySelector('[data-testid=disassembly]').getBoundingClientRect();
        const ls = [...document.querySelectorAll('[data-testid=disassembly] .line.linked')].filter((l) => {
          const r = l.getBoundingClientRect();
          return r.top >= pane.top && r.bottom <= pane.bottom;
        });
        target = ls[(i * 7) % ls.length];
      } else if (act === 'search') {
        target = document.querySelector('[data-testid=search]');
      } else if (act === 'field') {
        target = document.querySelector('[data-testid=field-saturate]');
      } else if (act !== 'noop') {
        throw new Error(`unknown action ${act}`);
      }
      // Inside the rendering step of a frame, before its style and layout.
      const t0 = await frame();
      // For profile.mjs's PROFILE_WINDOW: samples of the run's window alone.
      if (mark === 'profile') console.profile('bench-run');
      if (act === 'hover') {
        target.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, ...at }));
      } else if (act === 'arrow') {
        target.dispatchEvent(new KeyboardEvent('keydown', { key: i % 2 ? 'ArrowDown' : 'ArrowRight', bubbles: true }));
      } else if (act === 'bytes' || act === 'click') {
        // A click on a byte (selects its token) or on a listing line: the
        // other views, the inspector and the links follow.
        target.dispatchEvent(new MouseEvent('click', { bubbles: true, ...(at ?? {}) }));
      } else if (act === 'scroll') {
        // A jump of the hex view alone: far down and back, so every row
        // slot shows other bytes (the scroll event redraws the rows).
        target.scrollTop = i % 2 ? 0 : target.scrollHeight / 2;
        target.dispatchEvent(new Event('scroll'));
      } else if (act === 'search') {
        target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      } else if (act === 'field') {
        // Toggles the selected mul's saturate bit: one edit (re-signed bytes, every view follows).
        target.value = target.value === '1' ? '0' : '1';
        target.dispatchEvent(new Event('change', { bubbles: true }));
      }
      const t1 = performance.now();
      const t2 = await task();
      if (mark === 'profile') console.profileEnd('bench-run');
      const t3 = await frame();
      // For trace.mjs: the run's window as a user timing measure in the trace.
      if (mark === true) performance.measure('bench-run', { start: t0, end: t2 });
      return { script: t1 - t0, paint: t2 - t0, raf: t3 - t0 };
    }, [i, act, mark]));
  }
  return rows;
}

/**
 * Gets the page ready for `act`: search steps need a query with matches;
 * a field edit needs a mul selected, so that the inspector offers its
 * saturate field (search steps until one is).
 */
export async function prepare(page, act) {
  if (act !== 'search' && act !== 'field') return;
  await page.locator('[data-testid=search]').fill('mul');
  await page.waitForFunction(() => document.querySelector('[data-testid=search-count]').textContent !== '');
  if (act !== 'field') return;
  const selected = page.locator('[data-testid=disassembly] .line[aria-selected=true]');
  for (let k = 0; k < 200 && !/^mul /.test(await selected.first().textContent().catch(() => '')); k++) {
    await page.locator('[data-testid=search]').press('Enter');
  }
  await selected.first().click();
  await page.getByTestId('field-saturate').waitFor();
}

/** Chromium at 1440 x 1000, a fresh profile, page errors and crashes printed. */
export async function browser() {
  const ctx = await chromium.launchPersistentContext(scratchProfile(), {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 1000 },
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-quic'] });
  const page = ctx.pages()[0] ?? await ctx.newPage();
  page.on('pageerror', (e) => console.log('page error:', String(e)));
  page.on('crash', () => console.log('page crashed'));
  return { ctx, page };
}

/**
 * The page at `appUrl` showing the shader file `shader`, ready for `act`
 * and warmed up by five runs of it (the first runs compile code paths).
 */
export async function readyFor(appUrl, shader, act) {
  const { ctx, page } = await browser();
  await page.goto(appUrl + link(fs.readFileSync(shader)));
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
  await page.click('[data-testid=hex-view]');
  await prepare(page, act);
  await interaction(page, act, 5);
  return { ctx, page };
}
