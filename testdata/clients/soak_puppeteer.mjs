// A soak agent on puppeteer-core (cdpbench --only soak; soak_loop.mjs has
// the protocol): each loop navigates, types, clicks, evaluates, takes a
// screenshot, and opens and closes a second tab (chrome-remote-interface
// downloads). Three Puppeteer clients sharing one context of a bare
// Chromium 156 stall one's Runtime.callFunctionOn for its whole
// protocolTimeout now and then (measured 2026-11-27); in worlds they do not.
import puppeteer from 'puppeteer-core';
import { mainPage, run } from './soak_loop.mjs';
import { connectPuppeteer } from './connect.mjs';

run({
  connect: async (endpoint) => {
    // Not connect({browserURL}): Puppeteer drops a world's /context/NAME.
    const browser = await connectPuppeteer(puppeteer, endpoint, { protocolTimeout: 30000 });
    return mainPage({ browser }, await browser.newPage());
  },
  work: async (c, site, i) => {
    // A page of a browser that was killed is gone: an agent opens another.
    if (c.page.isClosed()) mainPage(c, await c.browser.newPage());
    const { browser, page } = c;
    await page.goto(`${site}/page?agent=pp&i=${i}`);
    await page.type('#q', `hello ${i}`);
    await page.click('#b');
    const title = await page.evaluate(() => document.title);
    if (title !== `clicked hello ${i}`) throw new Error(`title ${JSON.stringify(title)}`);
    await page.screenshot();
    const second = await browser.newPage();
    await second.goto(`${site}/page?agent=pp-second&i=${i}`);
    await second.close();
  },
  close: async (c) => c.browser.disconnect(),
  // Puppeteer fails the call under way on a detached page ("Target closed")
  // before it fires the page's close: that error is its news of the close.
  heardGone: (e) => /Target closed|Session closed/.test(String(e && e.message)),
});
