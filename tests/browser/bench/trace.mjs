// Where an interaction's frame goes (prints figures, asserts nothing): runs
// one named action of bench.mjs a number of times under a Chrome trace and
// sums the renderer main thread's self time per trace event name inside
// each run's window (event -> the frame with the change painted).
//   APP_URL=http://127.0.0.1:8124/ node tests/browser/bench/trace.mjs ACTION [RUNS] [shader.dxbc]
// ACTION is one of hover, arrow, click, bytes, scroll, search, field.
// TRACE_DETAIL=1 also prints the first long layout, style and paint events
// with their own figures (objects dirty and in all, elements restyled, the
// layer painted); TRACE_INVALIDATIONS=1 records why nodes were restyled
// or laid out again (and where those nodes sit: pane, then classes);
// TRACE_RUNS=1 prints each run's phases; TRACE_DUMP=FILE writes every
// event, as JSON.
import fs from 'node:fs';
import { interaction, readyFor } from './actions.mjs';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
const ACT = process.argv[2] ?? 'click';
const RUNS = Number(process.argv[3] ?? 30);
const BIG = process.argv[4] ?? '../shared/corpus/fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc';

const { ctx, page } = await readyFor(APP_URL, BIG, ACT);

const cdp = await ctx.newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Tracing.start', {
  traceConfig: { includedCategories: [...(process.env.TRACE_INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []), 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'blink', 'cc'] },
  transferMode: 'ReportEvents' });
const rows = await interaction(page, ACT, RUNS, true);
await cdp.send('Tracing.end');
await done;
// Names for the nodes layout started from (backend node ids), asked while the page lives.
const rootNames = new Map();
if (process.env.TRACE_INVALIDATIONS) {
  await cdp.send('DOM.getDocument', { depth: 0 });
  for (const e of events.filter((e) => e.name === 'Layout' && e.args?.endData?.layoutRoots)) {
    for (const r of e.args.endData.layoutRoots) {
      if (rootNames.has(r.nodeId)) continue;
      const d = await cdp.send('DOM.describeNode', { backendNodeId: r.nodeId }).catch(() => null);
      const a = d?.node?.attributes ?? [];
      const cls = a[a.indexOf('class') + 1];
      rootNames.set(r.nodeId, d ? `${d.node.nodeName}${a.includes('class') ? `.${cls}` : ''}` : `#${r.nodeId}`);
    }
  }
  // Where each invalidated node sits: the classes of its nearest ancestors
  // with one, and the pane it is in (nodes since removed stay unnamed).
  for (const e of events.filter((e) => e.name === 'LayoutInvalidationTracking')) {
    const id = e.args.data.nodeId;
    if (rootNames.has(`at${id}`)) { e.args.data.at = rootNames.get(`at${id}`); continue; }
    const o = await cdp.send('DOM.resolveNode', { backendNodeId: id }).catch(() => null);
    let at = '(gone)';
    if (o?.object?.objectId) {
      const r = await cdp.send('Runtime.callFunctionOn', { objectId: o.object.objectId, returnByValue: true,
        functionDeclaration: `function () {
          const names = [];
          for (let n = this.nodeType === 1 ? this : this.parentElement; n && names.length < 3; n = n.parentElement) {
            if (n.className && typeof n.className === 'string') names.push(n.tagName.toLowerCase() + '.' + n.className.split(' ')[0]);
          }
          const pane = (this.nodeType === 1 ? this : this.parentElement)?.closest('section.pane, header, .top, .inputbar, nav');
          return (pane ? (pane.className || pane.tagName) + ' > ' : '') + names.reverse().join(' > ');
        }` }).catch(() => null);
      at = r?.result?.value ?? '(?)';
    }
    rootNames.set(`at${id}`, at);
    e.args.data.at = at;
  }
}
await ctx.close();

// The renderer main thread of the page: the thread the runs' marks are on.
const marks = events.filter((e) => e.name === 'bench-run' && e.cat.includes('blink.user_timing'));
if (!marks.length) throw new Error('no bench-run marks in the trace');
const { pid, tid } = marks.find((e) => e.ph === 'b' || e.ph === 'X' || e.ph === 'R') ?? marks[0];
const main = events.filter((e) => e.pid === pid && e.tid === tid && (e.ph === 'X' || e.ph === 'B' || e.ph === 'E'));
// Windows from the async marks (begin/end pairs, any thread).
const begins = events.filter((e) => e.name === 'bench-run' && e.ph === 'b').map((e) => e.ts).sort((a, b) => a - b);
const ends = events.filter((e) => e.name === 'bench-run' && e.ph === 'e').map((e) => e.ts).sort((a, b) => a - b);
const windows = begins.map((b, k) => [b, ends[k]]);

