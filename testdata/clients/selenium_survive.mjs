// Checks that ONE selenium-webdriver session, through Debian's chromedriver
// attached to cdpvisor's endpoint (goog:chromeOptions.debuggerAddress),
// survives kill -9 of the browser behind cdpvisor (the Go test kills it
// between cycles).
//
//   node selenium_survive.mjs <http://127.0.0.1:PORT> <page URL> <cycles> <chromedriver>
//
// The chromedriver is given (ServiceBuilder), so selenium-manager never
// looks for or downloads one. Env CHROMEDRIVER_LOG=FILE writes chromedriver's
// verbose log there.
//
// Protocol (line based, as cycles.mjs):
//   1. Build the driver once and read the local page in the current window.
//   2. For N = 1..cycles: stdout {"ready":N}; one line on stdin (the test
//      kills the browser, then writes "go"); then, on the SAME driver: the
//      window handles list none from before the kill, the driver switches
//      to one of the relaunched browser's, and a new tab
//      (switchTo().newWindow('tab')) gets the page showing "cycle N" and
//      reads the text of its <p>.
//   3. driver.quit() (chromedriver detaches; the browser stays), then
//      stdout: {"ok":true,"cycles":N,"disconnected":false}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 60000). chromedriver ends with the script.
import { Builder, By } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';
import { script, nextLine, within } from './cycles.mjs';

const NAME = 'selenium_survive';
const { fail } = script(NAME, 60000);

// quitOnFailure is the driver to quit (which ends chromedriver) before a
// failure exits; the Go test ends a chromedriver left by a timeout.
let quitOnFailure = null;

async function readPage(driver, page, text, label) {
  const url = `${page}/?text=${encodeURIComponent(text)}`;
  await within(20000, driver.get(url), `${label}: get ${url}`);
  const got = await within(20000, driver.findElement(By.css('p')).getText(), `${label}: the <p>'s text`);
  if (got !== text) throw new Error(`${label}: text ${JSON.stringify(got)}, want ${JSON.stringify(text)}`);
}

// toLiveWindow switches to a window of the relaunched browser, as a
// WebDriver client does when its current window is gone: chromedriver
// answers New Window from a closed current window with a null value (as it
// does when a tab is closed behind its back, with no kill), so the new tab
// must be opened from a live one. None of the windows from before the kill
// may be listed.
async function toLiveWindow(driver, before, label) {
  const handles = await within(20000, driver.getAllWindowHandles(), `${label}: window handles`);
  const stale = handles.filter((h) => before.includes(h));
  if (stale.length) throw new Error(`${label}: windows of the killed browser still listed: ${stale}`);
  if (!handles.length) throw new Error(`${label}: no window after the kill`);
  await within(20000, driver.switchTo().window(handles[0]), `${label}: switch to ${handles[0]}`);
}

async function main() {
  const [endpoint, page, cyclesArg, chromedriver] = process.argv.slice(2);
  const cycles = Number(cyclesArg);
  if (!endpoint || !page || !Number.isInteger(cycles) || cycles < 0 || !chromedriver) {
    throw new Error('usage: selenium_survive.mjs <endpoint> <page URL> <cycles> <chromedriver>');
  }
  const service = new chrome.ServiceBuilder(chromedriver);
  if (process.env.CHROMEDRIVER_LOG) service.loggingTo(process.env.CHROMEDRIVER_LOG).enableVerboseLogging();
  const options = new chrome.Options().debuggerAddress(new URL(endpoint).host);
  const driver = await within(30000, new Builder().forBrowser('chrome')
    .setChromeOptions(options).setChromeService(service).build(), 'new session');
  quitOnFailure = driver;

  await readPage(driver, page, 'start', 'start');
  for (let n = 1; n <= cycles; n++) {
    const before = await within(20000, driver.getAllWindowHandles(), `cycle ${n}: window handles`);
    process.stdout.write(JSON.stringify({ ready: n }) + '\n');
    if ((await nextLine()) === null) throw new Error(`stdin closed while waiting for cycle ${n}`);
    const label = `cycle ${n}`;
    await toLiveWindow(driver, before, label);
    await within(20000, driver.switchTo().newWindow('tab'), `${label}: newWindow('tab')`);
    await readPage(driver, page, label, label);
  }
  await within(20000, driver.quit(), 'quit');
  process.stdout.write(JSON.stringify({ ok: true, cycles, disconnected: false }) + '\n');
  process.exit(0);
}

main().catch(async (err) => {
  if (quitOnFailure) await within(3000, quitOnFailure.quit(), 'quit').catch(() => {});
  fail(err);
});
