// The live preview's open items (issue 11, item 7): raw constant-buffer
// editors for stripped shaders, the blank-picture warning, the orbit
// camera, an honest compare summary and the thread-group clamp. The CLI
// and the native renderer are the oracles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { withPage as launch, currentLink, CORPUS, APP_URL, scratchDir } from './chromium.mjs';
import { run, linkFor, nativeReference, openPreview, pageState, compareReadbacks, RUNNER, DXBC } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });

/** Waits for a frame after `frames` with its read-backs. */
async function nextFrame(page, frames) {
  await page.waitForFunction((n) => {
    const s = globalThis.__dxbcPreview;
    return s.frames > n && s.readbackOf === s.frames;
  }, frames, { timeout: 30000 });
}

/** True when some pixel of a rgba32float read-back has a finite, non-zero red, green or blue. */
function visible(buf) {
  for (let i = 0; i < buf.length; i += 16) {
    for (let c = 0; c < 3; c++) {
      const f = buf.readFloatLE(i + 4 * c);
      if (Number.isFinite(f) && f !== 0) return true;
    }
  }
  return false;
}

test('a stripped shader gets a float4 editor per declared register and a picture that is not black', async () => {
  await withPage(async (page, errors) => {
    const file = path.join(CORPUS, 'fxc/directxtk12_basiceffect_vsbasicpixellightingtx.dxbc');
    // The CLI's listing: no RDEF chunk, and the declared range.
    assert.doesNotMatch(run(DXBC, ['info', file]).toString(), /RDEF/);
    const decl = run(DXBC, ['disasm', file]).toString().match(/^dcl_constantbuffer CB(\d+)\[\d+:\d+\]\[(\d+)\]/m);
    assert.ok(decl, 'the listing declares a constant buffer');
    const [id, n] = [decl[1], Number(decl[2])];
    await openPreview(page, linkFor(file));
    const box = page.getByTestId(`preview-cbuffer-CB${id}`);
    await box.waitFor();
    assert.match(await box.textContent(), /no reflection: raw float4 registers/);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 4; k++) assert.equal(await page.getByTestId(`control-CB${id}/CB${id}[${i}]-${k}`).count(), 1, `CB${id}[${i}].${k}`);
    }
    assert.equal(await page.getByTestId(`control-CB${id}/CB${id}[${n}]-0`).count(), 0);
    const st = await pageState(page);
    assert.ok(visible(st.readbacks[0]), 'the picture is black');
    assert.equal(await page.getByTestId('preview-warning').count(), 0);
    // The native renderer computes the same picture from the same defaults.
    compareReadbacks(st.plan, st.readbacks, nativeReference(file).readbacks);
    // An edit of a raw register reaches the picture and the link: the one dotted into the position's x.
    const listing = run(DXBC, ['disasm', file]).toString();
    const pos = listing.match(/^dcl_output_siv o(\d+)\.xyzw, position$/m)[1];
    const reg = listing.match(new RegExp(`^dp4 o${pos}\\.x, v0\\.xyzw, CB${id}\\[0\\]\\[(\\d+)\\]`, 'm'))[1];
    await page.getByTestId(`control-CB${id}/CB${id}[${reg}]-0`).fill('0.25');
    await nextFrame(page, st.frames);
    const after = await pageState(page);
    assert.notDeepEqual(after.readbacks[0], st.readbacks[0]);
    compareReadbacks(after.plan, after.readbacks, nativeReference(await currentLink(page)).readbacks);
    assert.deepEqual(errors, []);
  });
});

