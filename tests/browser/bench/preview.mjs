// Benchmark (prints figures, asserts nothing): control change -> re-rendered
// preview frame, in headless Chromium with WebGPU on SwiftShader.
//   APP_URL=http://127.0.0.1:8124/ node tests/browser/bench/preview.mjs [shader.dxbc]
// BENCH_CONTROL=NAME changes the control whose label starts with NAME
// (default: the first number, slider or colour input). The tessellated
// preview's figure: the corpus hull shader dxdecompiler_apps_tesselation_hs
// with fractional_odd partitioning and every factor 64 × OuterFactor
// (README, "Preview frame time"), BENCH_CONTROL=OuterFactor: the values
// 0.5 … 1.1 make factors 32 … 64.
// Needs target/release/dxbc (cargo build --release -p dxbc-cli) for the link.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { scratchProfile } from '../chromium.mjs';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SHADER = process.argv[2] ?? path.resolve(ROOT, '../shared/corpus/fxc/dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc');
const link = spawnSync(path.join(ROOT, 'target/release/dxbc'), ['link', '--pane', 'preview', SHADER]).stdout.toString().trim();
if (!link.startsWith('#v1/')) throw new Error('could not make a link (build target/release/dxbc first)');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const ctx = await chromium.launchPersistentContext(scratchProfile(), {
  executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 1000 },
  args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-quic',
    '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=vulkan'] });
const page = ctx.pages()[0] ?? await ctx.newPage();
page.on('pageerror', (e) => console.log('page error:', String(e)));
await page.goto(APP_URL + link);
await page.waitForFunction(() => (globalThis.__dxbcPreview?.frames ?? 0) > 0, null, { timeout: 60000 });
const CONTROL = process.env.BENCH_CONTROL ?? null;
const res = await page.evaluate(async (name) => {
  const s = globalThis.__dxbcPreview;
  const inputs = 'input[type=number], input[type=range], input[type=color]';
  const input = name === null
    ? document.querySelector(`[data-testid=preview-controls] :is(${inputs})`)
    : [...document.querySelectorAll('[data-testid=preview-controls] .ctl')]
      .find((c) => (c.querySelector('.clabel')?.textContent ?? '').startsWith(name))?.querySelector(inputs);
  if (!input) throw new Error(`no control ${name ?? ''}`);
  const colours = ['#102030', '#a0b0c0', '#ff8000', '#00ff80', '#8040c0', '#ffffff', '#404040'];
  const total = [], gpu = [], blocked = [];
  for (let i = 0; i < 40; i++) {
    const n = s.frames;
    const t0 = performance.now();
    input.value = input.type === 'color' ? colours[i % 7] : String(0.5 + (i % 7) * 0.1);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // Time the main thread is held by the change itself (Rust effects, re-packing, submit).
    blocked.push(performance.now() - t0);
    while (s.frames === n) await new Promise((r) => setTimeout(r, 0));
    total.push(performance.now() - t0);
    gpu.push(s.lastFrameMs);
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  return { total, gpu, blocked, plan: s.plan.stage };
}, CONTROL);
console.log(`preview of ${path.basename(SHADER)} (${res.plan}), 40 control changes:`);
console.log(`  change -> frame done on the GPU: median ${median(res.total).toFixed(1)} ms, max ${Math.max(...res.total).toFixed(1)} ms (one frame at 60 Hz = 16.7 ms)`);
console.log(`  of which GPU work (submit -> onSubmittedWorkDone): median ${median(res.gpu).toFixed(1)} ms`);
console.log(`  main thread held by the change: median ${median(res.blocked).toFixed(2)} ms, max ${Math.max(...res.blocked).toFixed(2)} ms`);
await ctx.close();

// Preparing a large shader: the longest main-thread task while the preview
// translates and plans it (the work is sliced; each slice is one task).
{
  const big = path.resolve(ROOT, '../shared/corpus/fxc/xenia_resolve_full_8bpp_3xres_cs.dxbc');
  const bigLink = spawnSync(path.join(ROOT, 'target/release/dxbc'), ['link', '--pane', 'preview', big]).stdout.toString().trim();
  const ctx2 = await chromium.launchPersistentContext(scratchProfile(), {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 1000 },
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-quic',
      '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=vulkan'] });
  const p2 = ctx2.pages()[0] ?? await ctx2.newPage();
  await p2.goto(APP_URL);
  await p2.locator('[data-testid=disassembly] .line').first().waitFor({ timeout: 30000 });
  await p2.evaluate(() => {
    globalThis.__tasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) globalThis.__tasks.push(e.duration); }).observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await p2.evaluate((l) => { location.hash = l; }, bigLink);
  await p2.getByTestId('preview-status').filter({ hasNotText: 'Preparing' }).waitFor({ timeout: 60000 });
  const tasks = await p2.evaluate(() => globalThis.__tasks);
  const status = (await p2.getByTestId('preview-status').textContent()).slice(0, 60);
  const where = await p2.evaluate(() => globalThis.__dxbcPreview.translatedIn);
  const plan = await p2.evaluate(() => performance.getEntriesByName('dxbc-preview-plan').map((m) => m.duration.toFixed(1)).join(', '));
  console.log(`preparing ${path.basename(big)} (${fs.statSync(big).size} bytes): ${Date.now() - t0} ms to "${status}…" (pipeline compiled asynchronously)`);
  console.log(`  translated in the ${where}; planning on the main thread ${plan} ms; ` +
    `main-thread tasks over 50 ms: ${tasks.length}, longest ${tasks.length ? Math.max(...tasks).toFixed(0) : 0} ms (the explorer decoding the file and its listing is one of them)`);
  await ctx2.close();
}
