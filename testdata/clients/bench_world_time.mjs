// cdpbench's time to a working world (issue 34): from asking for a fresh
// context to a first page of a local site evaluated through Puppeteer, on
// three sides taken in the order given (interleaved by cdpbench):
//   worlds    `cdpvisor world open NAME` (the command, as a script runs it),
//             then connect({browserURL: its endpoint}), newPage, goto, evaluate
//   browsers  a new `cdpvisor serve` (its browser launched on the first
//             request), then the same through its endpoint
//   chromium  Chromium's own: on a connection made beforehand to a bare
//             Chromium, createBrowserContext (Target.createBrowserContext),
//             newPage in it (Target.createTarget), goto, evaluate
// What follows the evaluation (disconnect, world close, serve's stop,
// context close) is not timed.
//
//   node bench_world_time.mjs CONFIG.json
//
// CONFIG: {"bin", "browser", "state", "root", "page", "chromiumWS", "order": ["worlds", …]}
// stdout: one JSON line {"ok":true,"samples":{"worlds":[ms…],"browsers":[…],"chromium":[…]}}.
import puppeteer from 'puppeteer-core';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 600000;
setTimeout(() => { process.stderr.write(`bench_world_time: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs);

async function firstPage(browser) {
  const page = await browser.newPage();
  await page.goto(cfg.page);
  return page.evaluate(() => document.title);
}

async function worlds(i) {
  const name = `wt-${process.pid}-${i}`;
  const t0 = performance.now();
  const { stdout } = await run(cfg.bin, ['world', 'open', name, '--state', cfg.state]);
  const browser = await puppeteer.connect({ browserURL: stdout.trim(), defaultViewport: null });
  await firstPage(browser);
  const t = performance.now() - t0;
  await browser.disconnect();
  await run(cfg.bin, ['world', 'close', name, '--state', cfg.state]);
  return t;
}

async function browsers() {
  const stateDir = mkdtempSync(path.join(cfg.root, 'wt'));
  const t0 = performance.now();
  const serve = spawn(cfg.bin, ['serve', '--port', '0', '--browser', cfg.browser, '--state-dir', stateDir, '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((r) => serve.on('exit', r));
  const endpoint = await new Promise((resolve, reject) => {
    let buf = '';
    serve.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl).trim());
    });
    serve.on('exit', (code) => reject(new Error(`serve exited ${code} before its endpoint`)));
  });
  const browser = await puppeteer.connect({ browserURL: endpoint, defaultViewport: null });
  await firstPage(browser);
  const t = performance.now() - t0;
  await browser.disconnect();
  serve.kill('SIGTERM');
  await exited;
  rmSync(stateDir, { recursive: true, force: true });
  return t;
}

let direct;
async function chromium() {
  const t0 = performance.now();
  const context = await direct.createBrowserContext();
  const page = await context.newPage();
  await page.goto(cfg.page);
  await page.evaluate(() => document.title);
  const t = performance.now() - t0;
  await context.close();
  return t;
}

async function main() {
  direct = await puppeteer.connect({ browserWSEndpoint: cfg.chromiumWS, defaultViewport: null });
  const sides = { worlds, browsers, chromium };
  const samples = { worlds: [], browsers: [], chromium: [] };
  for (const [i, side] of cfg.order.entries()) samples[side].push(await sides[side](i));
  await direct.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, samples }) + '\n');
  process.exit(0);
}

main().catch((e) => { process.stderr.write(`bench_world_time: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
