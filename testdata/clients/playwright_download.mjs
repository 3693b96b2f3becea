// A Playwright client that wants its downloads itself: over CDP it makes a
// context with acceptDownloads (Playwright sets that context's download
// behaviour), clicks a download link, and reads the file where Playwright
// put it.
//
//   node playwright_download.mjs <http://127.0.0.1:PORT> <page-url> <selector>
//
// stdout: exactly one JSON line on success:
//   {"ok":true,"suggested":name,"path":where Playwright has it,"sha256":hex}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
setTimeout(() => {
  process.stderr.write(`playwright_download: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`playwright_download: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const [endpoint, url, selector] = process.argv.slice(2);
  if (!endpoint || !url || !selector) throw new Error('usage: playwright_download.mjs <endpoint> <page-url> <selector>');
  const browser = await chromium.connectOverCDP(endpoint);
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(url);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = await download.path();
  const sha256 = createHash('sha256').update(await readFile(path)).digest('hex');
  const out = { ok: true, suggested: download.suggestedFilename(), path, sha256 };
  await context.close();
  await browser.close();
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch(fail);
