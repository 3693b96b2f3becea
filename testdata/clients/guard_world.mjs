// A world's network policy as a Playwright agent meets it.
//
//   node guard_world.mjs <CDP endpoint> <page URL on server A> <B as host:port>
//
// 1. connectOverCDP(endpoint); a page of the default context loads A's page,
//    which asks B for an image, an iframe, a fetch, a websocket, a worker's
//    fetch, a service worker's fetch and a WebRTC STUN binding, and reports
//    how each went (window.results, once window.allDone).
// 2. browser.newContext(): a page of it goes to B, then to A.
// 3. A raw CDP session asks Target.createBrowserContext with a proxyServer
//    of its own.
// stdout: one JSON line {page, newContextB, newContextA, ownProxy}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout.
import { chromium } from 'playwright-core';
import { script, within } from './cycles.mjs';

const { fail } = script('guard_world', 60000);
const [endpoint, pageURL, b] = process.argv.slice(2);

const outcome = (p) => p.then(() => 'ok', (e) => 'failed: ' + String(e.message).split('\n')[0]);

try {
  const browser = await within(15000, chromium.connectOverCDP(endpoint), 'connectOverCDP');
  const ctx = browser.contexts()[0];
  const page = await ctx.newPage();
  await within(15000, page.goto(pageURL + '?b=' + encodeURIComponent(b)), 'goto A');
  await page.waitForFunction(() => window.allDone === true, null, { timeout: 20000 });
  const results = await page.evaluate(() => window.results);

  const other = await browser.newContext();
  const p2 = await other.newPage();
  const newContextB = await outcome(p2.goto('http://' + b + '/from-new-context', { timeout: 10000 }));
  const p3 = await other.newPage(); // p2's error page may still be settling
  const newContextA = await outcome(p3.goto(pageURL, { timeout: 10000 }));
  await other.close();

  const cdp = await browser.newBrowserCDPSession();
  let ownProxy;
  try {
    const made = await cdp.send('Target.createBrowserContext', { proxyServer: 'direct://' });
    ownProxy = 'made';
    await cdp.send('Target.disposeBrowserContext', { browserContextId: made.browserContextId });
  } catch (e) {
    ownProxy = 'refused: ' + e.message;
  }
  await page.close();
  process.stdout.write(JSON.stringify({ page: results, newContextB, newContextA, ownProxy }) + '\n');
  await browser.close();
  process.exit(0);
} catch (e) {
  fail(e);
}
