// Opens a trace zip in Playwright's own trace viewer, as a user would:
// `playwright show-trace --port 0 FILE` from the pinned playwright-core
// serves it, and Chromium (driven by playwright-core) opens the page.
//
//   node trace_viewer.mjs <trace.zip> <browser> [screenshot dir]
//
// It reads what the viewer shows: the actions list's titles, the
// filmstrip's lanes and whether a frame of it loads (through the viewer's
// service worker, as a JPEG), the screenshot shown for each action, the
// network tab's requests and the console tab's lines, and any
// error the viewer showed instead of the trace. It judges nothing: the Go
// test does. Screenshots of the viewer go to the screenshot dir.
// stdout: one JSON line. Exit codes: 0 read, 1 failure, 2 timeout.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const NAME = 'trace_viewer';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 120000;
let server = null;
const bail = (code, msg) => {
  process.stderr.write(`${NAME}: ${msg}\n`);
  if (server) try { server.kill('SIGKILL'); } catch {}
  process.exit(code);
};
setTimeout(() => bail(2, `timed out after ${timeoutMs} ms`), timeoutMs);
process.on('unhandledRejection', (e) => bail(1, e && e.stack ? e.stack : String(e)));
process.on('uncaughtException', (e) => bail(1, e && e.stack ? e.stack : String(e)));
// However this script ends, the viewer's server ends with it.
process.on('exit', () => { if (server) try { server.kill('SIGKILL'); } catch {} });

const [trace, browserPath, shotDir] = process.argv.slice(2);
if (!trace || !browserPath) bail(1, 'usage: node trace_viewer.mjs <trace.zip> <browser> [screenshot dir]');

// show-trace with --port serves the viewer and asks the desktop to open
// it; BROWSER=true with no display makes that a no-op (xdg-open's generic
// mode runs $BROWSER), and the test opens it in its own Chromium.
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
server = spawn(process.execPath, [cli, 'show-trace', '--port', '0', path.resolve(trace)], {
  env: { ...process.env, BROWSER: 'true', DISPLAY: '', WAYLAND_DISPLAY: '', XDG_CURRENT_DESKTOP: '', DESKTOP_SESSION: '', GNOME_DESKTOP_SESSION_ID: '', KDE_FULL_SESSION: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stderr.on('data', (d) => process.stderr.write(`show-trace: ${d}`));
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/Listening on (\S+)/);
    if (m) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`show-trace exited ${code} before listening: ${out}`)));
});

const browser = await chromium.launch({ executablePath: browserPath, headless: true, args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const out = { url };
page.on('pageerror', (e) => { (out.pageErrors ||= []).push(String(e)); });
await page.goto(url);

// The trace loads, or the viewer says why not.
const actions = page.getByTestId('actions-tree').getByRole('treeitem');
await Promise.race([
  actions.first().waitFor({ timeout: 30000 }),
  page.getByText(/Could not load trace|Cannot find \.trace|newer version/).first().waitFor({ timeout: 30000 }).then(async () => {
    out.loadError = await page.locator('body').innerText();
  }),
]).catch((e) => { out.loadError = out.loadError || String(e); });
if (out.loadError) {
  if (shotDir) await page.screenshot({ path: path.join(shotDir, 'trace-viewer-error.png') });
  console.log(JSON.stringify(out));
  await browser.close();
  server.kill();
  process.exit(0);
}

out.actions = await page.getByTestId('actions-tree').locator('.action-title-method').evaluateAll((els) => els.map((e) => e.getAttribute('title') || e.textContent));

// The filmstrip: one lane per page with frames; a frame's image is served
// by the viewer (its service worker reads the zip) as the JPEG written.
await page.locator('.film-strip-frame').first().waitFor({ timeout: 10000 }).catch(() => {});
out.filmstripLanes = await page.locator('.film-strip-lane').count();
out.filmstripFrames = await page.locator('.film-strip-frame').count();
const frameURL = await page.locator('.film-strip-frame').first().evaluate((e) => {
  const m = getComputedStyle(e).backgroundImage.match(/url\("?(.*?)"?\)$/);
  return m ? m[1] : '';
}).catch(() => '');
out.frameImage = frameURL ? await page.evaluate(async (u) => {
  const r = await fetch(u);
  const b = new Uint8Array(await r.arrayBuffer());
  return { status: r.status, bytes: b.length, jpeg: b[0] === 0xff && b[1] === 0xd8 };
}, frameURL) : null;

// Each action in turn: the screenshot its "Action" tab shows (its size and
// the colour at its centre), and whether the point of its input is drawn.
// Env TRACE_VIEWER_SHOW, a regular expression: only the actions whose
// title it matches (a long recording's hundreds of commands); each shown
// says its index in actions. Env TRACE_VIEWER_SHOT, one too: the viewer
// as it shows the last such action goes to trace-viewer-shown.png.
const showOnly = process.env.TRACE_VIEWER_SHOW ? new RegExp(process.env.TRACE_VIEWER_SHOW) : null;
const shotOf = process.env.TRACE_VIEWER_SHOT ? new RegExp(process.env.TRACE_VIEWER_SHOT) : null;
let lastShot = -1;
if (shotOf) out.actions.forEach((title, i) => { if (shotOf.test(title)) lastShot = i; });
out.shown = [];
const tree = page.getByTestId('actions-tree').getByRole('treeitem');
for (let i = 0; i < out.actions.length; i++) {
  if (showOnly && !showOnly.test(out.actions[i]) && i !== lastShot) continue;
  await tree.nth(i).click();
  const img = page.locator('.aria-mode-screenshot img');
  const shown = await img.first().waitFor({ timeout: 5000 }).then(() => img.first().evaluate(async (el) => {
    if (!el.complete || !el.naturalWidth) await new Promise((r) => { el.onload = r; el.onerror = r; setTimeout(r, 3000); });
    const c = document.createElement('canvas');
    c.width = el.naturalWidth; c.height = el.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(el, 0, 0);
    const [r, gr, b] = g.getImageData(c.width >> 1, c.height >> 1, 1, 1).data;
    return { width: el.naturalWidth, height: el.naturalHeight, rgb: [r, gr, b] };
  })).catch((e) => ({ error: String(e).split('\n')[0] }));
  shown.title = out.actions[i];
  shown.index = i;
  shown.point = await page.locator('.aria-mode-action-point').count() > 0;
  out.shown.push(shown);
  if (shotDir && i === 2) await page.screenshot({ path: path.join(shotDir, 'trace-viewer-actions.png') });
  if (shotDir && i === lastShot) await page.screenshot({ path: path.join(shotDir, 'trace-viewer-shown.png') });
}

await page.getByRole('tab', { name: 'Network' }).click();
const requests = page.getByRole('listbox', { name: 'Network requests' }).getByRole('option');
await requests.first().waitFor({ timeout: 5000 }).catch(() => {});
out.network = await requests.evaluateAll((els) => els.map((e) => e.textContent));
if (shotDir) await page.screenshot({ path: path.join(shotDir, 'trace-viewer-network.png') });

await page.getByRole('tab', { name: 'Console' }).click();
const lines = page.getByRole('tabpanel', { name: 'Console' }).getByRole('option');
await lines.first().waitFor({ timeout: 5000 }).catch(() => {});
out.console = await lines.evaluateAll((els) => els.map((e) => e.textContent));
if (shotDir) await page.screenshot({ path: path.join(shotDir, 'trace-viewer-console.png') });

console.log(JSON.stringify(out));
await browser.close();
server.kill();
process.exit(0);
