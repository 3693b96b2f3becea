// Checks that ONE puppeteer-core connection survives browser restarts behind
// a supervising proxy (the Go test kills Chromium between cycles).
//
//   node puppeteer_survive.mjs <http://127.0.0.1:PORT[/context/NAME]> <cycles>
//
// Protocol (line based):
//   1. puppeteer.connect({browserURL: endpoint}) once, register
//      browser.on('disconnected'), open a page, goto a data: URL, evaluate.
//   2. For N = 1..cycles:
//        stdout: {"ready":N}
//        stdin:  one line (the test kills the browser, then writes "go\n")
//        then, on the SAME Browser object:
//          a. pages() resolves, and within 2 s (the relay's news of the
//             lost targets reaching the client) lists none of the pages from
//             before the kill; every page it lists evaluates;
//          b. newPage -> goto('data:text/html,<p>cycle N</p>') -> evaluate
//             textContent of <p> (must be "cycle N");
//          c. pages() lists exactly the live browser's pages (/json/list,
//             type page), and every one of them evaluates.
//   3. stdout: {"ok":true,"cycles":N,"disconnected":false}
// So stdout carries `cycles` {"ready":N} lines followed by the final line.
// A 'disconnected' event (or stdin EOF before a cycle) is a failure.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000, covers the whole run).
import puppeteer from 'puppeteer-core';
import { script, nextLine, within, pagesWithoutStale } from './cycles.mjs';
import { connectPuppeteer } from './connect.mjs';

const NAME = 'puppeteer_survive';
const { timeoutMs, fail } = script(NAME, 30000);

// useEvery evaluates in every page of pages; none may be a stale one.
async function useEvery(pages, stale, label) {
  for (const p of pages) {
    if (stale.has(p)) throw new Error(`${label}: pages() lists a page of the killed browser (${p.url()})`);
    const v = await within(10000, p.evaluate(() => 6 * 7), `${label}: evaluate in ${p.url()}`);
    if (v !== 42) throw new Error(`${label}: evaluate in ${p.url()} returned ${v}`);
  }
}

async function livePageIds(endpoint) {
  const list = await (await fetch(endpoint + '/json/list')).json();
  return list.filter((t) => t.type === 'page').map((t) => t.id).sort();
}

async function main() {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const [endpoint, cyclesArg] = args;
  const cycles = Number(cyclesArg);
  if (!endpoint || !Number.isInteger(cycles) || cycles < 0) {
    throw new Error('usage: puppeteer_survive.mjs <endpoint> <cycles>');
  }

  const browser = await connectPuppeteer(puppeteer, endpoint, { protocolTimeout: timeoutMs });
  let disconnected = false;
  const onDisconnected = () => {
    disconnected = true;
    process.stderr.write(`${NAME}: browser 'disconnected' event fired\n`);
  };
  browser.on('disconnected', onDisconnected);

  const firstPage = await browser.newPage();
  await firstPage.goto('data:text/html,<p>start</p>');
  const start = await firstPage.evaluate(() => document.querySelector('p').textContent);
  if (start !== 'start') throw new Error(`initial evaluate returned ${JSON.stringify(start)}, want "start"`);

  const stale = new Set();
  for (let n = 1; n <= cycles; n++) {
    for (const p of await browser.pages()) stale.add(p);
    process.stdout.write(JSON.stringify({ ready: n }) + '\n');
    const line = await nextLine();
    if (line === null) throw new Error(`stdin closed while waiting for cycle ${n}`);
    if (disconnected) throw new Error(`browser 'disconnected' event fired before cycle ${n}`);
    await useEvery(await pagesWithoutStale(browser, stale, `cycle ${n} (a)`), stale, `cycle ${n} (a)`);
    const want = `cycle ${n}`;
    const page = await within(20000, browser.newPage(), `cycle ${n}: newPage`);
    await page.goto(`data:text/html,<p>${want}</p>`);
    const got = await page.evaluate(() => document.querySelector('p').textContent);
    if (got !== want) throw new Error(`cycle ${n}: evaluate returned ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    const listed = await within(20000, browser.pages(), `cycle ${n}: pages() after newPage`);
    await useEvery(listed, stale, `cycle ${n} (c)`);
    const ids = listed.map((p) => p.target()._targetId).sort();
    const live = await livePageIds(endpoint);
    if (JSON.stringify(ids) !== JSON.stringify(live)) {
      throw new Error(`cycle ${n}: pages() lists ${JSON.stringify(ids)}, the browser has ${JSON.stringify(live)}`);
    }
  }

  if (disconnected) throw new Error(`browser 'disconnected' event fired`);
  // Best effort: after a browser restart the first page no longer exists, so
  // its close may fail or never be answered; do not let that fail the run.
  await Promise.race([
    firstPage.close().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 2000)),
  ]);
  // Only our own listener: the library waits on its own 'disconnected'
  // listener inside close()/disconnect().
  browser.off('disconnected', onDisconnected);
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, cycles, disconnected }) + '\n');
  process.exit(0);
}

main().catch(fail);
