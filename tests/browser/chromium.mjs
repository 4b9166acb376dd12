// Launching Debian's Chromium for the browser tests: a fresh profile,
// no background networking (this machine's network is closed), and
// optionally WebGPU on the bundled SwiftShader (the flag set known to give
// a working canvas; see ../shared/notes/toolchain.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** The built site under test, the checkout, and the corpus beside it. */
export const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

/** The release `dxbc` CLI (the tests' oracle); fails loudly when it is not built. */
export function dxbcCli() {
  const p = process.env.DXBC_CLI ?? path.join(ROOT, 'target', 'release', 'dxbc');
  if (!fs.existsSync(p)) throw new Error(`missing dxbc (cargo build --release -p dxbc-cli): ${p}`);
  return p;
}

export const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=vulkan'];

/** Runs `fn(page, errors)` in a new headless Chromium; `errors` collects uncaught page errors. */
export async function withPage(fn, { webgpu = false } = {}) {
  const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-')), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1440, height: 1000 },
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic', ...(webgpu ? WEBGPU_ARGS : [])],
  });
  try {
    const page = ctx.pages()[0] ?? await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await fn(page, errors);
  } finally {
    await ctx.close();
  }
}

/**
 * The page's permalink for its current state. The page builds the link
 * when asked (deflating a large shader on every selection change would cost
 * frames), so this presses "Copy link" and reads the field it fills.
 */
export async function currentLink(page) {
  await page.getByTestId('copy-link').click();
  return page.getByTestId('permalink').inputValue();
}
