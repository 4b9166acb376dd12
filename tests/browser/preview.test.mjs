// The live preview in headless Chromium with WebGPU on SwiftShader, checked
// against the native reference renderer (shader-runner preview: wgpu on
// lavapipe) for the same plan and inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { withPage as launch, currentLink, APP_URL, CORPUS, scratchDir } from './chromium.mjs';
import { run, linkFor, nativeReference, openPreview, pageState, compareReadbacks, RUNNER } from './preview_helpers.mjs';

const SHOTS = process.env.SCREENSHOT_DIR;

/** The preview's tests run with WebGPU unless told otherwise. */
const withPage = (fn, { webgpu = true } = {}) => launch(fn, { webgpu });


// Shaders whose preview must equal the native renderer's: pixel shaders
// (textures of every shape, multisampled colour and depth inputs,
// constants, several and integer targets),
// vertex shaders (meshes, matrices, a vertex-id-only triangle) and compute
// shaders (storage textures, buffers, groupshared memory, atomics). Every
// one computes the same result whatever the order threads run in (a shader
// whose threads race for one texel, like vkd3d's uav-out-param/005 with
// many groups, gives a different value on every run, natively too).
const SHADERS = [
  ['ps', 'fxc/directxtk12_basiceffect_psbasictxnofog.dxbc'],
  ['ps', 'fxc/directxtk_skinnedeffect_psskinnedvertexlightingnofog.dxbc'],
  ['ps', 'fxc/angle930_clearfloat11ps.dxbc'],
  ['ps', 'fxc/angle_passthroughr2dui11ps.dxbc'],
  ['ps', 'fxc/angle_passthroughrgba3d11ps.dxbc'],
  ['ps', 'fxc/slimshader_ps5_sample.dxbc'],
  ['ps', 'fxc/dxdecompiler_simplebezier11_simplebezier11_ps.dxbc'],
  ['ps', 'fxc/slimshader_cubemapgs_gs_cubemap_ps.dxbc'],
  ['ps', 'vkd3d/texture-load/011_ps_5_0.dxbc'],
  ['ps', 'fxc/hbaoplus_copydepth_ps_resolve_depth_1_depth_layer_count_2_d3d11.dxbc'],
  ['vs', 'fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc'],
  ['vs', 'fxc/dxdecompiler_generic_wavy_vs.dxbc'],
  ['vs', 'fxc/hbaoplus_fullscreentriangle_vs.dxbc'],
  // Stripped (no RDEF): raw registers, defaults read off the program.
  ['vs', 'fxc/directxtk12_basiceffect_vsbasicpixellightingtx.dxbc'],
  ['cs', 'vkd3d/tgsm/010_cs_5_0.dxbc'],
  ['cs', 'vkd3d/tgsm/026_cs_5_0.dxbc'],
  ['cs', 'vkd3d/tgsm/013_cs_5_0.dxbc'],
  ['cs', 'vkd3d/numthreads/038_cs_5_0.dxbc'],
  ['cs', 'vkd3d/compute/002_cs_5_0.dxbc'],
  ['cs', 'vkd3d/uav-out-param/002_cs_5_0.dxbc'],
];

