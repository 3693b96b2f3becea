// Two agents on one browser, each in a world of its own: Puppeteer in
// world "pptr", Playwright in world "pw", behind one cdpvisor endpoint (the
// Go test kills the browser in the middle).
//
//   node worlds_walled.mjs <http://127.0.0.1:PORT>
//
// Protocol (line based):
//   1. Each client connects to its world (ENDPOINT/context/NAME), opens a
//      page and sets a cookie. The walls hold: each sees only its own pages
//      (pages(), /context/NAME/json/list), its own cookies (the browser's
//      and a page's Network.getAllCookies); the whole browser's /json/list
//      has both; another world's target is unknown to a raw CDP client
//      (Chromium's error); Puppeteer reconnects and finds its page.
//   2. stdout: {"ready":"kill"}; stdin: one line (the test killed the
//      browser with SIGKILL and waited for it to be gone).
//   3. On the same Browser objects: both open pages again, their cookies
//      are back (and still walled), the lists still walled.
//   4. stdout: {"ready":"close"}; stdin: one line (the test noted the
//      browser). A raw client of world "pw" sends Browser.close: it is
//      answered {} and its connection closes; Playwright's world has no
//      pages left, Puppeteer's world and the browser go on.
//   5. stdout: {"ok":true}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 60000).
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { script, nextLine, within } from './cycles.mjs';
import { connectPuppeteer } from './connect.mjs';

const NAME = 'worlds_walled';
const { timeoutMs, fail } = script(NAME, 60000);

function check(cond, what) {
  if (!cond) throw new Error(what);
}

