// Per-target refusals in the translation pane: a shader that only WebGPU
// cannot express shows the refusal in the WGSL tab, naming the target, with
// the reason and offset the CLI gives; the other tabs still show code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { withPage, dxbcCli, CORPUS, APP_URL } from './chromium.mjs';

// A vertex shader with a UAV (writable storage): native targets only.
const FILE = path.join(CORPUS, 'vkd3d', 'depth-bounds', '004_vs_5_0.dxbc');

test('translation pane: the WGSL tab shows its own refusal, the other tabs show code', async () => {
  await withPage(async (page, errors) => {
    await page.goto(APP_URL);
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
    await page.getByTestId('file').setInputFiles(FILE);
    const toggle = page.getByTestId('translation-toggle');
    if (!(await toggle.isChecked())) await toggle.check();
    const pane = page.getByTestId('translation');
    await pane.getByTestId('translation-validation').waitFor({ timeout: 20000 });
    await pane.getByTestId('tab-wgsl').click();
    const err = pane.getByTestId('translation-error');
    await err.waitFor({ timeout: 20000 });
    assert.match(await err.textContent(), /^Not written for WGSL — unsupported: /);
    // The CLI (exit 3) gives the same typed reason, its why and the offset.
    const cli = spawnSync(dxbcCli(), ['translate', '--to', 'wgsl', FILE], { encoding: 'utf8' });
    assert.equal(cli.status, 3, cli.stderr);
    const [, name, why] = cli.stderr.match(/refused for WGSL \(([a-z0-9-]+)\): (.*)/);
    assert.equal(name, 'uav-in-vertex-shader');
    assert.equal(await pane.getByTestId('translation-limitation').textContent(), name);
    assert.equal(await pane.getByTestId('translation-why').textContent(), `Why: ${why}. ${name}`);
    const at = cli.stderr.match(/\(at offset (0x[0-9a-f]+)\)/)[1];
    assert.equal(await pane.getByTestId('translation-offset').textContent(), `at offset ${at}`);
    for (const [tab, re] of [['hlsl', /register\(u/], ['glsl', /#version 450/], ['msl', /metal_stdlib/]]) {
      await pane.getByTestId(`tab-${tab}`).click();
      const code = pane.getByTestId('translation-code');
      await code.waitFor({ timeout: 20000 });
      assert.match(await code.textContent(), re, tab);
      assert.equal(await pane.getByTestId('translation-error').count(), 0, tab);
    }
    assert.deepEqual(errors, []);
  });
});
