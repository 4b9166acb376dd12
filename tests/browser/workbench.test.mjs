// The workbench layout: panes fill the window and scroll inside, linked
// selections scroll every view to themselves, resizable splits, the
// narrow-screen fold tabs, dark mode and selection accessibility.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withPage, assertPaintedIn, byteBox, clickByte, hoverByte } from './chromium.mjs';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const DXBC = process.env.DXBC_CLI ?? path.join(ROOT, 'target', 'release', 'dxbc');
const SHOTS = process.env.SCREENSHOT_DIR;
if (!fs.existsSync(DXBC)) throw new Error(`missing dxbc (cargo build --release -p dxbc-cli): ${DXBC}`);

// A long compute shader: ~1,400 listing lines, 40 KB of bytes.
const BIG = path.join(CORPUS, 'fxc', 'dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc');

function link(file, ...args) {
  const r = spawnSync(DXBC, ['link', ...args, file]);
  if (r.status !== 0) throw new Error(`dxbc link failed: ${r.stderr}`);
  return r.stdout.toString().trim();
}

/** Offset of the last `ret` opcode token (0x0100003e) of a file. */
function lastRet(file) {
  const b = fs.readFileSync(file);
  for (let o = b.length - 4; o >= 0; o -= 4) if (b.readUInt32LE(o) === 0x0100003e) return o;
  throw new Error('no ret');
}

/** Offset of the program (the SHEX or SHDR chunk's data), from the chunk table. */
function programStart(file) {
  const b = fs.readFileSync(file);
  for (let k = 0; k < b.readUInt32LE(28); k++) {
    const at = b.readUInt32LE(32 + 4 * k);
    if (['SHEX', 'SHDR'].includes(b.toString('latin1', at, at + 4))) return at + 8;
  }
  throw new Error('no program chunk');
}

async function open(page, url = APP_URL) {
  await page.goto(url);
  await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 20000 });
}

/** Whether every element matching `sel` lies inside the window and inside its scrolling pane `pane`. */
async function allInView(page, sel, pane) {
  return page.evaluate(([sel, pane]) => {
    const els = [...document.querySelectorAll(sel)];
    if (els.length === 0) return 'nothing matches ' + sel;
    const p = pane ? document.querySelector(pane).getBoundingClientRect() : null;
    for (const e of els) {
      const r = e.getBoundingClientRect();
      if (r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return `${sel} outside the window: ${JSON.stringify(r)}`;
      if (p && (r.top < p.top - 1 || r.bottom > p.bottom + 1)) return `${sel} outside its pane: ${r.top}..${r.bottom} not in ${p.top}..${p.bottom}`;
    }
    return true;
  }, [sel, pane]);
}

async function documentScrolls(page) {
  return page.evaluate(() => document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth);
}

async function selectedBytes(page) {
  return page.$$eval('[data-testid=hex-view] .b.sel', (els) => els.map((e) => Number(e.dataset.b)).sort((a, b) => a - b));
}

test('a link to a token shows its bytes, listing line and inspector at once, and the page never scrolls', async () => {
  await withPage(async (page, errors) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const at = lastRet(BIG);
    await open(page, APP_URL + link(BIG, '--select', `0x${at.toString(16)}`));
    assert.deepEqual(await selectedBytes(page), [at, at + 1, at + 2, at + 3]);
    assert.match(await page.locator('[data-testid=disassembly] .line.sel').textContent(), /^ret\s*$/);
    assert.equal(await allInView(page, '[data-testid=hex-view] .b.sel', '[data-testid=hex-view]'), true);
    assert.equal(await allInView(page, '[data-testid=disassembly] .line.sel', '[data-testid=disassembly]'), true);
    assert.equal(await allInView(page, '[data-testid=inspector-title]'), true);
    assert.match(await page.getByTestId('inspector-title').textContent(), /opcode token/);
    assert.equal(await documentScrolls(page), false);
    // Selection is announced: the line and every selected byte.
    assert.equal(await page.locator('[data-testid=disassembly] .line.sel').getAttribute('aria-selected'), 'true');
    assert.deepEqual(await page.$$eval('[data-testid=hex-view] [aria-selected=true]', (els) => els.map((e) => Number(e.dataset.b)).sort((a, b) => a - b)), [at, at + 1, at + 2, at + 3]);
    assert.equal(await page.locator('[data-testid=disassembly] [aria-selected=true]').count(), 1);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'workbench-1440.png') });

    // Hovering a byte far from the listing's view brings its line into view.
    const hex = page.getByTestId('hex-view');
    const firstIns = programStart(BIG) + 8; // after the version and length tokens: the first declaration
    await hex.evaluate((el, row) => { el.scrollTop = row * 20; }, Math.floor(firstIns / 16));
    await hoverByte(page, firstIns);
    await page.locator('[data-testid=disassembly] .line.hl').waitFor({ timeout: 5000 });
    assert.equal(await allInView(page, '[data-testid=disassembly] .line.hl', '[data-testid=disassembly]'), true);
    assert.match(await page.locator('[data-testid=disassembly] .line.hl').textContent(), /^dcl_/);

    // Clicking a listing line scrolls the bytes to it.
    const line = page.locator('[data-testid=disassembly] .line.hl');
    await line.hover(); // the pointer leaves the bytes
    await hex.evaluate((el) => { el.scrollTop = 0; });
    await page.waitForTimeout(100);
    await line.click();
    await page.waitForTimeout(100);
    assert.ok((await selectedBytes(page)).length > 0);
    assert.equal(await allInView(page, '[data-testid=hex-view] .b.sel', '[data-testid=hex-view]'), true);
    assert.deepEqual(errors, []);
  });
});

