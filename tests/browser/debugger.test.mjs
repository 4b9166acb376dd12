// The step debugger in headless Chromium: a pixel of a corpus pixel shader
// picked on the preview, run on the interpreter in the worker, stepped to
// the end and compared with the GPU's read-back of that pixel (and with
// the native renderer's); stepping back; a breakpoint; a compute thread
// that uses groupshared memory; a debug link restoring the pixel and step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withPage as launch, currentLink, APP_URL, CORPUS } from './chromium.mjs';
import { linkFor, nativeReference, openPreview, pageState } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });

/** The o-register row of the register view, as hex words. */
async function rowHex(page, reg) {
  await page.getByTestId('debug-radix').selectOption('hex');
  const cells = await page.locator(`[data-testid=debug-registers] tr[data-reg="${reg}"] td`).allTextContents();
  return cells.map((c) => Number.parseInt(c, 16) >>> 0);
}

async function position(page) {
  const t = await page.getByTestId('debug-position').textContent();
  const m = t.match(/^step (\d+) of (\d+), next: (.*)$/);
  assert.ok(m, t);
  return { at: Number(m[1]), of: Number(m[2]), next: m[3] };
}

/**
 * Clicks the canvas over pixel (x, y) of the 256×256 picture and returns
 * the pixel the page picked (mouse offsets are whole CSS pixels, so the
 * pick may be a neighbour when the canvas is scaled).
 */
async function pick(page, x, y) {
  const canvas = page.getByTestId('preview');
  const [left, top, w, h] = await canvas.evaluate((c) => [c.clientLeft, c.clientTop, c.clientWidth, c.clientHeight]);
  await canvas.click({ position: { x: left + (x + 0.5) * w / 256, y: top + (y + 0.5) * h / 256 } });
  const picked = page.getByTestId('debug-pick').filter({ hasText: /^Pixel \(\d+, \d+\)/ });
  await picked.waitFor({ timeout: 5000 });
  const m = (await picked.textContent()).match(/^Pixel \((\d+), (\d+)\)/);
  const p = [Number(m[1]), Number(m[2])];
  assert.ok(Math.abs(p[0] - x) <= 1 && Math.abs(p[1] - y) <= 1, `picked ${p} for ${x},${y}`);
  return p;
}

async function startDebug(page) {
  await page.getByTestId('debug-start').click();
  await page.getByTestId('debug-position').waitFor({ timeout: 60000 });
  return page.getByTestId('debug-note').textContent();
}

