// Opening any file (issue 17): a file holding three corpus shaders among
// junk is carved in the worker and listed; the second one opens in the
// explorer with the listing `dxbc disasm` prints for its bytes, and a link
// made then carries that shader alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, currentLink, dxbcCli, withPage, scratchDir } from './chromium.mjs';

const SHADERS = [
  'angle63_buffertotexture11_gs.dxbc',
  'dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc',
  'directxtex_vs.dxbc',
].map((n) => fs.readFileSync(path.join(CORPUS, 'fxc', n)));

/** Reproducible junk (a linear congruential generator). */
function junk(n, seed) {
  const out = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/**
 * The three shaders among junk of odd lengths (so that no offset is
 * dword-aligned but the first), with a decoy magic in the first junk.
 * Returns the file and each shader's offset.
 */
function pack() {
  const parts = [Buffer.concat([junk(37, 1), Buffer.from('a DXBC string, not a container'), junk(40, 2)])];
  const offsets = [];
  let at = parts[0].length;
  SHADERS.forEach((s, i) => {
    offsets.push(at);
    const gap = junk(101 + 14 * i, 10 + i);
    parts.push(s, gap);
    at += s.length + gap.length;
  });
  return { file: Buffer.concat(parts), offsets };
}

function cli(...args) {
  const r = spawnSync(dxbcCli(), args, { maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`dxbc ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.toString('utf8');
}

function tmpFile(name, data) {
  const p = path.join(scratchDir('carve-'), name);
  fs.writeFileSync(p, data);
  return p;
}

async function dropFile(page, name, bytes) {
  await page.evaluate(([n, b64]) => {
    const bin = atob(b64);
    const arr = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) arr[i] = bin.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([arr], n));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, Buffer.from(bytes).toString('base64')]);
}

/** The shader record (tag 1) of a `#v1/` link (format: crates/dxbc/src/permalink.rs). */
function linkShader(link) {
  const payload = zlib.inflateRawSync(Buffer.from(link.replace(/^#v1\//, ''), 'base64url'));
  let i = 0;
  while (i < payload.length) {
    const tag = payload[i++];
    let len = 0;
    for (let shift = 0; ; shift += 7) {
      const b = payload[i++];
      len += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
    }
    if (tag === 1) return payload.subarray(i, i + len);
    i += len;
  }
  throw new Error('the link carries no shader');
}

test('a file of three shaders among junk lists them; the second opens with the CLI listing and links alone', async () => {
  const { file, offsets } = pack();
  const second = file.subarray(offsets[1], offsets[1] + SHADERS[1].length);
  assert.deepEqual(second, SHADERS[1]);
  const expected = cli('disasm', tmpFile('second.dxbc', second));
  await withPage(async (page, errors) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(APP_URL);
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
    await dropFile(page, 'game.pak', file);

    const rows = page.getByTestId('carve-row');
    await page.getByTestId('carve-list').waitFor({ timeout: 30000 });
    assert.equal(await rows.count(), 3);
    assert.deepEqual(await page.getByTestId('carve-offset').allTextContents(), offsets.map((o) => `0x${o.toString(16)}`));
    for (let i = 0; i < 3; i++) {
      const cells = await rows.nth(i).locator('td').allTextContents();
      const profile = cli('disasm', tmpFile(`s${i}.dxbc`, SHADERS[i])).match(/^(?:vs|ps|gs|hs|ds|cs)_\d_\d/m)[0];
      assert.deepEqual(cells, [String(i + 1), `0x${offsets[i].toString(16)}`, SHADERS[i].length.toLocaleString('en-US'), profile, '', 'valid']);
    }

    await rows.nth(1).click();
    const banner = page.getByTestId('carve-banner');
    await banner.waitFor();
    assert.equal(await banner.textContent(), `shader 2 of 3 at offset 0x${offsets[1].toString(16)} in game.pak`);
    assert.equal(await page.getByTestId('carve-list').count(), 0, 'the list folds when a shader opens');
    assert.equal(await page.getByTestId('profile').textContent(), 'cs_5_0');

    await page.getByTestId('copy-listing').click();
    const listing = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(listing, expected);

    // The hex view shows the shader in place: rows numbered by file
    // offsets, the file's rows before it dimmed and inert (8 of them).
    await page.getByTestId('hex-view').evaluate((el) => { el.scrollTop = 0; });
    await page.waitForTimeout(200);
    const hexRows = (await page.$$eval('[data-testid=hex-view] .hrow:not([hidden])', (els) => els.map((r) => ({
      off: parseInt(r.children[0].textContent, 16),
      around: r.querySelectorAll('.b.around').length,
      // The shader's bytes the row shows (hex_row.js keeps them on the row).
      bytes: [...(r.__offsets ?? [])].filter((b) => b !== 0xffffffff).sort((a, b) => a - b),
    })))).sort((a, b) => a.off - b.off);
    assert.equal(hexRows[0].off, offsets[1] - 8 * 16);
    assert.deepEqual([hexRows[0].around, hexRows[0].bytes], [16, []]);
    const start = hexRows.find((r) => r.off === offsets[1]);
    assert.deepEqual([start.around, start.bytes], [0, [...Array(16).keys()]]);

    // A link carries the open shader, not the file.
    assert.deepEqual(linkShader(await currentLink(page)), SHADERS[1]);

    // Back to the list, then another row.
    await page.getByTestId('carve-back').click();
    await rows.nth(2).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=carve-banner]')?.textContent.startsWith('shader 3 of 3'));
    await page.getByTestId('copy-listing').click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), cli('disasm', tmpFile('third.dxbc', SHADERS[2])));
    assert.deepEqual(errors, []);
  });
});

test('a single container opens directly, without a list', async () => {
  await withPage(async (page, errors) => {
    await page.goto(APP_URL);
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
    await dropFile(page, 'one.dxbc', SHADERS[1]);
    await page.waitForFunction(() => document.querySelector('[data-testid=profile]').textContent === 'cs_5_0');
    assert.equal(await page.getByTestId('carve-list').count(), 0);
    assert.equal(await page.getByTestId('carve-progress').count(), 0);
    assert.deepEqual(errors, []);
  });
});

test('a large file shows carving progress and can be cancelled', async () => {
  // 12 MiB of junk with the three shaders near its end.
  const { file } = pack();
  const big = Buffer.concat([junk(12 << 20, 7), file]);
  await withPage(async (page, errors) => {
    await page.goto(APP_URL);
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
    const before = await page.getByTestId('profile').textContent();
    await dropFile(page, 'big.bin', big);
    // The bar shows before the worker has even loaded; cancel at once.
    await page.getByTestId('carve-progress').waitFor({ timeout: 20000 });
    await page.getByTestId('carve-cancel').click();
    assert.equal(await page.getByTestId('carve-progress').count(), 0);
    assert.match(await page.getByTestId('status').textContent(), /cancelled/);
    // Nothing arrives later from the cancelled carve.
    await page.waitForTimeout(1500);
    assert.equal(await page.getByTestId('carve-list').count(), 0);
    assert.equal(await page.getByTestId('profile').textContent(), before);

    // Carved to the end, it finds the three shaders at their offsets.
    await dropFile(page, 'big.bin', big);
    await page.getByTestId('carve-list').waitFor({ timeout: 60000 });
    assert.equal(await page.getByTestId('carve-row').count(), 3);
    assert.equal(await page.getByTestId('carve-progress').count(), 0);
    assert.deepEqual(errors, []);
  });
});
