// The cost of a world's network guard: load time of a local page with 50
// subresources in a guarded world and in a world without a policy, taken
// in alternating order on one browser (the Go test makes the worlds).
//
//   node bench_guard.mjs <guarded endpoint> <plain endpoint> <page URL> <rounds>
//
// stdout: one JSON line {"guarded":[ms…],"plain":[ms…]}.
import { chromium } from 'playwright-core';
import { script } from './cycles.mjs';

const { fail } = script('bench_guard', 300000);
const [guardedEP, plainEP, pageURL, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg) || 20;

try {
  const sides = {
    guarded: await chromium.connectOverCDP(guardedEP),
    plain: await chromium.connectOverCDP(plainEP),
  };
  const samples = { guarded: [], plain: [] };
  const names = Object.keys(sides);
  for (let i = 0; i < rounds + 2; i++) {
    const order = i % 2 ? names : [...names].reverse();
    for (const name of order) {
      const page = await sides[name].contexts()[0].newPage();
      const t0 = performance.now();
      await page.goto(`${pageURL}?r=${name}-${i}`, { waitUntil: 'load' });
      const ms = performance.now() - t0;
      if (i >= 2) samples[name].push(ms); // two rounds of warm-up
      await page.close();
    }
  }
  process.stdout.write(JSON.stringify(samples) + '\n');
  for (const b of Object.values(sides)) await b.close();
  process.exit(0);
} catch (e) {
  fail(e);
}