test('preview read-backs equal the native renderer for corpus PS, VS and CS', async () => {
  await withPage(async (page, errors) => {
    const figures = [];
    for (const [stage, rel] of SHADERS) {
      const file = path.join(CORPUS, rel);
      await openPreview(page, linkFor(file)).catch(async (e) => {
        throw new Error(`${rel}: ${e.message}; status: ${await page.getByTestId('preview-status').textContent().catch(() => '?')}`);
      });
      const st = await pageState(page);
      assert.equal(st.plan.stage, { ps: 'Pixel', vs: 'Vertex', cs: 'Compute' }[stage], rel);
      // Translation ran off the main thread.
      assert.equal(await page.evaluate(() => globalThis.__dxbcPreview.translatedIn), 'worker', rel);
      const ref = nativeReference(file);
      let figs;
      try {
        figs = compareReadbacks(st.plan, st.readbacks, ref.readbacks);
      } catch (e) {
        throw new Error(`${rel}: ${e.message}`);
      }
      const { maxUlps, nonZero, edgePixels } = figs;
      // Every shader of the set produces something: a blank output would compare equal vacuously.
      assert.ok(nonZero.some((n) => n > 0), `${rel}: every read-back is zero`);
      figures.push(`${rel}: ${st.readbacks.length} read-backs, ${st.readbacks.reduce((n, b) => n + b.length / 4, 0)} words, max ${maxUlps} ulps, ${edgePixels} edge pixels, tolerance ${JSON.stringify(st.plan.tolerance)}`);
      if (SHOTS) await page.getByTestId('preview-pane').screenshot({ path: path.join(SHOTS, `preview-${path.basename(rel, '.dxbc')}.png`) });
    }
    console.log(figures.join('\n'));
    assert.deepEqual(errors, []);
  });
});

test('a control re-renders, the link carries its value, and the native renderer agrees', async () => {
  await withPage(async (page) => {
    const file = path.join(CORPUS, 'fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc');
    await openPreview(page, linkFor(file));
    const before = await pageState(page);
    // Rotate the world: m_mWorldViewProjection[0][0] scaled down.
    const cell = page.getByTestId('control-cbAllShadowData/m_mWorldViewProjection-0');
    await cell.fill('0.5');
    await page.waitForFunction((n) => globalThis.__dxbcPreview.frames > n && globalThis.__dxbcPreview.readbackOf === globalThis.__dxbcPreview.frames, before.frames);
    const after = await pageState(page);
    assert.notDeepEqual(after.readbacks[0], before.readbacks[0], 'the picture did not change');
    const link = await currentLink(page);
    const ref = nativeReference(link);
    compareReadbacks(after.plan, after.readbacks, ref.readbacks);
    // The link reopens with the same value.
    await openPreview(page, link);
    assert.equal(await page.getByTestId('control-cbAllShadowData/m_mWorldViewProjection-0').inputValue(), '0.5');
  });
});

test('a lost GPU device is opened again: the next change renders on a new one', async () => {
  await withPage(async (page, errors) => {
    // The devices the page opens, kept so the test can lose one (a driver
    // reset or a GPU process restart looks the same to the page).
    await page.addInitScript(() => {
      globalThis.__devices = [];
      // Not on about:blank, which has no WebGPU.
      if (!globalThis.GPUAdapter) return;
      const open = GPUAdapter.prototype.requestDevice;
      GPUAdapter.prototype.requestDevice = async function (...a) {
        const d = await open.apply(this, a);
        globalThis.__devices.push(d);
        return d;
      };
    });
    const file = path.join(CORPUS, 'fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc');
    await openPreview(page, linkFor(file));
    assert.equal(await page.evaluate(() => globalThis.__devices.length), 1);
    await page.evaluate(async () => {
      const d = globalThis.__devices[0];
      d.destroy();
      await d.lost;
    });
    const before = await pageState(page);
    await page.getByTestId('control-cbAllShadowData/m_mWorldViewProjection-0').fill('0.5');
    await page.waitForFunction((n) => globalThis.__dxbcPreview.frames > n && globalThis.__dxbcPreview.readbackOf === globalThis.__dxbcPreview.frames, before.frames, { timeout: 30000 });
    assert.equal(await page.evaluate(() => globalThis.__devices.length), 2, 'a second device');
    assert.match(await page.getByTestId('preview-status').textContent(), /^✓ Running on /);
    const after = await pageState(page);
    compareReadbacks(after.plan, after.readbacks, nativeReference(await currentLink(page)).readbacks);
    assert.deepEqual(errors, []);
  });
});

