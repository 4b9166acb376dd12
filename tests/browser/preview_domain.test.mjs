// Lone domain shaders in the live preview: one patch of built-in control
// points, every tessellation factor preview_model::plan::DOMAIN_TESS_FACTOR
// with fractional_odd partitioning, the tessellator (compute), and an
// indexed indirect draw with the domain shader as the vertex stage. Each is
// checked against the native reference renderer (shader-runner preview:
// the same plan on wgpu/lavapipe), with the plan's tolerance.
//
// The corpus shader interpolates its four control points bilinearly, so
// its picture is the plane's square whatever the tessellation; the
// fixture (derived from it) warps the square by a sine of the domain
// location, so its outline follows the tessellated points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPage as launch, CORPUS, scratchDir } from './chromium.mjs';
import { DXBC, run, linkFor, nativeReference, openPreview, pageState, compareReadbacks } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

function assembled(listing) {
  const out = path.join(scratchDir('ds-'), listing.replace(/\.asm$/, '.dxbc'));
  fs.writeFileSync(out, run(DXBC, ['asm', path.join(FIXTURES, listing)]));
  return out;
}

// [file, what it shows]
const SHADERS = [
  [() => path.join(CORPUS, 'fxc/dxdecompiler_apps_tesselation_ds.dxbc'), 'a bilinear quad patch'],
  [() => assembled('ds_quad_warp.asm'), 'a quad patch warped by its domain location'],
];

for (const [file, what] of SHADERS) {
  test(`domain preview (${what}) equals the native renderer`, async () => {
    await withPage(async (page, errors) => {
      const f = file();
      await openPreview(page, linkFor(f)).catch(async (e) => {
        throw new Error(`${f}: ${e.message}; status: ${await page.getByTestId('preview-status').textContent().catch(() => '?')}`);
      });
      const st = await pageState(page);
      assert.equal(st.plan.stage, 'Domain');
      assert.deepEqual(st.plan.passes.compute.map((c) => `${c.label}:${c.entry}`), [
        'tessellator:count', 'tessellator:scan', 'tessellator:generate', 'draw arguments:main',
      ]);
      assert.equal(st.plan.draw.topology, 'triangle-list');
      assert.ok(st.plan.modules[st.plan.draw.vertex_module].translated, 'the domain shader is the draw\'s vertex stage');
      assert.match(await page.getByTestId('preview-ds-note').textContent(), /tessellator/);
      const ref = nativeReference(f);
      const { maxUlps, nonZero, edgePixels } = compareReadbacks(st.plan, st.readbacks, ref.readbacks);
      // Something is drawn: a blank picture would compare equal vacuously.
      assert.ok(nonZero[0] > 0, `${f}: the picture is empty`);
      console.log(`${path.basename(f)}: ${nonZero[0]} non-zero words, max ${maxUlps} ulps, ${edgePixels} edge pixels`);
      assert.deepEqual(errors, []);
    });
  });
}
