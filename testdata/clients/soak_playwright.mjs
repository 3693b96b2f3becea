// A soak agent on playwright-core over CDP (cdpbench --only soak;
// soak_loop.mjs has the protocol): each loop navigates, types, clicks,
// evaluates, takes a screenshot, and opens and closes a second tab in the
// world's (the default) context.
import { chromium } from 'playwright-core';
import { mainPage, run } from './soak_loop.mjs';

run({
  connect: async (endpoint) => {
    const browser = await chromium.connectOverCDP(endpoint, { timeout: 30000 });
    const context = browser.contexts()[0];
    return mainPage({ browser, context }, await context.newPage());
  },
  work: async (c, site, i) => {
    // A page of a browser that was killed is gone: an agent opens another.
    if (c.page.isClosed()) mainPage(c, await c.context.newPage());
    const { context, page } = c;
    await page.goto(`${site}/page?agent=pw&i=${i}`);
    await page.fill('#q', `hello ${i}`);
    await page.click('#b');
    const title = await page.evaluate(() => document.title);
    if (title !== `clicked hello ${i}`) throw new Error(`title ${JSON.stringify(title)}`);
    await page.screenshot();
    const second = await context.newPage();
    await second.goto(`${site}/page?agent=pw-second&i=${i}`);
    await second.close();
  },
  close: async (c) => c.browser.close(),
});
