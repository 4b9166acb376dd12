// Hull shaders in the live preview: one patch through a built-in
// pass-through vertex shader, the control-point and patch-constant passes,
// the tessellator (compute), and an indexed indirect draw of the domain
// points with a built-in domain shader. Each is checked against the native
// reference renderer (shader-runner preview: the same plan on
// wgpu/lavapipe), with the plan's tolerance.
//
// No corpus hull shader tessellates a quad with fractional_odd
// partitioning or writes non-zero isoline factors, so both shaders are
// listings in fixtures/ (derived from corpus hull shaders), assembled by
// the dxbc CLI here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPage as launch, scratchDir } from './chromium.mjs';
import { DXBC, run, linkFor, nativeReference, openPreview, pageState, compareReadbacks } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

function assembled(listing) {
  const out = path.join(scratchDir('hs-'), listing.replace(/\.asm$/, '.dxbc'));
  fs.writeFileSync(out, run(DXBC, ['asm', path.join(FIXTURES, listing)]));
  return out;
}

// [listing, what it shows, the draw's topology]
const SHADERS = [
  ['hs_quad_fractional_odd.asm', 'a quad patch, fractional_odd', 'triangle-list'],
  ['hs_isoline_fractional_odd.asm', 'an isoline patch', 'line-list'],
];

for (const [listing, what, topology] of SHADERS) {
  test(`hull preview (${what}) equals the native renderer: ${listing}`, async () => {
    await withPage(async (page, errors) => {
      const file = assembled(listing);
      await openPreview(page, linkFor(file)).catch(async (e) => {
        throw new Error(`${listing}: ${e.message}; status: ${await page.getByTestId('preview-status').textContent().catch(() => '?')}`);
      });
      const st = await pageState(page);
      assert.equal(st.plan.stage, 'Hull');
      assert.deepEqual(st.plan.passes.compute.map((c) => `${c.label}:${c.entry}`), [
        'vertex:main', 'hull control points:main', 'hull patch constants:main',
        'tessellator:count', 'tessellator:scan', 'tessellator:generate', 'draw arguments:main',
      ]);
      assert.equal(st.plan.draw.topology, topology);
      assert.match(await page.getByTestId('preview-hs-note').textContent(), /tessellator/);
      const ref = nativeReference(file);
      const { maxUlps, nonZero, edgePixels } = compareReadbacks(st.plan, st.readbacks, ref.readbacks);
      // Something is drawn: a blank picture would compare equal vacuously.
      assert.ok(nonZero[0] > 0, `${listing}: the picture is empty`);
      console.log(`${listing}: ${nonZero[0]} non-zero words, max ${maxUlps} ulps, ${edgePixels} edge pixels`);
      assert.deepEqual(errors, []);
    });
  });
}
