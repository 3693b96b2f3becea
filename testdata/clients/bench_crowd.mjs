// cdpbench's crowd (cdpbench --only crowd): agents of puppeteer-core, each
// on its own connection and in its own world, looping with no pause:
// goto the bench's local page, evaluate (reads the DOM), click #go,
// screenshot. Puppeteer's default time-outs; a failed loop is counted and
// the agent goes on (one without a page makes it in its next loop).
//   chromium  connect({browserWSEndpoint}) to a bare Chromium, then
//             createBrowserContext() + newPage() per agent
//   cdpvisor  PUT /cdpvisor/worlds/NAME on cdpvisor's endpoint, then
//             connect({browserURL: the world's endpoint}), its first page
//             or newPage()
// cdpbench may run several of these processes for one side: each sets its
// agents up, prints {"ready":true}, and starts looping when a line comes
// on stdin, so every agent of every process starts at once.
//
//   node bench_crowd.mjs CONFIG.json
//
// CONFIG: {"kind", "ws", "endpoint", "prefix", "agents": [ids], "loops", "page", "count"}
// stdout: {"ready":true}, then {"ok":true,"version","agents":[…],"cpuS","loopCpuS","loopWallS"}.
// Times are ms since the epoch (the clock the processes share).
import puppeteer from 'puppeteer-core';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30 * 60000;
setTimeout(() => { process.stderr.write(`bench_crowd: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs).unref();

const now = () => performance.timeOrigin + performance.now();
const message = (e) => String((e && e.message) || e).split('\n')[0].slice(0, 200);

// setup gives the agent its page; it takes up where a failed one stopped
// (an agent whose setup failed tries again in its next loop).
async function setup(agent) {
  if (cfg.kind === 'chromium') {
    agent.browser ??= await puppeteer.connect({ browserWSEndpoint: cfg.ws });
    agent.context ??= await agent.browser.createBrowserContext();
    agent.page = await agent.context.newPage();
  } else {
    if (!agent.browser) {
      const name = `${cfg.prefix}-${agent.id}`;
      const res = await fetch(`${cfg.endpoint}/cdpvisor/worlds/${name}`, { method: 'PUT' });
      if (!res.ok) throw new Error(`PUT world ${name}: HTTP ${res.status} ${await res.text()}`);
      const world = await res.json();
      if (!world.endpoint) throw new Error(`world ${name} has no endpoint of its own (no port?)`);
      agent.browser = await puppeteer.connect({ browserURL: world.endpoint });
    }
    agent.page = (await agent.browser.pages())[0] ?? (await agent.browser.newPage());
  }
  agent.out.ready ||= now();
}

async function loop(agent, i) {
  const { page } = agent;
  await page.goto(`${cfg.page}?agent=${agent.id}&i=${i}`);
  const count = await page.evaluate(() => document.querySelectorAll('p').length + document.querySelectorAll('tr').length);
  if (count !== cfg.count) throw new Error(`evaluate read ${count}, not ${cfg.count}`);
  await page.click('#go');
  await page.screenshot();
}

// A page never had, closed or crashed is (re)made, as an agent would.
async function freshPage(agent) {
  if (agent.page && !agent.page.isClosed()) return;
  if (!agent.browser || (cfg.kind === 'chromium' && !agent.context)) return setup(agent);
  agent.page = await (agent.context ?? agent.browser).newPage();
  agent.out.ready ||= now();
}

async function run(agent) {
  for (let i = 0; i < cfg.loops; i++) {
    const s = now();
    try {
      await freshPage(agent);
      await loop(agent, i);
      agent.out.loops.push({ s, e: now(), ok: true });
    } catch (e) {
      const to = e && e.name === 'TimeoutError';
      agent.out.loops.push({ s, e: now(), ok: false, to });
      if (agent.out.errors.length < 3) agent.out.errors.push(message(e));
    }
  }
}

async function main() {
  const cpu0 = process.cpuUsage();
  const agents = cfg.agents.map((id) => ({ id, out: { setup0: now(), ready: 0, loops: [], errors: [] } }));
  await Promise.all(agents.map(async (a) => {
    try {
      await setup(a);
    } catch (e) {
      a.out.setupErr = message(e);
    }
  }));
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
  const loopCpu0 = process.cpuUsage(), loopWall0 = now();
  await Promise.all(agents.map(run));
  const loopCpu = process.cpuUsage(loopCpu0), loopWallS = (now() - loopWall0) / 1000;
  const version = await agents.find((a) => a.browser)?.browser.version().catch(() => '');
  await Promise.all(agents.filter((a) => a.browser).map((a) => a.browser.disconnect().catch(() => {})));
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({
    ok: true,
    version,
    agents: agents.map((a) => a.out),
    cpuS: (cpu.user + cpu.system) / 1e6,
    loopCpuS: (loopCpu.user + loopCpu.system) / 1e6,
    loopWallS,
  }) + '\n');
  process.exit(0);
}

main().catch((e) => { process.stderr.write(`bench_crowd: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