test('after a jump the listing draws the rows below its window too, and follows a wheel turn', async () => {
  await withPage(async (page, errors) => {
    await open(page, APP_URL + link(BIG));
    const dis = page.getByTestId('disassembly');
    // A byte far down the file: the listing jumps to its line.
    const hex = page.getByTestId('hex-view');
    const half = await hex.evaluate((el) => { el.scrollTop = el.scrollHeight / 2; return Math.floor(el.scrollTop / 20) * 16 + 64; });
    await page.waitForTimeout(100);
    // The frame that shows the jump draws the listing's window and a row
    // beyond it at most (read in that frame's callbacks, before its paint).
    const box = await byteBox(page, half);
    const below = await page.evaluate(async ({ x, y }) => {
      document.elementFromPoint(x, y).dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: x, clientY: y }));
      await new Promise((r) => requestAnimationFrame(r));
      const d = document.querySelector('[data-testid=disassembly]');
      const bottom = d.getBoundingClientRect().bottom;
      return [...d.querySelectorAll('.line')].filter((l) => l.getBoundingClientRect().top >= bottom).length;
    }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    assert.ok(below <= 2, `${below} rows drawn below the window in the jump's frame`);
    await page.locator('[data-testid=disassembly] .line.sel').waitFor();
    assert.equal(await allInView(page, '[data-testid=disassembly] .line.sel', '[data-testid=disassembly]'), true);
    // Rows below the window (the lookahead) follow the jump's frame.
    await page.waitForFunction(() => {
      const d = document.querySelector('[data-testid=disassembly]');
      const bottom = d.getBoundingClientRect().bottom;
      return [...d.querySelectorAll('.line')].filter((l) => l.getBoundingClientRect().top >= bottom).length >= 20;
    }, null, { timeout: 5000 });
    // A wheel turn right after: the rows drawn are the rows scrolled to.
    await dis.hover();
    await page.mouse.wheel(0, 300);
    await page.waitForFunction(() => {
      const d = document.querySelector('[data-testid=disassembly]');
      const r = d.getBoundingClientRect();
      const at = (y) => document.elementFromPoint(r.left + 40, y)?.closest('.line');
      const top = at(r.top + 2), low = at(r.bottom - 4);
      return d.scrollTop > 0 && top !== null && low !== null && Number(top.dataset.line) === Math.floor(d.scrollTop / 20);
    }, null, { timeout: 5000 });
    assert.deepEqual(errors, []);
  });
});

