// Browser tests against the built site (dist/ served on 127.0.0.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const APP_URL = process.env.APP_URL ?? 'http://127.0.0.1:8124/';

async function withPage(fn) {
  const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-')), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic'],
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

test('opens on the example shader and shows its fxc listing', async () => {
  await withPage(async (page, errors) => {
    await page.goto(APP_URL);
    const listing = page.getByTestId('disassembly');
    await listing.waitFor({ timeout: 20000 });
    const text = await listing.textContent();
    assert.match(text, /^ps_5_0\n/m);
    assert.match(text, /mul o0\.xyzw, v0\.xyzw, cb0\[0\]\.xyzw/);
    assert.match(text, /\/\/ Approximately 0 instruction slots used/);
    assert.equal(await page.getByTestId('profile').textContent(), 'ps_5_0');
    assert.equal(await page.getByTestId('checksum').textContent(), 'checksum valid');
    assert.match(await page.getByTestId('chunks').textContent(), /SHEX/);
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
    assert.deepEqual(errors, []);
  });
});
