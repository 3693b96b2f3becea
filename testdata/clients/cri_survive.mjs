// Checks that ONE chrome-remote-interface client on the BROWSER websocket
// survives kill -9 of the browser behind cdpvisor (the Go test kills it
// between cycles). CRI is the client that never asks for target
// auto-attach: it makes its own page and attaches to it.
//
//   node cri_survive.mjs <http://127.0.0.1:PORT> <page URL> <cycles>
//
// Protocol (line based, as cycles.mjs):
//   1. CDP({host, port, target: webSocketDebuggerUrl of /json/version})
//      once, register 'disconnect', and read the local page in a page of
//      its own:
//      Target.createTarget, Target.attachToTarget {flatten: true},
//      Page.enable + Page.navigate on the session, the load event, and
//      Runtime.evaluate of the <p>'s text.
//   2. For N = 1..cycles: stdout {"ready":N}; one line on stdin (the test
//      kills the browser, then writes "go"); then the same on the SAME
//      client with the page showing "cycle N".
//   3. stdout: {"ok":true,"cycles":N,"disconnected":false}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 60000).
import CDP from 'chrome-remote-interface';
import { script, nextLine, within } from './cycles.mjs';

const NAME = 'cri_survive';
const { fail } = script(NAME, 60000);

// readInOwnPage makes a page, reads the page showing text in it, and closes it.
async function readInOwnPage(client, page, text, label) {
  const step = (what, p) => within(20000, p, `${label}: ${what}`);
  const { targetId } = await step('Target.createTarget', client.Target.createTarget({ url: 'about:blank' }));
  const { sessionId } = await step('Target.attachToTarget', client.Target.attachToTarget({ targetId, flatten: true }));
  await step('Page.enable', client.Page.enable(sessionId));
  const loaded = new Promise((resolve) => client.once(`Page.loadEventFired.${sessionId}`, resolve));
  const url = `${page}/?text=${encodeURIComponent(text)}`;
  const nav = await step('Page.navigate', client.Page.navigate({ url }, sessionId));
  if (nav.errorText) throw new Error(`${label}: Page.navigate ${url}: ${nav.errorText}`);
  await step('the load event', loaded);
  const { result } = await step('Runtime.evaluate', client.Runtime.evaluate(
    { expression: "document.querySelector('p').textContent", returnByValue: true }, sessionId));
  if (result.value !== text) throw new Error(`${label}: text ${JSON.stringify(result.value)}, want ${JSON.stringify(text)}`);
  await step('Target.closeTarget', client.Target.closeTarget({ targetId }));
}

async function main() {
  const [endpoint, page, cyclesArg] = process.argv.slice(2);
  const cycles = Number(cyclesArg);
  if (!endpoint || !page || !Number.isInteger(cycles) || cycles < 0) {
    throw new Error('usage: cri_survive.mjs <endpoint> <page URL> <cycles>');
  }
  const { webSocketDebuggerUrl } = await (await fetch(endpoint + '/json/version')).json();
  // host and port: where CRI fetches /json/protocol (the running browser's
  // schema, served by the endpoint), as it does by default.
  const { hostname: host, port } = new URL(endpoint);
  const client = await CDP({ host, port: Number(port), target: webSocketDebuggerUrl });
  let disconnected = false;
  client.on('disconnect', () => {
    disconnected = true;
    process.stderr.write(`${NAME}: 'disconnect' event fired\n`);
  });

  await readInOwnPage(client, page, 'start', 'start');
  for (let n = 1; n <= cycles; n++) {
    process.stdout.write(JSON.stringify({ ready: n }) + '\n');
    if ((await nextLine()) === null) throw new Error(`stdin closed while waiting for cycle ${n}`);
    await readInOwnPage(client, page, `cycle ${n}`, `cycle ${n}`);
    if (disconnected) throw new Error(`'disconnect' event fired in cycle ${n}`);
  }
  process.stdout.write(JSON.stringify({ ok: true, cycles, disconnected }) + '\n');
  await client.close();
  process.exit(0);
}

main().catch(fail);
