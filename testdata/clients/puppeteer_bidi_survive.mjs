// Checks that ONE puppeteer-core connection over WebDriver BiDi survives
// Firefox restarts behind cdpvisor's /session (the Go test kills Firefox
// between cycles).
//
//   node puppeteer_bidi_survive.mjs <ws://127.0.0.1:PORT/session> <cycles>
//
// Protocol (line based):
//   1. puppeteer.connect({browserWSEndpoint, protocol: 'webDriverBiDi'}) once,
//      register browser.on('disconnected'), newPage, goto a data: URL, evaluate.
//   2. For N = 1..cycles:
//        stdout: {"ready":N}
//        stdin:  one line (the test kills Firefox, then writes "go\n")
//        then, on the SAME Browser object:
//          a. within 2 s pages() lists none of the pages from before the kill
//             (the relay tells the client their contexts are destroyed);
//          b. newPage -> goto('data:text/html,<p>cycle N</p>') -> evaluate
//             textContent of <p> (must be "cycle N");
//          c. a page of the killed browser fails at once, not hangs.
//   3. stdout: {"ok":true,"cycles":N,"disconnected":false}
// A 'disconnected' event (or stdin EOF before a cycle) is a failure.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000, covers the whole run).
import puppeteer from 'puppeteer-core';
import { script, nextLine, within, pagesWithoutStale } from './cycles.mjs';

const NAME = 'puppeteer_bidi_survive';
const { timeoutMs, fail } = script(NAME, 30000);

async function main() {
  const [endpoint, cyclesArg] = process.argv.slice(2);
  const cycles = Number(cyclesArg);
  if (!endpoint || !Number.isInteger(cycles) || cycles < 0) {
    throw new Error('usage: puppeteer_bidi_survive.mjs <ws://…/session> <cycles>');
  }
  const browser = await puppeteer.connect({ browserWSEndpoint: endpoint, protocol: 'webDriverBiDi', protocolTimeout: timeoutMs });
  let disconnected = false;
  browser.on('disconnected', () => {
    disconnected = true;
    process.stderr.write(`${NAME}: browser 'disconnected' event fired\n`);
  });
  const first = await browser.newPage();
  await first.goto('data:text/html,<p>start</p>');
  const start = await first.evaluate(() => document.querySelector('p').textContent);
  if (start !== 'start') throw new Error(`initial evaluate returned ${JSON.stringify(start)}, want "start"`);

  for (let n = 1; n <= cycles; n++) {
    const stale = new Set(await browser.pages());
    const old = first.isClosed() ? null : first;
    process.stdout.write(JSON.stringify({ ready: n }) + '\n');
    const line = await nextLine();
    if (line === null) throw new Error(`stdin closed while waiting for cycle ${n}`);
    if (disconnected) throw new Error(`browser 'disconnected' event fired before cycle ${n}`);
    await pagesWithoutStale(browser, stale, `cycle ${n} (a)`);
    const want = `cycle ${n}`;
    const page = await within(60000, browser.newPage(), `cycle ${n}: newPage`);
    await within(20000, page.goto(`data:text/html,<p>${want}</p>`), `cycle ${n}: goto`);
    const got = await within(20000, page.evaluate(() => document.querySelector('p').textContent), `cycle ${n}: evaluate`);
    if (got !== want) throw new Error(`cycle ${n}: evaluate returned ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    if (old) {
      const res = await within(5000, old.evaluate(() => 1).then(() => 'answered', () => 'failed'), `cycle ${n}: a page of the killed browser`);
      if (res !== 'failed') throw new Error(`cycle ${n}: a page of the killed browser still evaluates`);
    }
  }
  if (disconnected) throw new Error(`browser 'disconnected' event fired`);
  browser.removeAllListeners('disconnected');
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, cycles, disconnected }) + '\n');
  process.exit(0);
}

main().catch(fail);
