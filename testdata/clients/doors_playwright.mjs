// A Playwright agent (connectOverCDP) trying every door of its world out to
// the machine (issue 47), as doors_puppeteer.mjs does (doors.mjs), and a
// download of its own: Playwright sets the download behaviour while it
// connects (its artifacts folder); in a guarded world the file lands in the
// world's folder instead.
//
//   node doors_playwright.mjs <endpoint> <A's page URL> <secret file> <marker>
//        [--upload=FILE] [--whole=ENDPOINT] [--only=DOOR,DOOR…]
//
// stdout: one JSON line {ok, doors: {door: {result, error, leak, urls, read}}, pages,
// download: {result, error, suggested, path, exists}}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 120000).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { script, within } from './cycles.mjs';
import { doorsOptions, runDoors, setFileInputFiles } from './doors.mjs';

const { fail } = script('doors_playwright', 120000);

// download clicks A's download link and waits for Playwright's download.
async function download(context, site) {
  const page = await context.newPage();
  const out = { result: 'ok', error: '', suggested: '', path: '', exists: false };
  try {
    await page.goto(site);
    const [d] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.click('#dl')]);
    out.suggested = d.suggestedFilename();
    out.path = (await within(15000, d.path(), 'download.path()')) || '';
    out.exists = out.path !== '' && existsSync(out.path);
  } catch (e) {
    out.result = 'error';
    out.error = String(e.message).split('\n')[0];
  }
  await page.close().catch(() => {});
  return out;
}

async function main() {
  const opts = doorsOptions('doors_playwright.mjs', process.argv.slice(2));
  const browser = await within(20000, chromium.connectOverCDP(opts.endpoint), 'connectOverCDP');
  const context = browser.contexts()[0];
  const bs = await browser.newBrowserCDPSession();
  const sessions = new Map();
  const pageSession = async (page) => {
    if (!sessions.has(page)) sessions.set(page, await context.newCDPSession(page));
    return sessions.get(page);
  };
  const logged = [];
  const watched = new WeakSet();
  const watch = (page) => {
    if (!watched.has(page)) {
      watched.add(page);
      page.on('console', (m) => logged.push(m.text()));
    }
    return page;
  };
  context.on('page', watch);
  const dl = await download(context, opts.site);
  const adapter = {
    newPage: async () => watch(await context.newPage()),
    goto: (page, url) => page.goto(url, { timeout: 15000 }),
    evaluate: (page, fn, arg) => page.evaluate(fn, arg),
    click: (page, sel) => page.click(sel, { timeout: 10000 }),
    // Playwright's setInputFiles over connectOverCDP reads the file itself
    // and hands the page its bytes: DOM.setFileInputFiles goes on a CDP
    // session, and setInputFiles is tried as the client's own upload.
    upload: (page, sel, path) => setFileInputFiles(adapter, page, sel, path),
    clientUpload: (page, sel, path) => page.setInputFiles(sel, path, { timeout: 10000 }),
    pageSend: async (page, method, params) => (await pageSession(page)).send(method, params),
    browserSend: (method, params) => bs.send(method, params),
    onBrowserEvent: (method, fn) => bs.on(method, fn),
    frames: (page) => page.frames(),
    frameText: (f) => f.content(),
    targetId: async (page) => (await (await pageSession(page)).send('Target.getTargetInfo')).targetInfo.targetId,
    pageURL: (page) => page.url(),
    pages: async () => context.pages().map(watch),
    console: logged,
    close: (page) => page.close(),
  };
  const got = await runDoors(adapter, opts);
  await browser.close();
  process.stdout.write(JSON.stringify({ ok: true, ...got, download: dl }) + '\n');
  process.exit(0);
}

main().catch(fail);