async function json(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function pageIds(url) {
  return (await json(url + '/json/list')).filter((t) => t.type === 'page').map((t) => t.id).sort();
}

// raw is a bare CDP client of a world's browser socket.
async function raw(worldURL) {
  const { webSocketDebuggerUrl } = await json(worldURL + '/json/version');
  check(webSocketDebuggerUrl.includes('/context/'), `webSocketDebuggerUrl ${webSocketDebuggerUrl} is not the world's`);
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  const waiting = new Map();
  const closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  ws.on('message', (data) => {
    const m = JSON.parse(data);
    if (m.id !== undefined && waiting.has(m.id)) {
      waiting.get(m.id)(m);
      waiting.delete(m.id);
    }
  });
  return {
    send(method, params = {}) {
      const i = ++id;
      ws.send(JSON.stringify({ id: i, method, params }));
      return within(10000, new Promise((resolve) => waiting.set(i, resolve)), `raw ${method}`);
    },
    closed,
    close() { ws.close(); },
  };
}

async function text(page) {
  return page.evaluate(() => document.querySelector('p').textContent);
}

function names(cookies) {
  return cookies.map((c) => `${c.name}=${c.value}`).sort().join(',');
}

// walls checks what each world sees: pages, lists and cookies.
async function walls(label, endpoint, pp, pwContext) {
  const ppURL = endpoint + '/context/pptr';
  const pwURL = endpoint + '/context/pw';
  const ppPages = await within(10000, pp.pages(), `${label}: pptr pages()`);
  const ppIds = ppPages.map((p) => p.target()._targetId).sort();
  const pwPages = pwContext.pages();
  for (const p of ppPages) check((await text(p)).startsWith('pptr'), `${label}: Puppeteer's world lists a page saying ${await text(p)}`);
  for (const p of pwPages) check((await text(p)).startsWith('pw'), `${label}: Playwright's world lists a page saying ${await text(p)}`);
  const ppListed = await pageIds(ppURL);
  const pwListed = await pageIds(pwURL);
  check(JSON.stringify(ppIds) === JSON.stringify(ppListed), `${label}: pptr pages() ${ppIds}, its /json/list ${ppListed}`);
  check(pwListed.length === pwPages.length, `${label}: pw has ${pwPages.length} pages, its /json/list ${pwListed}`);
  check(!ppListed.some((id) => pwListed.includes(id)), `${label}: both worlds list the same page`);
  const all = await pageIds(endpoint);
  check([...ppListed, ...pwListed].every((id) => all.includes(id)), `${label}: the whole browser's /json/list ${all} lacks a world's page`);
  const ppCookies = names(await pp.cookies());
  const pwCookies = names(await pwContext.cookies());
  check(ppCookies === 'who=pptr', `${label}: Puppeteer's world has cookies ${ppCookies}, want who=pptr`);
  check(pwCookies === 'who=pw', `${label}: Playwright's world has cookies ${pwCookies}, want who=pw`);
  const session = await ppPages[0].createCDPSession();
  const { cookies } = await session.send('Network.getAllCookies');
  await session.detach();
  check(names(cookies) === 'who=pptr', `${label}: a page of Puppeteer's world reads Network.getAllCookies ${names(cookies)}`);
  return { ppListed, pwListed };
}

async function main() {
  const [endpoint] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!endpoint) throw new Error('usage: worlds_walled.mjs <endpoint>');
  const ppURL = endpoint + '/context/pptr';
  const pwURL = endpoint + '/context/pw';

  let pp = await connectPuppeteer(puppeteer, ppURL, { protocolTimeout: timeoutMs });
  const pw = await chromium.connectOverCDP(pwURL, { timeout: timeoutMs });
  let pwDisconnected = false;
  pw.on('disconnected', () => { pwDisconnected = true; });
  const pwContext = pw.contexts()[0];
  check(pwContext && pwContext.pages().length === 0, `Playwright's new world has ${pwContext?.pages().length} pages, want none`);

  const ppPage = await pp.newPage();
  await ppPage.goto('data:text/html,<p>pptr one</p>');
  await pp.setCookie({ name: 'who', value: 'pptr', domain: 'pptr.test', path: '/' });
  const pwPage = await pwContext.newPage();
  await pwPage.goto('data:text/html,<p>pw one</p>');
  await pwContext.addCookies([{ name: 'who', value: 'pw', url: 'http://pw.test/' }]);
  const { pwListed } = await walls('before', endpoint, pp, pwContext);

  // Another world's page is unknown to a raw client, as Chromium says it.
  const r = await raw(ppURL);
  for (const method of ['Target.attachToTarget', 'Target.activateTarget', 'Target.closeTarget']) {
    const m = await r.send(method, { targetId: pwListed[0], flatten: true });
    check(m.error && m.error.code === -32602 && m.error.message === 'No target with given id found',
      `${method} of Playwright's page from Puppeteer's world answered ${JSON.stringify(m)}`);
  }
  const { targetInfos } = (await r.send('Target.getTargets')).result;
  check(targetInfos.every((t) => t.targetId !== pwListed[0]), `Target.getTargets in Puppeteer's world lists Playwright's page`);
  r.close();
  check((await pageIds(pwURL)).length === 1, `Playwright's page is gone after a foreign closeTarget`);

  // A reconnect finds the world's page.
  await pp.disconnect();
  pp = await connectPuppeteer(puppeteer, ppURL, { protocolTimeout: timeoutMs });
  const found = await within(10000, pp.pages(), 'pages() after the reconnect');
  check(found.length === 1 && (await text(found[0])) === 'pptr one', `after a reconnect Puppeteer's world has ${found.length} pages`);
  let ppDisconnected = false;
  pp.on('disconnected', () => { ppDisconnected = true; });

  // Cookies are read for the next browser every 1.5 s while clients are on.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  process.stdout.write(JSON.stringify({ ready: 'kill' }) + '\n');
  if ((await nextLine()) === null) throw new Error('stdin closed before the kill');

  const ppAgain = await within(30000, pp.newPage(), 'Puppeteer newPage after the kill');
  await ppAgain.goto('data:text/html,<p>pptr two</p>');
  check((await text(ppAgain)) === 'pptr two', 'Puppeteer page after the kill');
  const pwAgain = await within(30000, pwContext.newPage(), 'Playwright newPage after the kill');
  await pwAgain.goto('data:text/html,<p>pw two</p>');
  check((await text(pwAgain)) === 'pw two', 'Playwright page after the kill');
  await walls('after the kill', endpoint, pp, pwContext);
  check(!ppDisconnected && !pwDisconnected, `a client saw 'disconnected' (pptr ${ppDisconnected}, pw ${pwDisconnected})`);

  // Browser.close from Playwright's world closes that world, not the browser.
  process.stdout.write(JSON.stringify({ ready: 'close' }) + '\n');
  if ((await nextLine()) === null) throw new Error('stdin closed before the Browser.close');
  const closer = await raw(pwURL);
  const answer = await closer.send('Browser.close');
  check(answer.result && Object.keys(answer.result).length === 0, `Browser.close answered ${JSON.stringify(answer)}`);
  await within(5000, closer.closed, 'the connection closing after Browser.close');
  check((await pageIds(pwURL)).length === 0, `Playwright's world still lists pages after its Browser.close`);
  check((await text(ppAgain)) === 'pptr two', `Puppeteer's page after the other world's Browser.close`);
  check((await pageIds(ppURL)).length === 1, `Puppeteer's world lists ${(await pageIds(ppURL)).length} pages after the other world's Browser.close`);
  check(!ppDisconnected, `Puppeteer saw 'disconnected' after the other world's Browser.close`);

  await pp.disconnect();
  await pw.close();
  process.stdout.write(JSON.stringify({ ok: true }) + '\n');
  process.exit(0);
}

main().catch(fail);
