// Checks that ONE playwright-core CDP connection survives browser restarts
// behind a supervising proxy (the Go test kills Chromium between cycles).
//
//   node playwright_survive.mjs <endpoint> <cycles>
//
// Protocol (line based):
//   1. connectOverCDP(endpoint) once, register browser.on('disconnected'),
//      open a context + page, goto a data: URL, evaluate.
//   2. For N = 1..cycles:
//        stdout: {"ready":N}
//        stdin:  one line (the test kills the browser, then writes "go\n")
//        then, on the SAME Browser object: newContext -> newPage ->
//        goto('data:text/html,<p>cycle N</p>') -> evaluate textContent of <p>
//        (must be "cycle N") -> close that context.
//   3. stdout: {"ok":true,"cycles":N,"disconnected":false}
// So stdout carries `cycles` {"ready":N} lines followed by the final line.
// A 'disconnected' event (or stdin EOF before a cycle) is a failure.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000, covers the whole run).
import { chromium } from 'playwright-core';
import { script, nextLine } from './cycles.mjs';

const NAME = 'playwright_survive';
const { timeoutMs, fail } = script(NAME, 30000);

async function main() {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const [endpoint, cyclesArg] = args;
  const cycles = Number(cyclesArg);
  if (!endpoint || !Number.isInteger(cycles) || cycles < 0) {
    throw new Error('usage: playwright_survive.mjs <endpoint> <cycles>');
  }

  const browser = await chromium.connectOverCDP(endpoint, { timeout: timeoutMs });
  let disconnected = false;
  const onDisconnected = () => {
    disconnected = true;
    process.stderr.write(`${NAME}: browser 'disconnected' event fired\n`);
  };
  browser.on('disconnected', onDisconnected);

  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await firstPage.goto('data:text/html,<p>start</p>');
  const start = await firstPage.evaluate(() => document.querySelector('p').textContent);
  if (start !== 'start') throw new Error(`initial evaluate returned ${JSON.stringify(start)}, want "start"`);

  for (let n = 1; n <= cycles; n++) {
    process.stdout.write(JSON.stringify({ ready: n }) + '\n');
    const line = await nextLine();
    if (line === null) throw new Error(`stdin closed while waiting for cycle ${n}`);
    if (disconnected) throw new Error(`browser 'disconnected' event fired before cycle ${n}`);
    const want = `cycle ${n}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`data:text/html,<p>${want}</p>`);
    const got = await page.evaluate(() => document.querySelector('p').textContent);
    if (got !== want) throw new Error(`cycle ${n}: evaluate returned ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    await context.close();
  }

  if (disconnected) throw new Error(`browser 'disconnected' event fired`);
  // Disconnect only. The first context is deliberately not closed: after a
  // browser restart it no longer exists. (Playwright creates its contexts with
  // disposeOnDetach, so Chromium drops them when this connection goes away.)
  // Only our own listener: the library waits on its own 'disconnected'
  // listener inside close()/disconnect().
  browser.off('disconnected', onDisconnected);
  await browser.close();
  process.stdout.write(JSON.stringify({ ok: true, cycles, disconnected }) + '\n');
  process.exit(0);
}

main().catch(fail);
