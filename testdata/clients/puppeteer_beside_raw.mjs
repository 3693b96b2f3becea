// Checks that ONE puppeteer-core Browser keeps working across kill -9 of
// the browser behind cdpvisor while a raw CDP client (raw_cdp.mjs: no
// auto-attach) is connected beside it on its own websocket, each using the
// relaunched browser after each kill (issue 33: the raw client's recovery
// held every new page, Puppeteer's too).
//
//   node puppeteer_beside_raw.mjs <http://127.0.0.1:PORT> <page URL> <cycles>
//
// Protocol (line based, as cycles.mjs):
//   1. Connect Puppeteer (browserURL) and the raw client (the browser
//      websocket of /json/version); each reads the local page in a page of
//      its own.
//   2. For N = 1..cycles: stdout {"ready":N}; one line on stdin (the test
//      kills the browser, then writes "go"); then:
//        a. the raw client asks first (Target.getTargets), so its
//           connection's recovery runs before Puppeteer makes a page;
//        b. Puppeteer: newPage, page.goto(the page showing "puppeteer N"),
//           and its <p>'s text;
//        c. the raw client: Target.createTarget, Target.attachToTarget
//           {flatten: true}, Page.navigate to the page showing "raw N", the
//           load event, Runtime.evaluate of its <p>'s text.
//      No page may ever be attached to the raw client waiting for a
//      debugger, and neither client may be disconnected.
//   3. stdout: {"ok":true,"cycles":N,"disconnected":false}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 60000).
import puppeteer from 'puppeteer-core';
import { script, nextLine, within } from './cycles.mjs';
import { RawCDP } from './raw_cdp.mjs';

const NAME = 'puppeteer_beside_raw';
const { timeoutMs, fail } = script(NAME, 60000);

const pageURL = (page, text) => `${page}/?text=${encodeURIComponent(text)}`;

async function puppeteerReads(browser, page, text) {
  const p = await within(20000, browser.newPage(), `puppeteer "${text}": newPage`);
  await within(20000, p.goto(pageURL(page, text)), `puppeteer "${text}": page.goto`);
  const got = await within(20000, p.evaluate(() => document.querySelector('p').textContent), `puppeteer "${text}": evaluate`);
  if (got !== text) throw new Error(`puppeteer: text ${JSON.stringify(got)}, want ${JSON.stringify(text)}`);
}

async function rawReads(raw, page, text) {
  const step = (what, p) => within(20000, p, `raw "${text}": ${what}`);
  const { targetId } = await step('Target.createTarget', raw.send('Target.createTarget', { url: 'about:blank' }));
  const { sessionId } = await step('Target.attachToTarget', raw.send('Target.attachToTarget', { targetId, flatten: true }));
  await step('Page.enable', raw.send('Page.enable', {}, sessionId));
  const nav = await step('Page.navigate', raw.send('Page.navigate', { url: pageURL(page, text) }, sessionId));
  if (nav.errorText) throw new Error(`raw "${text}": Page.navigate: ${nav.errorText}`);
  // The page is small and local: wait for its <p> rather than an event.
  const expression = `new Promise((r) => { const f = () => document.querySelector('p') ? r(document.querySelector('p').textContent) : setTimeout(f, 20); f(); })`;
  const { result } = await step('Runtime.evaluate', raw.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId));
  if (result.value !== text) throw new Error(`raw: text ${JSON.stringify(result.value)}, want ${JSON.stringify(text)}`);
}

async function main() {
  const [endpoint, page, cyclesArg] = process.argv.slice(2);
  const cycles = Number(cyclesArg);
  if (!endpoint || !page || !Number.isInteger(cycles) || cycles < 0) {
    throw new Error('usage: puppeteer_beside_raw.mjs <endpoint> <page URL> <cycles>');
  }
  const browser = await puppeteer.connect({ browserURL: endpoint, protocolTimeout: timeoutMs });
  let disconnected = false;
  const onDisconnected = () => {
    disconnected = true;
    process.stderr.write(`${NAME}: browser 'disconnected' event fired\n`);
  };
  browser.on('disconnected', onDisconnected);
  const { webSocketDebuggerUrl } = await (await fetch(endpoint + '/json/version')).json();
  const raw = await RawCDP.connect(webSocketDebuggerUrl);
  const check = (label) => {
    if (disconnected || raw.closed) throw new Error(`${label}: disconnected (puppeteer ${disconnected}, raw ${raw.closed})`);
    if (raw.held) throw new Error(`${label}: ${raw.held} page(s) attached to the raw client waiting for a debugger`);
  };

  await puppeteerReads(browser, page, 'puppeteer start');
  await rawReads(raw, page, 'raw start');
  check('start');
  for (let n = 1; n <= cycles; n++) {
    process.stdout.write(JSON.stringify({ ready: n }) + '\n');
    if ((await nextLine()) === null) throw new Error(`stdin closed while waiting for cycle ${n}`);
    await within(20000, raw.send('Target.getTargets'), `cycle ${n}: raw Target.getTargets`);
    await puppeteerReads(browser, page, `puppeteer ${n}`);
    await rawReads(raw, page, `raw ${n}`);
    check(`cycle ${n}`);
  }
  browser.off('disconnected', onDisconnected);
  await browser.disconnect();
  raw.close();
  process.stdout.write(JSON.stringify({ ok: true, cycles, disconnected }) + '\n');
  process.exit(0);
}

main().catch(fail);