test('the listing keeps its row elements through a jump and a wheel turn, in line order, with the CLI\'s lines', async () => {
  const lines = spawnSync(DXBC, ['disasm', BIG]).stdout.toString().split('\n');
  await withPage(async (page, errors) => {
    await open(page, APP_URL + link(BIG));
    // The rows drawn: visible, in document order, with their lines and
    // whether each was there before (tagged).
    const rows = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=disassembly] .line')]
      .filter((e) => !e.hidden).map((e) => ({ line: Number(e.dataset.line), text: e.textContent, kept: e.__kept === true })));
    const tagAll = () => page.evaluate(() => document.querySelectorAll('[data-testid=disassembly] .rows > *').forEach((e) => { e.__kept = true; }));
    const check = (drawn, what) => {
      assert.ok(drawn.length >= 30, `${what}: ${drawn.length} rows`);
      drawn.forEach((r, i) => {
        assert.equal(r.line, drawn[0].line + i, `${what}: row ${i} is out of order`);
        assert.equal(r.text, lines[r.line], `${what}: line ${r.line}`);
        assert.ok(r.kept, `${what}: line ${r.line} got a new element`);
      });
    };
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=disassembly] .line').length >= 50);
    await tagAll();
    // A jump far down (a byte near the end), then the lookahead after it.
    const b = lastRet(BIG);
    await page.getByTestId('hex-view').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await page.waitForTimeout(100);
    await clickByte(page, b);
    await page.locator('[data-testid=disassembly] .line.sel').waitFor();
    await page.waitForTimeout(300);
    const jumped = await rows();
    check(jumped, 'after the jump');
    assert.ok(jumped[0].line > 1000, `the jump shows line ${jumped[0].line}`);
    // A wheel turn up: the rows that enter come from the other end.
    await page.getByTestId('disassembly').hover();
    await page.mouse.wheel(0, -200);
    await page.waitForFunction((first) => {
      const e = document.querySelector('[data-testid=disassembly] .line');
      return e !== null && Number(e.dataset.line) < first;
    }, jumped[0].line);
    await page.waitForTimeout(300);
    check(await rows(), 'after the wheel turn');
    assert.deepEqual(errors, []);
  });
});

test('the link meter counts the link Copy link makes, for a small file (measured on the page) and a large one (in the worker)', async () => {
  await withPage(async (page, errors) => {
    for (const url of [APP_URL, APP_URL + link(BIG)]) {
      await open(page, url);
      await page.getByTestId('copy-link').click();
      const copied = await page.getByTestId('permalink').inputValue();
      assert.ok(copied.startsWith('#v1/'), copied.slice(0, 20));
      // Measured after the frame that shows the file; a large file's in the worker.
      const shown = () => page.getByTestId('link-length').textContent().then((t) => Number(t.replace(/[^\d]/g, '')));
      await page.waitForFunction((n) => document.querySelector('[data-testid=link-length]').textContent
        .replace(/[^\d]/g, '') === String(n), copied.length, { timeout: 10000 }).catch(() => {});
      assert.equal(await shown(), copied.length, url.slice(0, 40));
    }
    assert.ok(fs.statSync(BIG).size > 32 * 1024, 'the large file is measured in the worker');
    assert.deepEqual(errors, []);
  });
});

test('every placeholder fits its box, wide and narrow', async () => {
  await withPage(async (page, errors) => {
    for (const [width, height] of [[1440, 900], [800, 1000]]) {
      await page.setViewportSize({ width, height });
      await open(page);
      const cut = await page.evaluate(() => [...document.querySelectorAll('input[placeholder], textarea[placeholder]')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => {
          const cs = getComputedStyle(e);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
          const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
          return { field: e.dataset.testid, text: Math.ceil(ctx.measureText(e.placeholder).width), room };
        })
        .filter((f) => f.text > f.room));
      assert.deepEqual(cut, [], `at ${width} px`);
    }
    assert.deepEqual(errors, []);
  });
});

// The opcodes the format defines (not reserved), from the spec header's
// D3D10_SB_OPCODE_TYPE enumeration.
const OPCODES = (() => {
  const hpp = fs.readFileSync(path.resolve(ROOT, '..', 'shared', 'spec', 'D3D12TokenizedProgramFormat.hpp'), 'utf8');
  const body = hpp.slice(hpp.indexOf('typedef enum D3D10_SB_OPCODE_TYPE'), hpp.indexOf('} D3D10_SB_OPCODE_TYPE;'));
  const names = [...body.matchAll(/^\s*(D3D\w*_SB_(?:OPCODE_\w+|NUM_OPCODES))/gm)].map((m) => m[1]);
  return names.filter((n) => !/RESERVED|NUM_OPCODES/.test(n)).length;
})();

