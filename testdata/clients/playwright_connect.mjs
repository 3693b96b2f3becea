// Connects playwright-core over CDP and runs one navigation + evaluation in a
// fresh context.
//
//   node playwright_connect.mjs <http://127.0.0.1:PORT | ws://...>
//
// stdout: exactly one JSON line on success: {"ok":true,"result":2}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import { chromium } from 'playwright-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
setTimeout(() => {
  process.stderr.write(`playwright_connect: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`playwright_connect: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const endpoint = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!endpoint) throw new Error('usage: playwright_connect.mjs <endpoint>');

  const browser = await chromium.connectOverCDP(endpoint, { timeout: timeoutMs });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('data:text/html,<h1>hi</h1>');
  const result = await page.evaluate(() => 1 + 1);
  if (result !== 2) throw new Error(`evaluate returned ${JSON.stringify(result)}, want 2`);
  await context.close();
  await browser.close(); // on a CDP connection this only disconnects
  process.stdout.write(JSON.stringify({ ok: true, result }) + '\n');
  process.exit(0);
}

main().catch(fail);
