// A soak agent that is an AI host driving one child MCP server under
// `cdpvisor wrap --isolate` (a world of its own, by the world's port):
// chrome-devtools-mcp (cdm) or @playwright/mcp (pwm). cdpbench --only
// soak; soak_loop.mjs has the protocol, with the wrap's command line in
// place of the endpoint:
//
//   node soak_mcp.mjs <cdpvisor binary> <site> <loops> <cdm|pwm> <work dir>
//
// Each loop navigates, types and clicks by script, evaluates, takes a
// screenshot (pwm: and opens and closes a second tab). A failed loop is
// tried again on the same MCP server while it lives, as a host does. The
// coordinator is the one wrap finds (CDPVISOR_STATE_DIR).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import { run } from './soak_loop.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const argv = process.argv.slice(2);
const childKind = argv[3];
const workDir = argv[4];
if (childKind !== 'cdm' && childKind !== 'pwm') throw new Error('usage: soak_mcp.mjs <cdpvisor> <site> <loops> <cdm|pwm> <work dir>');

function wrapArgs() {
  if (childKind === 'cdm') {
    return ['wrap', '--isolate', '--', process.execPath, path.join(here, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
      '--browserUrl={cdp_endpoint}', '--no-usage-statistics', '--no-page-id-routing'];
  }
  return ['wrap', '--isolate', '--', process.execPath, path.join(here, 'node_modules/@playwright/mcp/cli.js'),
    '--cdp-endpoint={cdp_endpoint}', `--output-dir=${workDir}`];
}

// How chrome-devtools-mcp and @playwright/mcp answer a call on a page that
// went with the browser: the selected page closed, or (chrome-devtools-mcp,
// its target destroyed before the call) its McpPage disposed.
const pageGone = /has been closed|has already been disposed|Target closed/;

async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 50000 });
  const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  if (res.isError) {
    // The server answering that its page closed is when the host hears it.
    if (pageGone.test(text)) client.goneAt = Date.now();
    throw new Error(`${name}: ${text.slice(0, 200)}`);
  }
  return text;
}

const script = (i) => `() => { const q = document.querySelector('#q'); q.value = 'hello ${i}'; document.querySelector('#b').click(); return document.title; }`;

run({
  connect: async (binary) => {
    const transport = new StdioClientTransport({
      command: binary, args: wrapArgs(), stderr: 'ignore',
      env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
    });
    const client = new Client({ name: `soak-${childKind}`, version: '0.0.0' });
    client.onclose = () => { client.soakClosed = true; };
    await client.connect(transport, { timeout: 50000 });
    // A fresh world has no page: chrome-devtools-mcp navigates only a
    // page it selected.
    if (childKind === 'cdm') await call(client, 'new_page', { url: 'about:blank' });
    return client;
  },
  work: async (client, site, i) => {
    const url = `${site}/page?agent=${childKind}&i=${i}`;
    if (childKind === 'cdm') {
      try {
        await call(client, 'navigate_page', { type: 'url', url });
      } catch (e) {
        // The page it had selected went with a killed browser: as the
        // server's answer advises an agent, it takes another.
        if (!pageGone.test(String(e.message))) throw e;
        await call(client, 'new_page', { url });
      }
      const text = await call(client, 'evaluate_script', { function: script(i) });
      if (!text.includes(`clicked hello ${i}`)) throw new Error(`evaluate_script: ${text.slice(0, 200)}`);
      await call(client, 'take_screenshot', {});
      return;
    }
    await call(client, 'browser_navigate', { url });
    const text = await call(client, 'browser_evaluate', { function: script(i) });
    if (!text.includes(`clicked hello ${i}`)) throw new Error(`browser_evaluate: ${text.slice(0, 200)}`);
    await call(client, 'browser_take_screenshot', { filename: path.join(workDir, 'shot.png') });
    await call(client, 'browser_tabs', { action: 'new', url: `${site}/page?agent=pwm-second&i=${i}` });
    await call(client, 'browser_tabs', { action: 'close' });
  },
  close: async (client) => client.close(),
  // A host keeps its MCP server after a tool failed (a killed browser):
  // the server stays connected through cdpvisor, and its next call works.
  keep: (client) => !client.soakClosed,
});
