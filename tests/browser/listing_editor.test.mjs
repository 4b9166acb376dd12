// The listing as an editor, and def-use highlighting. The CLI is the
// oracle: `dxbc disasm` for the text the editor opens with, `dxbc edit
// --replace` and `dxbc asm` for the bytes an edited line gives, `dxbc
// translate` for the translation, `dxbc defuse` for a register's sites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, currentLink, drawnBytes, dxbcCli, withPage, scratchDir } from './chromium.mjs';

const DXBC = dxbcCli();

// A small ps_4_0 with one `mul` (its opcode token at 0x148).
const MERGE = path.join(CORPUS, 'fxc', 'directxtk_postprocess_psmerge.dxbc');
const MUL_AT = 0x148;
// A vs_5_0 whose r0 is written by four dp4 and read by four.
const TESS = path.join(CORPUS, 'fxc', 'dxdecompiler_apps_tesselation_vs.dxbc');

function run(...args) {
  const r = spawnSync(DXBC, args);
  if (r.status !== 0) throw new Error(`dxbc ${args.join(' ')} failed: ${r.stderr}`);
  return r;
}
const cli = (...args) => run(...args).stdout;

function tmpFile(name, data) {
  const f = path.join(scratchDir('le-'), name);
  fs.writeFileSync(f, data);
  return f;
}

async function open(page, url) {
  await page.goto(url);
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
}

/** Clicks `testid` and returns the downloaded bytes. */
async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return fs.readFileSync(await dl.path());
}

/** The hex view's bytes `start..end` as drawn (they must be on screen). */
async function hexBytes(page, start, end) {
  const drawn = new Map(await drawnBytes(page));
  const out = [];
  for (let b = start; b < end; b++) {
    assert.ok(drawn.has(b), `byte ${b} is drawn`);
    out.push(drawn.get(b));
  }
  return Buffer.from(out);
}

/** The listing with its `mul` line turned into `add`, and that line (0-based). */
function mulToAdd(listing) {
  const lines = listing.split('\n');
  const l = lines.findIndex((x) => x.startsWith('mul '));
  assert.ok(l > 0, 'the listing has a mul line');
  const add = 'add ' + lines[l].slice(4);
  lines[l] = add;
  return { text: lines.join('\n'), line: l, add };
}

