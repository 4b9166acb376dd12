// Pipelines of several user shaders in the live preview: the open shader
// plus the shaders added in the preview's pipeline control, run as one plan
// (preview_model::plan::build_pipeline) and checked against the native
// renderer given the same files (shader-runner preview FILE --with FILE …).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withPage as launch, CORPUS } from './chromium.mjs';
import { RUNNER, run, linkFor, parseReference, openPreview, pageState, compareReadbacks } from './preview_helpers.mjs';

const withPage = (fn) => launch(fn, { webgpu: true });
const fxc = (name) => path.join(CORPUS, 'fxc', name);

/**
 * Waits for the read-backs of a frame of a plan of `n` user shaders (the
 * plan is swapped before its first frame, so the read-backs of the plan
 * before may still be there: they were taken before `loadedAt`).
 */
async function waitForPipeline(page, n) {
  await page.waitForFunction((n) => {
    const s = globalThis.__dxbcPreview;
    return s && s.plan && s.plan.shaders.length === n && s.readbackOf === s.frames && s.readbackOf > s.loadedAt
      && s.readbacks.length === s.plan.readbacks.length;
  }, n, { timeout: 60000 });
}

// [open file, added files, the plan's stages in order, compute passes]
const PIPELINES = [
  ['dxdecompiler_fluidcs11_fluidrender_gs.dxbc', ['dxdecompiler_fluidcs11_fluidrender_vs.dxbc'],
    ['Geometry', 'Vertex'], ['vertex', 'geometry']],
  ['dxdecompiler_apps_tesselation_hs.dxbc', ['dxdecompiler_apps_tesselation_vs.dxbc', 'dxdecompiler_apps_tesselation_ds.dxbc'],
    ['Hull', 'Vertex', 'Domain'],
    ['vertex', 'hull control points', 'hull patch constants', 'tessellator', 'tessellator', 'tessellator', 'draw arguments']],
];

for (const [open, added, stages, passes] of PIPELINES) {
  test(`pipeline preview ${stages.join(' + ')} equals the native renderer: ${open}`, async () => {
    await withPage(async (page, errors) => {
      await openPreview(page, linkFor(fxc(open)));
      const alone = await pageState(page);
      for (const f of added) {
        const before = await page.getByTestId('preview-pipeline-stage').count();
        await page.getByTestId('preview-pipeline-add').setInputFiles(fxc(f));
        await page.getByTestId('preview-pipeline-stage').nth(before).waitFor({ timeout: 20000 });
      }
      assert.deepEqual(await page.getByTestId('preview-pipeline-stage').allTextContents(),
        added.map((f, i) => ` + ${({ Vertex: 'VS', Domain: 'DS' })[stages[i + 1]]} ${f}`));
      await waitForPipeline(page, stages.length);
      const st = await pageState(page);
      assert.deepEqual(st.plan.shaders, stages);
      assert.deepEqual(st.plan.passes.compute.map((c) => c.label), passes);
      // The user's vertex shader is the vertex pass, binding its own resources.
      const vs = st.plan.passes.compute[0];
      assert.ok(st.plan.modules[vs.module].translated && vs.shader_entries && vs.shader === 1);
      const args = ['preview', fxc(open), ...added.flatMap((f) => ['--with', fxc(f)]), '--out', '-'];
      const ref = parseReference(run(RUNNER, args));
      const { maxUlps, nonZero, edgePixels } = compareReadbacks(st.plan, st.readbacks, ref.readbacks);
      assert.ok(nonZero[0] > 0, `${open}: the picture is empty`);
      // The added shaders change the picture: it is not the lone shader's.
      assert.notDeepEqual(st.readbacks[0], alone.readbacks[0]);
      console.log(`${open} + ${added.join(' + ')}: ${nonZero[0]} non-zero words, max ${maxUlps} ulps, ${edgePixels} edge pixels`);
      // Removing the added shaders previews the open one alone again.
      for (let i = added.length; i > 0; i--) await page.getByTestId('preview-pipeline-remove').first().click();
      await waitForPipeline(page, 1);
      assert.equal((await pageState(page)).plan.stage, alone.plan.stage);
      // A pixel shader does not join a pipeline, and says why.
      await page.getByTestId('preview-pipeline-add').setInputFiles(fxc('angle930_clearfloat11ps.dxbc'));
      assert.match(await page.getByTestId('preview-pipeline-note').textContent(), /a Pixel shader: only vertex, hull, domain and geometry shaders join a pipeline/);
      assert.deepEqual(errors, []);
    });
  });
}