test('hovering reads the exact texel, and compare mode loads the native reference', async () => {
  await withPage(async (page) => {
    const file = path.join(CORPUS, 'fxc/directxtk12_basiceffect_psbasictxnofog.dxbc');
    await openPreview(page, linkFor(file));
    const st = await pageState(page);
    // The link first: making it presses "Copy link", which moves the pointer.
    const pageLink = await currentLink(page);
    const canvas = page.getByTestId('preview');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const inner = await canvas.evaluate((c) => ({ l: c.clientLeft, t: c.clientTop, w: c.clientWidth, h: c.clientHeight }));
    // Texel (100, 40) of the 256 × 256 target (the canvas is shown larger, inside a border).
    await page.mouse.move(box.x + inner.l + (100.5 / 256) * inner.w, box.y + inner.t + (40.5 / 256) * inner.h);
    const text = await page.getByTestId('preview-pixel').textContent();
    const at = (40 * 256 + 100) * 16;
    const words = [0, 1, 2, 3].map((i) => st.readbacks[0].readFloatLE(at + 4 * i));
    const shown = text.match(/\(([^)]*)\): \((.*)\)/);
    assert.equal(shown[1], '100, 40');
    shown[2].split(', ').map(Number).forEach((v, i) => assert.equal(Math.fround(v), words[i], text));
    // Compare mode: the reference for this link, as a user would make it.
    const refPath = path.join(scratchDir('ref-'), 'ref.dxpr');
    run(RUNNER, ['preview', pageLink, '--out', refPath]);
    await page.getByTestId('preview-reference-input').setInputFiles(refPath);
    const cmp = page.getByTestId('preview-compare');
    await cmp.waitFor();
    assert.match(await cmp.textContent(), /Matches the native renderer/);
    assert.match(await page.getByTestId('preview-pixel-native').textContent(), /^native: \(/);
    if (SHOTS) await page.getByTestId('preview-pane').screenshot({ path: path.join(SHOTS, 'preview-compare.png') });
    // The reference stands for these inputs only: another texture pattern
    // hides the read-out, and the original pattern brings it back.
    const tex = page.getByTestId('preview-texture-t0');
    const pattern = await tex.inputValue();
    const otherPattern = await tex.locator('option').evaluateAll((os, cur) => os.map((o) => o.value).find((v) => v && v !== cur), pattern);
    await tex.selectOption(otherPattern);
    await cmp.waitFor({ state: 'detached' });
    await tex.selectOption(pattern);
    await cmp.waitFor();
    assert.match(await cmp.textContent(), /Matches the native renderer/);
    // Compute: the picture is the storage texture; hovering reads its texel.
    await openPreview(page, linkFor(path.join(CORPUS, 'vkd3d/numthreads/038_cs_5_0.dxbc')));
    const cs = await pageState(page);
    await canvas.scrollIntoViewIfNeeded();
    const cbox = await canvas.boundingBox();
    const cin = await canvas.evaluate((c) => ({ l: c.clientLeft, t: c.clientTop, w: c.clientWidth, h: c.clientHeight, cw: c.width }));
    assert.equal(cin.cw, 64, 'the canvas takes the storage texture size');
    await page.mouse.move(cbox.x + cin.l + (5.5 / 64) * cin.w, cbox.y + cin.t + (3.5 / 64) * cin.h);
    const want = cs.readbacks[0].readFloatLE((3 * 64 + 5) * 4);
    const got = (await page.getByTestId('preview-pixel').textContent()).match(/^u0 texel \(5, 3\): (.*)$/);
    assert.ok(got, await page.getByTestId('preview-pixel').textContent());
    assert.equal(Math.fround(Number(got[1])), want);
    // Back to the pixel shader for the rest.
    await openPreview(page, linkFor(file));
    // A reference made for other inputs is refused, not compared.
    const other = path.join(path.dirname(refPath), 'other.dxpr');
    run(RUNNER, ['preview', path.join(CORPUS, 'fxc/slimshader_ps5_sample.dxbc'), '--out', other]);
    await page.getByTestId('preview-reference-input').setInputFiles(other);
    assert.match(await page.getByTestId('preview-compare-note').textContent(), /computed for other inputs/);
  });
});