test('every inspector picker shows its whole value and offers each value once, wide and narrow', async () => {
  await withPage(async (page, errors) => {
    for (const [width, height] of [[1440, 900], [1920, 1080], [800, 1000]]) {
      await page.setViewportSize({ width, height });
      await open(page);
      const folded = await page.getByTestId('fold-tabs').isVisible();
      const lines = page.locator('[data-testid=disassembly] .line.linked');
      const n = await lines.count();
      assert.ok(n >= 10, `${n} instruction lines`);
      let pickers = 0;
      for (let i = 0; i < n; i++) {
        if (folded) await page.getByTestId('fold-listing').click();
        await lines.nth(i).click();
        if (folded) await page.getByTestId('fold-inspector').click();
        // A picker is wide enough when a copy of it sized to its content
        // (the shown value alone) is no wider.
        const cut = await page.evaluate(() => [...document.querySelectorAll('[data-testid=inspector] select.fedit')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => {
            const probe = document.createElement('select');
            probe.className = e.className;
            probe.style.cssText = 'width: auto; min-width: 0; max-width: none; position: absolute; visibility: hidden';
            probe.append(new Option(e.selectedOptions[0].text));
            e.parentElement.append(probe);
            const need = probe.getBoundingClientRect().width;
            probe.remove();
            return { field: e.dataset.testid, value: e.selectedOptions[0].text, need, has: e.getBoundingClientRect().width };
          }));
        pickers += cut.length;
        const short = cut.filter((c) => c.need > c.has + 0.5);
        assert.deepEqual(short, [], `at ${width} px, line ${i}`);
        // Once a long menu's other values have arrived (after the frame),
        // it offers each value once: the opcode menu, every opcode the
        // format defines, however many tokens were shown before.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(r))))));
        const menus = await page.evaluate(() => [...document.querySelectorAll('[data-testid=inspector] select.fedit')]
          .map((e) => ({ field: e.dataset.testid, values: [...e.options].map((o) => o.value), chosen: e.value })));
        const token = await page.locator('[data-testid=inspector] .ititle .val').textContent();
        for (const m of menus) {
          assert.equal(new Set(m.values).size, m.values.length, `${m.field} repeats values after line ${i}`);
          assert.deepEqual(m.values.map(Number), m.values.map(Number).sort((a, b) => a - b), `${m.field} out of order after line ${i}`);
        }
        const opcodes = menus.find((m) => m.field === 'field-opcode');
        if (opcodes) {
          assert.equal(opcodes.values.length, OPCODES, `opcode menu after line ${i}`);
          // The menu shows the token's opcode: its bits 10..0.
          assert.equal(Number(opcodes.chosen), parseInt(token, 16) & 0x7ff, `opcode shown after line ${i}`);
        }
      }
      assert.ok(pickers >= n, `${pickers} pickers checked at ${width} px`);
    }
    assert.deepEqual(errors, []);
  });
});

test('clicking a translated line scrolls the bytes and the listing to its instruction', async () => {
  await withPage(async (page, errors) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, APP_URL + link(path.join(CORPUS, 'fxc', 'directxtk_skinnedeffect_psskinnedvertexlightingnofog.dxbc'), '--pane', 'translation'));
    const code = page.getByTestId('translation-code');
    await code.locator('.line.linked').first().waitFor({ timeout: 20000 });
    assert.equal(await allInView(page, '[data-testid=translation-code]'), true);
    await page.getByTestId('hex-view').evaluate((el) => { el.scrollTop = 0; });
    await page.getByTestId('disassembly').evaluate((el) => { el.scrollTop = 0; });
    await page.waitForTimeout(100);
    const last = code.locator('.line.linked').last();
    const [start] = (await last.getAttribute('data-span')).split('+').map(Number);
    await last.click();
    await page.waitForTimeout(100);
    assert.equal((await selectedBytes(page))[0], start);
    assert.equal(await allInView(page, '[data-testid=hex-view] .b.sel', '[data-testid=hex-view]'), true);
    assert.equal(await allInView(page, '[data-testid=disassembly] .line.sel', '[data-testid=disassembly]'), true);
    assert.equal(await documentScrolls(page), false);
    assert.deepEqual(errors, []);
  });
});