test('debug a corpus pixel to the end: its value equals the GPU read-back; step back; a breakpoint', async () => {
  await withPage(async (page, errors) => {
    // Derivatives over the quad feed this shader's output.
    const file = path.join(CORPUS, 'fxc/dxdecompiler_transparencyaa10_1_transparencyaa10_1_ps.dxbc');
    await openPreview(page, linkFor(file));
    const st = await pageState(page);
    const [x, y] = await pick(page, 37, 201);
    console.log(`pixel ${x},${y}: ${await startDebug(page)}`);
    const start = await position(page);
    assert.equal(start.at, 0);
    assert.ok(start.of > 5, `${start.of} steps`);
    await page.getByTestId('debug-end').click();
    assert.equal((await position(page)).at, start.of);
    await page.getByTestId('debug-compare').waitFor();
    assert.equal(await page.getByTestId('debug-compare').getAttribute('data-same'), 'true',
      await page.getByTestId('debug-compare').textContent());
    // The register view's o0 against the page's GPU read-back and the native renderer's, word by word.
    const o0 = await rowHex(page, 'o0');
    const texel = (buf) => [0, 1, 2, 3].map((c) => buf.readUInt32LE((y * 256 + x) * 16 + 4 * c));
    const ri = st.plan.readbacks.findIndex((r) => r.type === 'target');
    const gpu = texel(st.readbacks[ri]);
    const native = texel(nativeReference(linkFor(file)).readbacks[ri]);
    const f = (w) => new Float32Array(new Uint32Array([w]).buffer)[0];
    for (let c = 0; c < 4; c++) {
      for (const [who, want] of [['page GPU', gpu[c]], ['native', native[c]]]) {
        const d = Math.abs(f(o0[c]) - f(want));
        assert.ok(d <= st.plan.tolerance.relative * Math.max(1, Math.abs(f(want))) || d <= 1e-6 * Math.max(1, Math.abs(f(want))),
          `o0.${'xyzw'[c]}: interpreter ${f(o0[c])} vs ${who} ${f(want)}`);
      }
    }
    assert.ok(o0.some((w) => w !== 0), 'o0 is not all zero');
    // Step back: one step earlier, and the listing's selection follows.
    await page.getByTestId('debug-back').click();
    const back = await position(page);
    assert.equal(back.at, start.of - 1);
    await page.getByTestId('debug-forward').click();
    assert.equal((await position(page)).at, start.of);
    // A breakpoint on the first `deriv_rtx` line: running from the start stops before it.
    await page.getByTestId('debug-radix').selectOption('float');
    const line = page.locator('[data-testid=disassembly] .line', { hasText: /^deriv_rt[xy]/ }).first();
    await line.click();
    await page.getByTestId('debug-break-here').click();
    const bp = (await page.getByTestId('debug-breakpoint').textContent()).match(/0x[0-9a-f]+/)[0];
    for (let i = 0; i < start.of && (await position(page)).at > 0; i++) await page.getByTestId('debug-back').click();
    assert.equal((await position(page)).at, 0);
    await page.getByTestId('debug-continue').click();
    const hit = await position(page);
    assert.equal(hit.next, bp);
    assert.ok(hit.at > 0 && hit.at < start.of);
    assert.match(await page.locator('[data-testid=disassembly] .line.sel').textContent(), /^deriv_rt[xy]/);
    // A debug link restores the pixel and the step.
    const link = await currentLink(page);
    await page.goto('about:blank');
    await page.goto(APP_URL + link);
    await page.getByTestId('debug-position').waitFor({ timeout: 60000 });
    await page.getByTestId('debug-position').filter({ hasText: `step ${hit.at} of ${start.of}` }).waitFor({ timeout: 10000 });
    assert.equal((await position(page)).next, bp);
    assert.match(await page.getByTestId('debug-pick').textContent(), new RegExp(`^Pixel \\(${x}, ${y}\\)`));
    assert.deepEqual(errors, []);
  });
});

test('debug a compute thread that uses groupshared memory', async () => {
  await withPage(async (page, errors) => {
    const file = path.join(CORPUS, 'fxc/slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc');
    await openPreview(page, linkFor(file));
    await page.getByTestId('debug-thread').fill('0,0,0:1,0,0');
    await page.getByTestId('debug-thread').dispatchEvent('change');
    const note = await startDebug(page);
    assert.match(note, /^thread 0,0,0:1,0,0: \d+ steps/);
    await page.getByTestId('debug-end').click();
    const end = await position(page);
    assert.ok(end.of > 20, `${end.of} steps`);
    assert.equal(await page.getByTestId('debug-error').count(), 0);
    // The group runs together: this thread's record holds a read of groupshared memory after a barrier.
    const text = await page.getByTestId('disassembly').textContent();
    assert.match(text, /sync_g_t/);
    assert.ok(await page.locator('[data-testid=debug-registers] tr[data-reg="r0"]').count() === 1);
    assert.deepEqual(errors, []);
  });
});

test('replaying one thread of the 158 KB corpus shader (figure)', async () => {
  await withPage(async (page) => {
    const file = path.join(CORPUS, 'fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc');
    await openPreview(page, linkFor(file));
    const note = await startDebug(page);
    const m = note.match(/(\d+) steps, run and recorded in (\d+) ms/);
    assert.ok(m, note);
    console.log(`158 KB shader, thread 0,0,0:0,0,0: ${m[1]} steps in ${m[2]} ms`);
  });
});
