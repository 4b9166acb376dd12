// The playground: editing a field of the selected token re-signs the file
// and everything follows; undo and redo; downloads and copies of the whole
// listing, the bytes and the translation. The CLI is the oracle: `dxbc edit`
// for the edited bytes, `dxbc disasm` for the listing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, clickByte, currentLink, drawnBytes, dxbcCli, hoverByte, withPage, scratchDir } from './chromium.mjs';

const DXBC = dxbcCli();

// A small ps_4_0 with one `mul` (its opcode token at 0x148).
const MERGE = path.join(CORPUS, 'fxc', 'directxtk_postprocess_psmerge.dxbc');
const MUL_AT = 0x148;

function cli(...args) {
  const r = spawnSync(DXBC, args);
  if (r.status !== 0) throw new Error(`dxbc ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function tmpFile(name, data) {
  const f = path.join(scratchDir('pg-'), name);
  fs.writeFileSync(f, data);
  return f;
}

async function open(page, url) {
  await page.goto(url);
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
}

const mulLine = (page) => page.locator('[data-testid=disassembly] .line', { hasText: /^mul/ }).first();

/** Clicks `testid` and returns the downloaded file's name and bytes. */
async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(await dl.path()) };
}

test('setting saturate on a mul re-signs the file; undo, redo and the downloads follow', async () => {
  await withPage(async (page, errors) => {
    await open(page, APP_URL + cli('link', '--pane', 'translation', MERGE).toString().trim());
    const wgsl = page.getByTestId('translation-code');
    await wgsl.locator('.line').first().waitFor({ timeout: 20000 });
    assert.doesNotMatch(await wgsl.textContent(), /saturate\(/);
    assert.equal(await page.getByTestId('edited').count(), 0);
    assert.equal(await page.getByTestId('undo').isDisabled(), true);
    await mulLine(page).click();
    assert.match(await page.getByTestId('inspector-title').textContent(), /opcode token/);
    await page.getByTestId('field-saturate').selectOption('1');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul_sat r0\.xyzw, r0\.xyzw, cb0\[17\]\.xyzw/ }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    await page.getByTestId('edited').waitFor();
    // The translation follows: the product is clamped now.
    await wgsl.locator('.line', { hasText: 'saturate(' }).first().waitFor({ timeout: 20000 });
    // The selection stayed on the token, whose picker now reads 1.
    assert.equal(await page.getByTestId('field-saturate').inputValue(), '1');

    // The bytes are exactly what `dxbc edit` writes; the listing is `dxbc disasm`'s.
    const want = cli('edit', '--at', `0x${MUL_AT.toString(16)}`, '--field', 'saturate', '--value', '1', MERGE);
    // The hex view shows them: every drawn byte reads right, the edited
    // token's and the checksum's included (an edit redraws only the rows
    // whose bytes it changed).
    const cells = await drawnBytes(page);
    const drawn = new Set(cells.map(([b]) => b));
    for (const b of [MUL_AT, MUL_AT + 3, 4, 19]) assert.ok(drawn.has(b), `byte ${b} is drawn`);
    for (const [b, v] of cells) assert.equal(v, want[b], `hex view byte ${b}: ${v.toString(16)}`);
    const bin = await download(page, 'download-dxbc');
    assert.equal(bin.name, 'shader-edited.dxbc'); // a linked shader has no file name
    assert.ok(bin.bytes.equals(want), 'download-dxbc differs from dxbc edit');
    const asm = await download(page, 'download-listing');
    assert.equal(asm.name, 'shader-edited.asm');
    const edited = tmpFile('edited.dxbc', bin.bytes);
    assert.equal(asm.bytes.toString('utf8'), cli('disasm', edited).toString('utf8'));
    assert.match(asm.bytes.toString('utf8'), /^mul_sat /m);
    // The permalink carries the edited bytes: opened, it shows mul_sat as the file itself.
    const link = await currentLink(page);
    assert.ok(link.startsWith('#v1/'));
    const other = await page.context().newPage();
    await open(other, APP_URL + link);
    await other.locator('[data-testid=disassembly] .line', { hasText: /^mul_sat / }).waitFor({ timeout: 5000 });
    assert.equal(await other.getByTestId('edited').count(), 0);
    assert.ok((await download(other, 'download-dxbc')).bytes.equals(want));
    await other.close();

    // Undo restores mul and the opened bytes; redo and the keys walk again.
    await page.getByTestId('undo').click();
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.xyzw/ }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('edited').count(), 0);
    const back = await download(page, 'download-dxbc');
    assert.equal(back.name, 'shader.dxbc');
    assert.ok(back.bytes.equals(fs.readFileSync(MERGE)));
    await page.getByTestId('redo').click();
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul_sat / }).waitFor({ timeout: 5000 });
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.xyzw/ }).waitFor({ timeout: 5000 });
    await page.keyboard.press('Control+Shift+z');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul_sat / }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    assert.deepEqual(errors, []);
  });
});

test('a number field applies on Enter, and a refused edit says why in place', async () => {
  await withPage(async (page, errors) => {
    await open(page, APP_URL + cli('link', MERGE).toString().trim());
    await mulLine(page).click();
    // An operand's component selection: r0.xyzw → r0.x (mask 0b0001).
    await page.locator('[data-testid=inspector] .trow', { hasText: 'r0.xyzw' }).first().click();
    const cs = page.getByTestId('field-component-selection');
    await cs.fill('1');
    await cs.press('Enter');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.x, r0\.xyzw, cb0\[17\]\.xyzw/ }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    // Too wide for the field: refused, nothing changes, the message names the field.
    const again = page.getByTestId('field-component-selection');
    await again.fill('999');
    await again.press('Enter');
    const err = page.getByTestId('edit-error');
    await err.waitFor({ timeout: 5000 });
    assert.match(await err.textContent(), /component selection/);
    assert.match(await page.getByTestId('status').textContent(), /Edited component selection/);
    assert.equal(await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.x,/ }).count(), 1);
    // A refused pick (sample takes four operands, the mul holds three) leaves the picker on the token's opcode.
    await mulLine(page).click();
    await page.getByTestId('field-opcode').selectOption({ label: 'sample (69)' });
    assert.match(await page.getByTestId('edit-error').textContent(), /^Refused: /);
    assert.equal(await page.getByTestId('field-opcode').inputValue(), '56');
    // A hovered span is shown read-only, with a hint; the selection's editors come back with it.
    await hoverByte(page, 0);
    await page.getByTestId('edit-hint').waitFor({ timeout: 5000 });
    assert.equal(await page.locator('[data-testid=inspector] .fedit').count(), 0);
    await clickByte(page, 0);
    assert.equal(await page.getByTestId('edit-hint').count(), 0);
    assert.equal(await page.getByTestId('leaf-edit').inputValue(), 'DXBC');
    assert.deepEqual(errors, []);
  });
});

test('an index is edited as a whole number, and a signature name through its path', async () => {
  await withPage(async (page, errors) => {
    // cb0[17] of the mul: the operand's second index, at 0x164.
    await open(page, APP_URL + cli('link', '--select', '0x164', MERGE).toString().trim());
    assert.match(await page.getByTestId('inspector-title').textContent(), /index 1/);
    const v = page.getByTestId('field-value');
    await v.fill('16');
    await v.press('Enter');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^mul r0\.xyzw, r0\.xyzw, cb0\[16\]\.xyzw/ }).waitFor({ timeout: 5000 });
    const want = cli('edit', '--at', '0x164', '--field', 'value', '--value', '16', MERGE);
    assert.ok((await download(page, 'download-dxbc')).bytes.equals(want));
    await page.getByTestId('undo').click();
    await page.locator('[data-testid=disassembly] .line', { hasText: /cb0\[17\]/ }).waitFor({ timeout: 5000 });

    // The second input's semantic name (TEXCOORD, at byte 120) becomes UV;
    // the file is opened by name, and downloads are named after it.
    await page.getByTestId('file').setInputFiles(MERGE);
    await page.getByTestId('status').filter({ hasText: 'Opened directxtk_postprocess_psmerge.dxbc' }).waitFor({ timeout: 5000 });
    const plain = await download(page, 'download-dxbc');
    assert.equal(plain.name, 'directxtk_postprocess_psmerge.dxbc');
    assert.ok(plain.bytes.equals(fs.readFileSync(MERGE)));
    await clickByte(page, 120);
    assert.equal(await page.getByTestId('inspector-path').textContent(), 'ISGN/elements[1]/semantic_name');
    const leaf = page.getByTestId('leaf-edit');
    await leaf.fill('UV');
    await leaf.press('Enter');
    await page.locator('[data-testid=disassembly] .line', { hasText: /^\/\/ UV +0 +xy +1/ }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    const named = cli('edit', '--path', 'ISGN/elements[1]/semantic_name', '--value', 'UV', MERGE);
    const renamed = await download(page, 'download-dxbc');
    assert.equal(renamed.name, 'directxtk_postprocess_psmerge-edited.dxbc');
    assert.ok(renamed.bytes.equals(named));
    // Longer than the name it replaces: refused, in place.
    await page.getByTestId('leaf-edit').fill('A_MUCH_LONGER_NAME');
    await page.getByTestId('leaf-edit').press('Enter');
    assert.match(await page.getByTestId('edit-error').textContent(), /semantic_name` holds at most \d+ ASCII characters/);
    assert.deepEqual(errors, []);
  });
});