test('splits move by pointer and keyboard and are remembered', async () => {
  await withPage(async (page, errors) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page);
    const handle = page.getByTestId('split-bytes-listing');
    assert.equal(await handle.getAttribute('role'), 'separator');
    const before = Number(await handle.getAttribute('aria-valuenow'));
    const hexW = async () => (await page.locator('.hexpane').boundingBox()).width;
    const w0 = await hexW();
    const box = await handle.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // Narrower: the bytes column is as wide as its rows need already.
    await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const w1 = await hexW();
    assert.ok(Math.abs(w0 - w1 - 120) < 12, `dragged 120 px: ${w0} -> ${w1}`);
    const dragged = Number(await handle.getAttribute('aria-valuenow'));
    assert.ok(dragged < before, `${before} -> ${dragged}`);
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(Number(await handle.getAttribute('aria-valuenow')), dragged - 2);
    const side = page.getByTestId('split-inspector-tabs');
    await side.focus();
    await page.keyboard.press('End');
    const down = Number(await side.getAttribute('aria-valuenow'));
    assert.ok(down >= 85, `inspector share ${down}`);
    await page.reload();
    await page.locator('[data-testid=disassembly] .line').first().waitFor();
    assert.equal(Number(await handle.getAttribute('aria-valuenow')), dragged - 2);
    assert.equal(Number(await side.getAttribute('aria-valuenow')), down);
    assert.equal(await documentScrolls(page), false);
    assert.deepEqual(errors, []);
  });
});

test('a wide window gives the bytes column its rows and the listing the rest', async () => {
  await withPage(async (page, errors) => {
    // What the bytes column shows: its rows' width against the view's.
    const fit = () => page.evaluate(() => {
      const hex = document.querySelector('[data-testid=hex-view]');
      const row = hex.querySelector('.hrow:not([hidden])').getBoundingClientRect().width;
      const col = (sel) => document.querySelector(sel).getBoundingClientRect().width;
      const columns = col('.hexpane') + col('.listcol') + col('.rightcol');
      return { row, view: hex.clientWidth, overflow: hex.scrollWidth - hex.clientWidth, share: col('.hexpane') / columns };
    });
    const handle = page.getByTestId('split-bytes-listing');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await open(page, APP_URL + link(BIG));
    const wide = await fit();
    assert.ok(wide.view >= wide.row && wide.view - wide.row < 4, `rows ${wide.row} px in a view of ${wide.view} px`);
    assert.equal(wide.overflow, 0, 'no row is cut');
    assert.ok(wide.share < 0.35, `the bytes column takes ${wide.share} of the columns`);
    assert.equal(Number(await handle.getAttribute('aria-valuenow')), Math.round(wide.share * 100));
    // A window narrower than the rows need: the column keeps its share
    // (0.39 by default) and scrolls sideways.
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.waitForFunction(() => document.querySelector('.hexpane').getBoundingClientRect().width < 500);
    const narrow = await fit();
    assert.ok(Math.abs(narrow.share - 0.39) < 0.01, `the bytes column takes ${narrow.share}`);
    assert.ok(narrow.overflow > 0);
    assert.equal(Number(await handle.getAttribute('aria-valuenow')), 39);
    assert.deepEqual(errors, []);
  });
});

test('a wide window fits the listing to its widest line and gives the rest to the right column', async () => {
  await withPage(async (page, errors) => {
    // A shader with short lines, its translation open: the CLI's listing
    // (fxc's text) gives the widest line.
    const file = path.join(CORPUS, 'fxc', 'directxtk_skinnedeffect_psskinnedvertexlightingnofog.dxbc');
    const r = spawnSync(DXBC, ['disasm', file]);
    assert.equal(r.status, 0);
    const lines = r.stdout.toString().split('\n');
    const widest = Math.max(...lines.map((l) => l.length));
    await page.setViewportSize({ width: 1920, height: 1080 });
    await open(page, APP_URL + link(file, '--pane', 'translation'));
    await page.getByTestId('translation-code').locator('.line').first().waitFor({ timeout: 20000 });
    const shown = () => page.evaluate(() => {
      const dis = document.querySelector('[data-testid=disassembly]');
      // A character's width, from a drawn line's text (the font is monospaced).
      const line = [...dis.querySelectorAll('.line')].find((l) => l.textContent.length > 20);
      const range = document.createRange();
      range.selectNodeContents(line);
      const ch = range.getBoundingClientRect().width / line.textContent.length;
      const pad = parseFloat(getComputedStyle(line).paddingLeft) + parseFloat(getComputedStyle(line).paddingRight);
      const col = (sel) => document.querySelector(sel).getBoundingClientRect().width;
      return { ch, pad, view: dis.clientWidth, overflow: dis.scrollWidth - dis.clientWidth, side: col('.rightcol'), total: col('.workspace') };
    });
    const m = await shown();
    const need = widest * m.ch + m.pad;
    assert.ok(m.view >= need - 0.5 && m.view - need < 4, `the listing view is ${m.view} px for lines of ${need} px`);
    // Every line whole: the listing, scrolled through, never scrolls sideways.
    const dis = page.getByTestId('disassembly');
    for (let top = 0; ; top += 600) {
      const at = await dis.evaluate((el, t) => { el.scrollTop = t; return el.scrollTop; }, top);
      await page.waitForTimeout(50);
      assert.equal((await shown()).overflow, 0, `a line is cut at scrollTop ${at}`);
      if (at < top) break;
    }
    assert.ok(m.side > 0.4 * m.total, `the right column has ${m.side} of ${m.total} px`);
    const handle = page.getByTestId('split-listing-side');
    const before = Number(await handle.getAttribute('aria-valuenow'));
    const handleAt = (pred, arg) => page.waitForFunction(([pred, b]) => {
      const v = Number(document.querySelector('[data-testid=split-listing-side]').getAttribute('aria-valuenow'));
      return pred === 'wider' ? v > b + 5 : v === b;
    }, [pred, arg]);
    // The whole-text editor is not fitted (its lines grow as they are typed).
    await page.getByTestId('edit-listing').click();
    await handleAt('wider', before);
    await page.getByTestId('edit-listing').click();
    await handleAt('same', before);
    // The handle moves from where it is shown: a key press moves it 2 %.
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(Number(await handle.getAttribute('aria-valuenow')), before - 2);
    assert.deepEqual(errors, []);
  });
});

