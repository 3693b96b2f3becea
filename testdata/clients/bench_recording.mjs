// What recording a world costs (cdpbench --only recording, issue 49), on
// one `cdpvisor serve` and its one browser:
//
// 1. Three worlds, `plain`, `filmed` (opened with {"record": true}) and
//    `cast`, each with a Puppeteer page at 1280×720 on the bench's page, a
//    canvas repainted every animation frame. The yardstick: a step is a
//    page round trip (page.evaluate(() => 1)) in each world, in a random
//    order per step, and every few steps a page load (page.goto of the
//    page, to its load event) in each, in a random order too. First a
//    control run with none recorded (the worlds' own differences), then
//    the run with `filmed` recorded and, in `cast`, a screencast of the
//    bench's own on the page (the recorder's parameters and pacing, no
//    recorder): what the browser's screencast costs without cdpvisor's.
// 2. The coordinator's CPU (utime + stime of /proc/PID/stat) and RSS, and
//    its browser's CPU (every process below it), in windows alternating
//    between `filmed` not recorded, recorded, and not recorded but
//    screencast by the bench (as in `cast`), the order rotating each
//    round; then the same with 4 busy worlds, none and all recorded.
// 3. The recording's growth while recorded: its bytes (bytes +
//    dropped_bytes) and frames from GET /cdpvisor/recordings at each
//    switch, and at the end the world's own status (frames received and
//    written). Last, the same for `filmed` on the worst page for JPEG
//    (`noise`: the recorder's cost test's canvas, whose rectangles pile up
//    and are never cleared), after it has filled its canvas.
//
//   node bench_recording.mjs CONFIG.json
//   CONFIG: {endpoint, pid, page, noisePage, steps, loadEvery, controlSteps, rounds, windowMs, settleMs, rounds4, busy, noiseFillMs, noiseMs}
// stdout: one JSON line {"ok":true, "trips": {plain, filmed, cast}, "loads": {…}, "control": {trips, loads},
//   "windows": {off: […], on: […], off4: […], on4: […]}, "recorded": [{ms, bytes, frames_received, frames_written}],
//   "status": {…filmed's}, "totals": {…}}
import puppeteer from 'puppeteer-core';
import fs from 'node:fs';

