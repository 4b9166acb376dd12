// The debugger's page features beyond one pixel: compare mode computed on
// the CPU interpreter in the page (no CLI reference), checked against the
// native renderer's reference for the same link; a vertex of a mesh
// debugged and its outputs checked against `dxbc run --vertex`; breakpoints
// toggled in the listing's gutter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withPage as launch, currentLink, CORPUS } from './chromium.mjs';
import {
  DXBC, compareReadbacks, linkFor, nativeReference, openPreview, pageState, parseReference, run,
} from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });

async function position(page) {
  const t = await page.getByTestId('debug-position').textContent();
  const m = t.match(/^step (\d+) of (\d+), next: (.*)$/);
  assert.ok(m, t);
  return { at: Number(m[1]), of: Number(m[2]), next: m[3] };
}

async function startDebug(page) {
  await page.getByTestId('debug-start').click();
  await page.getByTestId('debug-position').waitFor({ timeout: 60000 });
  return page.getByTestId('debug-note').textContent();
}

/** Presses "Compare with the CPU interpreter" and reads the read-out and the reference file it made. */
async function compareOnCpu(page) {
  await page.evaluate(() => { delete globalThis.__dxbcPreview.cpuReference; });
  await page.getByTestId('preview-compare-cpu').click();
  const cmp = page.getByTestId('preview-compare');
  await cmp.waitFor({ timeout: 120000 });
  const outcome = await cmp.getAttribute('data-outcome');
  const headline = await page.getByTestId('preview-compare-headline').textContent();
  const verdicts = await page.getByTestId('preview-compare-row').evaluateAll((rs) => rs.map((r) => r.dataset.verdict));
  const file = await page.evaluate(() => Array.from(globalThis.__dxbcPreview.cpuReference));
  return { outcome, headline, verdicts, reference: parseReference(Buffer.from(file)) };
}

