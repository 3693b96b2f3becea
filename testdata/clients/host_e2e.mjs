// Acts as an AI host with three stdio MCP servers, as a host configures them:
//   cdpvisor mcp                                       (the coordinator)
//   cdpvisor wrap -- chrome-devtools-mcp --browserUrl={cdp_endpoint}
//   cdpvisor wrap -- @playwright/mcp --cdp-endpoint={cdp_endpoint}
//
//   node host_e2e.mjs <cdpvisor binary> <browser> <work dir>
//
// Both children navigate to a page and snapshot it; coordinator_status must
// show one browser serving both; after coordinator_restart_browser both
// children's next calls must succeed. Then the host closes everything
// (the coordinator's stdin first). The environment's CDPVISOR_STATE_DIR is
// used by every cdpvisor process.
// stdout: one JSON line {"ok":true,"steps":[...],"status":{...},"restart":{...}}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 timeout (CLIENT_TIMEOUT_MS).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';

const NAME = 'host_e2e';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 120000;
const transports = [];
const clients = [];
setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  for (const t of transports) if (t.pid) try { process.kill(t.pid, 'SIGKILL'); } catch {}
  process.exit(2);
}, timeoutMs);
process.on('unhandledRejection', (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});

const here = path.dirname(new URL(import.meta.url).pathname);
const cdmBin = path.join(here, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');
const pwmBin = path.join(here, 'node_modules/@playwright/mcp/cli.js');

async function connect(name, command, args) {
  const transport = new StdioClientTransport({
    command, args, stderr: 'inherit',
    env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
  });
  transports.push(transport);
  const client = new Client({ name: `host-e2e-${name}`, version: '0.0.0' });
  client.onerror = (err) => {
    if (!client.closing) throw new Error(`${name}: transport error: ${err && err.message ? err.message : err}`);
  };
  await client.connect(transport, { timeout: timeoutMs });
  clients.push(client);
  return client;
}

async function call(client, name, args, wantText) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
  const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  if (res.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text}`);
  if (wantText && !text.includes(wantText)) throw new Error(`${name}: ${JSON.stringify(text.slice(0, 500))} lacks ${wantText}`);
  return res;
}

async function browse(cdm, pwm, round) {
  if (round > 1) {
    // After a restart chrome-devtools-mcp reconnects and says page ids
    // changed, suggesting list_pages: do what an agent does.
    await call(cdm, 'list_pages', {});
  }
  await call(cdm, 'navigate_page', { type: 'url', url: `data:text/html,<h1>cdm ${round}</h1>` });
  await call(cdm, 'take_snapshot', {}, `cdm ${round}`);
  await call(pwm, 'browser_navigate', { url: `data:text/html,<h1>pwm ${round}</h1>` });
  await call(pwm, 'browser_snapshot', {}, `pwm ${round}`);
}

async function main() {
  const [binary, browser, work] = process.argv.slice(2);
  if (!binary || !browser || !work) throw new Error('usage: host_e2e.mjs <cdpvisor> <browser> <work dir>');
  const coordinator = await connect('coordinator', binary, ['mcp', '--browser', browser]);
  const cdm = await connect('chrome-devtools-mcp', binary,
    ['wrap', '--', process.execPath, cdmBin, '--browserUrl={cdp_endpoint}', '--no-usage-statistics', '--no-page-id-routing']);
  const pwm = await connect('playwright-mcp', binary,
    ['wrap', '--', process.execPath, pwmBin, '--cdp-endpoint={cdp_endpoint}', `--output-dir=${work}/pw-out`]);

  await browse(cdm, pwm, 1);
  const status = (await call(coordinator, 'coordinator_status', {})).structuredContent;
  await call(coordinator, 'coordinator_restart_browser', { force: true });
  await browse(cdm, pwm, 2);
  const after = (await call(coordinator, 'coordinator_status', {})).structuredContent;

  // The host goes: the coordinator first (its stdin closes), then the children.
  for (const c of [coordinator, cdm, pwm]) {
    c.closing = true;
    await c.close();
  }
  process.stdout.write(JSON.stringify({ ok: true, status, restart: after }) + '\n');
  process.exit(0);
}

main().catch(async (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  // Close as a host does (stdin first), so the coordinator cleans up.
  for (const c of clients) {
    c.closing = true;
    await c.close().catch(() => {});
  }
  process.exit(1);
});
