// The split UI wasm (tools/wasm-split, release builds): the first view
// renders and works with the primary alone; the secondary is fetched only
// after the first view has painted; a feature the first view never runs
// (the search box) works once it loads, also when it is needed before the
// background fetch has finished. The outside truth for the search is the
// CLI's `dxbc search`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, dxbcCli, hoverByte, withPage } from './chromium.mjs';

const DXBC = dxbcCli();
const FILE = path.join(CORPUS, 'fxc', 'dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc');
const COLD = '**/*_cold.wasm';

function cli(...args) {
  const r = spawnSync(DXBC, args);
  if (r.status !== 0 && r.status !== 1) throw new Error(`dxbc ${args[0]} failed: ${r.stderr}`);
  return r.stdout.toString();
}

async function openFirstView(page, url) {
  await page.goto(url);
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
  await page.waitForFunction(() => performance.getEntriesByName('dxbc-ready').length > 0);
}

/** Searches `query` and returns the count the page shows. */
async function search(page, query) {
  await page.locator('[data-testid=search]').fill(query);
  await page.waitForFunction(() => /match/.test(document.querySelector('[data-testid=search-count]').textContent), null, { timeout: 20000 });
  return page.textContent('[data-testid=search-count]');
}

const madMatches = () => cli('search', FILE, 'mad').split('\n').filter((l) => l.length > 0).length;

test('the release build is split: the loader names a secondary wasm', async () => {
  await withPage(async (page) => {
    await page.goto(APP_URL);
    const cold = await page.getAttribute('#dxbc-boot', 'data-cold');
    assert.match(cold ?? '', /_cold\.wasm$/);
  });
});

test('the first view renders and works with the secondary wasm refused', async () => {
  await withPage(async (page, errors) => {
    const asked = [];
    await page.route(COLD, (route) => { asked.push(route.request().resourceType()); return route.abort(); });
    await openFirstView(page, APP_URL + cli('link', FILE).trim());
    // Hovering bytes, clicking lines and the inspector are first-view features.
    // On its mnemonic: a click on a register shows its reads and writes, a
    // feature the first view leaves to the secondary, and what lies under a
    // line's middle depends on the listing's width.
    const line = page.locator('[data-testid=disassembly] .line', { hasText: 'mad' }).first();
    await line.scrollIntoViewIfNeeded();
    await line.locator('.s-mn').click();
    assert.match((await page.textContent('[data-testid=disassembly] .line.sel')).trim(), /^mad /);
    const op = await page.$eval('[data-testid=hex-view] .b.sel', (e) => Number(e.dataset.b));
    await hoverByte(page, op);
    await page.waitForFunction(() => document.querySelector('[data-testid=inspector-title]')?.textContent === 'opcode token');
    // Only the background fetch asked for it, and nothing failed for its absence.
    assert.deepEqual(asked, ['fetch']);
    assert.deepEqual(errors, []);
  });
});

test('the secondary is fetched after the first view paints, and a cold feature then works', async () => {
  await withPage(async (page, errors) => {
    await openFirstView(page, APP_URL + cli('link', FILE).trim());
    const timing = await page.waitForFunction(() => {
      const cold = performance.getEntriesByType('resource').find((e) => e.name.endsWith('_cold.wasm'));
      return cold && { fetched: cold.startTime, ready: performance.getEntriesByName('dxbc-ready')[0].startTime };
    }).then((h) => h.jsonValue());
    assert.ok(timing.fetched > timing.ready, JSON.stringify(timing));
    assert.equal(await search(page, 'mad'), `${madMatches()} matches`);
    assert.deepEqual(errors, []);
  });
});

test('a cold feature used before the background fetch finishes loads the secondary at once', async () => {
  await withPage(async (page, errors) => {
    // The background fetch never answers; the synchronous load the first cold call makes does.
    const asked = [];
    await page.route(COLD, (route) => {
      asked.push(route.request().resourceType());
      return route.request().resourceType() === 'fetch' ? undefined : route.continue();
    });
    await openFirstView(page, APP_URL + cli('link', FILE).trim());
    assert.equal(await search(page, 'mad'), `${madMatches()} matches`);
    // The search ran moved code: the first call to it fetched the secondary synchronously.
    assert.deepEqual(asked, ['fetch', 'xhr']);
    assert.deepEqual(errors, []);
  });
});
