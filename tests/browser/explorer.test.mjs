// Browser tests against the built site (dist/ served on 127.0.0.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { withPage, currentLink, dxbcCli, drawnBytes, assertPaintedIn, byteBox, hoverByte } from './chromium.mjs';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const TINT_H = fs.readFileSync(path.join(HERE, 'fixtures', 'tint_ps.h'), 'utf8');
const SHOTS = process.env.SCREENSHOT_DIR; // set to keep screenshots of every view

// A link written by version 1 of the codec (same string as the golden test
// in crates/dxbc/src/permalink.rs): the tint example, selection 0x4c+4,
// field at bit 12, panes 0b101, tour step 3. Never edit; add new ones.
const GOLDEN_V1 = '#v1/NYstDoNAEIXfsEuKQKyqbBE9RFVFf0hFRZOarSXBcA4kgRNgEFwBSYJCIDkJCgcDLJN8ed8k71FMT31_lGNXT717OOdNViVtQQBiZskL83u_tOb8MkcmckB_QPqpB5heoCAGpdY_BLu3-RVwdvdPJs1uuRvPLesjBbmSbJvEDA';

function tintBytes() {
  const body = TINT_H.slice(TINT_H.indexOf('{') + 1, TINT_H.indexOf('}'));
  return Uint8Array.from(body.split(',').map((s) => s.trim()).filter(Boolean).map(Number));
}


async function open(page, url = APP_URL) {
  await page.goto(url);
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
}

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Offsets of the selected bytes in the hex view. */
async function selectedBytes(page) {
  return page.$$eval('[data-testid=hex-view] .b.sel', (els) => els.map((e) => Number(e.dataset.b)).sort((a, b) => a - b));
}

async function clickLine(page, text) {
  const line = page.locator('[data-testid=disassembly] .line', { hasText: text }).first();
  await line.scrollIntoViewIfNeeded();
  await line.click();
}

test('opens on the example shader with its fxc listing, chunks and reflection', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    assert.equal(await page.getByTestId('profile').textContent(), 'ps_5_0');
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    const dis = page.getByTestId('disassembly');
    await clickLine(page, 'sample_indexable');
    assert.match(await dis.textContent(), /sample_indexable\(texture2d\)\(float,float,float,float\) r0\.xyzw, v1\.xyxx, t0\.xyzw, s0/);
    assert.match(await page.getByTestId('chunks').textContent(), /RDEF.*ISGN.*OSGN.*SHEX/s);
    const refl = await page.getByTestId('reflection').textContent();
    assert.match(refl, /cbuffer Material/);
    assert.match(refl, /SV_Target/);
    await shot(page, 'example');
    assert.deepEqual(errors, []);
  });
});

test('clicking a disassembly line selects its bytes; hovering a byte shows its field', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await clickLine(page, 'mul o0.xyzw, r0.xyzw, cb0[0].xyzw');
    const sel = await selectedBytes(page);
    assert.equal(sel.length, 32, `selected ${sel}`); // mul with three operands: 8 dwords
    const op = sel[0];
    assert.deepEqual(sel, Array.from({ length: 32 }, (_, i) => op + i));
    assert.match(await page.locator('[data-testid=disassembly] .line.sel').textContent(), /^mul o0\.xyzw, r0\.xyzw, cb0\[0\]\.xyzw$/);
    // Byte 2 of the first operand token holds bits 16..23: the operand type.
    await hoverByte(page, op + 6);
    const ins = page.getByTestId('inspector');
    await page.waitForFunction(() => document.querySelector('[data-testid=inspector-title]')?.textContent === 'operand token');
    const active = ins.locator('tr.frow.active');
    assert.equal(await active.getAttribute('data-field'), 'operand type');
    assert.match(await active.textContent(), /OUTPUT/);
    assert.equal(await page.locator('[data-testid=disassembly] .line.hl').textContent(), 'mul o0.xyzw, r0.xyzw, cb0[0].xyzw');
    assert.equal(await page.locator('[data-testid=hex-view] .b.hov').count(), 4);
    await shot(page, 'hover');
    // Clicking an inspector field selects just its bytes (operand type: bits 12..19 = bytes 1..2).
    await active.click();
    assert.deepEqual(await selectedBytes(page), [op + 5, op + 6]);
    // Another byte of the same token marks its own field, alone, in the
    // table and in the ribbon (the token's view stays; the marks move).
    await hoverByte(page, op + 4);
    await page.waitForFunction(() => document.querySelector('[data-testid=inspector] tr.frow.active')?.dataset.field !== 'operand type');
    const moved = await ins.locator('tr.frow.active').evaluateAll((rows) => rows.map((r) => r.dataset.field));
    assert.equal(moved.length, 1, `${moved}`);
    assert.deepEqual(await ins.locator('.ribbon .rg.active').evaluateAll((cells) => cells.map((c) => c.title)), moved);
    // Keyboard: Right moves to the next token.
    await page.getByTestId('hex-view').focus();
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await selectedBytes(page), [op + 8, op + 9, op + 10, op + 11]);
    assert.deepEqual(errors, []);
  });
});

