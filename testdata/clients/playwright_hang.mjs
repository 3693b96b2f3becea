// Checks that ONE playwright-core CDP connection survives a hung browser
// behind cdpvisor (the Go test stops Chromium with SIGSTOP; cdpvisor must
// declare it hung, kill it and relaunch it).
//
//   node playwright_hang.mjs <endpoint>
//
// Protocol (line based):
//   1. connectOverCDP(endpoint), register browser.on('disconnected'), open a
//      context + page, goto a data: URL, evaluate.
//   2. stdout: {"ready":1}; stdin: one line (the test has stopped the
//      browser, then writes "go\n").
//   3. An evaluate sent to the hung browser: it must settle (answered, or
//      failed because its page is gone), never hang: its outcome is reported.
//   4. On the SAME Browser object: newContext -> newPage -> goto -> evaluate
//      (must give "after").
//   5. stdout: {"ok":true,"inflight":"answered"|"failed: …","disconnected":false}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 60000).
import { chromium } from 'playwright-core';
import { createInterface } from 'node:readline';

const NAME = 'playwright_hang';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`${NAME}: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

const rl = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => {
  rl.once('line', resolve);
  rl.once('close', () => resolve(null));
});

async function main() {
  const [endpoint] = process.argv.slice(2);
  if (!endpoint) throw new Error('usage: playwright_hang.mjs <endpoint>');
  const browser = await chromium.connectOverCDP(endpoint, { timeout: timeoutMs });
  let disconnected = false;
  browser.on('disconnected', () => {
    disconnected = true;
    process.stderr.write(`${NAME}: browser 'disconnected' event fired\n`);
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('data:text/html,<p>before</p>');
  if ((await page.evaluate(() => document.querySelector('p').textContent)) !== 'before') throw new Error('first evaluate');

  process.stdout.write(JSON.stringify({ ready: 1 }) + '\n');
  if ((await nextLine()) === null) throw new Error('stdin closed before the hang');

  // Sent to a browser that answers nothing now.
  let inflight;
  try {
    const v = await page.evaluate(() => 6 * 7);
    inflight = v === 42 ? 'answered' : `answered ${v}`;
  } catch (err) {
    inflight = `failed: ${String(err.message || err).split('\n')[0]}`;
  }
  if (disconnected) throw new Error("'disconnected' fired during the hang");

  const again = await browser.newContext();
  const p2 = await again.newPage();
  await p2.goto('data:text/html,<p>after</p>');
  const got = await p2.evaluate(() => document.querySelector('p').textContent);
  if (got !== 'after') throw new Error(`evaluate after the hang returned ${JSON.stringify(got)}`);
  if (disconnected) throw new Error("'disconnected' fired");
  await again.close();
  process.stdout.write(JSON.stringify({ ok: true, inflight, disconnected }) + '\n');
  process.exit(0);
}

main().catch(fail);
