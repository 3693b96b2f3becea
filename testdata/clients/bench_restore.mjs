// cdpbench's cost of restoring a kept world (issue 35): a world kept with a
// storage state (cookies, origins' localStorage) made again, against the
// same world kept empty, timed from a client's connection (and from
// `cdpvisor world open`) to its first page at one of the origins showing
// the token its own script read from localStorage; and Playwright's own
// newContext({storageState}) against newContext() on a bare Chromium,
// connected beforehand, as a yardstick. Sides in the order given
// (interleaved by cdpbench); sample i's page is at origin i mod n, so every
// origin's storage must outlive the closes.
//   kept      (once, untimed: world open kept --storage-state FILE, world close kept)
//             world open kept; connect({browserURL}); newPage; goto; read the token
//   empty     the same with a world that keeps nothing; the page reads 'none'
//   pw_state  newContext({storageState: FILE}); newPage; goto; read the token
//   pw_empty  newContext(); newPage; goto; read 'none'
// What follows the read (disconnect, world close, context close) is not timed.
//
//   node bench_restore.mjs CONFIG.json
//
// CONFIG: {"bin", "state", "storageState", "origins": [url…], "tokens": {origin: token}, "chromiumWS", "order": [side…]}
// (chromiumWS only when the order has Playwright's sides; cdpvisor's tests run the kept side alone).
// stdout: one JSON line {"ok":true,"connect":{side:[ms…]},"open":{"kept":[…],"empty":[…]},
// "steps":{side:[[connect or newContext, newPage, goto and read] ms…]}, "misses":[{side, sample, origin, got, want}…]}:
// a sample whose page read another token than its origin's is a miss: its times are -1.
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 1200000;
setTimeout(() => { process.stderr.write(`bench_restore: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs);

const world = (...args) => run(cfg.bin, ['world', ...args, '--state', cfg.state]);
const pageOf = (i) => cfg.origins[i % cfg.origins.length];

// A page that read another token than its origin's is a miss: counted
// and told on stderr, its time left out; the run goes on.
const misses = [];
function check(side, i, origin, got, want) {
  if (got === want) return true;
  misses.push({ side, sample: i, origin, got, want });
  process.stderr.write(`bench_restore: ${side} sample ${i}: the page at ${origin} read token ${JSON.stringify(got)}, want ${JSON.stringify(want)}\n`);
  return false;
}

async function tokenOn(page, origin) {
  await page.goto(`${origin}/token`);
  return page.evaluate(() => document.getElementById('token').textContent);
}

// aWorld makes the world called name again and times its first page.
async function aWorld(name, i, want) {
  const origin = pageOf(i);
  const t0 = performance.now();
  const { stdout } = await world('open', name);
  const t1 = performance.now();
  const browser = await puppeteer.connect({ browserURL: stdout.trim(), defaultViewport: null });
  const tc = performance.now();
  const page = await browser.newPage();
  const tp = performance.now();
  const got = await tokenOn(page, origin);
  const t2 = performance.now();
  const hit = check(name, i, origin, got, want(origin));
  await page.close();
  await browser.disconnect();
  await world('close', name);
  return hit ? { open: t2 - t0, connect: t2 - t1, steps: [tc - t1, tp - tc, t2 - tp] } : null;
}

let pw;
async function playwright(side, i, options, want) {
  const origin = pageOf(i);
  const t0 = performance.now();
  const context = await pw.newContext(options);
  const tc = performance.now();
  const page = await context.newPage();
  const tp = performance.now();
  const got = await tokenOn(page, origin);
  const t2 = performance.now();
  const hit = check(side, i, origin, got, want(origin));
  await context.close();
  return hit ? { connect: t2 - t0, steps: [tc - t0, tp - tc, t2 - tp] } : null;
}

const sides = {
  kept: (i) => aWorld('kept', i, (o) => cfg.tokens[o]),
  empty: (i) => aWorld('empty', i, () => 'none'),
  pw_state: (i) => playwright('pw_state', i, { storageState: cfg.storageState }, (o) => cfg.tokens[o]),
  pw_empty: (i) => playwright('pw_empty', i, {}, () => 'none'),
};

async function main() {
  // The kept world gets the state once and is closed: from then on it is
  // made again from what it keeps. The empty one is kept too, empty.
  await world('open', 'kept', '--storage-state', cfg.storageState);
  await world('close', 'kept');
  await world('open', 'empty');
  await world('close', 'empty');
  const pwSides = cfg.order.some((s) => s.startsWith('pw_'));
  if (pwSides) pw = await chromium.connectOverCDP(cfg.chromiumWS);
  const connect = {}, open = {}, steps = {};
  const count = {};
  for (const side of cfg.order) {
    const i = (count[side] = (count[side] ?? -1) + 1);
    // A miss keeps its place (-1), so that samples stay side by side.
    const t = (await sides[side](i)) ?? { connect: -1, open: side === 'kept' || side === 'empty' ? -1 : undefined, steps: [-1, -1, -1] };
    (connect[side] ??= []).push(t.connect);
    if (t.open !== undefined) (open[side] ??= []).push(t.open);
    (steps[side] ??= []).push(t.steps);
  }
  if (pwSides) await pw.close();
  process.stdout.write(JSON.stringify({ ok: true, connect, open, steps, misses }) + '\n');
  process.exit(0);
}

main().catch((e) => { process.stderr.write(`bench_restore: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