// Self time per name: complete events (X) and begin/end pairs nest on one thread.
const spans = [];
const open = [];
for (const e of [...main].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
  if (e.ph === 'X') spans.push({ name: e.name, ts: e.ts, end: e.ts + (e.dur ?? 0) });
  else if (e.ph === 'B') open.push(e);
  else if (e.ph === 'E') { const b = open.pop(); if (b) spans.push({ name: b.name, ts: b.ts, end: e.ts }); }
}
spans.sort((a, b) => a.ts - b.ts || b.end - a.end);
const self = new Map();
const stack = [];
const within = (t) => windows.some(([a, b]) => t >= a && t < b);
function add(name, us) { self.set(name, (self.get(name) ?? 0) + us); }
function clip(s) {
  // The part of [s.ts, s.end) inside the windows.
  let t = 0;
  for (const [a, b] of windows) t += Math.max(0, Math.min(b, s.end) - Math.max(a, s.ts));
  return t;
}
for (const s of spans) {
  while (stack.length && stack[stack.length - 1].end <= s.ts) stack.pop();
  const parent = stack[stack.length - 1];
  s.child = 0;
  if (parent) parent.child += clip(s);
  stack.push(s);
}
for (const s of spans) add(s.name, clip(s) - s.child);
const total = windows.reduce((t, [a, b]) => t + (b - a), 0);
const paint = rows.map((r) => r.paint).sort((a, b) => a - b);
console.log(`${ACT}: ${RUNS} runs, paint median ${paint[paint.length >> 1].toFixed(1)} ms, max ${paint[paint.length - 1].toFixed(1)} ms; window total ${(total / 1000 / RUNS).toFixed(2)} ms per run`);
console.log('main-thread self time per run inside the windows (ms), by trace event:');
const accounted = [...self.values()].reduce((a, b) => a + b, 0);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  if (us / RUNS < 10) break;
  console.log(`  ${(us / 1000 / RUNS).toFixed(2).padStart(7)}  ${name}`);
}
console.log(`  ${((total - accounted) / 1000 / RUNS).toFixed(2).padStart(7)}  (idle or untraced)`);
if (process.env.TRACE_DUMP) fs.writeFileSync(process.env.TRACE_DUMP, JSON.stringify(events));
if (process.env.TRACE_DETAIL) {
  const long = main.filter((e) => within(e.ts) && e.ph === 'X' && ['Layout', 'UpdateLayoutTree', 'Paint'].includes(e.name) && e.dur > 300);
  for (const e of long.slice(0, 30)) console.log(`  ${e.name} ${(e.dur / 1000).toFixed(2)} ms ${JSON.stringify(e.args).slice(0, 300)}`);
}
if (process.env.TRACE_INVALIDATIONS) {
  // Why layout ran: the nodes marked for layout, and the roots it started from.
  const count = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
  const why = new Map();
  for (const e of events.filter((e) => e.name === 'LayoutInvalidationTracking' && within(e.ts))) {
    count(why, `${e.args.data.reason} | ${e.args.data.nodeName} | ${rootNames.get(`at${e.args.data.nodeId}`) ?? ''}`);
  }
  console.log('layout invalidations per run (reason | node):');
  for (const [k, n] of [...why].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TRACE_TOP ?? 30))) console.log(`  ${(n / RUNS).toFixed(2).padStart(7)}  ${k}`);
  const roots = new Map();
  for (const e of main.filter((e) => e.name === 'Layout' && within(e.ts) && e.args?.endData?.layoutRoots)) {
    for (const r of e.args.endData.layoutRoots) count(roots, rootNames.get(r.nodeId) ?? `#${r.nodeId}`);
  }
  console.log('layout roots per run:');
  for (const [k, n] of [...roots].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(n / RUNS).toFixed(2).padStart(7)}  ${k}`);
}
if (process.env.TRACE_RUNS) {
  // Each run on its own line: its window, the main thread's phases (the
  // time inside each phase's events, script including what it forced) and the objects each
  // layout found dirty. Slow runs show which phase grew.
  const phase = { FunctionCall: 'script', UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'prepaint', Paint: 'paint',
    Layerize: 'layerize', Commit: 'commit', 'ProxyMain::BeginMainFrame::commit': 'wait-commit' };
  console.log('per run (ms): window | phases | dirty objects per layout');
  windows.forEach(([a, b]) => {
    const inside = main.filter((e) => e.ph === 'X' && e.ts >= a && e.ts < b);
    // A phase's time is the union of its events (Paint events nest, one per layer).
    const sum = {};
    const until = {};
    for (const e of inside.filter((e) => phase[e.name]).sort((x, y) => x.ts - y.ts)) {
      const k = phase[e.name];
      const from = Math.max(e.ts, until[k] ?? 0);
      const end = e.ts + e.dur;
      if (end > from) sum[k] = (sum[k] ?? 0) + (end - from) / 1000;
      until[k] = Math.max(until[k] ?? 0, end);
    }
    const dirty = inside.filter((e) => e.name === 'Layout').map((e) => e.args?.beginData?.dirtyObjects).join('+');
    console.log(`  ${((b - a) / 1000).toFixed(1).padStart(5)} | ${Object.entries(sum).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')} | ${dirty}`);
  });
}