test('pasting an fxc /Fh C array decodes it', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await page.getByTestId('paste').fill(TINT_H);
    await page.getByTestId('decode').click();
    await page.waitForFunction(() => /C byte array/.test(document.querySelector('[data-testid=status]').textContent));
    assert.match(await page.getByTestId('disassembly').textContent(), /mul o0\.xyzw, v0\.xyzw, cb0\[0\]\.xyzw/);
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    assert.deepEqual(errors, []);
  });
});

test('a permalink reopens exactly the same view; golden v1 links keep working', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await page.getByTestId('examples').selectOption('vs');
    await page.waitForFunction(() => document.querySelector('[data-testid=profile]').textContent === 'vs_5_0');
    await clickLine(page, 'mul o1.xyzw');
    const ins = page.getByTestId('inspector');
    await ins.locator('tr.frow[data-field="opcode"]').click();
    const before = await selectedBytes(page);
    const title = await page.getByTestId('inspector-title').textContent();
    const link = await currentLink(page);
    assert.match(link, /^#v1\/[A-Za-z0-9_-]+$/);
    assert.match(await page.locator('.len').textContent(), /^\d[\d,]* chars$/);
    await page.goto('about:blank');
    await open(page, APP_URL + link);
    assert.equal(await page.getByTestId('profile').textContent(), 'vs_5_0');
    assert.deepEqual(await selectedBytes(page), before);
    assert.equal(await page.getByTestId('inspector-title').textContent(), title);
    assert.equal(await ins.locator('tr.frow.active').getAttribute('data-field'), 'opcode');
    assert.equal(await currentLink(page), link);

    await page.goto('about:blank');
    await open(page, APP_URL + GOLDEN_V1);
    assert.equal(await page.getByTestId('profile').textContent(), 'ps_5_0');
    assert.match(await page.getByTestId('tour').textContent(), /Tour 4\//);
    assert.deepEqual(await selectedBytes(page), [0x4c, 0x4d, 0x4e, 0x4f]);
    await shot(page, 'tour');
    assert.deepEqual(errors, []);
  });
});

test('a dropped damaged file shows what decoded and where decoding stopped', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    const bytes = tintBytes();
    // Zero the length of the mul opcode token (0x08000038 -> 0x00000038).
    const dv = new DataView(bytes.buffer);
    let at = -1;
    for (let o = 0; o + 4 <= bytes.length; o += 4) if (dv.getUint32(o, true) === 0x08000038) at = o;
    assert.ok(at > 0);
    dv.setUint32(at, 0x38, true);
    await page.evaluate((arr) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(arr)], 'damaged.dxbc'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, Array.from(bytes));
    const err = page.getByTestId('error');
    await err.waitFor({ timeout: 5000 });
    assert.match(await err.textContent(), new RegExp(`Decoding stopped at offset 0x${at.toString(16)}\\b`));
    assert.match(await page.getByTestId('status').textContent(), /damaged\.dxbc/);
    // The stop offset is marked and selected in the hex view; what decoded is still listed.
    assert.equal(await page.locator('[data-testid=hex-view] .b.stop').getAttribute('data-b'), String(at));
    assert.ok((await selectedBytes(page)).includes(at));
    assert.match(await page.getByTestId('disassembly').textContent(), /dcl_output o0\.xyzw/);
    await shot(page, 'damaged');
    assert.deepEqual(errors, []);
  });
});

