// A recorded world played back in the live view, as issue 49 asks: a
// world opened with {"record":true}, a Playwright agent in it (a page
// with an animation, a click, a navigation to a page of one colour), then
// a human (Playwright driving a second Chromium) on /ui opens the world's
// recording, scrubs to two moments and sees two different frames, finds
// Page.navigate in the actions list (a click on it seeks there), plays it,
// and downloads the trace from the link.
//
//   node recording_playback.mjs <endpoint> <browser> <screenshot dir> [token]
//
// With a token (an endpoint beyond loopback) the agent and this script send
// it as a bearer token, the human's page is opened with ?token=, and the
// page must pass it on its own requests.
//
// Checks: the world is recorded; /ui shows its Recording button; the frame
// at a moment of the animated page and at the end (the blue page) differ
// (their URLs and a pixel); the actions list holds Page.navigate, the
// current action is highlighted and a click on one seeks there; Play moves
// the timeline; the link's href is the trace's path and fetching it
// answers a zip; the page logs no error. Screenshots:
// recording-playback-1.png (the whole page) and -2.png (the panel at the
// end) in the dir.
// stdout: one JSON line {"ok":true, ...}. Exit codes: 0 ok, 1 failure, 2 timeout.
import { chromium } from 'playwright-core';
import http from 'node:http';
import path from 'node:path';