test('assembling an edited listing line updates the bytes, checksum and translation; undo restores', async () => {
  await withPage(async (page, errors) => {
    const original = fs.readFileSync(MERGE);
    const listing = cli('disasm', MERGE).toString('utf8');
    const { text, line, add } = mulToAdd(listing);
    // The oracles: the instruction replaced by `dxbc edit`, and `dxbc asm` of the edited listing.
    const want = cli('edit', '--at', `0x${MUL_AT.toString(16)}`, '--replace', add, MERGE);
    const asmOfText = tmpFile('edited.dxbc', cli('asm', tmpFile('edited.asm', text)));
    const wantWgsl = cli('translate', '--to', 'wgsl', tmpFile('want.dxbc', want)).toString('utf8');
    const oldWgsl = cli('translate', '--to', 'wgsl', MERGE).toString('utf8');
    assert.notEqual(wantWgsl, oldWgsl, 'the edit changes the translation');

    await open(page, APP_URL + cli('link', '--pane', 'translation', MERGE).toString().trim());
    await page.getByTestId('edit-listing').click();
    const editor = page.getByTestId('listing-editor');
    await editor.waitFor();
    // The editor opens on the listing exactly as `dxbc disasm` prints it.
    assert.equal(await editor.inputValue(), listing);
    await editor.fill(text);
    await page.getByTestId('edited').waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('listing-error').count(), 0);
    assert.equal(await editor.inputValue(), text, 'the text stays as typed');
    await page.getByTestId('edit-listing').click();

    // The hex view shows the instruction's new bytes.
    await page.locator('[data-testid=disassembly] .line', { hasText: /^add r0\.xyzw/ }).click();
    const len = want.readUInt32LE(MUL_AT) >>> 24; // the instruction's length, in dwords
    assert.ok(len > 1);
    assert.ok((await hexBytes(page, MUL_AT, MUL_AT + 4 * len)).equals(want.subarray(MUL_AT, MUL_AT + 4 * len)));
    assert.notEqual(original[MUL_AT], want[MUL_AT], 'the opcode byte changed');
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    // The whole file is what `dxbc edit` writes; its listing is that of `dxbc asm` on the edited text.
    const bytes = await download(page, 'download-dxbc');
    assert.ok(bytes.equals(want), 'download-dxbc differs from dxbc edit --replace');
    assert.equal(cli('disasm', tmpFile('got.dxbc', bytes)).toString('utf8'), cli('disasm', asmOfText).toString('utf8'));
    // The listing line reads `add` at the same line.
    assert.equal(await page.locator(`[data-testid=disassembly] .line[data-line="${line}"]`).textContent(), add);
    // The translation follows: every line of `dxbc translate` of the edited bytes.
    const code = page.getByTestId('translation-code');
    const wgslLines = wantWgsl.trimEnd().split('\n');
    const changed = wgslLines.find((l) => !oldWgsl.includes(l) && l.trim().length > 0);
    assert.ok(changed, 'a WGSL line only the edited shader has');
    await code.locator('.line', { hasText: changed.trim() }).first().waitFor({ timeout: 20000 });
    // The link carries the edited bytes.
    const other = await page.context().newPage();
    await open(other, APP_URL + await currentLink(page));
    assert.ok((await download(other, 'download-dxbc')).equals(want));
    await other.close();

    // Undo restores the file as opened, byte for byte.
    await page.getByTestId('undo').click();
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.xyzw/ }).waitFor({ timeout: 5000 });
    assert.ok((await download(page, 'download-dxbc')).equals(original));
    assert.equal(await page.getByTestId('edited').count(), 0);
    assert.deepEqual(errors, []);
  });
});

test('a syntax error is shown at its line; the text and the bytes are kept until discarded', async () => {
  await withPage(async (page, errors) => {
    const original = fs.readFileSync(MERGE);
    const listing = cli('disasm', MERGE).toString('utf8');
    const lines = listing.split('\n');
    const l = lines.findIndex((x) => x.startsWith('mul '));
    lines[l] = lines[l].replace('mul r0.xyzw, r0.xyzw', 'mul r0.xyzw, q0.xyzw');
    const bad = lines.join('\n');
    // The oracle for the message: `dxbc asm` of the same text names line and column.
    const r = spawnSync(DXBC, ['asm', tmpFile('bad.asm', bad)]);
    assert.notEqual(r.status, 0);
    const m = /at line (\d+), column (\d+)/.exec(r.stderr.toString());
    assert.ok(m, r.stderr.toString());
    assert.equal(Number(m[1]), l + 1, 'dxbc asm places it on the mul line');

    await open(page, APP_URL + cli('link', MERGE).toString().trim());
    await page.getByTestId('edit-listing').click();
    const editor = page.getByTestId('listing-editor');
    await editor.fill(bad);
    const err = page.getByTestId('listing-error');
    await err.waitFor({ timeout: 5000 });
    assert.equal(await err.getAttribute('data-line'), m[1]);
    assert.match(await err.textContent(), new RegExp(`^line ${m[1]}, column ${m[2]}: `));
    assert.equal(await page.getByTestId('listing-error-marker').getAttribute('data-line'), m[1]);
    assert.equal(await editor.inputValue(), bad, 'the text stays as typed');
    assert.equal(await page.getByTestId('edited').count(), 0, 'the bytes stay');
    assert.ok((await download(page, 'download-dxbc')).equals(original));

    // Leaving the editor keeps the text; resuming brings it back; discarding drops it.
    await page.getByTestId('edit-listing').click();
    await page.getByTestId('draft-kept').waitFor();
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.xyzw, r0\.xyzw/ }).waitFor();
    await page.getByTestId('draft-resume').click();
    assert.equal(await page.getByTestId('listing-editor').inputValue(), bad);
    await page.getByTestId('edit-listing').click();
    await page.getByTestId('draft-discard').click();
    assert.equal(await page.getByTestId('draft-kept').count(), 0);
    await page.getByTestId('edit-listing').click();
    assert.equal(await page.getByTestId('listing-editor').inputValue(), listing);
    assert.deepEqual(errors, []);
  });
});

