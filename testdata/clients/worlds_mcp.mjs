// Two MCP servers, each in a world of its own on one cdpvisor endpoint, as
// a host would start them (the world given as each server takes an
// endpoint):
//   chrome-devtools-mcp --wsEndpoint=ws://127.0.0.1:PORT/context/cdm/devtools/browser
//   @playwright/mcp --cdp-endpoint=http://127.0.0.1:PORT/context/pwm
// (chrome-devtools-mcp's --browserUrl goes through Puppeteer's browserURL,
// which drops a world's path: see docs/worlds.md.)
//
//   node worlds_mcp.mjs <http://127.0.0.1:PORT> <work dir>
//
// Each navigates and snapshots its page; each lists its own page only, and
// each world's /json/list has exactly that world's page.
// stdout: one JSON line {"ok":true}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 timeout (CLIENT_TIMEOUT_MS).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';

const NAME = 'worlds_mcp';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 120000;
const transports = [];
const clients = [];
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  for (const t of transports) if (t.pid) try { process.kill(t.pid, 'SIGKILL'); } catch {}
  process.exit(2);
}, timeoutMs);

const here = path.dirname(new URL(import.meta.url).pathname);
const cdmBin = path.join(here, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');
const pwmBin = path.join(here, 'node_modules/@playwright/mcp/cli.js');

async function connect(name, args) {
  const transport = new StdioClientTransport({
    command: process.execPath, args, stderr: 'inherit',
    env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
  });
  transports.push(transport);
  const client = new Client({ name: `worlds-${name}`, version: '0.0.0' });
  await client.connect(transport, { timeout: timeoutMs });
  clients.push(client);
  return client;
}

async function call(client, name, args, wantText) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
  const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  if (res.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text}`);
  if (wantText && !text.includes(wantText)) throw new Error(`${name}: ${JSON.stringify(text.slice(0, 800))} lacks ${wantText}`);
  return text;
}

async function pages(url) {
  const res = await fetch(url + '/json/list');
  if (!res.ok) throw new Error(`${url}/json/list: ${res.status}`);
  return (await res.json()).filter((t) => t.type === 'page');
}

async function main() {
  const [endpoint, work] = process.argv.slice(2);
  if (!endpoint || !work) throw new Error('usage: worlds_mcp.mjs <endpoint> <work dir>');
  const cdmURL = endpoint + '/context/cdm';
  const pwmURL = endpoint + '/context/pwm';
  const { webSocketDebuggerUrl } = await (await fetch(cdmURL + '/json/version')).json();
  const cdm = await connect('chrome-devtools-mcp',
    [cdmBin, `--wsEndpoint=${webSocketDebuggerUrl}`, '--no-usage-statistics', '--no-page-id-routing']);
  const pwm = await connect('playwright-mcp', [pwmBin, `--cdp-endpoint=${pwmURL}`, `--output-dir=${work}/pw-out`]);

  await call(cdm, 'new_page', { url: 'data:text/html,<h1>cdm page</h1>' });
  await call(cdm, 'take_snapshot', {}, 'cdm page');
  await call(pwm, 'browser_navigate', { url: 'data:text/html,<h1>pwm page</h1>' });
  await call(pwm, 'browser_snapshot', {}, 'pwm page');

  const cdmList = await call(cdm, 'list_pages', {});
  if (cdmList.includes('pwm page')) throw new Error(`chrome-devtools-mcp lists the other world's page: ${cdmList}`);
  const pwmTabs = await call(pwm, 'browser_tabs', { action: 'list' });
  if (pwmTabs.includes('cdm page')) throw new Error(`@playwright/mcp lists the other world's page: ${pwmTabs}`);

  const cdmPages = await pages(cdmURL);
  const pwmPages = await pages(pwmURL);
  if (!cdmPages.some((p) => p.url.includes('cdm page')) || cdmPages.some((p) => p.url.includes('pwm'))) {
    throw new Error(`world cdm lists ${JSON.stringify(cdmPages.map((p) => p.url))}`);
  }
  if (pwmPages.length !== 1 || !pwmPages[0].url.includes('pwm page')) {
    throw new Error(`world pwm lists ${JSON.stringify(pwmPages.map((p) => p.url))}`);
  }
  for (const c of [cdm, pwm]) await c.close();
  process.stdout.write(JSON.stringify({ ok: true }) + '\n');
  process.exit(0);
}

main().catch(async (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  for (const c of clients) await c.close().catch(() => {});
  process.exit(1);
});
