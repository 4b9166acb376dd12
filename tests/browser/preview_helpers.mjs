// Helpers shared by the preview's browser tests: the native renderer and
// the CLI as oracles, waiting for a frame with its read-backs, and the
// comparison with the plan's tolerance.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { APP_URL, ROOT, CORPUS } from './chromium.mjs';

export const RUNNER = process.env.SHADER_RUNNER ?? path.join(ROOT, 'target', 'release', 'shader-runner');
export const DXBC = process.env.DXBC_CLI ?? path.join(ROOT, 'target', 'release', 'dxbc');

for (const [what, p] of [['corpus', CORPUS], ['shader-runner (cargo build --release -p shader-runner)', RUNNER], ['dxbc (cargo build --release -p dxbc-cli)', DXBC]]) {
  if (!fs.existsSync(p)) throw new Error(`missing ${what}: ${p}`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { maxBuffer: 256 << 20, env: { ...process.env, WGPU_BACKEND: 'vulkan', XDG_RUNTIME_DIR: os.tmpdir() }, ...opts });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ').slice(0, 200)} failed: ${r.stderr}`);
  return r.stdout;
}

export function linkFor(file) {
  return run(DXBC, ['link', '--pane', 'preview', file]).toString().trim();
}

/** Parses the reference file format of crates/preview-model/src/reference.rs. */
export function parseReference(buf) {
  assert.equal(buf.subarray(0, 4).toString('latin1'), 'DXPR');
  let at = 8;
  const fingerprint = buf.readBigUInt64LE(at); at += 8;
  const n = buf.readUInt32LE(at); at += 4;
  const adapter = buf.subarray(at, at + n).toString('utf8'); at += n;
  const count = buf.readUInt32LE(at); at += 4;
  const readbacks = [];
  for (let i = 0; i < count; i++) {
    const len = buf.readUInt32LE(at); at += 4;
    readbacks.push(buf.subarray(at, at + len)); at += len;
  }
  assert.equal(at, buf.length);
  return { fingerprint, adapter, readbacks };
}

export function nativeReference(linkOrFile) {
  return parseReference(run(RUNNER, ['preview', linkOrFile, '--out', '-']));
}

/** Opens `url` and waits for a frame with every read-back. */
export async function openPreview(page, url) {
  await page.goto('about:blank');
  await page.goto(APP_URL + url);
  await page.waitForFunction(() => {
    const s = globalThis.__dxbcPreview;
    return s && s.frames > 0 && s.plan && s.readbackOf === s.frames && s.readbacks.length === s.plan.readbacks.length;
  }, null, { timeout: 60000 });
}

export async function pageState(page) {
  return page.evaluate(() => {
    const s = globalThis.__dxbcPreview;
    const b64 = (a) => {
      let out = '';
      for (let i = 0; i < a.length; i += 0x8000) out += String.fromCharCode.apply(null, a.subarray(i, i + 0x8000));
      return btoa(out);
    };
    return { plan: s.plan, frames: s.frames, readbacks: s.readbacks.map(b64) };
  }).then((st) => ({ ...st, readbacks: st.readbacks.map((b) => Buffer.from(b, 'base64')) }));
}

function ordered(bits) {
  const x = bits | 0;
  return x < 0 ? -2147483648 - x : x;
}

/** Word kinds as the plan says: floats within ULPS, the rest exactly. */
function floatWord(plan, r, i) {
  if (r.type === 'target') return plan.draw.targets[r.index].format === 'rgba32float';
  if (r.type === 'buffer') return r.float_words.includes(i % Math.max(1, r.stride / 4));
  return plan.entries[r.entry].resource.format === 'r32float';
}

/**
 * Compares with the plan's tolerance (plan.tolerance, from preview_model::plan):
 * floats within `ulps` or `relative` × max(1, |native|), other words exactly,
 * and on colour targets at most `edge_fraction` of the pixels outside that.
 */
export function compareReadbacks(plan, got, want) {
  const t = plan.tolerance;
  assert.equal(got.length, plan.readbacks.length);
  assert.equal(want.length, plan.readbacks.length);
  let maxUlps = 0, edgePixels = 0;
  const nonZero = [];
  for (let k = 0; k < got.length; k++) {
    const g = got[k], w = want[k], r = plan.readbacks[k];
    assert.equal(g.length, w.length, `read-back ${k} sizes`);
    const target = r.type === 'target';
    const bad = new Set();
    let first = null, nz = 0;
    for (let i = 0; i < g.length / 4; i++) {
      const a = g.readUInt32LE(i * 4), b = w.readUInt32LE(i * 4);
      if (b !== 0) nz++;
      let ok;
      if (floatWord(plan, r, i)) {
        const fa = g.readFloatLE(i * 4), fb = w.readFloatLE(i * 4);
        const d = Number.isNaN(fa) && Number.isNaN(fb) ? 0 : Math.abs(ordered(a) - ordered(b));
        maxUlps = Math.max(maxUlps, d);
        ok = d <= t.ulps || Math.abs(fa - fb) <= t.relative * Math.max(1, Math.abs(fb));
        if (!ok && !first) first = `word ${i}: page ${fa} vs native ${fb} (${d} ulps)`;
      } else {
        ok = a === b;
        if (!ok && !first) first = `word ${i}: page ${a} vs native ${b}`;
      }
      if (!ok) bad.add(target ? i >> 2 : i);
    }
    const allowed = target ? Math.floor(t.edge_fraction * (g.length / 16)) : 0;
    assert.ok(bad.size <= allowed, `read-back ${k} (${r.type}): ${bad.size} ${target ? 'pixels' : 'words'} differ (allowed ${allowed}); first ${first}`);
    edgePixels += bad.size;
    nonZero.push(nz);
  }
  return { maxUlps, nonZero, edgePixels };
}