const NAME = 'recording_playback';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 180000;
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);
const problems = []; // what the live view's page logged as errors
process.on('unhandledRejection', (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  if (problems.length) process.stderr.write(`${NAME}: the page's errors: ${problems.join('; ')}\n`);
  process.exit(1);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn, ms = 15000, every = 100) {
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

// The agent's pages: an animation on orange, and a page all blue.
const site = http.createServer((req, res) => {
  res.setHeader('Content-Type', 'text/html');
  if (req.url.startsWith('/blue')) {
    // A clock ticks on it: a page that never changes may not be filmed
    // after its first paint (the screencast sends changes).
    res.end('<!doctype html><title>blue</title><body style="margin:0;background:rgb(20,60,220)"><h1 id=h style="color:#fff;font:48px sans-serif;margin:1em">Done</h1>' +
      '<script>let n=0;setInterval(()=>{document.getElementById("h").textContent="Done "+(n++)},200)</script>');
    return;
  }
  res.end(`<!doctype html><title>animated</title><body style="margin:0;background:rgb(250,140,20);font:32px sans-serif">
<button id=b style="font-size:32px;margin:1em" onclick="this.textContent='clicked'">Click me</button>
<div id=box style="position:fixed;left:40%;top:40%;width:20%;height:20%;background:red"></div>
<script>let n=0;setInterval(()=>{document.getElementById('box').style.background=['red','green','purple'][n++%3]},150)</script>`);
});
await new Promise((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${site.address().port}`;

async function main() {
  const [endpoint, browserPath, shots, token] = process.argv.slice(2);
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  if (!endpoint || !browserPath || !shots) throw new Error('usage: recording_playback.mjs <endpoint> <browser> <screenshot dir>');
  const out = { ok: false };
  const resp = await fetch(`${endpoint}/cdpvisor/worlds/filmed`, { method: 'PUT', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"record":true}' });
  const world = await resp.json();
  if (!resp.ok || !world.recorded) throw new Error(`PUT the world with {"record":true}: ${resp.status} ${JSON.stringify(world)}`);

  // The agent.
  const agent = await chromium.connectOverCDP(world.endpoint, { headers });
  const page = await agent.contexts()[0].newPage();
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto(`${origin}/animated`);
  await sleep(1500);
  await page.click('#b');
  await sleep(800);
  await page.goto(`${origin}/blue`);
  await sleep(1500);
  const rec = await until('the recording lists the frames and the navigations', async () => {
    const r = await (await fetch(`${endpoint}/cdpvisor/worlds/filmed/recording`, { headers })).json();
    return r.frames.length >= 5 && r.actions.filter((a) => a.Method === 'Page.navigate').length >= 2 ? r : null;
  });
  out.frames = rec.frames.length;
  out.actions = rec.actions.length;
  out.events = rec.events.length;

  // The human.
  const viewer = await chromium.launch({ executablePath: browserPath, headless: true, args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
  const human = await viewer.newPage({ viewport: { width: 1360, height: 960 } });
  human.on('console', (m) => {
    // The browser's own ask for /favicon.ico is none of the page's.
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(`${m.text()} (${m.location().url})`);
  });
  human.on('pageerror', (e) => problems.push(e.message));
  human.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  await human.goto(`${endpoint}/ui${query}`);
  const button = human.locator('section[data-world="filmed"] button.badge.rec');
  await button.waitFor({ state: 'visible', timeout: 15000 });
  await button.click();
  await human.locator('#playback').waitFor({ state: 'visible' });
  await until('the actions listed', async () => (await human.locator('#pb-actions li').count()) >= 2);
  const actionTexts = await human.locator('#pb-actions li .pb-text').allTextContents();
  if (!actionTexts.some((t) => t.startsWith('Page.navigate'))) throw new Error(`the actions list lacks Page.navigate: ${JSON.stringify(actionTexts)}`);
  out.listed = actionTexts.filter((t) => t.startsWith('Page.navigate'));

  // Two moments: the animated page, and the end (blue).
  // Times as the page reckons them: milliseconds after the earliest record.
  const ms = (iso) => Date.parse(iso.replace(/(\.\d{3})\d+/, '$1'));
  const navs = rec.actions.filter((x) => x.Method === 'Page.navigate').map((x) => ms(x.Start));
  const recStart = Math.min(...rec.frames.map((f) => f.t / 1e6), ...rec.actions.map((x) => ms(x.Start)), ...rec.events.map((e) => e.t / 1e6));
  const max = Number(await human.locator('#pb-range').getAttribute('max'));
  const scrub = (v) => human.evaluate((v) => {
    const r = document.getElementById('pb-range');
    r.value = String(v);
    r.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  const frame = () => human.evaluate(() => {
    const img = document.getElementById('pb-frame');
    if (!img.complete || !img.naturalWidth) return { src: img.getAttribute('src'), complete: img.complete, loading: true };
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const at = (x, y) => Array.from(g.getImageData(Math.floor(c.width * x), Math.floor(c.height * y), 1, 1).data.slice(0, 3));
    return { src: img.getAttribute('src'), w: img.naturalWidth, h: img.naturalHeight, corner: at(0.05, 0.9), middle: at(0.5, 0.5) };
  });
  const isBlue = (p) => p[2] > 150 && p[0] < 90;
  const isOrange = (p) => p[0] > 180 && p[1] > 90 && p[1] < 190 && p[2] < 90;
  // The animation: 300 ms before the navigation to the blue page.
  const a = navs[1] - 300 - recStart;
  await scrub(a);
  const one = await until('an animated frame shown', async () => { const f = await frame(); return !f.loading && isOrange(f.corner) ? f : Promise.reject(new Error(JSON.stringify(f))); }, 10000);
  await human.screenshot({ path: path.join(shots, 'recording-playback-1.png') }); // the world's Recording button too
  await scrub(max);
  const two = await until('the blue frame shown', async () => { const f = await frame(); return !f.loading && isBlue(f.corner) ? f : Promise.reject(new Error(JSON.stringify(f))); }, 10000);
  await human.locator('#playback').screenshot({ path: path.join(shots, 'recording-playback-2.png') });
  if (one.src === two.src) throw new Error(`the same frame at two moments: ${one.src}`);
  out.moments = [Math.round(a), max];
  out.frames_shown = [one, two].map((f) => ({ corner: f.corner, w: f.w, h: f.h }));

  // The current action is highlighted; a click on one seeks there.
  const current = await human.locator('#pb-actions li[aria-current="true"] .pb-text').textContent();
  out.current_action = current;
  const navItem = human.locator('#pb-actions li', { hasText: '/blue' }).first();
  await navItem.locator('button').click();
  const seeked = Number(await human.locator('#pb-range').inputValue());
  if (Math.abs(seeked - (navs[1] - recStart)) > 50) throw new Error(`a click on the navigation seeks to ${seeked}, want ${navs[1] - recStart}`);
  if ((await navItem.getAttribute('aria-current')) !== 'true') throw new Error('the clicked action is not the current one');

  // Play moves the timeline on.
  await scrub(0);
  await human.selectOption('#pb-speed', '4');
  await human.click('#pb-play');
  await until('the timeline moves while playing', async () => Number(await human.locator('#pb-range').inputValue()) > 500, 5000);
  await human.click('#pb-play');
  out.played = true;

  // The trace: the link's path, and what it answers.
  const href = await human.locator('#pb-trace').getAttribute('href');
  if (href !== '/cdpvisor/worlds/filmed/trace' + query) throw new Error(`the trace link's href ${href}`);
  const zip = await human.evaluate(async (h) => {
    const r = await fetch(h);
    const b = new Uint8Array(await r.arrayBuffer());
    return { status: r.status, type: r.headers.get('content-type'), pk: b[0] === 0x50 && b[1] === 0x4b, bytes: b.length };
  }, href);
  if (zip.status !== 200 || !zip.pk) throw new Error(`the trace link answers ${JSON.stringify(zip)}`);
  out.trace = zip;
  if (problems.length) throw new Error(`the live view's page logged errors: ${problems.join('; ')}`);

  await viewer.close();
  site.close();
  out.ok = true;
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

await main();
