// Puppeteer launches "Chrome" through the bridge over the pipe; the Go test
// kills the real browser; Puppeteer must see the browser go (the pipe
// closes) and its own relaunch must work.
//
//   node bridge_relaunch.mjs <bridge>
//
// stdout: {"ready":1} once the first browser works (then it waits for a
// line on stdin), then {"ok":true,"disconnected":true}.
import puppeteer from 'puppeteer-core';
import { createInterface } from 'node:readline';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
setTimeout(() => { process.stderr.write(`bridge_relaunch: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs);
const rl = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => rl.once('line', resolve));

async function launch(exe) {
  const browser = await puppeteer.launch({ executablePath: exe, pipe: true, headless: true, args: ['--no-sandbox'], timeout: timeoutMs });
  const page = await browser.newPage();
  if ((await page.evaluate(() => 1 + 1)) !== 2) throw new Error('evaluate');
  return browser;
}

async function main() {
  const [exe] = process.argv.slice(2);
  const first = await launch(exe);
  const gone = new Promise((resolve) => first.once('disconnected', resolve));
  process.stdout.write(JSON.stringify({ ready: 1 }) + '\n');
  await nextLine();
  await Promise.race([gone, new Promise((_, reject) => setTimeout(() => reject(new Error('no disconnected event after the browser was killed')), 10000))]);
  const second = await launch(exe);
  await second.close();
  process.stdout.write(JSON.stringify({ ok: true, disconnected: true }) + '\n');
  rl.close();
  process.exit(0);
}
main().catch((e) => { process.stderr.write(`bridge_relaunch: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
