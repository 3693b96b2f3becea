// An agent's session for the journal's test (issue 37): puppeteer-core in a
// world navigates to site A, clicks a link there, evaluates an expression
// holding a marker the journal must never hold, and fetches site B (which
// the world's policy denies).
//
//   node journal_agent.mjs <world endpoint> <A's URL> <B's URL> <marker>
//
// stdout: one JSON line on success: {"ok":true,"title":"…","fetch":"denied"|"reached"}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 60000).
import puppeteer from 'puppeteer-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 60000;
setTimeout(() => {
  process.stderr.write(`journal_agent: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`journal_agent: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const [endpoint, siteA, siteB, marker] = process.argv.slice(2);
  if (!marker) throw new Error('usage: journal_agent.mjs <endpoint> <A> <B> <marker>');
  const browser = await puppeteer.connect({ browserURL: endpoint });
  const page = await browser.newPage();
  await page.goto(siteA);
  await Promise.all([page.waitForNavigation(), page.click('#next')]);
  // A string: puppeteer sends it as Runtime.evaluate's expression.
  const title = await page.evaluate(`document.title + ${JSON.stringify(marker)}`);
  const fetched = await page.evaluate(`fetch(${JSON.stringify(siteB)}).then(() => "reached", () => "denied")`);
  await page.close();
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, title, fetch: fetched }) + '\n');
  process.exit(0);
}

main().catch(fail);
