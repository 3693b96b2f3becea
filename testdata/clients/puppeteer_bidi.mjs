// Connects puppeteer-core over WebDriver BiDi to a Firefox endpoint the way
// the README shows, and runs newPage → goto → evaluate.
//
//   node puppeteer_bidi.mjs <ws://127.0.0.1:PORT/session>
//   node puppeteer_bidi.mjs <http://127.0.0.1:PORT>   (browserURL: Puppeteer reads /json/version)
//
// stdout: exactly one JSON line on success:
//   {"ok":true,"result":2,"title":"bidi","version":"firefox/…"}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import puppeteer from 'puppeteer-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
setTimeout(() => {
  process.stderr.write(`puppeteer_bidi: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`puppeteer_bidi: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const endpoint = process.argv[2];
  if (!endpoint) throw new Error('usage: puppeteer_bidi.mjs <ws://127.0.0.1:PORT/session | http://127.0.0.1:PORT>');
  const target = endpoint.startsWith('http') ? { browserURL: endpoint } : { browserWSEndpoint: endpoint };
  const browser = await puppeteer.connect({ ...target, protocol: 'webDriverBiDi' });
  const version = await browser.version();
  const page = await browser.newPage();
  await page.goto('data:text/html,<title>bidi</title><p>hello</p>');
  const result = await page.evaluate(() => 1 + 1);
  if (result !== 2) throw new Error(`evaluate returned ${JSON.stringify(result)}, want 2`);
  const title = await page.title();
  await page.close();
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, result, title, version }) + '\n');
  process.exit(0);
}

main().catch(fail);
