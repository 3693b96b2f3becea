// The live view with real clients, as issue 36's "done means" asks:
//   cdpvisor mcp (a real MCP client: the TypeScript SDK) with two worlds,
//   a Puppeteer agent in world "alice" and a Playwright agent in world "bob",
//   and a human: Playwright driving Chromium on the coordinator's /ui.
//
//   node liveview_e2e.mjs <cdpvisor binary> <browser> <work dir> [screenshot dir]
//
// Checks: /ui lists both worlds and their pages; a navigation of an agent
// changes its world's thumbnail within a second (pixels compared); the human
// takes over alice, types into the agent's <input> through the page, and the
// agent reads the value through its own CDP; the agent's Page.navigate sent
// during the takeover is answered only after "Hand back"; request_human
// answers the human's note after Done (with progress notifications while it
// waits) and isError after its timeout; a foreign Origin can neither open the
// websocket nor ask for a human; the page cannot be framed; every control is
// labelled; at 800 px wide nothing overflows. Screenshots go to the screenshot
// dir (default: the work dir).
// stdout: one JSON line {"ok":true, ...}. Exit codes: 0 ok, 1 failure, 2 timeout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import path from 'node:path';
import http from 'node:http';

const NAME = 'liveview_e2e';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 180000;
let transport = null;
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  if (transport && transport.pid) try { process.kill(transport.pid, 'SIGKILL'); } catch {}
  process.exit(2);
}, timeoutMs);
process.on('unhandledRejection', (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The agents' pages, served here: a sign-in form whose <input> fills the
// top half (the human clicks anywhere there), and pages of one colour.
const site = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const head = (title) => `<!doctype html><title>${title}</title><body style="margin:0;font-family:sans-serif">`;
  res.setHeader('Content-Type', 'text/html');
  if (u.pathname === '/sign-in') {
    res.end(head('alice-form') + '<input id="f" aria-label="code" placeholder="Enter the code" style="position:fixed;left:0;top:0;width:100%;height:50%;font-size:48px;box-sizing:border-box;padding:0 1em">' +
      '<p style="position:fixed;top:55%;left:1em;font-size:28px">Sign in to Example: type the code from your phone.</p>');
  } else {
    const rgb = u.searchParams.get('rgb') || '255,255,255';
    res.end(head(u.searchParams.get('title') || 'colour') + `<div style="position:fixed;inset:0;background:rgb(${rgb})"></div>`);
  }
});
await new Promise((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${site.address().port}`;
const colour = (title, rgb) => `${origin}/colour?title=${title}&rgb=${rgb}`;
const form = `${origin}/sign-in`;

async function until(what, fn, ms = 10000, every = 50) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) { last = e; }
    await sleep(every);
  }
  throw new Error(`${what}: not within ${ms} ms (last: ${last && last.message ? last.message : JSON.stringify(last)})`);
}

async function call(client, name, args, opts = {}) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000, ...opts });
  const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { res, text };
}

async function main() {
  const [binary, browserPath, work, shotsArg] = process.argv.slice(2);
  if (!binary || !browserPath || !work) throw new Error('usage: liveview_e2e.mjs <cdpvisor> <browser> <work dir> [screenshot dir]');
  const shots = shotsArg || work;
  const out = { ok: false };

  transport = new StdioClientTransport({ command: binary, args: ['mcp', '--browser', browserPath], stderr: 'inherit' });
  const mcp = new Client({ name: 'liveview-e2e', version: '0.0.0' });
  await mcp.connect(transport, { timeout: 60000 });

  const status = (await call(mcp, 'coordinator_status', {})).res.structuredContent;
  const ui = status.live_view;
  if (!ui || !ui.endsWith('/ui')) throw new Error(`coordinator_status live_view ${JSON.stringify(ui)}`);
  out.live_view = ui;
  const endpointOf = async (name) => {
    const { res, text } = await call(mcp, 'browser_context', { action: 'open', name });
    if (res.isError) throw new Error(`browser_context open ${name}: ${text}`);
    const s = res.structuredContent;
    const ep = s.endpoint || (s.world && s.world.endpoint);
    if (!ep) throw new Error(`no endpoint in ${JSON.stringify(s)}`);
    return ep;
  };
  const [aliceEP, bobEP] = [await endpointOf('alice'), await endpointOf('bob')];

  // The agents, each in its world.
  const alice = await puppeteer.connect({ browserURL: aliceEP, defaultViewport: null });
  const aPage = await alice.newPage();
  await aPage.goto(form);
  const bob = await chromium.connectOverCDP(bobEP);
  const bPage = await bob.contexts()[0].newPage();
  await bPage.goto(colour('bob-colour', '220,30,30'));

  // The human.
  const viewerBrowser = await chromium.launch({ executablePath: browserPath, headless: true, args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
  const human = await viewerBrowser.newPage({ viewport: { width: 1280, height: 800 } });
  const uiResp = await human.goto(ui);
  const csp = uiResp.headers()['content-security-policy'] || '';
  if (!csp.includes("frame-ancestors 'none'")) throw new Error(`/ui's Content-Security-Policy ${JSON.stringify(csp)} lacks frame-ancestors 'none'`);
  const pageTitle = (world) => human.locator(`section[data-world="${world}"] .ptitle`);
  await until('both worlds and their pages listed', async () =>
    (await pageTitle('alice').allTextContents()).includes('alice-form') && (await pageTitle('bob').allTextContents()).includes('bob-colour'), 20000);
  out.listed = true;

  // The thumbnail follows an agent's navigation within a second.
  const thumbPixel = () => human.evaluate(() => {
    const img = document.querySelector('section[data-world="bob"] img.thumb');
    if (!img || !img.complete || !img.naturalWidth) return null;
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return Array.from(g.getImageData(c.width >> 1, c.height >> 1, 1, 1).data.slice(0, 3));
  });
  const isRed = (p) => p && p[0] > 150 && p[1] < 90 && p[2] < 90;
  const isGreen = (p) => p && p[1] > 150 && p[0] < 90 && p[2] < 90;
  await until('bob\'s thumbnail shows its red page', async () => isRed(await thumbPixel()), 10000);
  const navAt = Date.now();
  await bPage.goto(colour('bob-green', '30,200,40'));
  await until('bob\'s thumbnail turns green', async () => isGreen(await thumbPixel()), 1000, 20);
  out.thumbnail_ms = Date.now() - navAt;

  // Take over alice, type into its <input> through the page.
  await human.locator('section[data-world="alice"] .pagebtn').first().click();
  await until('the watched page shows a frame', () => human.evaluate(() => document.getElementById('frame').naturalWidth > 0));
  await human.click('#take');
  await human.locator('#handback').waitFor({ state: 'visible' });
  const box = await human.locator('#frame').boundingBox();
  await human.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.2);
  await human.keyboard.type('typed by a human');
  out.typed = await until('the agent reads what the human typed', async () => {
    const v = await aPage.$eval('#f', (e) => e.value);
    return v === 'typed by a human' ? v : null;
  });
  // Pasted or typed text through the text box, too.
  await human.fill('#typetext', ' and pasted');
  await human.click('#typeform button');
  await until('the agent reads the pasted text', async () => (await aPage.$eval('#f', (e) => e.value)) === 'typed by a human and pasted');

  // The agent's navigation waits for the hand back; its reads go on.
  let navigatedAt = 0;
  const nav = aPage.goto(colour('alice-after', '30,30,220')).then(() => { navigatedAt = Date.now(); });
  await sleep(1500);
  if (navigatedAt) throw new Error('the agent\'s Page.navigate was answered while the human held its world');
  const titleDuringHold = await aPage.evaluate(() => document.title);
  if (titleDuringHold !== 'alice-form') throw new Error(`the agent read ${titleDuringHold} during the hold`);
  await human.screenshot({ path: path.join(shots, 'live-view-takeover.png') });
  const handBackAt = Date.now();
  await human.click('#handback');
  await nav;
  if (navigatedAt < handBackAt) throw new Error('navigation answered before the hand back');
  out.navigate_after_hand_back_ms = navigatedAt - handBackAt;

  // request_human: Done with a note.
  let progress = 0;
  const asked = call(mcp, 'request_human', { reason: 'Solve the CAPTCHA on the sign-in page', context: 'alice', timeout_s: 60 },
    { onprogress: () => { progress++; } });
  const banner = human.locator('.request', { hasText: 'Solve the CAPTCHA' });
  await banner.waitFor({ state: 'visible', timeout: 10000 });
  await human.locator('section[data-world="alice"].asked').waitFor({ state: 'visible', timeout: 5000 });
  await human.locator('section[data-world="alice"] .pagebtn').first().click();
  await banner.locator('input[type=text]').fill('solved it, signed in');
  await human.screenshot({ path: path.join(shots, 'live-view.png') });
  await human.setViewportSize({ width: 800, height: 1000 });
  await sleep(300);
  const overflow = await human.evaluate(() => document.documentElement.scrollWidth);
  if (overflow > 800) throw new Error(`at 800 px wide the page is ${overflow} px wide`);
  await human.screenshot({ path: path.join(shots, 'live-view-800.png'), fullPage: true });
  await human.setViewportSize({ width: 1280, height: 800 });
  // Every control has a name a screen reader says, and is reachable by Tab.
  const unlabelled = await human.evaluate(() => [...document.querySelectorAll('button, input, select')].filter((e) => {
    if (e.closest('[hidden]')) return false;
    const named = (e.getAttribute('aria-label') || e.textContent || '').trim() || (e.id && document.querySelector(`label[for="${e.id}"]`));
    return !named || e.tabIndex < 0;
  }).map((e) => e.outerHTML.slice(0, 80)));
  if (unlabelled.length) throw new Error(`controls without a label or out of the tab order: ${unlabelled}`);
  await sleep(5500); // a progress notification comes every 5 s
  await banner.getByRole('button', { name: 'Done' }).click();
  const answered = await asked;
  if (answered.res.isError) throw new Error(`request_human: ${answered.text}`);
  const ans = answered.res.structuredContent;
  if (ans.note !== 'solved it, signed in' || ans.title !== 'alice-after' || !ans.url.startsWith(origin)) {
    throw new Error(`request_human answered ${JSON.stringify(ans)}`);
  }
  if (progress < 1) throw new Error('no progress notification while request_human waited');
  out.human = { note: ans.note, title: ans.title, progress };

  // request_human with nobody answering.
  const t0 = Date.now();
  const timedOut = await call(mcp, 'request_human', { reason: 'Nobody will answer this', timeout_s: 2 });
  if (!timedOut.res.isError || !/no human answered/.test(timedOut.text)) throw new Error(`request_human without a human: ${JSON.stringify(timedOut.res)}`);
  out.timeout = { ms: Date.now() - t0, text: timedOut.text };

  // A foreign Origin can neither open the live view's websocket nor ask.
  const wsURL = ui.replace('http', 'ws') + '/ws';
  const refused = await new Promise((resolve) => {
    const w = new WebSocket(wsURL, { origin: 'http://evil.example' });
    w.on('unexpected-response', (_req, res) => resolve(res.statusCode));
    w.on('open', () => { w.close(); resolve('opened'); });
    w.on('error', () => resolve('error'));
  });
  if (refused !== 403) throw new Error(`a websocket with a foreign Origin: ${refused}, want 403`);
  const post = await fetch(ui + '/request-human', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' },
    body: JSON.stringify({ reason: 'x', timeout_s: 1 }) });
  if (post.status !== 403) throw new Error(`request-human with a foreign Origin: ${post.status}, want 403`);
  out.foreign_origin = 403;

  await viewerBrowser.close();
  await alice.disconnect();
  await bob.close();
  await mcp.close();
  site.close();
  out.ok = true;
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  if (transport && transport.pid) try { process.kill(transport.pid, 'SIGKILL'); } catch {}
  process.exit(1);
});