test('the tour walks every step without errors', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await page.getByTestId('tour-start').click();
    const tour = page.getByTestId('tour');
    const n = Number((await tour.textContent()).match(/Tour 1\/(\d+)/)[1]);
    for (let i = 1; i < n; i++) {
      await page.getByTestId('tour-next').click();
      assert.match(await tour.textContent(), new RegExp(`Tour ${i + 1}/${n}`));
      assert.ok((await selectedBytes(page)).length > 0, `step ${i + 1} selects bytes`);
    }
    assert.deepEqual(errors, []);
  });
});

/** Drops a file (bytes from node) onto the page. */
async function dropFile(page, name, bytes) {
  await page.evaluate(([n, arr]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(arr)], n));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, Array.from(bytes)]);
}

async function openTranslation(page) {
  const toggle = page.getByTestId('translation-toggle');
  if (!(await toggle.isChecked())) await toggle.check();
  const pane = page.getByTestId('translation');
  await pane.locator('[data-testid=translation-validation], [data-testid=translation-error]').first().waitFor({ timeout: 20000 });
  return pane;
}

/** Scrolls a virtualised view to the bottom and returns its text. */
async function bottomText(loc) {
  await loc.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await loc.page().waitForTimeout(100);
  return loc.textContent();
}

test('translation pane: WGSL lines select their instruction, other targets, binding map, validation', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    const pane = await openTranslation(page);
    assert.match(await pane.getByTestId('translation-validation').textContent(), /naga validation passed: fragment shader/);
    const code = pane.getByTestId('translation-code');
    // The input is read as the entry point's argument, named after its semantic.
    assert.match(await code.textContent(), /fn main\(@location\(1\) texcoord: vec4<f32>\)/);
    // Click the line that samples the texture: the bytes of sample_indexable get selected.
    const line = code.locator('.line.linked', { hasText: /= textureSample\(/ }).first();
    await line.scrollIntoViewIfNeeded();
    const [start, len] = (await line.getAttribute('data-span')).split('+').map(Number);
    await line.click();
    const sel = await selectedBytes(page);
    assert.deepEqual(sel, Array.from({ length: len }, (_, i) => start + i));
    assert.match(await page.locator('[data-testid=disassembly] .line.sel').textContent(), /^sample_indexable\(texture2d\)/);
    assert.match(await line.getAttribute('class'), /\bsel\b/);
    assert.match(await page.getByTestId('inspector-title').textContent(), /opcode token/);
    // A disassembly click lights up the WGSL it became.
    await clickLine(page, 'mul o0.xyzw, r0.xyzw, cb0[0].xyzw');
    const lit = code.locator('.line.sel');
    assert.ok(await lit.count() > 0);
    const [s2] = (await lit.first().getAttribute('data-span')).split('+').map(Number);
    assert.equal(s2, (await selectedBytes(page))[0]);
    // The one output is the result: stored once, it is returned as its value, named after it.
    assert.match(await code.textContent(), /\) -> @location\(0\) vec4<f32> \{/);
    assert.match(await bottomText(code), /let out_target = [^;]*;\s*return out_target;\s*\}$/);
    await shot(page, 'translation');
    const map = await pane.getByTestId('binding-map').textContent();
    assert.match(map, /cb0@group\(0\) @binding\(0\)uniform buffer/);
    assert.match(map, /t0@group\(1\) @binding\(0\)texture2d, float/);
    assert.match(map, /s0@group\(2\) @binding\(0\)sampler/);
    for (const [tab, re] of [['glsl', /#version 450/], ['msl', /metal_stdlib/], ['hlsl', /register\(/]]) {
      await pane.getByTestId(`tab-${tab}`).click();
      assert.match(await code.textContent(), re, tab);
      assert.equal(await code.locator('.line.linked').count(), 0);
    }
    await pane.getByTestId('tab-wgsl').click();
    assert.match(await code.textContent(), /fn main\(/);
    // The pane is part of the link's view.
    const link = await currentLink(page);
    await page.goto('about:blank');
    await open(page, APP_URL + link);
    await page.getByTestId('translation').getByTestId('translation-validation').waitFor({ timeout: 20000 });
    assert.deepEqual(errors, []);
  });
});

