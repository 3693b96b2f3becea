// Puppeteer in worlds reached by a host and a port alone, as clients that
// keep no path reach them: connect({browserURL: 'http://127.0.0.1:WPORT'}).
//
//   node worlds_ports.mjs <site URL> NAME=ENDPOINT… [--port=N] [--whole=ENDPOINT]
//
// For each NAME (and "port" for --port=N: http://127.0.0.1:N, as a child
// given --port={cdp_port} makes its URL; "whole" for --whole), at once:
// connect with browserURL, open a page of the site at ?m=NAME, set the
// cookie m=NAME; then say what each sees: its pages' URLs, its /json/list
// entries' URLs and its cookies (Network.getAllCookies on its page's session: its
// context's). Pages are left open (disconnect), for the next client to find.
// stdout: one JSON line {"ok":true,"views":{NAME:{"pages":[…],"list":[…],"cookies":[…]}}}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 timeout (CLIENT_TIMEOUT_MS).
import puppeteer from 'puppeteer-core';

const NAME = 'worlds_ports';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);
process.on('unhandledRejection', (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});

async function visit(name, endpoint, site) {
  const browser = await puppeteer.connect({ browserURL: endpoint, defaultViewport: null });
  const page = await browser.newPage();
  await page.goto(`${site}/?m=${name}`);
  await page.evaluate((n) => { document.cookie = `m=${n}; path=/`; }, name);
  return { name, endpoint, browser, page };
}

async function view({ name, endpoint, browser, page }) {
  const pages = (await browser.pages()).map((p) => p.url());
  const res = await fetch(`${endpoint}/json/list`);
  if (!res.ok) throw new Error(`${name}: GET ${endpoint}/json/list: HTTP ${res.status}`);
  const list = (await res.json()).filter((e) => e.type === 'page').map((e) => e.url);
  // Network.getAllCookies on the page's session (a world hides the
  // browser target): every cookie of the page's context.
  const session = await page.createCDPSession();
  const { cookies } = await session.send('Network.getAllCookies');
  await session.detach();
  await browser.disconnect();
  return [name, { pages, list, cookies: cookies.map((c) => `${c.name}=${c.value}`) }];
}

async function main() {
  const [site, ...rest] = process.argv.slice(2);
  if (!site) throw new Error('usage: worlds_ports.mjs <site> NAME=ENDPOINT… [--port=N] [--whole=ENDPOINT]');
  const targets = [];
  for (const a of rest) {
    if (a.startsWith('--port=')) targets.push(['port', `http://127.0.0.1:${a.slice('--port='.length)}`]);
    else if (a.startsWith('--whole=')) targets.push(['whole', a.slice('--whole='.length)]);
    else {
      const i = a.indexOf('=');
      targets.push([a.slice(0, i), a.slice(i + 1)]);
    }
  }
  const visited = await Promise.all(targets.map(([n, e]) => visit(n, e, site)));
  const views = Object.fromEntries(await Promise.all(visited.map(view)));
  process.stdout.write(JSON.stringify({ ok: true, views }) + '\n');
  process.exit(0);
}

main();
