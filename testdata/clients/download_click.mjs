// Clicks download links through a CDP endpoint with puppeteer-core, as an
// agent's browser tool does: a new page, the page URL, one click per
// selector, then disconnect (the page and its downloads stay).
//
//   node download_click.mjs <http://127.0.0.1:PORT[/context/NAME]> <page-url> [--own-dir DIR] <selector>...
//
// --own-dir DIR: first set the browser's download behaviour itself (allow,
// into DIR), as a client with its own download handling does.
//
// stdout: exactly one JSON line on success: {"ok":true,"clicked":[selectors]}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import puppeteer from 'puppeteer-core';
import { connectPuppeteer } from './connect.mjs';

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
  const args = process.argv.slice(2);
  let ownDir;
  const at = args.indexOf('--own-dir');
  if (at >= 0) {
    ownDir = args[at + 1];
    args.splice(at, 2);
  }
  const [endpoint, url, ...selectors] = args;
  if (!endpoint || !url || selectors.length === 0) {
    throw new Error('usage: download_click.mjs <endpoint> <page-url> [--own-dir DIR] <selector>...');
  }
  const browser = await connectPuppeteer(puppeteer, endpoint); // a world's endpoint too
  if (ownDir) {
    const session = await browser.target().createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: ownDir });
  }
  const page = await browser.newPage();
  await page.goto(url);
  for (const sel of selectors) {
    await page.click(sel);
  }
  if (ownDir) {
    // The download is the client's to see through: wait for its file.
    const { existsSync } = await import('node:fs');
    while (!existsSync(`${ownDir}/report.bin`)) await new Promise((r) => setTimeout(r, 50));
  }
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, clicked: selectors }) + '\n');
  process.exit(0);
}

main().catch(fail);
