// A client that stays: connects puppeteer-core to a cdpvisor endpoint with a
// bearer token, opens a page, and evaluates in it every 200 ms until it is
// told to leave (SIGINT or SIGTERM), then closes its page and disconnects.
// deploy/image/test.sh uses it to see that a draining replica still serves
// the clients it has.
//
//   HOLD_TOKEN=T node hold_client.mjs <http://127.0.0.1:PORT>
//
// puppeteer-core is resolved from testdata/clients (CLIENTS_DIR to change).
// stdout, one JSON line per event:
//   {"event":"connected"}
//   {"event":"answer","n":1,"at":<epoch ms>}
//   {"event":"error","n":2,"at":<epoch ms>,"error":"…"}
//   {"event":"left","answers":N,"errors":E}
// Exit: 0 when it connected, got answers and no error; 1 otherwise.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const clients = process.env.CLIENTS_DIR || path.join(here, '..', '..', 'testdata', 'clients');
const puppeteer = createRequire(path.join(clients, 'package.json'))('puppeteer-core');

const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const endpoint = (process.argv[2] || '').replace(/\/+$/, '');
const token = process.env.HOLD_TOKEN || '';
if (!endpoint || !token) {
  process.stderr.write('usage: HOLD_TOKEN=T node hold_client.mjs <endpoint>\n');
  process.exit(2);
}

let leaving = false;
let answers = 0;
let errors = 0;
let wake = () => {};
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    leaving = true;
    wake();
  });
}

async function main() {
  const headers = { Authorization: `Bearer ${token}` };
  const res = await fetch(`${endpoint}/json/version`, { headers });
  if (!res.ok) throw new Error(`GET /json/version: HTTP ${res.status}`);
  const { webSocketDebuggerUrl } = await res.json();
  const browser = await puppeteer.connect({ browserWSEndpoint: webSocketDebuggerUrl, headers });
  const page = await browser.newPage();
  say({ event: 'connected' });
  for (let n = 1; !leaving; n++) {
    const at = Date.now();
    try {
      const got = await page.evaluate((x) => x * 2, n);
      if (got !== n * 2) throw new Error(`evaluate gave ${got}, want ${n * 2}`);
      answers++;
      say({ event: 'answer', n, at });
    } catch (err) {
      errors++;
      say({ event: 'error', n, at, error: String(err && err.message ? err.message : err) });
    }
    await new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, 200);
    });
  }
  await page.close();
  await browser.disconnect();
  say({ event: 'left', answers, errors });
  process.exit(answers > 0 && errors === 0 ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`hold_client: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
