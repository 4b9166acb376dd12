// The diff view: a shader against its edited copy marks exactly the edited
// token, in the rows and in the hex view; a row's click selects its
// instruction; the diff link (made by the page or by `dxbc link --diff`)
// reopens the same diff. The CLI is the oracle: `dxbc edit` for the edited
// bytes, `dxbc diff` for the changed instruction, dword and chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, clickByte, currentLink, dxbcCli, withPage, scratchDir } from './chromium.mjs';

const DXBC = dxbcCli();

// A small ps_4_0 with one `mul` (its opcode token at 0x148).
const MERGE = path.join(CORPUS, 'fxc', 'directxtk_postprocess_psmerge.dxbc');
const MUL_AT = 0x148;

function cli(args, ok = [0]) {
  const r = spawnSync(DXBC, args);
  if (!ok.includes(r.status)) throw new Error(`dxbc ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

async function open(page, url) {
  await page.goto(url);
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
}

/** The rows of the diff view: status, current-file offset and changed byte ranges. */
async function rows(page) {
  await page.getByTestId('diff-summary').waitFor({ timeout: 20000 });
  return page.getByTestId('diff-row').evaluateAll((els) => els.map((e) => ({
    status: e.dataset.status, b: e.dataset.b ?? null, bytes: e.dataset.bytes ?? null,
  })));
}

/** Offsets of the hex view's bytes carrying `cls`. */
async function marked(page, cls) {
  return page.locator(`[data-testid=hex-view] .b.${cls}`).evaluateAll((els) => els.map((e) => Number(e.dataset.b)));
}

test('a diff of a shader against its edited copy highlights exactly the changed token', async () => {
  const original = fs.readFileSync(MERGE);
  const edited = cli(['edit', '--at', `0x${MUL_AT.toString(16)}`, '--field', 'saturate', '--value', '1', MERGE]);
  const editedFile = path.join(scratchDir('diff-'), 'edited.dxbc');
  fs.writeFileSync(editedFile, edited);
  // The oracle: one instruction changed, its saturate field, in one dword; one chunk.
  const text = cli(['diff', MERGE, editedFile], [1]).toString();
  const dwords = [...text.matchAll(/^ +(\w+): (\d+) -> (\d+) \(dword 0x([0-9a-f]+) \/ 0x([0-9a-f]+)\)$/gm)];
  assert.equal(dwords.length, 1, text);
  const [, field, was, now, , bAt] = dwords[0];
  const tokenAt = parseInt(bAt, 16);
  assert.equal(tokenAt, MUL_AT);
  const chunks = [...text.matchAll(/^chunk (\w+) changed/gm)].map((m) => `${m[1]} changed`);
  assert.equal((text.match(/^\+ /gm) ?? []).length, 1, text);
  // The bytes that differ outside the container header (its checksum).
  const differing = [];
  for (let o = 32; o < original.length; o++) if (original[o] !== edited[o]) differing.push(o);
  assert.ok(differing.length > 0 && differing.every((o) => o >= tokenAt && o < tokenAt + 4));

  await withPage(async (page, errors) => {
    await open(page, APP_URL + cli(['link', MERGE]).toString().trim());
    // Nothing edited yet: the original is not on offer.
    await page.getByTestId('diff-toggle').check();
    await page.getByTestId('diff').waitFor();
    assert.equal(await page.getByTestId('diff-original').isDisabled(), true);
    assert.deepEqual(await marked(page, 'dtok'), []);

    // The playground's edit: saturate on the mul.
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul/ }).first().click();
    await page.getByTestId('field-saturate').selectOption('1');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul_sat / }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('diff-original').isDisabled(), false);
    await page.getByTestId('diff-original').click();

    const got = await rows(page);
    const changed = got.filter((r) => r.status !== 'same' && r.status !== 'folded');
    assert.deepEqual(changed, [{ status: 'changed', b: String(tokenAt), bytes: `${tokenAt}+4` }]);
    const row = page.locator('[data-testid=diff-row][data-status=changed]');
    assert.match(await row.textContent(), /mul r0\.xyzw.*mul_sat r0\.xyzw/s);
    assert.equal(await row.getByTestId('diff-fields').textContent(), `${field} ${was} → ${now}`);
    // In the row, the marked bytes are those that differ, with the edited values.
    const rowBytes = await row.locator('.dbytes span.dbyte').allTextContents();
    const hex = (x) => x.toString(16).padStart(2, '0');
    const want = [...differing.map((o) => hex(original[o])), ...differing.map((o) => hex(edited[o]))];
    assert.deepEqual(rowBytes, want);
    const summary = page.getByTestId('diff-summary');
    assert.equal(await summary.getAttribute('data-changed'), '1');
    assert.equal(await summary.getAttribute('data-removed'), '0');
    assert.equal(await summary.getAttribute('data-added'), '0');
    assert.deepEqual(await page.getByTestId('diff-chunks').locator('li').allTextContents(),
      [...chunks, 'checksum differs']);
    // The hex view marks exactly the token, and in it exactly the differing bytes.
    assert.deepEqual((await marked(page, 'dtok')).sort((a, b) => a - b), [tokenAt, tokenAt + 1, tokenAt + 2, tokenAt + 3]);
    assert.deepEqual((await marked(page, 'dbyte')).sort((a, b) => a - b), differing);

    // A row's click selects its instruction in the current file.
    await clickByte(page, 0);
    assert.equal(await row.getAttribute('aria-selected'), 'false');
    await row.click();
    const selLine = page.locator('[data-testid=disassembly] .line[aria-selected=true]');
    assert.match(await selLine.textContent(), /^mul_sat r0\.xyzw/);
    assert.equal(await row.getAttribute('aria-selected'), 'true');
    // The listing marks the changed instruction's line.
    assert.deepEqual(await page.locator('[data-testid=disassembly] .line.dchg').allTextContents(),
      [await selLine.textContent()]);
    assert.match(await page.getByTestId('inspector').textContent(), /saturate/);

    // The page's diff link reopens the same diff in a fresh page; so does the CLI's.
    const link = await currentLink(page);
    const fromCli = cli(['link', editedFile, '--diff', MERGE]).toString().trim();
    for (const l of [link, fromCli]) {
      const other = await page.context().newPage();
      await open(other, APP_URL + l);
      await other.getByTestId('diff').waitFor({ timeout: 20000 });
      assert.deepEqual(await rows(other), got, l === link ? 'page link' : 'CLI link');
      assert.match(await other.getByTestId('diff-with').textContent(), /the link's first file/);
      await other.close();
    }
    assert.deepEqual(errors, []);
  });
});

test('a second file pasted into the diff view is compared with the current one', async () => {
  // Two different corpus shaders: the oracle counts the changed, removed and added instructions.
  const a = path.join(CORPUS, 'fxc', 'angle63_passthrough2d11vs.dxbc');
  const text = cli(['diff', a, MERGE], [1]).toString();
  const plus = (text.match(/^\+ /gm) ?? []).length;
  const minus = (text.match(/^- /gm) ?? []).length;
  const same = [...text.matchAll(/^ +\.\.\. (\d+) unchanged$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  assert.ok(plus + minus > 0, text);
  await withPage(async (page, errors) => {
    await open(page, APP_URL + cli(['link', MERGE]).toString().trim());
    await page.getByTestId('diff-toggle').check();
    await page.getByTestId('diff-paste').fill(fs.readFileSync(a).toString('base64'));
    await page.getByTestId('diff-decode').click();
    await page.getByTestId('diff-with').filter({ hasText: 'base64' }).waitFor({ timeout: 5000 });
    // A changed pair prints a - and a + line; a removal a -, an addition a +.
    const summary = page.getByTestId('diff-summary');
    const n = async (k) => Number(await summary.getAttribute(`data-${k}`));
    assert.equal((await n('changed')) + (await n('removed')), minus);
    assert.equal((await n('changed')) + (await n('added')), plus);
    assert.equal(await n('same'), same);
    // Every row the view draws is one of those (no folding hides a change).
    const statuses = await page.getByTestId('diff-row').evaluateAll((els) => els.map((e) => e.dataset.status));
    assert.equal(statuses.filter((x) => x === 'changed').length, await n('changed'));
    assert.equal(statuses.filter((x) => x === 'added').length, await n('added'));
    assert.equal(statuses.filter((x) => x === 'removed').length, await n('removed'));
    assert.deepEqual(errors, []);
  });
});