test('narrow windows fold the panes into tabs, one pane at a time', async () => {
  await withPage(async (page, errors) => {
    await page.setViewportSize({ width: 800, height: 1000 });
    await open(page);
    const tabs = page.getByTestId('fold-tabs');
    assert.ok(await tabs.isVisible());
    assert.deepEqual(await tabs.locator('[role=tab]').allTextContents(), ['Bytes', 'Listing', 'Inspector', 'Reflection', 'Container map']);
    const visible = () => page.$$eval('.workspace .pane', (els) => els.filter((e) => e.getBoundingClientRect().height > 0).map((e) => e.className));
    assert.deepEqual(await visible(), ['pane dispane on']);
    await page.getByTestId('fold-bytes').click();
    assert.deepEqual(await visible(), ['pane hexpane on']);
    assert.equal(await page.getByTestId('fold-bytes').getAttribute('aria-selected'), 'true');
    // The pane draws its rows once it is laid out (its ResizeObserver):
    // wait for the selected bytes to be drawn, then check they are in view.
    await page.locator('[data-testid=hex-view] .b.sel').first().waitFor({ timeout: 5000 });
    assert.equal(await allInView(page, '[data-testid=hex-view] .b.sel', '[data-testid=hex-view]'), true);
    await page.getByTestId('fold-reflection').click();
    assert.match(await page.getByTestId('reflection').textContent(), /cbuffer Material/);
    assert.ok(await page.getByTestId('reflection').isVisible());
    assert.equal(await documentScrolls(page), false);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'workbench-800.png') });
    // Wide again: every pane side by side, no tabs.
    await page.setViewportSize({ width: 1440, height: 900 });
    assert.ok(!(await tabs.isVisible()));
    assert.equal((await visible()).length, 4);
    assert.deepEqual(errors, []);
  });
});

/** Relative luminance of a computed `rgb(...)` colour. */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map((x) => Number(x) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test('dark mode follows the system, toggles, and is remembered', async () => {
  await withPage(async (page, errors) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open(page);
    const bg = (sel) => page.locator(sel).first().evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    assert.ok(luminance(await bg('body')) > 0.8);
    // The bytes' colours follow the theme: the header's magic is painted
    // in the header's colour of each.
    await assertPaintedIn(page, 0, 'hdr');
    await page.getByTestId('theme-toggle').click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.ok(luminance(await bg('body')) < 0.05, await bg('body'));
    await assertPaintedIn(page, 0, 'hdr');
    assert.ok(luminance(await bg('.pane')) < 0.05);
    // Text stays readable: listing text is light on the dark pane.
    const fg = await page.locator('[data-testid=disassembly] .line').first().evaluate((e) => getComputedStyle(e).color);
    assert.ok(luminance(fg) > 0.3, fg);
    await page.reload();
    await page.locator('[data-testid=disassembly] .line').first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    // A system preference alone gives dark once the choice is forgotten.
    await page.evaluate(() => localStorage.removeItem('dxbc-theme'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.locator('[data-testid=disassembly] .line').first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.ok(luminance(await bg('body')) < 0.05);
    assert.deepEqual(errors, []);
  });
});
