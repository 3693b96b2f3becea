// Drives a stdio MCP server with the official TypeScript MCP SDK (a strict
// client: any non-JSON-RPC line on the server's stdout is an error here).
//
//   node mcp_stdio_check.mjs [--call name=JSON]... -- <cmd> [args...]
//
// Starts <cmd> as an MCP server over stdio (its stderr is inherited, its
// environment is this process's full environment), runs initialize and
// tools/list, then calls each --call tool in order with the given JSON
// arguments (e.g. --call 'browser_snapshot={}'), and closes the client.
//
// stdout: exactly one JSON line on success:
//   {"ok":true,"serverVersion":{"name":..,"version":..},"protocolVersion":..,
//    "tools":[names],"toolDefs":[{"name","title","annotations","inputSchema"}],
//    "toolProblems":[..],
//    "calls":[{"name","isError","text","texts","structuredContent"}]}
// "text" is the text of the first text content item (null if none), "texts"
// every text item. "toolProblems" lists what tools/list gets wrong by the
// MCP spec's tool annotations and the conventions of browser MCP servers:
// a tool without a title, an annotation hint that is not a boolean, an
// input schema that is not an object refusing other keys
// (additionalProperties false), a property without a description, an enum
// value its description does not explain ("value = ..."), and an "id" or
// "instance" property that does not take both a string and a number. A call
// that fails at the protocol level (JSON-RPC error, e.g. unknown tool) is
// recorded as {"name","isError":true,"error":message} and does not stop the run.
// Transport errors (non-JSON-RPC output, server exit, ...) are failures.
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const NAME = 'mcp_stdio_check';
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
let transport;

function killChild() {
  const pid = transport && transport.pid;
  if (pid) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

setTimeout(() => {
  process.stderr.write(`${NAME}: timed out after ${timeoutMs} ms\n`);
  killChild();
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`${NAME}: ${err && err.stack ? err.stack : err}\n`);
  killChild();
  process.exit(1);
}
process.on('unhandledRejection', fail);

function parseArgs(argv) {
  const sep = argv.indexOf('--');
  if (sep < 0 || sep === argv.length - 1) {
    throw new Error('usage: mcp_stdio_check.mjs [--call name=JSON]... -- <cmd> [args...]');
  }
  const opts = argv.slice(0, sep);
  const [command, ...args] = argv.slice(sep + 1);
  const calls = [];
  for (let i = 0; i < opts.length; i++) {
    let spec;
    if (opts[i] === '--call') {
      spec = opts[++i];
    } else if (opts[i].startsWith('--call=')) {
      spec = opts[i].slice('--call='.length);
    } else {
      throw new Error(`unknown option ${JSON.stringify(opts[i])}`);
    }
    const eq = spec === undefined ? -1 : spec.indexOf('=');
    if (eq <= 0) throw new Error(`--call wants name=JSON, got ${JSON.stringify(spec)}`);
    const name = spec.slice(0, eq);
    let callArgs;
    try {
      callArgs = JSON.parse(spec.slice(eq + 1));
    } catch (e) {
      throw new Error(`--call ${name}: arguments are not JSON: ${e.message}`);
    }
    calls.push({ name, args: callArgs });
  }
  return { command, args, calls };
}

// checkTool returns what is wrong with one tool of tools/list.
function checkTool(t) {
  const problems = [];
  const say = (what) => problems.push(`${t.name}: ${what}`);
  const title = t.title || (t.annotations && t.annotations.title);
  if (typeof title !== 'string' || title === '') say('no title');
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
    if (!t.annotations || typeof t.annotations[hint] !== 'boolean') say(`annotation ${hint} is not a boolean`);
  }
  const schema = t.inputSchema || {};
  if (schema.type !== 'object') say(`input schema type ${JSON.stringify(schema.type)}, want "object"`);
  if (schema.additionalProperties !== false) say('input schema does not say additionalProperties: false');
  for (const [name, p] of Object.entries(schema.properties || {})) {
    if (typeof p.description !== 'string' || p.description.trim() === '') {
      say(`property ${name} has no description`);
      continue;
    }
    for (const v of p.enum || []) {
      if (!p.description.includes(`${v} =`)) say(`property ${name}: its description does not explain "${v} = ..."`);
    }
    // An instance reference; download_wait's id is a download's (a string).
    if ((name === 'id' && t.name !== 'download_wait') || name === 'instance') {
      const types = Array.isArray(p.type) ? p.type : [p.type];
      const alts = (p.oneOf || p.anyOf || []).map((s) => s.type);
      const all = [...types, ...alts];
      if (!all.includes('string') || !(all.includes('number') || all.includes('integer'))) {
        say(`property ${name} takes ${JSON.stringify(p.type ?? alts)}, want a string or a number`);
      }
    }
  }
  return problems;
}

async function main() {
  const { command, args, calls } = parseArgs(process.argv.slice(2));

  transport = new StdioClientTransport({
    command,
    args,
    env: { ...process.env },
    stderr: 'inherit',
  });
  // The stdio transport has no protocol-version hook; add one so the version
  // the SDK negotiated during initialize can be reported.
  let protocolVersion = null;
  transport.setProtocolVersion = (v) => {
    protocolVersion = v;
  };
  const client = new Client({ name: 'cdpvisor-mcp-stdio-check', version: '0.0.0' });

  let closing = false;
  // Any transport-level error (e.g. a non-JSON-RPC line on the server's
  // stdout) is fatal: the SDK would otherwise drop the line and carry on.
  client.onerror = (err) => {
    if (closing) return;
    fail(new Error(`transport error: ${err && err.message ? err.message : err}`));
  };
  client.onclose = () => {
    if (closing) return;
    fail(new Error('server closed the connection (process exited?)'));
  };

  await client.connect(transport, { timeout: timeoutMs });
  const serverVersion = client.getServerVersion() ?? null;

  const tools = [];
  const toolDefs = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const t of page.tools) {
      tools.push(t.name);
      toolDefs.push({
        name: t.name,
        title: t.title ?? null,
        annotations: t.annotations ?? null,
        inputSchema: t.inputSchema,
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  const toolProblems = toolDefs.flatMap(checkTool);

  const results = [];
  for (const { name, args: callArgs } of calls) {
    try {
      const res = await client.callTool({ name, arguments: callArgs }, undefined, { timeout: timeoutMs });
      const texts = (res.content || []).filter((c) => c && c.type === 'text').map((c) => c.text);
      results.push({
        name,
        isError: !!res.isError,
        text: texts.length > 0 ? texts[0] : null,
        texts,
        structuredContent: res.structuredContent ?? null,
      });
    } catch (err) {
      results.push({ name, isError: true, error: err && err.message ? err.message : String(err) });
    }
  }

  closing = true;
  await client.close();
  process.stdout.write(
    JSON.stringify({ ok: true, serverVersion, protocolVersion, tools, toolDefs, toolProblems, calls: results }) +
      '\n',
  );
  process.exit(0);
}

main().catch(fail);
