// A world's upstream proxy as a Playwright agent meets it.
//
//   node proxy_world.mjs <CDP endpoint> <page URL> <websocket URL>
//
// connectOverCDP(endpoint); a page of the default context loads the page
// (plain HTTP) and opens a websocket (a CONNECT tunnel through a proxy),
// which echoes what it is sent; then a browser.newContext()'s page loads
// the page with ?from=new-context.
// stdout: one JSON line {title, ws, newContext}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout.
import { chromium } from 'playwright-core';
import { script, within } from './cycles.mjs';

const { fail } = script('proxy_world', 60000);
const [endpoint, pageURL, wsURL] = process.argv.slice(2);

try {
  const browser = await within(15000, chromium.connectOverCDP(endpoint), 'connectOverCDP');
  const page = await browser.contexts()[0].newPage();
  await within(15000, page.goto(pageURL), 'goto');
  const title = await page.title();
  const ws = await within(15000, page.evaluate((url) => new Promise((resolve) => {
    const s = new WebSocket(url);
    s.onopen = () => s.send('ping');
    s.onmessage = (e) => { resolve(String(e.data)); s.close(); };
    s.onerror = () => resolve('error');
  }), wsURL), 'websocket');
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await within(15000, p2.goto(pageURL + '?from=new-context'), 'goto in a new context');
  const newContext = await p2.title();
  await other.close();
  await page.close();
  process.stdout.write(JSON.stringify({ title, ws, newContext }) + '\n');
  await browser.close();
  process.exit(0);
} catch (e) {
  fail(e);
}