test('a shader that outputs NaN everywhere says so', async () => {
  await withPage(async (page) => {
    // NaN in red, green and blue, from bits (no arithmetic whose NaN the APIs leave open); assembled by the CLI.
    const dir = scratchDir('nan-');
    const asm = (name, text) => {
      fs.writeFileSync(path.join(dir, `${name}.asm`), text);
      fs.writeFileSync(path.join(dir, `${name}.dxbc`), run(DXBC, ['asm', path.join(dir, `${name}.asm`)]));
      return path.join(dir, `${name}.dxbc`);
    };
    const nan = asm('nan', 'ps_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0x7fc00000, 0x7fc00000, 0x7fc00000, 0x3f800000)\nret\n');
    assert.ok(Number.isNaN(nativeReference(nan).readbacks[0].readFloatLE(0)), 'natively NaN too');
    await openPreview(page, linkFor(nan));
    const warning = page.getByTestId('preview-warning');
    await warning.waitFor();
    assert.equal(await warning.textContent(), 'Every pixel is NaN: nothing to see. Check the inputs this shader reads.');
    // A raw register (no RDEF) times zero is black, and said so.
    const black = asm('black', 'ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmul o0.xyzw, cb0[0].xyzw, l(0, 0, 0, 1.000000)\nret\n');
    await openPreview(page, linkFor(black));
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-warning"]')?.textContent.startsWith('Every pixel is zero'));
    // Without the warning when there is something to see.
    const red = asm('red', 'ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n');
    await openPreview(page, linkFor(red));
    assert.equal(await page.getByTestId('preview-warning').count(), 0);
    const frames = (await pageState(page)).frames;
    for (let k = 0; k < 4; k++) await page.getByTestId(`control-cb0/cb0[0]-${k}`).fill('0');
    await nextFrame(page, frames);
    await page.getByTestId('preview-warning').waitFor();
    await page.getByTestId('control-cb0/cb0[0]-0').fill('2');
    await page.getByTestId('preview-warning').waitFor({ state: 'detached' });
    const st = await pageState(page);
    assert.equal(st.readbacks[0].readFloatLE(0), 2);
  });
});
test('dragging the canvas orbits the mesh and the wheel zooms', async () => {
  await withPage(async (page) => {
    const file = path.join(CORPUS, 'fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc');
    await openPreview(page, linkFor(file));
    const canvas = page.getByTestId('preview');
    const cell = page.getByTestId('control-cbAllShadowData/m_mWorldViewProjection-0');
    const camera0 = await canvas.getAttribute('data-camera');
    assert.equal(camera0, '1.600,1.200,2.800');
    const before = await pageState(page);
    const m0 = await cell.inputValue();
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 15, { steps: 4 });
    await page.mouse.up();
    const camera1 = await canvas.getAttribute('data-camera');
    assert.notEqual(camera1, camera0);
    // Same distance from the target after an orbit.
    const dist = (t) => Math.hypot(...t.split(',').map(Number));
    assert.ok(Math.abs(dist(camera1) - dist(camera0)) < 2e-3, `${camera0} → ${camera1}`);
    await nextFrame(page, before.frames);
    assert.notEqual(await cell.inputValue(), m0, 'the view-projection matrix follows the camera');
    const orbited = await pageState(page);
    assert.notDeepEqual(orbited.readbacks[0], before.readbacks[0], 'the picture did not change');
    // The link carries the orbited matrices: the native renderer agrees.
    compareReadbacks(orbited.plan, orbited.readbacks, nativeReference(await currentLink(page)).readbacks);
    await canvas.scrollIntoViewIfNeeded();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 100);
    await page.waitForFunction((c) => document.querySelector('[data-testid="preview"]').dataset.camera !== c, camera1);
    const camera2 = await canvas.getAttribute('data-camera');
    assert.ok(Math.abs(dist(camera2) - dist(camera1) * 1.1) < 2e-3, `${camera1} → ${camera2}`);
  });
});