test('translation pane: a geometry shader shows its compute form and its passes, as the CLI writes them', async () => {
  await withPage(async (page, errors) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await open(page);
    const pane = await openTranslation(page);
    const file = path.join(CORPUS, 'fxc', 'angle63_buffertotexture11_gs.dxbc');
    await page.getByTestId('file').setInputFiles(file);
    await page.waitForFunction(() => /angle63_buffertotexture11_gs\.dxbc/.test(document.querySelector('[data-testid=status]').textContent));
    await pane.getByTestId('translation-validation').waitFor({ timeout: 20000 });
    assert.match(await pane.getByTestId('translation-validation').textContent(), /compute shader/);
    // The CLI's default form of a GS (auto: its compute pass): a header
    // comment naming the passes, then the bindings, then the WGSL.
    const cli = spawnSync(dxbcCli(), ['translate', '--to', 'wgsl', '--form', 'auto', file], { encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    const passes = await pane.getByTestId('translation-passes').locator('div').allTextContents();
    assert.ok(passes.length >= 3 && passes[0].startsWith('Geometry shader as compute'), passes.join('\n'));
    assert.ok(cli.stdout.startsWith(passes.map((l) => `// ${l}\n`).join('')), cli.stdout.slice(0, 600));
    await page.getByTestId('tab-wgsl').click();
    await page.getByTestId('copy-translation').click();
    const wgsl = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(wgsl.includes('@compute') && cli.stdout.endsWith(`\n\n${wgsl}`), 'the pane\'s WGSL is not the CLI\'s');
    await shot(page, 'translation-gs');
    // Back to a pixel shader: translated again.
    await page.getByTestId('examples').selectOption('tint');
    await pane.getByTestId('translation-validation').waitFor({ timeout: 20000 });
    assert.deepEqual(errors, []);
  });
});

test('names from the shader are shown as text, never as markup', async () => {
  await withPage(async (page, errors) => {
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
    await open(page);
    await page.getByTestId('file').setInputFiles(path.join(HERE, 'fixtures', 'hostile_names.dxbc'));
    await page.waitForFunction(() => /hostile_names\.dxbc/.test(document.querySelector('[data-testid=status]').textContent));
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    // The status line names the file before the worker's carve check lets
    // the model (and the reflection pane) take it: wait for the pane.
    await page.waitForFunction(() => document.querySelector('[data-testid=reflection]')?.textContent.includes('Creator: <img'), null, { timeout: 8000 });
    const refl = await page.getByTestId('reflection').textContent();
    for (const s of ['Creator: <img src=x onerror=alert(1)>', 'cbuffer <script>alert(2)</script> (16 bytes)',
      '"><svg onload=alert(3)>', '<img src=y onerror=alert(4)>', '<script>alert(5)</script>']) {
      assert.ok(refl.includes(s), `reflection shows ${s} literally`);
    }
    // The inspector shows a leaf's string value as text too.
    const fixture = fs.readFileSync(path.join(HERE, 'fixtures', 'hostile_names.dxbc'));
    const creatorAt = fixture.indexOf('<img src=x onerror=alert(1)>\0');
    assert.ok(creatorAt > 0);
    await hexTop(page);
    await hoverByte(page, creatorAt + 3);
    await page.waitForFunction(() => document.querySelector('[data-testid=inspector-path]')?.textContent === 'RDEF/creator');
    assert.equal(await page.getByTestId('inspector-value').textContent(), '<img src=x onerror=alert(1)>');
    const dis = page.getByTestId('disassembly');
    await dis.evaluate((el) => { el.scrollTop = 0; });
    await page.waitForFunction(() => /cbuffer </.test(document.querySelector('[data-testid=disassembly]').textContent));
    assert.match(await dis.textContent(), /cbuffer <script>alert\(2\)<\/script>/);
    assert.match(await dis.textContent(), /<img src=y onerror=alert\(4\)> +texture/);
    await openTranslation(page);
    await page.waitForTimeout(300);
    const injected = await page.evaluate(() => ({
      img: document.querySelectorAll('img').length,
      svg: document.querySelectorAll('svg').length,
      scripts: [...document.scripts].map((s) => s.id || s.src || 'inline'),
    }));
    assert.deepEqual(injected, { img: 0, svg: 0, scripts: ['dxbc-boot'] });
    await shot(page, 'hostile');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
  });
});

test('the Content-Security-Policy lets the app run and blocks injected script', async () => {
  await withPage(async (page, errors) => {
    const violations = [];
    page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) violations.push(m.text()); });
    await open(page);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(await page.evaluate(() => document.querySelectorAll('script:not([src])').length), 0);
    assert.deepEqual(violations, [], 'the app itself triggers no violation');
    const blocked = await page.evaluate(() => new Promise((resolve) => {
      const seen = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.append(s);
      const d = document.createElement('div');
      d.setAttribute('onclick', 'window.__clicked = true');
      document.body.append(d);
      d.click();
      setTimeout(() => resolve({ seen, injected: window.__injected, clicked: window.__clicked }), 300);
    }));
    assert.equal(blocked.injected, undefined);
    assert.equal(blocked.clicked, undefined);
    assert.ok(blocked.seen.length >= 2 && blocked.seen.every((d) => d.startsWith('script-src')), JSON.stringify(blocked.seen));
    // The app still works afterwards.
    await clickLine(page, 'mul o0.xyzw, r0.xyzw, cb0[0].xyzw');
    assert.equal((await selectedBytes(page)).length, 32);
    assert.deepEqual(errors, []);
  });
});

