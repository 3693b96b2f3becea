// A Puppeteer agent trying every door of its world out to the machine
// (issue 47): local files, the browser's own pages, files handed to a page,
// the raw protocol, a download into a folder of its own (doors.mjs).
//
//   node doors_puppeteer.mjs <endpoint> <A's page URL> <secret file> <marker>
//        [--upload=FILE] [--downloads=DIR] [--whole=ENDPOINT] [--only=DOOR,DOOR…]
//
// endpoint: a world's own port (http://127.0.0.1:WPORT, connect({browserURL}))
// or the whole browser's. --upload: a file a page may be given (the world's
// uploads folder); --downloads: the client's own download folder;
// --whole: the whole browser's endpoint, through which the owner plants a
// file: history entry in the world's page; --only: those doors alone.
// stdout: one JSON line {ok, doors: {door: {result, error, leak, urls, read}}, pages}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 120000).
import puppeteer from 'puppeteer-core';
import { script, within } from './cycles.mjs';
import { connectPuppeteer } from './connect.mjs';
import { doorsOptions, runDoors } from './doors.mjs';

const { timeoutMs, fail } = script('doors_puppeteer', 120000);

async function main() {
  const opts = doorsOptions('doors_puppeteer.mjs', process.argv.slice(2));
  const browser = await within(20000, connectPuppeteer(puppeteer, opts.endpoint, { protocolTimeout: Math.min(timeoutMs, 30000) }), 'connect');
  // The browser's session: in a world Puppeteer has no browser target
  // (browser.target() throws), so the browser's commands go on the session
  // of the runner's first page (Chromium takes Target.* and Browser.* on a
  // page's session too).
  let bs;
  const sessions = new Map();
  const logged = [];
  const watched = new WeakSet();
  const watch = (page) => {
    if (page && !watched.has(page)) {
      watched.add(page);
      page.on('console', (m) => logged.push(m.text()));
    }
    return page;
  };
  browser.on('targetcreated', (t) => t.page().then(watch, () => {}));
  const pageSession = async (page) => {
    if (!sessions.has(page)) sessions.set(page, await page.createCDPSession());
    return sessions.get(page);
  };
  const adapter = {
    async newPage() {
      const page = watch(await browser.newPage());
      bs ??= await page.createCDPSession();
      return page;
    },
    goto: (page, url) => page.goto(url, { timeout: 15000 }),
    evaluate: (page, fn, arg) => page.evaluate(fn, arg),
    click: (page, sel) => page.click(sel),
    async upload(page, sel, path) {
      const input = await page.$(sel);
      await input.uploadFile(path);
    },
    pageSend: async (page, method, params) => (await pageSession(page)).send(method, params),
    browserSend: (method, params) => bs.send(method, params),
    onBrowserEvent: (method, fn) => bs.on(method, fn),
    frames: (page) => page.frames(),
    frameText: (f) => f.evaluate(() => (document.documentElement ? document.documentElement.outerHTML : '')),
    targetId: (page) => page.target()._targetId,
    pageURL: (page) => page.url(),
    pages: async () => (await browser.pages()).map(watch),
    console: logged,
    close: (page) => page.close(),
  };
  const got = await runDoors(adapter, opts);
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, ...got }) + '\n');
  process.exit(0);
}

main().catch(fail);
