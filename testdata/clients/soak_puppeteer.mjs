// A soak agent on puppeteer-core (cdpbench --only soak; soak_loop.mjs has
// the protocol): each loop navigates, types, clicks, evaluates, takes a
// screenshot, and opens and closes a second tab. No download: Puppeteer's
// click on a download link, three clients on one browser, stalls its next
// Runtime.callFunctionOn for its whole protocolTimeout on a bare Chromium
// 156 as well (measured 2026-11-27); chrome-remote-interface downloads.
import puppeteer from 'puppeteer-core';
import { run } from './soak_loop.mjs';

run({
  connect: async (endpoint) => {
    const browser = await puppeteer.connect({ browserURL: endpoint, protocolTimeout: 30000 });
    return { browser, page: await browser.newPage() };
  },
  work: async (c, site, i) => {
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
});
