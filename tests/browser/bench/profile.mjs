// Where an interaction's script time goes (prints figures, asserts nothing):
// runs one named action of bench.mjs under V8's sampling profiler and
// prints the functions with the most samples, self and inclusive, per run.
// Function names need a build that keeps them:
//   WASM_KEEP_NAMES=1 trunk build --release --dist DIR
//   APP_URL=http://127.0.0.1:PORT/ node tests/browser/bench/profile.mjs ACTION [RUNS] [shader.dxbc]
// ACTION is one of hover, arrow, click, bytes, scroll, search, field.
// PROFILE_WINDOW=1 samples each run's window alone (event to the frame
// painted) and nothing between runs.
// PROFILE_TOP=N prints N functions (30); PROFILE_DUMP=FILE writes the
// profile, as JSON. Samples between runs count too: work a run queues
// after its frame (menus filled after paint, the link measured later)
// shows up here.
import fs from 'node:fs';
import { interaction, readyFor } from './actions.mjs';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
const ACT = process.argv[2] ?? 'click';
const RUNS = Number(process.argv[3] ?? 40);
const BIG = process.argv[4] ?? '../shared/corpus/fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc';
const TOP = Number(process.env.PROFILE_TOP ?? 30);

const { ctx, page } = await readyFor(APP_URL, BIG, ACT);

const cdp = await ctx.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
let profile;
if (process.env.PROFILE_WINDOW) {
  // Each run's window alone (event -> the task after its frame painted),
  // as console.profile in the page cuts it: one profile per run, merged.
  const runs = [];
  cdp.on('Profiler.consoleProfileFinished', (e) => runs.push(e.profile));
  await interaction(page, ACT, RUNS, 'profile');
  await new Promise((r) => setTimeout(r, 500));
  profile = merge(runs);
} else {
  await cdp.send('Profiler.start');
  await interaction(page, ACT, RUNS);
  profile = (await cdp.send('Profiler.stop')).profile;
}
await ctx.close();

/** Profiles as one: their nodes renumbered apart, samples and deltas end to end. */
function merge(list) {
  const out = { nodes: [], samples: [], timeDeltas: [] };
  let base = 0;
  for (const p of list) {
    let top = 0;
    for (const n of p.nodes) {
      out.nodes.push({ ...n, id: n.id + base, children: (n.children ?? []).map((c) => c + base) });
      top = Math.max(top, n.id);
    }
    // A run's first delta is from its start: the gap between runs is no sample's.
    p.samples.forEach((id, k) => { out.samples.push(id + base); out.timeDeltas.push(k ? p.timeDeltas[k] : 0); });
    base += top + 1;
  }
  return out;
}
if (process.env.PROFILE_DUMP) fs.writeFileSync(process.env.PROFILE_DUMP, JSON.stringify(profile));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => n.callFrame.functionName || `(anonymous ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber})`;
const self = new Map();
const incl = new Map();
let busy = 0;
const dt = profile.timeDeltas;
profile.samples.forEach((id, k) => {
  // A sample stands for the time until the next one.
  const us = dt[k + 1] ?? 0;
  const n = byId.get(id);
  const f = name(n);
  // (program) is the browser's own work (style, layout, paint): trace.mjs splits it.
  if (f === '(idle)' || f === '(program)') return;
  busy += us;
  self.set(f, (self.get(f) ?? 0) + us);
  const seen = new Set();
  for (let x = n; x; x = byId.get(parent.get(x.id))) {
    const g = name(x);
    if (!seen.has(g)) { seen.add(g); incl.set(g, (incl.get(g) ?? 0) + us); }
  }
});
const ms = (us) => (us / 1000 / RUNS).toFixed(2).padStart(6);
console.log(`${ACT}: ${RUNS} runs, ${ms(busy)} ms of samples per run (not idle)`);
console.log('self:');
for (const [f, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${ms(us)}  ${f.slice(0, 150)}`);
console.log('inclusive:');
for (const [f, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${ms(us)}  ${f.slice(0, 150)}`);
