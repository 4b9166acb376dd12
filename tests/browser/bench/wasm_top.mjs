// Where a wasm's code bytes are: each function body's size, grouped by the
// crate and module its (legacy-mangled) name names first among ours
// (dxbc_web, preview_model, dxbc_naga, dxbc), else by its own crate. Needs
// a name section, which trunk's wasm-opt drops; make one like this:
//   wasm-bindgen --target web --no-typescript --out-dir /tmp/bg target/wasm32-unknown-unknown/web/dxbc-web.wasm
//   wasm-opt -Oz -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
//     --enable-mutable-globals --enable-reference-types /tmp/bg/dxbc-web_bg.wasm -o /tmp/named.wasm
//   node tests/browser/bench/wasm_top.mjs /tmp/named.wasm [depth=1] [rows=40]
// Generic code (tachys' views, core's iterators) is named after the
// generic, not the type it was made for, so it counts for its own crate.
import fs from 'node:fs';

const [file, depthArg, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: wasm_top.mjs FILE.wasm [depth] [rows]');
const depth = Number(depthArg ?? 1);
const rows = Number(rowsArg ?? 40);
const b = fs.readFileSync(file);

function leb(i) {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, i];
}
function str(i) { const [n, j] = leb(i); return [b.toString('utf8', j, j + n), j + n]; }

const names = new Map();
const bodies = [];
const sections = [];
let imported = 0;
for (let i = 8; i < b.length;) {
  const id = b[i];
  const [size, start] = leb(i + 1);
  const end = start + size;
  if (id === 0) {
    const [name, j0] = str(start);
    sections.push(`${name} ${size}`);
    if (name === 'name') {
      for (let j = j0; j < end;) {
        const sub = b[j];
        const [len, k0] = leb(j + 1);
        if (sub === 1) {
          let [count, k] = leb(k0);
          for (; count > 0; count--) {
            let idx, n;
            [idx, k] = leb(k);
            [n, k] = str(k);
            names.set(idx, n);
          }
        }
        j = k0 + len;
      }
    }
  } else {
    sections.push(`${['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'][id] ?? id} ${size}`);
    if (id === 2) {
      let [count, j] = leb(start);
      for (; count > 0; count--) {
        [, j] = str(j);
        [, j] = str(j);
        const kind = b[j++];
        if (kind === 0) { imported++; [, j] = leb(j); }
        else if (kind === 1) { j++; const f = b[j++]; [, j] = leb(j); if (f & 1) [, j] = leb(j); }
        else if (kind === 2) { const f = b[j++]; [, j] = leb(j); if (f & 1) [, j] = leb(j); }
        else if (kind === 3) j += 2;
        else throw new Error(`import kind ${kind}`);
      }
    }
    if (id === 10) {
      let [count, j] = leb(start);
      for (let k = 0; k < count; k++) {
        const [len, body] = leb(j);
        bodies.push([imported + k, body - j + len]);
        j = body + len;
      }
    }
  }
  i = end;
}
if (names.size === 0) throw new Error(`${file} has no function names (see the comment at the top)`);

/** `_ZN4dxbc3asm5parse17h…E` -> `dxbc::asm::parse`, with $LT$ and co. spelled out. */
function demangle(n) {
  if (!n.startsWith('_ZN')) return n;
  const parts = [];
  for (let k = 3; k < n.length && /\d/.test(n[k]);) {
    const m = /^\d+/.exec(n.slice(k));
    k += m[0].length;
    parts.push(n.slice(k, k + Number(m[0])));
    k += Number(m[0]);
  }
  return parts.join('::').replaceAll('$LT$', '<').replaceAll('$GT$', '>').replaceAll('$u20$', ' ').replaceAll('..', '::')
    .replaceAll('$C$', ',').replaceAll('$RF$', '&').replaceAll('$u7b$', '{').replaceAll('$u7d$', '}');
}
const OURS = ['dxbc_web', 'preview_model', 'dxbc_naga', 'dxbc'];
function group(raw) {
  if (raw.startsWith('_R')) {
    for (const c of ['dlmalloc', 'compiler_builtins', 'core', 'alloc', 'std']) if (new RegExp(`\\d${c}`).test(raw)) return c;
    return '(other)';
  }
  const d = demangle(raw);
  for (const c of OURS) {
    const m = new RegExp(`(?<![\\w])${c}::((?:\\w+::){0,${depth - 1}}\\w+)`).exec(d);
    if (m) return `${c}::${m[1].split('::').filter((p) => !/^(_|h[0-9a-f]{16}$)/.test(p)).slice(0, depth).join('::')}`;
  }
  if (/^<[A-Z]\w* as /.test(d)) return '(blanket impls: <T as Trait>)';
  const m = /^<?&?(?:mut )?(\w+)/.exec(d);
  return m ? m[1] : '(other)';
}
const total = bodies.reduce((t, [, n]) => t + n, 0);
const by = new Map();
for (const [idx, n] of bodies) { const g = group(names.get(idx) ?? '?'); by.set(g, (by.get(g) ?? 0) + n); }
console.log(`${file}: ${b.length} B; sections: ${sections.join(', ')}`);
console.log(`code: ${total} B in ${bodies.length} functions`);
for (const [g, n] of [...by].sort((x, y) => y[1] - x[1]).slice(0, rows)) {
  console.log(`${String(n).padStart(9)} ${((100 * n) / total).toFixed(1).padStart(5)}%  ${g}`);
}
