// Interfaces (SM5 class linkage) in the live preview: each fcall is a
// switch over the function table the class-instance uniform selects, and
// the plan binds that uniform with the translator's IFCE defaults
// (dxbc_naga::default_class_instances). Checked against the native
// reference renderer (shader-runner preview: the same plan on
// wgpu/lavapipe), with the plan's tolerance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withPage as launch, CORPUS } from './chromium.mjs';
import { linkFor, nativeReference, openPreview, pageState, compareReadbacks } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });

// [file, stage, interface slots]
const SHADERS = [
  ['fxc/slimshader_ps5_interface_arrays.dxbc', 'Pixel', 6],
  ['fxc/slimshader_dynamicshaderlinkage11_dynamicshaderlinkage11_ps.dxbc', 'Pixel', 4],
];

test('shaders with interfaces preview as the native renderer draws them', async () => {
  await withPage(async (page, errors) => {
    for (const [rel, stage, slots] of SHADERS) {
      const f = path.join(CORPUS, rel);
      await openPreview(page, linkFor(f)).catch(async (e) => {
        throw new Error(`${rel}: ${e.message}; status: ${await page.getByTestId('preview-status').textContent().catch(() => '?')}`);
      });
      const st = await pageState(page);
      assert.equal(st.plan.stage, stage, rel);
      const ci = st.plan.entries.filter((e) => e.name === 'class instances');
      assert.equal(ci.length, 1, `${rel}: one class-instance binding`);
      assert.deepEqual([ci[0].resource.type, ci[0].resource.kind], ['buffer', 'uniform'], rel);
      // The translated module declares two rows per slot.
      assert.ok(st.plan.modules.some((m) => m.translated && m.code.includes(`class_instances: array<vec4<u32>, ${slots * 2}>`)), rel);
      const ref = nativeReference(f);
      const { maxUlps, nonZero, edgePixels } = compareReadbacks(st.plan, st.readbacks, ref.readbacks);
      assert.ok(nonZero.some((n) => n > 0), `${rel}: every read-back is zero`);
      console.log(`${path.basename(rel)}: max ${maxUlps} ulps, ${edgePixels} edge pixels`);
    }
    assert.deepEqual(errors, []);
  });
});
