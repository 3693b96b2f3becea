// A small crowd for cdpvisor's pressure test (issue 50): N Puppeteer
// agents, each in a world of its own made by PUT /cdpvisor/worlds/NAME,
// each loading a local page L times (goto, waiting for its load, then
// evaluate), all at once.
//
//   node crowd_pressure.mjs ENDPOINT N L URL
//
// stdout: one JSON line {"ok":true,"loops":N*L,"worlds":[names]} once every
// agent is done; {"ok":false,"error":…} on the first failure.
import puppeteer from 'puppeteer-core';

const [endpoint, n, loops, url] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 120000;
setTimeout(() => { process.stdout.write(JSON.stringify({ ok: false, error: `timed out after ${timeoutMs} ms` }) + '\n'); process.exit(2); }, timeoutMs);

async function agent(i) {
  const name = `crowd${i}`;
  const res = await fetch(`${endpoint}/cdpvisor/worlds/${name}`, { method: 'PUT' });
  if (!res.ok) throw new Error(`PUT world ${name}: ${res.status} ${await res.text()}`);
  const world = await res.json();
  const browser = await puppeteer.connect({ browserWSEndpoint: world.ws, defaultViewport: null });
  const page = await browser.newPage();
  if (process.env.CROWD_DEBUG) process.stderr.write(`agent ${i} has its page at ${Math.round(performance.now())} ms\n`);
  let done = 0;
  for (let k = 0; k < loops; k++) {
    await page.goto(`${url}?agent=${i}&loop=${k}`);
    if ((await page.evaluate(() => document.title)) !== 'crowd') throw new Error(`agent ${i}: the page's title is wrong`);
    done++;
    if (process.env.CROWD_DEBUG) process.stderr.write(`agent ${i} loop ${k} at ${Math.round(performance.now())} ms\n`);
  }
  await browser.disconnect();
  return { name, done };
}

try {
  const agents = await Promise.all(Array.from({ length: n }, (_, i) => agent(i)));
  const total = agents.reduce((s, a) => s + a.done, 0);
  process.stdout.write(JSON.stringify({ ok: true, loops: total, worlds: agents.map((a) => a.name) }) + '\n');
  process.exit(0);
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(e && e.stack || e) }) + '\n');
  process.exit(1);
}
