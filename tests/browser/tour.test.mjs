// The tour works on its own example and gives the user's shader back:
// Close or Escape restores the file, its selection and status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, dxbcCli, withPage } from './chromium.mjs';

const DXBC = dxbcCli();

// A compute shader: the tour's token steps need the example pixel shader.
const FILE = path.join(CORPUS, 'fxc', 'dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc');

function run(...args) {
  const r = spawnSync(DXBC, args);
  if (r.status !== 0) throw new Error(`dxbc ${args[0]} failed: ${r.stderr}`);
  return r.stdout.toString();
}

test('the tour restores the user\'s shader on Close and on Escape', async () => {
  // The outside truth for "the user's shader": its first listing line from the CLI.
  const firstLine = run('disasm', FILE).split('\n').find((l) => /^(cs|ps|vs|gs|hs|ds)_\d_\d/.test(l.trim())).trim();
  await withPage(async (page) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(APP_URL + run('link', FILE).trim());
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
    const profile = await page.textContent('[data-testid=profile]');
    assert.equal(profile.trim(), firstLine);
    for (const close of ['click', 'Escape']) {
      await page.click('[data-testid=tour-start]');
      await page.locator('[data-testid=tour]').waitFor();
      // Walk on until a step needs the tour's own example (this shader lacks
      // something a step shows), then close.
      let swapped = false;
      while (!swapped && !(await page.isDisabled('[data-testid=tour-next]'))) {
        await page.click('[data-testid=tour-next]');
        swapped = (await page.textContent('[data-testid=profile]')).trim() !== profile.trim();
      }
      assert.ok(swapped, 'some tour step shows the tour\'s own example');
      if (close === 'click') await page.click('[data-testid=tour-close]');
      else await page.keyboard.press('Escape');
      await page.locator('[data-testid=tour]').waitFor({ state: 'detached' });
      assert.equal((await page.textContent('[data-testid=profile]')).trim(), profile.trim(), `${close} restores the file`);
    }
  });
});
