// Two agents in ONE recorded world (issue 49's "done means"): a Puppeteer
// agent and a Playwright agent on the same world endpoint navigate the
// local site, type into its form, click, evaluate; Puppeteer downloads a
// file. The Go test kills the browser in the middle; both go on, on the
// same Browser objects, in the relaunched browser.
//
//   node replay_agents.mjs <world endpoint http://127.0.0.1:WPORT> <site url> <secret>
//
// The site (the Go test's): /form?agent=A has a form (#secret, #go: the
// submit shows "submitted N chars" and fetches /api/submitted?len=N), a
// link #next to /next?agent=A, a download link #file (/file.txt, an
// attachment) and a box that changes colour all the time (frames).
//
// Protocol (line based):
//   1. Both connect (Puppeteer by the world's /json/version websocket,
//      Playwright by connectOverCDP, its page in the world's context) and
//      each: goto /form, type the secret, click #go, evaluate #out, click
//      #next (a navigation), evaluate; Puppeteer clicks #file too (a
//      download). stdout: {"ready":"kill"}; stdin: one line (the test
//      killed the browser and waited for it to be gone).
//   2. On the same Browser objects: each opens a page again, goes to
//      /after?agent=A, types, clicks #go, evaluates; Playwright does the
//      same in a context it makes (newContext), as agent playwright-made.
//   3. stdout: {"ok":true,"before":[...],"after":[...]} (what #out said)
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 90000).
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import { script, nextLine, within } from './cycles.mjs';
import { connectPuppeteer } from './connect.mjs';

const NAME = 'replay_agents';
const { timeoutMs, fail } = script(NAME, 90000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function check(cond, what) {
  if (!cond) throw new Error(what);
}

// Puppeteer: type key by key (Input.dispatchKeyEvent), click with the
// mouse (Input.dispatchMouseEvent), evaluate (Runtime.callFunctionOn).
async function puppeteerRound(page, url, secret, more) {
  await page.goto(url);
  await page.type('#secret', secret);
  await page.click('#go');
  await page.waitForFunction(() => document.querySelector('#out').textContent.startsWith('submitted'));
  const out = await page.evaluate(() => document.querySelector('#out').textContent);
  if (more) {
    await page.click('#file'); // the download: the page stays
    await sleep(500);
    await Promise.all([page.waitForNavigation(), page.click('#next')]);
    check((await page.evaluate(() => document.title)) === 'next', 'Puppeteer: #next did not navigate');
  }
  return out;
}

// Playwright: fill (Input.insertText), click, evaluate.
async function playwrightRound(page, url, secret, more) {
  await page.goto(url);
  await page.fill('#secret', secret);
  await page.click('#go');
  await page.waitForFunction(() => document.querySelector('#out').textContent.startsWith('submitted'));
  const out = await page.evaluate(() => document.querySelector('#out').textContent);
  if (more) {
    await page.click('#next');
    await page.waitForURL(/\/next/);
    check((await page.evaluate(() => document.title)) === 'next', 'Playwright: #next did not navigate');
  }
  return out;
}

async function main() {
  const [endpoint, site, secret] = process.argv.slice(2);
  if (!endpoint || !site || !secret) throw new Error('usage: replay_agents.mjs <world endpoint> <site url> <secret>');
  const base = site.replace(/\/+$/, '');

  const pp = await connectPuppeteer(puppeteer, endpoint, { protocolTimeout: timeoutMs });
  const pw = await chromium.connectOverCDP(endpoint, { timeout: timeoutMs });
  let disconnected = '';
  pp.on('disconnected', () => { disconnected += 'puppeteer '; });
  pw.on('disconnected', () => { disconnected += 'playwright '; });
  const pwContext = pw.contexts()[0];
  check(pwContext, 'Playwright sees no context in the world');

  const before = [];
  const ppPage = await pp.newPage();
  const pwPage = await pwContext.newPage();
  await ppPage.setViewport({ width: 800, height: 600 });
  await pwPage.setViewportSize({ width: 800, height: 600 });
  before.push(await puppeteerRound(ppPage, `${base}/form?agent=puppeteer`, secret, true));
  before.push(await playwrightRound(pwPage, `${base}/form?agent=playwright`, secret, true));
  await sleep(1500); // frames of the pages as they are now

  process.stdout.write(JSON.stringify({ ready: 'kill' }) + '\n');
  if ((await nextLine()) === null) throw new Error('stdin closed before the kill');
  check(!disconnected, `'disconnected' after the kill: ${disconnected}`);

  const after = [];
  const ppAgain = await within(30000, pp.newPage(), 'Puppeteer newPage after the kill');
  const pwAgain = await within(30000, pwContext.newPage(), 'Playwright newPage after the kill');
  await ppAgain.setViewport({ width: 800, height: 600 });
  await pwAgain.setViewportSize({ width: 800, height: 600 });
  after.push(await within(30000, puppeteerRound(ppAgain, `${base}/after?agent=puppeteer`, secret, false), 'Puppeteer after the kill'));
  after.push(await within(30000, playwrightRound(pwAgain, `${base}/after?agent=playwright`, secret, false), 'Playwright after the kill'));
  // A context the Playwright agent makes inside the world (newContext):
  // the world's too, so recorded.
  const made = await within(30000, pw.newContext({ viewport: { width: 800, height: 600 } }), 'Playwright newContext');
  const madePage = await within(30000, made.newPage(), 'Playwright newPage in its context');
  after.push(await within(30000, playwrightRound(madePage, `${base}/after?agent=playwright-made`, secret, false), 'Playwright in its context'));
  await sleep(1500); // frames after the relaunch
  await made.close();
  check(!disconnected, `'disconnected': ${disconnected}`);

  await pp.disconnect();
  await pw.close(); // connectOverCDP: disconnects, the world's pages stay
  process.stdout.write(JSON.stringify({ ok: true, before, after }) + '\n');
  process.exit(0);
}

main().catch(fail);
