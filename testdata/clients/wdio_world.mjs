// webdriverio in its default WebDriver BiDi mode (webSocketUrl: true),
// through Debian's chromedriver attached to a running browser by host and
// port alone (goog:chromeOptions.debuggerAddress 127.0.0.1:PORT: a world's
// own port, or the whole endpoint's): loads a page and reads its title.
// chromedriver gives its BiDi mapper tab the raw protocol
// (Target.exposeDevToolsProtocol), which a world refuses; the script says
// what happened instead of failing.
//
//   node wdio_world.mjs <127.0.0.1:PORT> <page URL> <chromedriver> [bidi|classic]
//
// bidi (the default) is webdriverio's default; classic sets
// 'wdio:enforceWebDriverClassic': true (no webSocketUrl, no BiDi mapper).
//
// The script starts the chromedriver itself (on a free loopback port,
// --port=0) and hands webdriverio its hostname and port, so that webdriverio
// never looks for, downloads or leaves behind a browser or a driver; the
// driver is ended before the script exits, whatever happened. With
// CHROMEDRIVER_LOG=FILE the driver logs verbosely to FILE.
//
// stdout: one JSON line
//   {"ok":true,"connected":true,"bidi":true,"title":"page","url":"…","error":"","driverPid":N}
//   {"ok":true,"connected":false,"error":"… (rule: no raw protocol in a world) …","driverPid":N}
// (connected: a session was made; bidi: it has a BiDi socket; error: the
// message of the first failure, the session's or the page's).
// Exit codes: 0 a result was printed, 1 failure (error on stderr), 2 timeout
// (CLIENT_TIMEOUT_MS).
import { spawn } from 'node:child_process';
import { remote } from 'webdriverio';

const NAME = 'wdio_world';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
let driver;
let browser;

function endDriver() {
  if (driver && driver.exitCode === null && driver.signalCode === null) driver.kill('SIGKILL');
}
process.on('exit', endDriver);
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs).unref();
async function fail(e) {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

// startDriver starts chromedriver on a free loopback port and answers the
// port it says it listens on.
function startDriver(chromedriver) {
  return new Promise((resolve, reject) => {
    const args = ['--port=0'];
    if (process.env.CHROMEDRIVER_LOG) args.push('--verbose', `--log-path=${process.env.CHROMEDRIVER_LOG}`);
    driver = spawn(chromedriver, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    driver.on('error', reject);
    driver.on('exit', (code, signal) => reject(new Error(`chromedriver exited (${code ?? signal}) before it listened: ${out}`)));
    driver.stdout.setEncoding('utf8');
    driver.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /started successfully on port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
}

// message is an error's message (webdriverio's, without its stack).
function message(e) {
  return String((e && e.message) || e).trim();
}

async function main() {
  const [address, page, chromedriver, mode = 'bidi'] = process.argv.slice(2);
  if (!address || !page || !chromedriver || !['bidi', 'classic'].includes(mode)) {
    throw new Error('usage: wdio_world.mjs <host:port> <page URL> <chromedriver> [bidi|classic]');
  }
  const protocol = mode === 'bidi' ? { webSocketUrl: true } : { 'wdio:enforceWebDriverClassic': true };
  const port = await startDriver(chromedriver);
  const result = { ok: true, connected: false, bidi: false, title: '', url: '', error: '', driverPid: driver.pid };
  try {
    browser = await remote({
      hostname: '127.0.0.1',
      port,
      logLevel: 'silent',
      connectionRetryCount: 0,
      connectionRetryTimeout: 30000,
      capabilities: {
        browserName: 'chrome',
        ...protocol,
        'goog:chromeOptions': { debuggerAddress: address },
      },
    });
    result.connected = true;
    result.bidi = Boolean(browser.isBidi);
    await browser.url(page);
    result.title = await browser.getTitle();
    result.url = await browser.getUrl();
  } catch (e) {
    result.error = message(e);
  }
  if (browser) await browser.deleteSession().catch(() => {});
  endDriver();
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}

main().catch(fail);