test('garbage and oversized links give a clear message and no crash', async () => {
  await withPage(async (page, errors) => {
    await open(page, APP_URL + '#v1/this-is-not-a-shader!!');
    const notice = page.getByTestId('notice');
    await notice.waitFor({ timeout: 5000 });
    assert.match(await notice.textContent(), /This link could not be opened: .+\. It may have been cut short/);
    assert.equal(await page.getByTestId('profile').textContent(), 'ps_5_0'); // the example stays
    await shot(page, 'bad-link');
    // About 1.5 MB of base64: decodes, but is no link.
    await page.goto('about:blank');
    await open(page, APP_URL + '#v1/' + 'A'.repeat(1_500_000));
    await notice.waitFor({ timeout: 5000 });
    assert.match(await notice.textContent(), /This link could not be opened/);
    // A link changed in place (hashchange).
    await page.getByTestId('examples').selectOption('vs');
    await page.evaluate(() => { location.hash = '#v1/' + 'zz'.repeat(40); });
    await page.waitForFunction(() => /could not be opened/.test(document.querySelector('[data-testid=notice]')?.textContent));
    assert.equal(await page.getByTestId('profile').textContent(), 'vs_5_0');
    // Longer than any link may be: refused before decoding.
    await page.getByTestId('paste').evaluate((el) => {
      el.value = '#v1/' + 'A'.repeat(4_300_000);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.getByTestId('decode').click();
    await page.waitForFunction(() => /characters long/.test(document.querySelector('[data-testid=notice]')?.textContent));
    assert.match(await notice.textContent(), /link is 4300004 characters long; the longest accepted is 4194304/);
    assert.equal(await page.getByTestId('profile').textContent(), 'vs_5_0');
    assert.deepEqual(errors, []);
  });
});

test('files above 16 MiB are refused politely', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array((16 << 20) + 1)], 'huge.dxbc'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    const notice = page.getByTestId('notice');
    await notice.waitFor({ timeout: 5000 });
    assert.match(await notice.textContent(), /huge\.dxbc is 16,777,217 bytes \(16\.0 MiB\); the explorer opens files up to 16 MiB\. Nothing was read\./);
    assert.equal(await page.getByTestId('profile').textContent(), 'ps_5_0');
    // Exactly 16 MiB is read (and is not a container).
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(16 << 20)], 'limit.bin'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => /limit\.bin: 16777216 bytes/.test(document.querySelector('[data-testid=status]').textContent), null, { timeout: 20000 });
    assert.equal(await page.getByTestId('notice').count(), 0);
    assert.deepEqual(errors, []);
  });
});

// The corpus, read in place (a missing corpus fails loudly here).
const CORPUS = path.join(HERE, '..', '..', '..', 'shared', 'corpus');
const L9_VS = fs.readFileSync(path.join(CORPUS, 'fxc', 'angle63_passthrough2d11vs.dxbc'));

/** Scrolls the hex view to its first row (the page scrolls it to the selection). */
async function hexTop(page) {
  await page.getByTestId('hex-view').evaluate((el) => { el.scrollTop = 0; });
  await byteBox(page, 0);
}

