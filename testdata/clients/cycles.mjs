// What the kill-cycle client scripts share: an overall timeout, failure on
// stderr with the script's name, a line reader over stdin (the Go test
// writes a line after each kill), and a bound on every step.
import { createInterface } from 'node:readline';

// script sets up a script named name: exit 2 after the overall timeout
// (env CLIENT_TIMEOUT_MS, default defaultMs), exit 1 on an unhandled
// rejection. It returns { timeoutMs, fail }.
export function script(name, defaultMs) {
  const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || defaultMs;
  setTimeout(() => {
    process.stderr.write(`${name}: timed out after ${timeoutMs} ms\n`);
    process.exit(2);
  }, timeoutMs);
  const fail = (err) => {
    process.stderr.write(`${name}: ${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  };
  process.on('unhandledRejection', fail);
  return { timeoutMs, fail };
}

// nextLine resolves with the next line of stdin, or null at its end.
const lines = [];
const waiters = [];
let stdinEOF = false;
const rl = createInterface({ input: process.stdin });
rl.on('line', (l) => (waiters.length ? waiters.shift()(l) : lines.push(l)));
rl.on('close', () => {
  stdinEOF = true;
  while (waiters.length) waiters.shift()(null);
});
export function nextLine() {
  if (lines.length) return Promise.resolve(lines.shift());
  if (stdinEOF) return Promise.resolve(null);
  return new Promise((resolve) => waiters.push(resolve));
}

// within fails a step that does not settle in ms: a hang is a failure.
export function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// pagesWithoutStale polls pages() until it lists no page of the killed
// browser: the relay tells the client its targets are gone the moment it
// loses the browser, which may be a moment after the test's "go".
export async function pagesWithoutStale(browser, stale, label) {
  const deadline = Date.now() + 2000;
  for (;;) {
    const pages = await within(20000, browser.pages(), `${label}: pages()`);
    const left = pages.filter((p) => stale.has(p));
    if (left.length === 0) return pages;
    if (Date.now() > deadline) {
      throw new Error(`${label}: 2 s after the kill pages() still lists pages of the killed browser: ${left.map((p) => p.url())}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