test('stages without a preview, untranslatable shaders and missing WebGPU say so', async () => {
  await withPage(async (page, errors) => {
    // Every stage previews now; a geometry shader of primitives with
    // adjacency has no example mesh to run on.
    await page.goto(APP_URL + linkFor(path.join(CORPUS, 'fxc/xenia_primitive_quad_list_gs.dxbc')));
    await assert.doesNotReject(page.getByTestId('preview-status').filter({ hasText: 'Not previewable' }).waitFor({ timeout: 20000 }));
    assert.match(await page.getByTestId('preview-status').textContent(), /4-vertex input primitives \(with adjacency\): the example meshes have no adjacency/);
    // A shader the translator refuses: the message, and a button that selects its bytes.
    await page.goto('about:blank');
    await page.goto(APP_URL + linkFor(path.join(CORPUS, 'fxc/angle_passthroughrg2darray11ps.dxbc')));
    await page.getByTestId('preview-status').filter({ hasText: 'Not translated' }).waitFor({ timeout: 20000 });
    await page.getByTestId('preview-offset').click();
    assert.match(await page.getByTestId('status').textContent(), /./);
    assert.deepEqual(errors, []);
  });
  await withPage(async (page) => {
    const file = path.join(CORPUS, 'fxc/directxtk12_basiceffect_psbasictxnofog.dxbc');
    const link = linkFor(file);
    await page.goto(APP_URL + link);
    await page.getByTestId('preview-status').filter({ hasText: 'WebGPU unavailable' }).waitFor({ timeout: 20000 });
    // Everything else keeps working.
    assert.match(await page.getByTestId("disassembly").textContent(), /sample r0\.xyzw, v1\.xyxx, T0\[0\]/);
    // The picture, drawn on the CPU interpreter instead, is the native
    // renderer's colour target as the display pass shows it: red, green and
    // blue clamped to [0, 1] and rounded to 8 bits, alpha opaque.
    await page.getByTestId('preview-cpu-draw').click();
    await page.getByTestId('preview-cpu-drawn').waitFor({ timeout: 60000 });
    assert.equal(await page.getByTestId('preview-cpu-drawn').getAttribute('data-stale'), 'false');
    const { width, height, pixels } = await page.evaluate(() => {
      const c = document.querySelector('[data-testid=preview]');
      return { width: c.width, height: c.height, pixels: [...c.getContext('2d').getImageData(0, 0, c.width, c.height).data] };
    });
    const target = nativeReference(link).readbacks[0];
    assert.equal(target.length, width * height * 16);
    const unorm8 = (x) => (Number.isNaN(x) ? 0 : Math.round(Math.min(Math.max(x, 0), 1) * 255));
    // The one allowance, applied before the equality: the interpreter's
    // float may be one ulp from the GPU's (the plan's tolerance allows
    // more), which flips the 8-bit rounding of a value on a half level.
    const bits = new Uint32Array(1), f32 = new Float32Array(bits.buffer);
    const step = (x, d) => { f32[0] = x; bits[0] += x >= 0 ? d : -d; return f32[0]; };
    let flipped = 0, lit = 0;
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 3; c++) {
        const x = target.readFloatLE(16 * i + 4 * c);
        const got = pixels[4 * i + c];
        if (got === unorm8(x)) continue;
        assert.ok(got === unorm8(step(x, 1)) || got === unorm8(step(x, -1)), `pixel (${i % width}, ${Math.floor(i / width)}) channel ${c}: ${got}, the native renderer's ${x}`);
        flipped++;
      }
      assert.equal(pixels[4 * i + 3], 255);
      if (pixels[4 * i] + pixels[4 * i + 1] + pixels[4 * i + 2] > 0) lit++;
    }
    console.log(`CPU picture ${width}×${height}: every channel as the native renderer's; ${flipped} on a half level rounded the other way (one ulp apart)`);
    // The figure the closing note reports: 36 of 196,608 channels.
    assert.ok(flipped <= 36, `${flipped} channels rounded the other way`);
    assert.ok(lit > (width * height) / 10, `only ${lit} pixels are not black`);
    // New inputs: the drawing says it is out of date.
    const pattern = page.getByTestId('preview-texture-t0');
    const other = await pattern.evaluate((sel) => [...sel.options].find((o) => !o.selected).value);
    await pattern.selectOption(other);
    await page.locator('[data-testid=preview-cpu-drawn][data-stale=true]').waitFor({ timeout: 5000 });
    if (SHOTS) await page.getByTestId('preview-pane').screenshot({ path: path.join(SHOTS, 'preview-no-webgpu.png') });
    // A compute shader that writes a buffer: run on the CPU, its table holds
    // the native renderer's words.
    const cs = path.join(CORPUS, 'vkd3d/tgsm/026_cs_5_0.dxbc');
    const csLink = linkFor(cs);
    await page.goto('about:blank');
    await page.goto(APP_URL + csLink);
    await page.getByTestId('preview-status').filter({ hasText: 'WebGPU unavailable' }).waitFor({ timeout: 20000 });
    await page.getByTestId('preview-cpu-draw').click();
    await page.getByTestId('preview-buffer').first().waitFor({ timeout: 60000 });
    await page.getByTestId('preview-buffer-source').waitFor();
    const rows = await page.getByTestId('preview-buffer').first().locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const words = nativeReference(csLink).readbacks[0];
    assert.equal(rows.length, Math.min(64, words.length / 4));
    rows.forEach(([i, v], k) => assert.deepEqual([Number(i), Number(v)], [k, words.readUInt32LE(4 * k)], `row ${k}`));
  }, { webgpu: false });
});