test('the compare summary says what its figures say', async () => {
  await withPage(async (page) => {
    for (const rel of ['fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc', 'fxc/directxtk12_basiceffect_psbasictxnofog.dxbc']) {
      const file = path.join(CORPUS, rel);
      await openPreview(page, linkFor(file));
      const st = await pageState(page);
      const refPath = path.join(scratchDir('ref-'), 'ref.dxpr');
      run(RUNNER, ['preview', await currentLink(page), '--out', refPath]);
      await page.getByTestId('preview-reference-input').setInputFiles(refPath);
      const cmp = page.getByTestId('preview-compare');
      await cmp.waitFor();
      const outcome = await cmp.getAttribute('data-outcome');
      const headline = await page.getByTestId('preview-compare-headline').textContent();
      const rows = page.getByTestId('preview-compare-row');
      const verdicts = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.verdict));
      const texts = await rows.allTextContents();
      assert.equal(verdicts.length, st.plan.readbacks.length, rel);
      // The headline follows the rows: "✓ Matches" only when every row is identical or within the tolerance.
      const want = verdicts.every((v) => v === 'identical' || v === 'within') ? 'matches'
        : verdicts.some((v) => v === 'differs' || v === 'size') ? 'differs' : 'matches-but-edges';
      assert.equal(outcome, want, `${rel}: ${verdicts}`);
      assert.equal(headline.startsWith('✓ Matches'), outcome === 'matches', headline);
      // It states the tolerance the plan carries.
      assert.ok(headline.includes(`floats within ${st.plan.tolerance.ulps} ulps`), headline);
      // Each row's word count is the read-back's; a row that reports pixels outside the tolerance never says "all … within".
      texts.forEach((t, i) => {
        const words = st.readbacks[i].length / 4;
        assert.ok(t.includes(`${words} words`) || /pixels outside the tolerance/.test(t), t);
        if (/outside the tolerance/.test(t)) assert.doesNotMatch(t, /all \d+ words/);
      });
      // The page's own check agrees with this test's comparison of the same read-backs.
      compareReadbacks(st.plan, st.readbacks, nativeReference(await currentLink(page)).readbacks);
      assert.notEqual(outcome, 'differs', texts.join('\n'));
    }
  });
});

test('groups larger than the adapter allows say its limits and offer a clamp', async () => {
  await withPage(async (page) => {
    // 8×8×8 = 512 threads a group (fxc's listing); SwiftShader allows 256.
    const file = path.join(CORPUS, 'fxc/nvflow_customlightingcs_hlsl.dxbc');
    assert.match(run(DXBC, ['disasm', file]).toString(), /^dcl_thread_group 8, 8, 8$/m);
    await page.goto('about:blank');
    await page.goto(APP_URL + linkFor(file));
    const status = page.getByTestId('preview-status');
    await page.waitForFunction(() => /cannot run these groups/.test(document.querySelector('[data-testid="preview-status"]')?.textContent ?? ''), null, { timeout: 60000 });
    const limits = await page.evaluate(async () => {
      const a = await navigator.gpu.requestAdapter();
      return [a.limits.maxComputeWorkgroupSizeX, a.limits.maxComputeWorkgroupSizeY, a.limits.maxComputeWorkgroupSizeZ, a.limits.maxComputeInvocationsPerWorkgroup];
    });
    assert.ok(limits[3] < 512, `this adapter runs 512-thread groups (${limits}): the test needs one that does not`);
    const text = await status.textContent();
    assert.ok(text.includes(`at most ${limits[0]}×${limits[1]}×${limits[2]} and ${limits[3]} threads a group`), text);
    const clamp = page.getByTestId('preview-clamp');
    const offer = (await clamp.textContent()).match(/^Clamp to (\d+)×(\d+)×(\d+)$/);
    assert.ok(offer, await clamp.textContent());
    const size = offer.slice(1).map(Number);
    // Within every limit, no larger than the shader's own size.
    size.forEach((n, k) => assert.ok(n >= 1 && n <= limits[k] && n <= 8, `${size}`));
    assert.ok(size[0] * size[1] * size[2] <= limits[3], `${size}`);
    const frames = await page.evaluate(() => globalThis.__dxbcPreview.frames);
    await clamp.click();
    // The clamp is an edit of the container: the preview runs the edited shader, and the link carries it.
    await page.waitForFunction((n) => {
      const s = globalThis.__dxbcPreview;
      return s.frames > n && s.readbackOf === s.frames;
    }, frames, { timeout: 60000 });
    assert.match(await status.textContent(), /Running on/);
    const st = await pageState(page);
    assert.equal(st.plan.stage, 'Compute');
    const native = JSON.parse(run(RUNNER, ['preview', await currentLink(page), '--plan']).toString());
    assert.match(native.modules[0].code, new RegExp(`@workgroup_size\\(${size[0]}u?, ${size[1]}u?, ${size[2]}u?\\)`));
    assert.equal(native.modules[0].code, st.plan.modules[0].code);
  });
});
