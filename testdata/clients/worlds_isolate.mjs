// Acts as an AI host whose child MCPs each get a world of their own:
//   cdpvisor mcp                                                          (the coordinator)
//   cdpvisor wrap --isolate -- chrome-devtools-mcp --browserUrl={cdp_endpoint}    (twice; the world's own port)
//   cdpvisor wrap --isolate -- @playwright/mcp --cdp-endpoint={cdp_endpoint}
//   cdpvisor wrap --isolate=pw-named -- @playwright/mcp --cdp-endpoint={cdp_endpoint}
//
//   node worlds_isolate.mjs <cdpvisor binary> <browser> <work dir>
//
// The four children start at once; each opens a page of its own marker and
// lists its pages: it must see its own and none of the others'. The
// coordinator's browser_context list and coordinator_status show four
// worlds. Then the children go: the three fresh worlds are closed, the
// named one stays, and a new child in it finds its page. The environment's
// CDPVISOR_STATE_DIR is used by every cdpvisor process.
// stdout: one JSON line {"ok":true,"worlds":[...],"status":{...},"left":[...]}.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 timeout (CLIENT_TIMEOUT_MS).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';

const NAME = 'worlds_isolate';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 180000;
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
  const client = new Client({ name: `${NAME}-${name}`, version: '0.0.0' });
  client.onerror = (err) => {
    if (!client.closing) throw new Error(`${name}: transport error: ${err && err.message ? err.message : err}`);
  };
  await client.connect(transport, { timeout: timeoutMs });
  client.label = name;
  clients.push(client);
  return client;
}

async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 90000 });
  const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  if (res.isError) throw new Error(`${client.label}: ${name} ${JSON.stringify(args)} failed: ${text}`);
  return { res, text };
}

async function close(c) {
  c.closing = true;
  await c.close();
}

const page = (marker) => `data:text/html,<title>${marker}</title><h1>${marker}</h1>`;

// A child's own page, then its list of pages.
async function browse(child) {
  if (child.kind === 'cdm') {
    await call(child.client, 'new_page', { url: page(child.marker) });
    return (await call(child.client, 'list_pages', {})).text;
  }
  await call(child.client, 'browser_navigate', { url: page(child.marker) });
  return (await call(child.client, 'browser_tabs', { action: 'list' })).text;
}

function wrapArgs(kind, isolate, work, marker) {
  if (kind === 'cdm') {
    return ['wrap', isolate, '--', process.execPath, cdmBin, '--browserUrl={cdp_endpoint}', '--no-usage-statistics', '--no-page-id-routing'];
  }
  return ['wrap', isolate, '--', process.execPath, pwmBin, '--cdp-endpoint={cdp_endpoint}', `--output-dir=${work}/${marker}`];
}

async function worldsOf(coordinator) {
  return (await call(coordinator, 'browser_context', { action: 'list' })).res.structuredContent.worlds;
}

async function main() {
  const [binary, browser, work] = process.argv.slice(2);
  if (!binary || !browser || !work) throw new Error('usage: worlds_isolate.mjs <cdpvisor> <browser> <work dir>');
  const coordinator = await connect('coordinator', binary, ['mcp', '--browser', browser]);
  const plan = [
    { kind: 'cdm', isolate: '--isolate', marker: 'cdm-one' },
    { kind: 'cdm', isolate: '--isolate', marker: 'cdm-two' },
    { kind: 'pwm', isolate: '--isolate', marker: 'pwm-one' },
    { kind: 'pwm', isolate: '--isolate=pw-named', marker: 'pwm-named' },
  ];
  const children = await Promise.all(plan.map(async (p) =>
    ({ ...p, client: await connect(p.marker, binary, wrapArgs(p.kind, p.isolate, work, p.marker)) })));

  // All four at once: each sees its own page and none of the others'.
  const lists = await Promise.all(children.map(browse));
  children.forEach((child, i) => {
    if (!lists[i].includes(child.marker)) throw new Error(`${child.marker} does not see its own page: ${lists[i]}`);
    for (const other of children) {
      if (other !== child && lists[i].includes(other.marker)) {
        throw new Error(`${child.marker} sees ${other.marker}'s page: ${lists[i]}`);
      }
    }
  });
  const worlds = await worldsOf(coordinator);
  const status = (await call(coordinator, 'coordinator_status', {})).res.structuredContent;

  // The children go: the fresh worlds are closed once their wraps end, the
  // named one stays.
  for (const child of children) await close(child.client);
  let left = await worldsOf(coordinator);
  for (const end = Date.now() + 15000; left.length !== 1 && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 200));
    left = await worldsOf(coordinator);
  }
  if (left.length !== 1 || left[0].name !== 'pw-named') {
    throw new Error(`worlds after the children ended: ${JSON.stringify(left)}, want pw-named alone`);
  }
  // A new child in the named world finds its page.
  const again = await connect('pwm-named-again', binary, wrapArgs('pwm', '--isolate=pw-named', work, 'pwm-named-again'));
  const tabs = (await call(again, 'browser_tabs', { action: 'list' })).text;
  if (!tabs.includes('pwm-named')) throw new Error(`the named world's new child does not find its page: ${tabs}`);
  await close(again);

  await close(coordinator);
  process.stdout.write(JSON.stringify({ ok: true, worlds, status, left }) + '\n');
  process.exit(0);
}

main().catch(async (e) => {
  process.stderr.write(`${NAME}: ${e && e.stack ? e.stack : e}\n`);
  for (const c of clients) {
    c.closing = true;
    await c.close().catch(() => {});
  }
  process.exit(1);
});
