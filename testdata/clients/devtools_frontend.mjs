// Opens a DevTools frontend URL (a target's devtoolsFrontendUrl) in a second,
// independent headless Chromium, the way a person opens it in a browser, and
// waits until the frontend is connected to its target: the inspected page's
// URL, which it learns only over its websocket, is in its title (hosted
// DevTools titles itself "DevTools - <URL>") or in what its websocket
// received (Chrome's built-in frontend, devtools://devtools/bundled/…, in a
// tab leaves the title to its window).
//
//   node devtools_frontend.mjs <chromium> <frontend-url> <marker>
//
// Prints one JSON line once the title shows marker (or on failure):
//   {"ok":true,"title":"…","sockets":["ws://…"],"failed":[…]}
// then keeps the frontend open until its stdin closes (the test looks at the
// endpoint meanwhile), and closes the browser. Exit 0 ok, 1 failure, 2 timeout
// (CLIENT_TIMEOUT_MS, default 60000).
import { chromium } from 'playwright-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
setTimeout(() => { process.stderr.write(`devtools_frontend: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs);

async function main() {
  const [exe, url, marker] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: exe, headless: true, timeout: timeoutMs });
  const sockets = [], failed = [], console = [];
  let ok = false, title = '';
  try {
    const page = await browser.newPage();
    let heard = false;
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framereceived', (f) => { if (String(f.payload).includes(marker)) heard = true; });
    });
    page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.url()}: ${r.status()}`); });
    page.on('console', (m) => { if (m.type() === 'error') console.push(`${m.text()} (${m.location().url})`); });
    await page.goto(url);
    try {
      const until = Date.now() + Math.min(30000, timeoutMs - 5000);
      while (!heard && !(await page.title()).includes(marker)) {
        if (Date.now() > until) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 100));
      }
      ok = true;
    } catch (e) {
      process.stderr.write(`devtools_frontend: neither the title nor the websocket showed ${marker}: ${e}\n`);
    }
    title = await page.title();
    process.stdout.write(JSON.stringify({ ok, title, sockets, failed, console }) + '\n');
    if (ok) {
      // Keep the frontend connected until the test is done looking.
      await new Promise((resolve) => { process.stdin.on('end', resolve); process.stdin.on('close', resolve); process.stdin.resume(); });
    }
  } finally {
    await browser.close();
  }
  process.exit(ok ? 0 : 1);
}
main().catch((e) => { process.stderr.write(`devtools_frontend: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
