// The search box: an opcode moves the selection to its first use (the
// outside truth is fxc's own listing of the file), Enter steps through the
// matches, registers and byte patterns light bytes and lines, and the count
// agrees with the CLI's `dxbc search`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, dxbcCli, withPage } from './chromium.mjs';

const DXBC = dxbcCli();

const FILE = path.join(CORPUS, 'fxc', 'dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc');
const ASM = FILE.replace(/\.dxbc$/, '.asm');

function link(file) {
  const r = spawnSync(DXBC, ['link', file]);
  if (r.status !== 0) throw new Error(`dxbc link failed: ${r.stderr}`);
  return r.stdout.toString().trim();
}

/** Matches the CLI reports for `query` (its stdout has one line per match). */
function cliCount(query) {
  const r = spawnSync(DXBC, ['search', FILE, query]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`dxbc search failed: ${r.stderr}`);
  return r.stdout.toString().split('\n').filter((l) => l.length > 0).length;
}

async function selectedLine(page) {
  return page.$eval('[data-testid=disassembly] .line.sel', (e) => e.textContent);
}

test('searching an opcode moves the selection to its first use; Enter steps, registers and bytes light up', async () => {
  // fxc's listing: the instruction lines that use `mad`, in order.
  const fxcMad = fs.readFileSync(ASM, 'latin1').split(/\r?\n/).map((l) => l.trim()).filter((l) => /^mad(_sat)?\s/.test(l));
  assert.ok(fxcMad.length >= 2, 'the file uses mad more than once');
  await withPage(async (page) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(APP_URL + link(FILE));
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
    const box = page.locator('[data-testid=search]');
    await box.fill('mad');
    await page.waitForFunction(() => /match/.test(document.querySelector('[data-testid=search-count]').textContent));
    assert.equal(await page.textContent('[data-testid=search-count]'), `${fxcMad.length} matches`);
    assert.equal(cliCount('mad'), fxcMad.length);
    await box.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=disassembly] .line.sel')?.textContent.trim().startsWith('mad'));
    assert.equal((await selectedLine(page)).trim(), fxcMad[0]);
    assert.equal(await page.textContent('[data-testid=search-count]'), `1 / ${fxcMad.length}`);
    await box.press('Enter');
    await page.waitForFunction((n) => document.querySelector('[data-testid=search-count]').textContent === `2 / ${n}`, fxcMad.length);
    assert.equal((await selectedLine(page)).trim(), fxcMad[1]);
    await box.press('Shift+Enter');
    await page.waitForFunction((n) => document.querySelector('[data-testid=search-count]').textContent === `1 / ${n}`, fxcMad.length);
    // Matches light the listing lines that are on screen, and their bytes.
    const lit = await page.$$eval('[data-testid=disassembly] .line.hit', (els) => els.map((e) => e.textContent.trim()));
    assert.ok(lit.length > 0 && lit.every((l) => /^mad/.test(l)), JSON.stringify(lit));
    assert.ok((await page.locator('[data-testid=hex-view] .b.hit').count()) > 0);

    // A register: every lit line names it.
    await box.fill('r0');
    await page.waitForFunction(() => /match/.test(document.querySelector('[data-testid=search-count]').textContent));
    const n = Number((await page.textContent('[data-testid=search-count]')).split(' ')[0]);
    assert.equal(n, cliCount('r0'));
    const regLines = await page.$$eval('[data-testid=disassembly] .line.hit', (els) => els.map((e) => e.textContent));
    assert.ok(regLines.length > 0 && regLines.every((l) => /\br0\b/.test(l)), JSON.stringify(regLines.slice(0, 5)));

    // A byte pattern: the file's magic, found at offset 0.
    await box.fill('44 58 42 43');
    await page.waitForFunction(() => document.querySelector('[data-testid=search-count]').textContent !== '');
    await box.press('Enter');
    // (Rows show little-endian dwords, so the DOM holds byte 3 first.)
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=hex-view] .b.sel')].map((e) => Number(e.dataset.b)).sort((a, b) => a - b).join() === '0,1,2,3');
    // Escape clears the search and its marks.
    await box.press('Escape');
    await page.waitForFunction(() => document.querySelectorAll('.b.hit, .line.hit').length === 0);
  });
});