const conf = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICK = 100; // USER_HZ on Linux
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 3600000;
setTimeout(() => { process.stderr.write(`bench_recording: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs).unref();
const say = (s) => process.stderr.write(`recording: ${s}\n`);

function ticksOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) }; // utime + stime
}
// kindOf is a browser process's --type (gpu-process, renderer, utility…),
// "browser" for the browser's own.
const kinds = new Map();
function kindOf(pid) {
  if (!kinds.has(pid)) {
    let k = 'other';
    try {
      // Chromium rewrites its helpers' command lines into one string.
      const line = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const t = /--type=([\w-]+)/.exec(line);
      k = t ? t[1] : /chrom/.test(line.split(/[\0 ]/)[0]) ? 'browser' : 'other';
    } catch { /* gone */ }
    kinds.set(pid, k);
  }
  return kinds.get(pid);
}
// The CPU ticks of the coordinator and of each process below it (its
// browser, the browser's helpers; its watchdog, which does nothing).
function cpuTicks(pid) {
  const procs = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try { procs.set(Number(d), ticksOf(d)); } catch { /* gone */ }
  }
  const below = new Map();
  const seen = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, s] of procs) if (!seen.has(p) && seen.has(s.ppid)) { seen.add(p); below.set(p, s.ticks); grew = true; }
  }
  return { own: procs.get(pid).ticks, below };
}
// browserTicks is what the processes below the coordinator used between
// two readings: a process there at both its difference, one new at the
// second all of its time; one gone at the second is not counted (its
// last moments are lost, never subtracted).
function browserTicks(c0, c1, byKind) {
  let t = 0;
  for (const [p, ticks] of c1.below) {
    const d = ticks - (c0.below.get(p) ?? 0);
    t += d;
    if (byKind) byKind[kindOf(p)] = (byKind[kindOf(p)] || 0) + d;
  }
  return t;
}
function rssKB(pid) {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : null;
}

async function api(method, path, body) {
  const res = await fetch(conf.endpoint + path, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
const record = (name, on) => api('PUT', `/cdpvisor/worlds/${name}`, { record: on });
const totals = () => api('GET', '/cdpvisor/recordings');

let loadN = 0;
async function openWorld(name, on) {
  const w = await api('PUT', `/cdpvisor/worlds/${name}`, { record: on });
  const b = await puppeteer.connect({ browserURL: w.endpoint, defaultViewport: { width: 1280, height: 720 } });
  const p = await b.newPage();
  await p.goto(`${conf.page}?w=${name}&n=${loadN++}`, { waitUntil: 'load' });
  return { name, b, p, trips: [], loads: [] };
}

async function roundTrip(s) {
  const t0 = performance.now();
  await s.p.evaluate(() => 1);
  return performance.now() - t0;
}
async function load(s) {
  const t0 = performance.now();
  await s.p.goto(`${conf.page}?w=${s.name}&n=${loadN++}`, { waitUntil: 'load' });
  return performance.now() - t0;
}
function shuffled(a) {
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// castOn starts a screencast of the bench's own on a side's page, as the
// recorder asks it (JPEG 60, at most 1280 wide) and acknowledged at its
// pace (a frame's share of 64 KiB a second, at most 900 ms apart); the
// frames are dropped. It goes on across the page's loads, as the
// recorder's.
async function castOn(s) {
  const cdp = await s.p.createCDPSession();
  s.cast = cdp;
  let lastDue = 0;
  cdp.on('Page.screencastFrame', (f) => {
    const now = performance.now();
    const gap = Math.min(f.data.length * 3 / 4 / 65536 * 1000, 900);
    const due = Math.max(lastDue + gap, now);
    lastDue = due;
    s.castFrames = (s.castFrames || 0) + 1;
    s.castBytes = (s.castBytes || 0) + f.data.length * 3 / 4;
    setTimeout(() => cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => {}), due - now);
  });
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: 1280, maxHeight: 1280, everyNthFrame: 1 });
}
async function castOff(s) {
  if (!s.cast) return;
  await s.cast.send('Page.stopScreencast').catch(() => {});
  await s.cast.detach().catch(() => {});
  s.cast = null;
}

// yardstick runs steps: a round trip on each side in a random order, and
// every loadEvery-th step a load on each in a random order.
async function yardstick(sides, steps) {
  const out = Object.fromEntries(sides.map((s) => [s.name, { trips: [], loads: [] }]));
  for (let n = 1; n <= steps; n++) {
    for (const s of shuffled(sides)) out[s.name].trips.push(await roundTrip(s));
    if (n % conf.loadEvery === 0) {
      for (const s of shuffled(sides)) out[s.name].loads.push(await load(s));
    }
    if (n % 200 === 0) say(`step ${n} of ${steps}`);
  }
  return out;
}

// The recording's growth while some worlds are recorded.
const recorded = [];
let since = null;
async function switched(on) {
  const t = await totals();
  const now = { at: performance.now(), bytes: t.bytes + t.dropped_bytes, received: t.frames_received, written: t.frames_written };
  if (since && !on) {
    recorded.push({ worlds: since.worlds, ms: now.at - since.at, bytes: now.bytes - since.bytes,
      frames_received: now.received - since.received, frames_written: now.written - since.written, phase: since.phase });
    since = null;
  } else if (on) {
    since = { ...now, worlds: on.worlds, phase: on.phase };
  }
}

async function setRecorded(names, on, phase) {
  if (!on) await switched(false);
  for (const n of names) await record(n, on);
  if (on) await switched({ worlds: names.length, phase });
}

// measureWindow takes a window of the coordinator's and its browser's
// CPU (the browser's by kind of process), the coordinator's RSS, and how
// fast the page watched drew (its animation frames a second).
async function measureWindow(tag, page) {
  await sleep(conf.settleMs); // settled: sessions attached, screencasts started or ended
  const n0 = await page.evaluate(() => n);
  const c0 = cpuTicks(conf.pid);
  const at = performance.now();
  await sleep(conf.windowMs);
  const c1 = cpuTicks(conf.pid);
  const secs = (performance.now() - at) / 1000;
  const n1 = await page.evaluate(() => n);
  const byKind = {};
  const w = { cpu_pct: (c1.own - c0.own) / TICK / secs * 100, browser_cpu_pct: browserTicks(c0, c1, byKind) / TICK / secs * 100, rss_kb: rssKB(conf.pid),
    page_fps: (n1 - n0) / secs, by_kind: Object.fromEntries(Object.entries(byKind).map(([k, t]) => [k, t / TICK / secs * 100])),
    procs_gone: [...c0.below.keys()].filter((p) => !c1.below.has(p)).length, procs_new: [...c1.below.keys()].filter((p) => !c0.below.has(p)).length };
  const kindsSaid = Object.entries(w.by_kind).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
  say(`${tag}: coordinator ${w.cpu_pct.toFixed(1)} %, browser ${w.browser_cpu_pct.toFixed(1)} % (${kindsSaid}), page ${w.page_fps.toFixed(0)} frames/s, RSS ${(w.rss_kb / 1024).toFixed(1)} MB; processes ${c1.below.size}, ${w.procs_gone} gone, ${w.procs_new} new`);
  return w;
}

// windows measures the scenarios in turn, their order rotating each
// round; a scenario is [tag, set up, tear down].
async function windows(scenarios, rounds, into, page) {
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < scenarios.length; j++) {
      const [tag, up, down] = scenarios[(r + j) % scenarios.length];
      await up();
      (into[tag] ||= []).push(await measureWindow(`round ${r + 1}, ${tag}`, page));
      await down();
    }
  }
}
const none = async () => {};
// recordedScenarios: the worlds not recorded, and recorded.
const recordedScenarios = (names, offTag, onTag) => [
  [offTag, none, none],
  [onTag, () => setRecorded(names, true, onTag), () => setRecorded(names, false, onTag)],
];

async function main() {
  const plain = await openWorld('plain', false);
  const filmed = await openWorld('filmed', true);
  const cast = await openWorld('cast', false);
  since = null;
  await setRecorded(['filmed'], false);
  const sides = [plain, filmed, cast];
  say('warming up');
  await yardstick(sides, 50);

  say(`control: ${conf.controlSteps} steps, neither world recorded`);
  const control = await yardstick(sides, conf.controlSteps);

  await setRecorded(['filmed'], true, 'yardstick');
  await castOn(cast);
  const castAt = performance.now();
  await sleep(conf.settleMs);
  say(`yardstick: ${conf.steps} steps, filmed recorded, cast screencast by the bench`);
  const main = await yardstick(sides, conf.steps);
  await setRecorded(['filmed'], false);
  await castOff(cast);
  const castStat = { frames: cast.castFrames || 0, bytes: cast.castBytes || 0, ms: performance.now() - castAt };
  await cast.p.goto('about:blank'); // its page does not add to the windows' load

  const wins = {};
  say(`windows: ${conf.rounds} rounds, filmed off and on`);
  // A third scenario: the bench's own screencast on filmed's page, not
  // recorded (the browser's share of the cost).
  await windows([...recordedScenarios(['filmed'], 'off', 'on'), ['cast', () => castOn(filmed), () => castOff(filmed)]], conf.rounds, wins, filmed.p);

  if (conf.rounds4 > 0) {
    const busy = [filmed];
    for (let i = 1; i < conf.busy; i++) busy.push(await openWorld(`filmed-${i}`, false));
    say(`windows: ${conf.rounds4} rounds, ${busy.length} busy worlds off and on`);
    await windows(recordedScenarios(busy.map((s) => s.name), `off${busy.length}`, `on${busy.length}`), conf.rounds4, wins, filmed.p);
    for (const s of busy.slice(1)) { await s.p.close(); await s.b.disconnect(); }
  }

  if (conf.noiseMs > 0) {
    say(`the worst page: filling its canvas for ${conf.noiseFillMs} ms, then recorded for ${conf.noiseMs} ms`);
    await plain.p.goto('about:blank');
    await filmed.p.goto(conf.noisePage, { waitUntil: 'load' });
    await sleep(conf.noiseFillMs);
    await setRecorded(['filmed'], true, 'noise');
    await sleep(conf.noiseMs);
    await setRecorded(['filmed'], false);
  }
  await sleep(1500); // the last frames kept
  const status = await api('GET', '/cdpvisor/worlds/filmed/recording');
  // The gaps between a page's frames, as the recording keeps them (by the
  // browser's time of each): how many came close together.
  const gaps = { under_300ms: 0, under_800ms: 0, over_800ms: 0, over_1200ms: 0, backwards: 0 };
  const byPage = {};
  for (const f of status.frames) (byPage[f.page] ||= []).push(f.t);
  for (const ts of Object.values(byPage)) {
    for (let i = 1; i < ts.length; i++) {
      const g = (ts[i] - ts[i - 1]) / 1e6;
      if (g < 0) gaps.backwards++;
      else if (g < 300) gaps.under_300ms++;
      else if (g < 800) gaps.under_800ms++;
      else if (g <= 1200) gaps.over_800ms++;
      else gaps.over_1200ms++;
    }
  }
  status.frame_gaps = gaps;
  delete status.frames; delete status.actions; delete status.events;
  const tot = await totals();
  for (const s of sides) await s.b.disconnect();
  const by = (run, what) => Object.fromEntries(Object.entries(run).map(([k, v]) => [k, v[what]]));
  process.stdout.write(JSON.stringify({ ok: true, trips: by(main, 'trips'), loads: by(main, 'loads'),
    control: { trips: by(control, 'trips'), loads: by(control, 'loads') }, cast: castStat,
    windows: wins, recorded, status, totals: tot }) + '\n', () => process.exit(0)); // a pipe's write is asynchronous
}
main().catch((e) => { process.stderr.write(`bench_recording: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