test('Copy copies the whole listing and the whole translation, and says so for two seconds', async () => {
  await withPage(async (page, errors) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // A long listing: far more lines than the view draws.
    const big = path.join(CORPUS, 'fxc', 'dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc');
    await open(page, APP_URL + cli('link', '--pane', 'translation', big).toString().trim());
    const copy = page.getByTestId('copy-listing');
    await copy.click();
    assert.equal(await copy.textContent(), 'Copied ✓');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(text, cli('disasm', big).toString('utf8'));
    await page.waitForTimeout(2300);
    assert.equal(await copy.textContent(), 'Copy');

    await page.getByTestId('tab-wgsl').waitFor({ timeout: 30000 });
    await page.getByTestId('tab-hlsl').click();
    await page.getByTestId('copy-translation').click();
    const hlsl = await page.evaluate(() => navigator.clipboard.readText());
    const shown = await page.locator('[data-testid=translation-code] .line').count();
    assert.ok(hlsl.split('\n').length - 1 > shown, `copied ${hlsl.split('\n').length} lines, the view draws ${shown}`);
    // The CLI puts the binding map above the same text, as comments.
    const want = cli('translate', '--to', 'hlsl', big).toString('utf8');
    assert.ok(hlsl.length > 1000 && want.endsWith(hlsl), 'the copied HLSL is not the translator\'s');
    assert.deepEqual(errors, []);
  });
});