test('compare mode on the CPU interpreter, with no CLI reference: a pixel shader and a groupshared compute shader', async () => {
  await withPage(async (page, errors) => {
    for (const rel of ['fxc/directxtk12_basiceffect_psbasictxnofog.dxbc', 'fxc/slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc']) {
      await openPreview(page, linkFor(path.join(CORPUS, rel)));
      const st = await pageState(page);
      const t0 = Date.now();
      const got = await compareOnCpu(page);
      console.log(`${rel}: CPU reference computed and compared in ${Date.now() - t0} ms`);
      // The page's GPU read-backs against the interpreter's, row by row.
      assert.equal(got.outcome, 'matches', `${rel}: ${got.verdicts}`);
      assert.ok(got.headline.startsWith('✓ Matches the CPU interpreter (dxbc-interp) within the tolerance'), got.headline);
      assert.equal(got.verdicts.length, st.plan.readbacks.length);
      assert.ok(got.verdicts.every((v) => v === 'identical' || v === 'within'), `${rel}: ${got.verdicts}`);
      assert.equal(got.reference.adapter, 'dxbc-interp, the CPU interpreter');
      // Outside truth: the native renderer's reference for the same link,
      // made for the same inputs (same fingerprint), agrees with the
      // interpreter's read-backs within the plan's tolerance.
      const native = nativeReference(await currentLink(page));
      assert.equal(got.reference.fingerprint, native.fingerprint, rel);
      compareReadbacks(st.plan, got.reference.readbacks, native.readbacks);
      assert.ok(got.reference.readbacks.some((b) => b.some((x) => x !== 0)), `${rel}: all zero`);
    }
    // A stage the interpreter does not draw is refused, in words.
    await openPreview(page, linkFor(path.join(CORPUS, 'fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc')));
    await page.getByTestId('preview-compare-cpu').click();
    const note = page.getByTestId('preview-compare-note');
    await note.waitFor({ timeout: 60000 });
    assert.match(await note.textContent(), /^No CPU reference: the interpreter does not rasterise a vertex shader's mesh/);
    assert.equal(await page.getByTestId('preview-compare').count(), 0);
    assert.deepEqual(errors, []);
  });
});

test('debug a vertex of the mesh: its outputs are what dxbc run --vertex prints', async () => {
  await withPage(async (page, errors) => {
    const file = path.join(CORPUS, 'fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc');
    await openPreview(page, linkFor(file));
    await page.getByTestId('debug-vertex').fill('5');
    await page.getByTestId('debug-vertex').dispatchEvent('change');
    const note = await startDebug(page);
    assert.match(note, /^vertex 5: \d+ steps/);
    await page.getByTestId('debug-end').click();
    const end = await position(page);
    assert.equal(end.at, end.of);
    await page.getByTestId('debug-radix').selectOption('hex');
    const link = await currentLink(page);
    const cli = run(DXBC, ['run', '--link', link, '--vertex', '5']).toString();
    const finals = [...cli.matchAll(/^; final o(\d+) = \(.*\) \[(.*)\]$/gm)];
    assert.ok(finals.length > 0, cli);
    for (const [, reg, hex] of finals) {
      const cells = await page.locator(`[data-testid=debug-registers] tr[data-reg="o${reg}"] td`).allTextContents();
      assert.deepEqual(cells, hex.split(', '), `o${reg}`);
    }
    assert.ok(finals.some(([, , hex]) => hex.split(', ').some((h) => h !== '0x00000000')), 'outputs all zero');
    assert.deepEqual(errors, []);
  });
});

test('breakpoints toggled in the listing gutter: run stops at each in turn', async () => {
  await withPage(async (page, errors) => {
    const file = path.join(CORPUS, 'fxc/dxdecompiler_transparencyaa10_1_transparencyaa10_1_ps.dxbc');
    await openPreview(page, linkFor(file));
    const canvas = page.getByTestId('preview');
    const [left, top, w, h] = await canvas.evaluate((c) => [c.clientLeft, c.clientTop, c.clientWidth, c.clientHeight]);
    await canvas.click({ position: { x: left + 100.5 * w / 256, y: top + 60.5 * h / 256 } });
    await startDebug(page);
    const start = await position(page);
    const lines = page.locator('[data-testid=disassembly] .line');
    const deriv = lines.filter({ hasText: /^deriv_rtx/ }).first();
    const sample = lines.filter({ hasText: /^sample r4\./ }).first();
    await deriv.getByTestId('gutter').click();
    await sample.getByTestId('gutter').click();
    assert.equal(await page.locator('[data-testid=disassembly] .line.bp').count(), 2);
    const shown = (await page.getByTestId('debug-breakpoint').textContent()).match(/^breakpoints at (0x[0-9a-f]+), (0x[0-9a-f]+)$/);
    assert.ok(shown, await page.getByTestId('debug-breakpoint').textContent());
    // Straight-line code: each breaks once, in listing order, then the run ends.
    await page.getByTestId('debug-continue').click();
    const first = await position(page);
    assert.equal(first.next, shown[1]);
    assert.match(await page.locator('[data-testid=disassembly] .line.sel').textContent(), /^deriv_rtx/);
    await page.getByTestId('debug-continue').click();
    const second = await position(page);
    assert.equal(second.next, shown[2]);
    assert.ok(second.at > first.at);
    assert.match(await page.locator('[data-testid=disassembly] .line.sel').textContent(), /^sample r4\./);
    await page.getByTestId('debug-continue').click();
    assert.equal((await position(page)).at, start.of);
    // The gutter again removes one.
    await deriv.getByTestId('gutter').click();
    assert.equal(await page.locator('[data-testid=disassembly] .line.bp').count(), 1);
    assert.equal(await page.getByTestId('debug-breakpoint').textContent(), `breakpoint at ${shown[2]}`);
    assert.deepEqual(errors, []);
  });
});

test('the register view shows the groupshared and UAV words the last instruction stored', async () => {
  await withPage(async (page, errors) => {
    const file = path.join(CORPUS, 'fxc/slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc');
    await openPreview(page, linkFor(file));
    await startDebug(page);
    const { of } = await position(page);
    // Every stored word the page shows, step by step, is one `dxbc run` prints under that step.
    const cli = run(DXBC, ['run', file, '--thread', '0,0,0:0,0,0']).toString();
    const printed = [...cli.matchAll(/^ {8}([ug]\d+ word .*)$/gm)].map((m) => m[1]);
    const shown = [];
    for (let i = 0; i < of; i++) {
      await page.getByTestId('debug-forward').click();
      await page.getByTestId('debug-position').filter({ hasText: `step ${i + 1} of` }).waitFor();
      shown.push(...await page.getByTestId('debug-store').allTextContents());
    }
    assert.deepEqual(shown, printed);
    assert.equal(printed.filter((p) => p.startsWith('g0 word 0 = ')).length, 7);
    assert.equal(printed.filter((p) => p.startsWith('u0 word 0 = ')).length, 1);
    assert.deepEqual(errors, []);
  });
});
