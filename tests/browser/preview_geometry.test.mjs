// Geometry shaders in the live preview: a built-in pass-through vertex
// shader as compute over the mesh, the GS as compute per primitive (strips
// made lists, cut), then the draw of its output. Each is checked against
// the native reference renderer (shader-runner preview: the same plan on
// wgpu/lavapipe), with the plan's tolerance.
//
// Both shaders draw coplanar primitives (the fluid quads all lie in one
// plane; the extrusion is 0 by default). With a depth test, which of two
// coplanar primitives wins was decided by the last bits of interpolated
// depth, which SwiftShader and lavapipe round differently (44,682 and
// 7,170 pixels apart); the GS draw now has no depth test, so D3D's
// primitive order, which the geometry pass keeps, decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withPage as launch, CORPUS } from './chromium.mjs';
import { linkFor, nativeReference, openPreview, pageState, compareReadbacks } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });

// [file, what it shows]
const SHADERS = [
  // Points to quads: one 4-vertex strip per point, then cut.
  ['fxc/dxdecompiler_fluidcs11_fluidrender_gs.dxbc', 'points expanded to quads'],
  // Triangles in, three 3-vertex strips each separated by cut (an extruded prism).
  ['fxc/dxdecompiler_apps_extrude_gs.dxbc', 'triangle strips with cut'],
];

for (const [rel, what] of SHADERS) {
  test(`geometry preview (${what}) equals the native renderer: ${rel}`, async () => {
    await withPage(async (page, errors) => {
      const file = path.join(CORPUS, rel);
      await openPreview(page, linkFor(file)).catch(async (e) => {
        throw new Error(`${rel}: ${e.message}; status: ${await page.getByTestId('preview-status').textContent().catch(() => '?')}`);
      });
      const st = await pageState(page);
      assert.equal(st.plan.stage, 'Geometry');
      // The passes the plan asks for, in order, and the draw of the GS output as a list, in primitive order.
      assert.deepEqual(st.plan.passes.compute.map((c) => c.label), ['vertex', 'geometry']);
      assert.equal(st.plan.draw.topology, 'triangle-list');
      assert.equal(st.plan.draw.depth, null);
      assert.match(await page.getByTestId('preview-gs-note').textContent(), /pass-through vertex shader/);
      const ref = nativeReference(file);
      const { maxUlps, nonZero, edgePixels } = compareReadbacks(st.plan, st.readbacks, ref.readbacks);
      // Something is drawn: a blank picture would compare equal vacuously.
      assert.ok(nonZero[0] > 0, `${rel}: the picture is empty`);
      console.log(`${rel}: ${nonZero[0]} non-zero words, max ${maxUlps} ulps, ${edgePixels} edge pixels`);
      assert.deepEqual(errors, []);
    });
  });
}