test('hovering an RDEF byte shows its leaf field in the inspector', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await hexTop(page);
    // Find the cbuffer name "Material\0" in the bytes (RDEF is the first
    // chunk), scrolling down a few rows at a time: the view draws only
    // the rows that fit.
    const want = [...Buffer.from('Material\0')];
    let at = -1;
    for (let y = 0, end = false; at < 0 && !end; y += 200) {
      const top = await page.getByTestId('hex-view').evaluate((el, y) => { el.scrollTop = y; return el.scrollTop; }, y);
      end = top < y;
      await byteBox(page, Math.floor(top / 20) * 16);
      const drawn = new Map(await drawnBytes(page));
      for (const [o] of drawn) if (want.every((c, k) => drawn.get(o + k) === c)) { at = o; break; }
    }
    assert.ok(at > 0, 'Material is drawn');
    await hoverByte(page, at + 2);
    await page.waitForFunction(() => document.querySelector('[data-testid=inspector-path]')?.textContent === 'RDEF/constant_buffers[0]/name');
    assert.equal(await page.getByTestId('inspector-value').textContent(), 'Material');
    // The whole leaf lights up: the name and its NUL.
    const hov = await page.$$eval('[data-testid=hex-view] .b.hov', (els) => els.map((e) => Number(e.dataset.b)).sort((a, b) => a - b));
    assert.deepEqual(hov, Array.from({ length: 9 }, (_, k) => at + k));
    // Painted in RDEF's colour (or its alternate shade).
    await assertPaintedIn(page, at, 'rdef');
    await shot(page, 'rdef-leaf');
    assert.deepEqual(errors, []);
  });
});

test('a level-9 listing line selects its SM2 bytes, and its bytes light the line', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    await dropFile(page, 'l9.dxbc', L9_VS);
    await page.waitForFunction(() => /l9\.dxbc/.test(document.querySelector('[data-testid=status]').textContent));
    await clickLine(page, 'add oPos.xy, v0, c0');
    const sel = await selectedBytes(page);
    // SM2 add: opcode token (D3DSIO_ADD = 2), a destination and two sources.
    assert.equal(sel.length, 16, `selected ${sel}`);
    assert.deepEqual(sel, Array.from({ length: 16 }, (_, k) => sel[0] + k));
    assert.equal(L9_VS.readUInt32LE(sel[0]) & 0xffff, 2);
    assert.match(await page.getByTestId('inspector-path').textContent(), /^Aon9\/program\/instructions\[3\]\//);
    assert.equal(await page.locator('[data-testid=disassembly] .line.sel').textContent(), '    add oPos.xy, v0, c0');
    // Hovering the last dword of the instruction lights the same line.
    await hoverByte(page, sel[15]);
    await page.waitForFunction(() => document.querySelector('[data-testid=disassembly] .line.hl')?.textContent === '    add oPos.xy, v0, c0');
    assert.deepEqual(errors, []);
  });
});

test('a truncated file shows its chunks and one message per error', async () => {
  await withPage(async (page, errors) => {
    await open(page);
    // Cut in the middle of the last chunk.
    const n = L9_VS.readUInt32LE(28);
    let last = 0;
    for (let k = 0; k < n; k++) last = Math.max(last, L9_VS.readUInt32LE(32 + 4 * k));
    const cut = last + 8 + (L9_VS.readUInt32LE(last + 4) >> 1);
    await dropFile(page, 'cut.dxbc', L9_VS.subarray(0, cut));
    const err = page.getByTestId('error');
    await err.waitFor({ timeout: 5000 });
    const faults = await page.getByTestId('fault').allTextContents();
    assert.ok(faults.length >= 1);
    for (const f of faults) assert.match(f, /\(at offset 0x[0-9a-f]+\)$/);
    assert.ok(faults.some((f) => / in chunk #\d+ [A-Za-z0-9]{4} at 0x/.test(f)), faults.join('\n'));
    const chunks = await page.getByTestId('chunks').textContent();
    assert.match(chunks, /Aon9.*SHDR.*STAT.*RDEF.*ISGN.*OSGN/s);
    assert.doesNotMatch(await page.getByTestId('checksum').textContent(), /not a container/);
    assert.match(await page.getByTestId('disassembly').textContent(), /vs_2_x/);
    await shot(page, 'truncated');
    assert.deepEqual(errors, []);
  });
});
