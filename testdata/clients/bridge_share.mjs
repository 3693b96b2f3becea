// Two MCP servers that launch "Chrome" themselves, pointed at the cdpvisor
// bridge with one profile: @playwright/mcp (--executable-path) and
// chrome-devtools-mcp (--executablePath). Both navigate and snapshot, and
// each sees the other's page; then the Go test counts the browsers on the
// profile (it must be one).
//
//   node bridge_share.mjs <bridge> <profile> <work dir>
//
// stdout: {"ready":1} when both have snapshotted (then it waits for a line
// on stdin), then {"ok":true} after both closed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createInterface } from 'node:readline';
import path from 'node:path';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 120000;
setTimeout(() => { process.stderr.write(`bridge_share: timed out after ${timeoutMs} ms\n`); process.exit(2); }, timeoutMs);
const here = path.dirname(new URL(import.meta.url).pathname);
const rl = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => rl.once('line', resolve));
const clients = [];

async function connect(name, args) {
  const transport = new StdioClientTransport({
    command: process.execPath, args, stderr: 'inherit',
    env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
  });
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(transport, { timeout: timeoutMs });
  clients.push(client);
  return client;
}

async function call(client, name, args, want) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
  const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  if (res.isError || (want && !text.includes(want))) throw new Error(`${name}: ${text.slice(0, 800)}`);
}

async function main() {
  const [bridge, profile, work] = process.argv.slice(2);
  // @playwright/mcp first: it refuses a profile another live browser has
  // locked (its own check), so it launches; chrome-devtools-mcp, second,
  // gets the same browser through the bridge.
  const pwm = await connect('pwm', [path.join(here, 'node_modules/@playwright/mcp/cli.js'),
    `--executable-path=${bridge}`, `--user-data-dir=${profile}`, '--headless', `--output-dir=${work}`]);
  await call(pwm, 'browser_navigate', { url: 'data:text/html,<h1>from pwm</h1>' });
  await call(pwm, 'browser_snapshot', {}, 'from pwm');
  const cdm = await connect('cdm', [path.join(here, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
    `--executablePath=${bridge}`, `--userDataDir=${profile}`, '--headless', '--no-usage-statistics', '--no-page-id-routing']);
  await call(cdm, 'new_page', { url: 'data:text/html,<h1>from cdm</h1>' });
  await call(cdm, 'take_snapshot', {}, 'from cdm');
  // The page one opened is visible to the other: one browser.
  await call(cdm, 'list_pages', {}, 'from pwm');
  process.stdout.write(JSON.stringify({ ready: 1 }) + '\n');
  await nextLine();
  for (const c of clients) await c.close();
  process.stdout.write(JSON.stringify({ ok: true }) + '\n');
  rl.close();
  process.exit(0);
}
main().catch(async (e) => {
  process.stderr.write(`bridge_share: ${e && e.stack ? e.stack : e}\n`);
  for (const c of clients) await c.close().catch(() => {});
  process.exit(1);
});
