// selenium-webdriver through Debian's chromedriver attached to a world by
// host and port alone (goog:chromeOptions.debuggerAddress 127.0.0.1:WPORT,
// which keeps no path): opens a tab of the site and says which tabs the
// session holds.
//
//   node selenium_world.mjs <127.0.0.1:WPORT> <page URL> <chromedriver>
//
// stdout: one JSON line {"ok":true,"handles":N,"urls":[…]} (every window
// handle's URL). quit() detaches; the browser stays.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 timeout (CLIENT_TIMEOUT_MS).
import { Builder } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';

const NAME = 'selenium_world';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
let driver;
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);
async function fail(e) {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  if (driver) await driver.quit().catch(() => {});
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const [address, page, chromedriver] = process.argv.slice(2);
  if (!address || !page || !chromedriver) throw new Error('usage: selenium_world.mjs <host:port> <page URL> <chromedriver>');
  const service = new chrome.ServiceBuilder(chromedriver);
  const options = new chrome.Options().debuggerAddress(address);
  driver = await new Builder().forBrowser('chrome').setChromeOptions(options).setChromeService(service).build();
  await driver.switchTo().newWindow('tab');
  await driver.get(page);
  const handles = await driver.getAllWindowHandles();
  const urls = [];
  for (const h of handles) {
    await driver.switchTo().window(h);
    urls.push(await driver.getCurrentUrl());
  }
  await driver.quit();
  process.stdout.write(JSON.stringify({ ok: true, handles: handles.length, urls }) + '\n');
  process.exit(0);
}

main().catch(fail);
