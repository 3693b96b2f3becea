// Launches "Chrome" through the cdpvisor bridge the way each client does.
//
//   node bridge_launch.mjs <puppeteer-pipe|puppeteer-ws|playwright> <bridge> [user-data-dir]
//
// Opens a page, evaluates 1+1, closes the browser as the client does.
// stdout: one JSON line {"ok":true,"result":2}. Exit 0 ok, 1 failure,
// 2 timeout (CLIENT_TIMEOUT_MS, default 60000).
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
setTimeout(() => { process.stderr.write(`bridge_launch: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs);

async function main() {
  const [mode, exe, profile] = process.argv.slice(2);
  let result;
  if (mode.startsWith('puppeteer')) {
    const browser = await puppeteer.launch({
      executablePath: exe, pipe: mode === 'puppeteer-pipe', headless: true,
      userDataDir: profile || undefined, args: ['--no-sandbox'], timeout: timeoutMs,
    });
    const page = await browser.newPage();
    result = await page.evaluate(() => 1 + 1);
    await browser.close();
  } else if (mode === 'playwright') {
    const browser = await chromium.launch({ executablePath: exe, headless: true, timeout: timeoutMs });
    const page = await browser.newPage();
    await page.goto('data:text/html,<p>hi</p>');
    result = await page.evaluate(() => 1 + 1);
    await browser.close();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  if (result !== 2) throw new Error(`evaluate returned ${result}`);
  process.stdout.write(JSON.stringify({ ok: true, result }) + '\n');
  process.exit(0);
}
main().catch((e) => { process.stderr.write(`bridge_launch: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
