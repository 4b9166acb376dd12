// How often a first view needs the UI's secondary wasm (prints a figure,
// asserts nothing): opens corpus shaders that the release build's profile
// (tools/wasm-split/post_build.mjs: every 4th fxc shader) did not open, clicks
// a line and hovers a few bytes, with the background fetch of the secondary
// held back; a shader whose first view calls a moved function makes the
// synchronous load, which is counted. It still works (the page errors are
// printed too).
//   APP_URL=http://127.0.0.1:8124/ node tests/browser/bench/split_coverage.mjs
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, dxbcCli, hoverByte, withPage } from '../chromium.mjs';

const FXC = path.join(CORPUS, 'fxc');
const all = fs.readdirSync(FXC).filter((f) => f.endsWith('.dxbc')).sort();
const pick = all.filter((_, i) => i % 4 !== 0).filter((_, j) => j % 8 === 3);
const needed = [];
await withPage(async (page, errors) => {
  let asked = [];
  await page.route('**/*_cold.wasm', (route) => {
    asked.push(route.request().resourceType());
    return route.request().resourceType() === 'fetch' ? undefined : route.continue();
  });
  for (const f of pick) {
    asked = [];
    const link = spawnSync(dxbcCli(), ['link', path.join(FXC, f)]).stdout.toString().trim();
    await page.goto('about:blank');
    await page.goto(APP_URL + link);
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
    await page.locator('[data-testid=disassembly] .line').nth(2).click();
    for (let i = 0; i < 5; i++) await hoverByte(page, i * 13);
    if (asked.includes('xhr')) needed.push(f);
  }
  console.log(`${pick.length} shaders the profile did not open; ${needed.length} needed the secondary in their first view${needed.length ? ': ' + needed.join(' ') : ''}; page errors: ${errors.length}`);
});
