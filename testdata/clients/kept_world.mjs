// Where a world's page may go, as a Playwright agent meets it.
//
//   node kept_world.mjs <CDP endpoint> <URL> [URL…]
//
// connectOverCDP(endpoint); a page of the default context goes to each URL
// in turn (a new page for each: a failed navigation's error page may still
// be settling).
// stdout: one JSON line, each URL's outcome in order: "ok TITLE" or
// "failed: ERROR".
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout.
import { chromium } from 'playwright-core';
import { script, within } from './cycles.mjs';

const { fail } = script('kept_world', 60000);
const [endpoint, ...urls] = process.argv.slice(2);

try {
  const browser = await within(15000, chromium.connectOverCDP(endpoint), 'connectOverCDP');
  const ctx = browser.contexts()[0];
  const outcomes = [];
  for (const url of urls) {
    const page = await ctx.newPage();
    outcomes.push(await page.goto(url, { timeout: 10000 }).then(
      async () => 'ok ' + await page.title(),
      (e) => 'failed: ' + String(e.message).split('\n')[0]));
    await page.close();
  }
  process.stdout.write(JSON.stringify(outcomes) + '\n');
  await browser.close();
  process.exit(0);
} catch (e) {
  fail(e);
}
