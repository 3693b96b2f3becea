// The live view's cost (cdpbench --only liveview): the coordinator's CPU
// and memory with /ui closed, with 4 thumbnails live and with one page
// watched, in interleaved windows while 4 Puppeteer agents (one per world)
// change their page's colour every 500 ms; the same with /ui closed on a
// baseline coordinator ("today's" build) when one is given; and the frame
// latency: from an agent's page changing its colour to the frame showing
// that colour in /ui (Playwright driving Chromium on /ui, the pixel read
// from the frame).
//
//   node bench_liveview.mjs <config.json>
//   config: {browser, sides: [{name, endpoint, pid}], rounds, windowMs, samples}
// stdout: {"ok":true, "windows": {scenario: [{cpu_pct, rss_kb, pss_kb}]}, "latency_ms": [...]}
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const conf = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICK = 100; // USER_HZ on Linux

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime
}
function memKB(pid) {
  const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  let pss = null;
  try { pss = Number(/Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]); } catch {}
  return { rss_kb: rss ? Number(rss[1]) : null, pss_kb: pss };
}

const colours = ['220,30,30', '30,200,40', '30,30,220', '230,200,20', '200,30,200', '20,200,200'];

async function setUp(side) {
  side.agents = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${side.endpoint}/cdpvisor/worlds/bench-${i}`, { method: 'PUT' });
    if (!res.ok) throw new Error(`${side.name}: PUT world: ${res.status} ${await res.text()}`);
    const w = await res.json();
    const b = await puppeteer.connect({ browserURL: w.endpoint, defaultViewport: null });
    const p = await b.newPage();
    await p.goto(`data:text/html,<title>bench-${i}</title><body style="margin:0;background:rgb(255,255,255)">`);
    side.agents.push({ b, p, n: i });
  }
  // The agents' steady work: a colour change every 500 ms each.
  side.timer = setInterval(() => {
    for (const a of side.agents) {
      if (a.paused) continue;
      a.n++;
      a.p.evaluate((c) => { document.body.style.background = `rgb(${c})`; }, colours[a.n % colours.length]).catch(() => {});
    }
  }, 500);
}

async function measureWindow(side, viewer, watch) {
  let page = null;
  if (viewer) {
    page = await viewer.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(side.endpoint + '/ui');
    await page.locator('.pagebtn').nth(3).waitFor({ timeout: 20000 });
    if (watch) await page.locator('section[data-world="bench-0"] .pagebtn').click();
  }
  await sleep(2000); // settle: sessions opened, screencasts started
  const t0 = cpuTicks(side.pid);
  const at = Date.now();
  await sleep(conf.windowMs);
  const cpu = (cpuTicks(side.pid) - t0) / TICK / ((Date.now() - at) / 1000) * 100;
  const mem = memKB(side.pid);
  if (page) await page.close();
  await sleep(1000);
  return { cpu_pct: cpu, ...mem };
}

async function latency(side, viewer, samples) {
  const page = await viewer.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(side.endpoint + '/ui');
  await page.locator('section[data-world="bench-0"] .pagebtn').click();
  await page.waitForFunction(() => document.getElementById('frame').naturalWidth > 0, null, { timeout: 20000 });
  // Each frame the page shows is decoded and its centre pixel read.
  await page.evaluate(() => {
    const img = document.getElementById('frame');
    const c = document.createElement('canvas');
    const g = c.getContext('2d', { willReadFrequently: true });
    window.__seen = async () => {
      await img.decode().catch(() => {});
      c.width = img.naturalWidth; c.height = img.naturalHeight;
      g.drawImage(img, 0, 0);
      const [r, gr, b] = g.getImageData(c.width >> 1, c.height >> 1, 1, 1).data;
      const w = window.__want;
      if (w && Math.abs(r - w[0]) < 40 && Math.abs(gr - w[1]) < 40 && Math.abs(b - w[2]) < 40) { window.__want = null; w.done(Date.now()); }
    };
    new MutationObserver(() => window.__seen()).observe(img, { attributes: true, attributeFilter: ['src'] });
  });
  const agent = side.agents[0];
  agent.paused = true;
  await sleep(600);
  const out = [];
  for (let i = 0; i < samples; i++) {
    const c = colours[i % colours.length];
    const shown = page.evaluate((rgb) => new Promise((resolve) => {
      const want = rgb.split(',').map(Number);
      want.done = resolve;
      window.__want = want;
      setTimeout(() => resolve(-1), 5000);
    }), c);
    await sleep(20); // the viewer waits before the change
    const changed = await agent.p.evaluate((rgb) => { document.body.style.background = `rgb(${rgb})`; return Date.now(); }, c);
    const seen = await shown;
    out.push(seen < 0 ? 5000 : seen - changed);
    await sleep(150);
  }
  agent.paused = false;
  await page.close();
  return out;
}

async function main() {
  const sides = conf.sides;
  for (const s of sides) await setUp(s);
  const viewer = await chromium.launch({ executablePath: conf.browser, headless: true, args: process.getuid() === 0 ? ['--no-sandbox'] : [] });
  const target = sides[0];
  const scenarios = [
    { name: 'closed', side: target, viewer: false, watch: false },
    { name: 'thumbnails', side: target, viewer: true, watch: false },
    { name: 'watched', side: target, viewer: true, watch: true },
  ];
  for (const s of sides.slice(1)) scenarios.push({ name: `${s.name}_closed`, side: s, viewer: false, watch: false });
  const windows = {};
  for (let r = 0; r < conf.rounds; r++) {
    for (let j = 0; j < scenarios.length; j++) {
      const sc = scenarios[(r + j) % scenarios.length];
      process.stderr.write(`liveview: round ${r + 1}: ${sc.name}\n`);
      (windows[sc.name] ||= []).push(await measureWindow(sc.side, sc.viewer ? viewer : null, sc.watch));
    }
  }
  const lat = await latency(target, viewer, conf.samples);
  await viewer.close();
  for (const s of sides) {
    clearInterval(s.timer);
    for (const a of s.agents) await a.b.disconnect();
  }
  process.stdout.write(JSON.stringify({ ok: true, windows, latency_ms: lat }) + '\n');
  process.exit(0);
}
main().catch((e) => { process.stderr.write(`bench_liveview: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
