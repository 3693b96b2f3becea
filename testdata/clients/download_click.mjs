// Clicks download links through a CDP endpoint with puppeteer-core, as an
// agent's browser tool does: a new page, the page URL, one click per
// selector, then disconnect (the page and its downloads stay).
//
//   node download_click.mjs <http://127.0.0.1:PORT> <page-url> <selector>...
//
// stdout: exactly one JSON line on success: {"ok":true,"clicked":[selectors]}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import puppeteer from 'puppeteer-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
setTimeout(() => {
  process.stderr.write(`download_click: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`download_click: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const [endpoint, url, ...selectors] = process.argv.slice(2);
  if (!endpoint || !url || selectors.length === 0) {
    throw new Error('usage: download_click.mjs <endpoint> <page-url> <selector>...');
  }
  const browser = await puppeteer.connect({ browserURL: endpoint });
  const page = await browser.newPage();
  await page.goto(url);
  for (const sel of selectors) {
    await page.click(sel);
  }
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, clicked: selectors }) + '\n');
  process.exit(0);
}

main().catch(fail);
