// The listing's rows are recycled: a jump writes each row's new line over
// its old one, keeping the row's nodes where it can (listing_row.js). Two
// checks that the reuse shows exactly what a fresh row would:
// - after far jumps up and down the 158 KB shader, every drawn row reads
//   its line of `dxbc disasm` (whose text is fxc's own, corpus_disasm.rs);
// - the row writer itself, in the page, over random sequences of lines:
//   a row written over other lines ends with the same pieces (class,
//   register index, text), gutter, classes and attributes as a row
//   written once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, CORPUS, dxbcCli, withPage } from './chromium.mjs';

const DXBC = dxbcCli();
const FILE = path.join(CORPUS, 'fxc', 'xenia_resolve_full_8bpp_3xres_cs.dxbc');

function cli(...args) {
  const r = spawnSync(DXBC, args, { maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`dxbc ${args[0]} failed: ${r.stderr}`);
  return r.stdout.toString();
}

test('after far jumps every drawn listing row reads its line of dxbc disasm', async () => {
  const lines = cli('disasm', FILE).replace(/\n$/, '').split('\n');
  assert.ok(lines.length > 2000, `${lines.length} lines: the jumps need a long listing`);
  await withPage(async (page, errors) => {
    await page.goto(APP_URL + cli('link', FILE).trim());
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
    // Fractions of the listing, far apart, down and up.
    for (const f of [0.9, 0.1, 0.55, 0.3, 0.97, 0, 0.7]) {
      const want = await page.getByTestId('disassembly').evaluate(async (el, f) => {
        el.scrollTop = Math.round(el.scrollHeight * f);
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        await frame();
        await frame();
        return Math.floor(el.scrollTop / 20);
      }, f);
      const rows = await page.$$eval('[data-testid=disassembly] .line[data-line]:not([hidden])',
        (els) => els.map((e) => [Number(e.dataset.line), e.textContent]));
      assert.ok(rows.length >= 20, `${rows.length} rows drawn at ${f}`);
      assert.ok(rows.some(([l]) => l === want), `the row at the scroll position (${want}) is drawn, at ${f}`);
      for (const [l, text] of rows) assert.equal(text, lines[l], `line ${l}, after the jump to ${f}`);
    }
    assert.deepEqual(errors, []);
  });
});

test('a listing row written over other lines ends as a row written once', async () => {
  await withPage(async (page, errors) => {
    await page.goto(APP_URL);
    await page.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
    const url = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.endsWith('/listing_row.js')));
    assert.ok(url, 'the page loaded the listing row writer');
    const mismatches = await page.evaluate(async (url) => {
      const { fill_listing_row } = await import(url);
      const classes = 's-com s-mn s-reg s-swz s-num';
      // A seeded generator, so that a failure can be replayed.
      let seed = 12345;
      const rand = (n) => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return (seed >>> 8) % n;
      };
      const words = ['mul', 'r0', '.xyzw', ', ', ' ', 'cb0[3]', 'l(1.000000)', '  ', '//', 'x', ''];
      const line = () => {
        const pieces = [];
        let text = '';
        for (let k = 0, n = rand(9); k < n; k++) {
          const w = words[rand(words.length)] || 'q';
          const cls = rand(3) === 0 ? 0 : 1 + rand(5);
          pieces.push(cls, text.length, text.length + w.length, cls === 3 ? k : 0xffffffff);
          text += w;
        }
        return { n: rand(5000), cls: ['line', 'line linked', 'line linked sel', ''][rand(4)], sel: rand(2) === 1, gutter: rand(2) === 1, text, pieces: new Uint32Array(pieces) };
      };
      // What a row shows: its attributes, then its pieces with neighbouring
      // texts joined and empty ones dropped (a text node may split or be
      // empty without showing anything different).
      const shown = (row) => {
        const out = [row.className, row.getAttribute('data-line'), row.getAttribute('aria-selected')];
        let plain = '';
        for (const c of row.childNodes) {
          if (c.nodeType === 3) { plain += c.nodeValue; continue; }
          if (plain) out.push(plain);
          plain = '';
          out.push(`<${c.className}|${c.getAttribute('data-p')}|${c.getAttribute('data-gutter')}|${c.getAttribute('data-testid')}|${c.title}>${c.textContent}`);
        }
        if (plain) out.push(plain);
        return JSON.stringify(out);
      };
      const reused = document.createElement('div');
      const bad = [];
      for (let i = 0; i < 2000; i++) {
        const l = line();
        const fresh = document.createElement('div');
        fill_listing_row(fresh, l.n, l.cls, l.sel, l.gutter, l.text, l.pieces, classes);
        fill_listing_row(reused, l.n, l.cls, l.sel, l.gutter, l.text, l.pieces, classes);
        if (shown(fresh) !== shown(reused) && bad.length < 5) bad.push([i, shown(fresh), shown(reused)]);
      }
      return bad;
    }, url);
    assert.deepEqual(mismatches, []);
    assert.deepEqual(errors, []);
  });
});