test('a listing line edited in place: Enter assembles it, Escape cancels', async () => {
  await withPage(async (page, errors) => {
    const listing = cli('disasm', MERGE).toString('utf8');
    const { add } = mulToAdd(listing);
    const want = cli('edit', '--at', `0x${MUL_AT.toString(16)}`, '--replace', add, MERGE);
    await open(page, APP_URL + cli('link', MERGE).toString().trim());
    const mul = page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.xyzw/ });
    await mul.click();
    await page.keyboard.press('Enter');
    const input = page.getByTestId('line-editor');
    await input.waitFor();
    await input.press('Escape');
    assert.equal(await page.getByTestId('line-editor').count(), 0);
    await mul.dblclick();
    await input.fill('add r0.xyzw, q0.xyzw');
    await input.press('Enter');
    await page.getByTestId('line-error').waitFor();
    assert.equal(await page.getByTestId('edited').count(), 0);
    await input.fill(add);
    await input.press('Enter');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^add r0\.xyzw/ }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    assert.ok((await download(page, 'download-dxbc')).equals(want));
    assert.deepEqual(errors, []);
  });
});

test('clicking r0 lights exactly the lines and operand bytes dxbc defuse reports', async () => {
  await withPage(async (page, errors) => {
    const r = run('defuse', TESS, 'r0');
    const rows = r.stdout.toString().trim().split('\n').map((l) => l.split('\t'));
    const linesOf = (kind) => rows.filter((x) => x[0] === kind).map((x) => Number(x[3]) - 1);
    const writes = linesOf('write');
    const reads = linesOf('read');
    assert.ok(writes.length > 0 && reads.length > 0);
    const bytes = new Set();
    for (const x of rows) for (let b = Number(x[1]); b < Number(x[1]) + Number(x[2]); b++) bytes.add(b);

    await open(page, APP_URL + cli('link', TESS).toString().trim());
    const first = page.locator(`[data-testid=disassembly] .line[data-line="${writes[0]}"]`);
    await first.locator('.s-reg', { hasText: /^r0$/ }).first().click();
    assert.equal(await first.getAttribute('aria-selected'), 'true', 'the click still selects the line');
    await page.getByTestId('defuse-count').waitFor();
    assert.equal(await page.getByTestId('defuse-count').textContent(), r.stderr.toString().trim());
    const lit = async (cls) => (await page.locator(`[data-testid=disassembly] .line.${cls}`).evaluateAll(
      (els) => els.map((e) => Number(e.dataset.line)))).sort((a, b) => a - b);
    assert.deepEqual(await lit('def'), writes);
    assert.deepEqual(await lit('use'), reads);
    const litBytes = await page.locator('[data-testid=hex-view] .b.du').evaluateAll((els) => els.map((e) => Number(e.dataset.b)));
    assert.deepEqual(litBytes.sort((a, b) => a - b), [...bytes].sort((a, b) => a - b));
    // Next goes to the next site's line.
    await page.getByTestId('defuse-next').click();
    assert.equal(await page.locator(`[data-testid=disassembly] .line[data-line="${writes[1]}"]`).getAttribute('aria-selected'), 'true');
    // Escape clears it.
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-testid=disassembly] .line.def').count(), 0);
    assert.equal(await page.getByTestId('defuse-count').count(), 0);
    // Clicking a register again, then elsewhere in the listing, clears it too.
    await first.locator('.s-reg', { hasText: /^r0$/ }).first().click();
    await page.getByTestId('defuse-count').waitFor();
    await page.locator(`[data-testid=disassembly] .line[data-line="${reads[0]}"] .s-mn`).click();
    assert.equal(await page.getByTestId('defuse-count').count(), 0);
    assert.deepEqual(errors, []);
  });
});