/** A width × height PNG of one RGBA colour. */
function png(width, height, rgba) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; ihdr[9] = 6; // 8 bits, RGBA
  const rows = [];
  for (let y = 0; y < height; y++) rows.push(Buffer.from([0, ...Array(width).fill(rgba).flat()]));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

test('a picture the user gives a texture is what the shader samples', async () => {
  await withPage(async (page, errors) => {
    await openPreview(page, linkFor(path.join(CORPUS, 'fxc/directxtk12_basiceffect_psbasictxnofog.dxbc')));
    const before = await pageState(page);
    const file = path.join(scratchDir('img-'), 'red.png');
    fs.writeFileSync(file, png(4, 4, [255, 0, 0, 255]));
    await page.getByTestId('preview-image-t0').setInputFiles(file);
    await page.waitForFunction((n) => {
      const s = globalThis.__dxbcPreview;
      return s.frames > n && s.readbackOf === s.frames && s.plan.entries.some((e) => e.resource.type === 'texture' && e.resource.width === 4);
    }, before.frames, { timeout: 30000 });
    assert.match(await page.getByTestId('preview-texture-t0').textContent(), /your picture \(4×4\)/);
    // Texture × vertex colour with a pure red texture: green and blue are 0 everywhere, red is not.
    const st = await pageState(page);
    const t = st.readbacks[0];
    let red = 0;
    for (let i = 0; i < t.length / 16; i++) {
      assert.equal(t.readFloatLE(i * 16 + 4), 0);
      assert.equal(t.readFloatLE(i * 16 + 8), 0);
      if (t.readFloatLE(i * 16) > 0) red++;
    }
    assert.equal(red, t.length / 16);
    // Choosing a pattern again drops the picture.
    await page.getByTestId('preview-texture-t0').selectOption('checker');
    await page.waitForFunction(() => globalThis.__dxbcPreview.plan.entries.some((e) => e.resource.type === 'texture' && e.resource.width === 256));
    assert.deepEqual(errors, []);
  });
});
