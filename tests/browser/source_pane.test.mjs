// The source pane of a /Zi shader: its HLSL as the CLI prints it, a
// source line selecting exactly the instructions fxc's listing puts under
// that line's `#line`, and an instruction lighting its source line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, dxbcCli, hoverByte, withPage } from './chromium.mjs';

const DXBC = dxbcCli();
// Line 37 of its source has code in three places of the program, between line 27's.
const FILE = path.join(CORPUS, 'fxc', 'specialk_vs_colorutil.dxbc');

function run(...args) {
  const r = spawnSync(DXBC, args);
  if (r.status !== 0) throw new Error(`dxbc ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.toString();
}

/** `dxbc source`'s one file: its name and its text (the CLI ends it in a newline). */
function cliSource() {
  const out = run('source', FILE);
  const nl = out.indexOf('\n');
  const m = /^\/\/ ==== source 1\/1: (.*) \(stream \d+, \d+ bytes\) ====$/.exec(out.slice(0, nl));
  assert.ok(m, `one source file: ${out.slice(0, nl)}`);
  return { name: m[1], text: out.slice(nl + 1) };
}

/**
 * The instructions of each source line by the CLI's listing: every
 * instruction line after a `#line N` (until the next one) belongs to line N.
 */
function listingByLine() {
  const byLine = new Map();
  let line = null;
  for (const l of run('disasm', FILE).split('\n')) {
    const d = /^#line (\d+)/.exec(l);
    if (d) line = Number(d[1]);
    else if (line !== null && l.trim() !== '' && !l.startsWith('//')) {
      if (!byLine.has(line)) byLine.set(line, []);
      byLine.get(line).push(l);
    }
  }
  return byLine;
}

const exact = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

function listingLine(page, text) {
  return page.locator('[data-testid=disassembly] .line').filter({ hasText: exact(text) });
}

async function marked(page, sel) {
  return page.$$eval(sel, (els) => els.map((e) => Number(e.dataset.b)).sort((a, b) => a - b));
}

/** The text of a drawn source row without its line number. */
async function rowText(row) {
  return row.evaluate((el) => [...el.childNodes].filter((c) => !c.classList?.contains('ln')).map((c) => c.textContent).join(''));
}

test('a /Zi shader shows its HLSL; a source line selects exactly its instructions and bytes', async () => {
  const src = cliSource();
  const byLine = listingByLine();
  const want = byLine.get(37);
  assert.equal(want.length, 6, `line 37: ${want}`);
  await withPage(async (page, errors) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(APP_URL + run('link', FILE).trim());
    const pane = page.getByTestId('source-pane');
    await pane.waitFor({ timeout: 20000 });
    assert.equal(await page.getByTestId('source-file').textContent(), src.name);
    // The text: whole through Copy, and line by line where it is drawn.
    await page.getByTestId('copy-source').click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied.endsWith('\n') ? copied : `${copied}\n`, src.text);
    const lines = src.text.split(/\r?\n/);
    const rows = page.getByTestId('source-line');
    assert.ok(await rows.count() >= 20, 'rows drawn');
    for (const row of await rows.all()) {
      const n = Number(await row.getAttribute('data-line'));
      assert.equal(await rowText(row), lines[n - 1], `line ${n}`);
    }

    // The bytes of each of line 37's instructions, as a click on its listing line selects them.
    const bytes = [];
    for (const text of want) {
      const l = listingLine(page, text);
      await l.scrollIntoViewIfNeeded();
      await l.click();
      bytes.push(...await marked(page, '[data-testid=hex-view] .b.sel'));
    }
    bytes.sort((a, b) => a - b);
    assert.ok(bytes.length >= 6 * 8, `${bytes.length} bytes`);
    // Start elsewhere: the first instruction of line 24.
    const l24 = listingLine(page, byLine.get(24)[0]);
    await l24.click();
    await page.locator('[data-testid=source-line][data-line="24"].sel').waitFor();

    const row37 = page.locator('[data-testid=source-line][data-line="37"]');
    await row37.scrollIntoViewIfNeeded();
    await row37.click();
    await page.locator('[data-testid=source-line][data-line="37"].sel').waitFor();
    // Lines below the listing's window are drawn a task after the jump
    // (its lookahead), so wait until as many are lit as the line has.
    const litRows = '[data-testid=disassembly] .line.src';
    await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length >= n, [litRows, want.length], { timeout: 5000 })
      .catch(() => {});
    const lit = await page.$$eval(litRows, (els) => els.map((e) => e.textContent));
    assert.deepEqual(lit, want);
    assert.equal(await page.locator('[data-testid=disassembly] .line.sel').textContent(), want[0]);
    assert.deepEqual(await marked(page, '[data-testid=hex-view] .b.src'), bytes);
    // The selection is the first instruction, in view in the listing.
    const first = await marked(page, '[data-testid=hex-view] .b.sel');
    assert.deepEqual(first, bytes.slice(0, first.length));
    assert.ok(await page.locator('[data-testid=disassembly] .line.sel').isVisible());
    assert.match(await page.getByTestId('source-loc').textContent(), /:37$/);
    assert.deepEqual(errors, []);
  });
});

test('pointing at an instruction, in the listing or the bytes, lights its source line', async () => {
  const byLine = listingByLine();
  await withPage(async (page, errors) => {
    await page.goto(APP_URL + run('link', FILE).trim());
    await page.getByTestId('source-pane').waitFor({ timeout: 20000 });
    const hl = () => page.$$eval('[data-testid=source-line].hl', (els) => els.map((e) => Number(e.dataset.line)));
    await listingLine(page, byLine.get(27)[0]).hover();
    await page.locator('[data-testid=source-line][data-line="27"].hl').waitFor();
    assert.deepEqual(await hl(), [27]);
    assert.match(await page.getByTestId('source-loc').textContent(), /:27$/);
    // A byte of line 24's last instruction, found by selecting it from the listing.
    const last24 = byLine.get(24).at(-1);
    await listingLine(page, last24).click();
    const sel = await marked(page, '[data-testid=hex-view] .b.sel');
    await hoverByte(page, sel.at(-1));
    await page.locator('[data-testid=source-line][data-line="24"].hl').waitFor();
    assert.deepEqual(await hl(), [24]);
    assert.deepEqual(errors, []);
  });
});
