// Connects chrome-remote-interface to a CDP endpoint as its README does,
// CDP({host, port}): it GETs /json/protocol (the schema it builds its API
// from), then /json/list, then opens the first page's websocket. Then one
// evaluation on that page.
//
//   node cri_protocol.mjs <http://127.0.0.1:PORT>
//
// stdout: exactly one JSON line on success:
//   {"ok":true,"result":2,"protocol":"1.3","domains":N}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import CDP from 'chrome-remote-interface';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
setTimeout(() => {
  process.stderr.write(`cri_protocol: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`cri_protocol: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const endpoint = process.argv[2];
  if (!endpoint) throw new Error('usage: cri_protocol.mjs <http://127.0.0.1:PORT>');
  const { hostname: host, port } = new URL(endpoint);
  const protocol = await CDP.Protocol({ host, port }); // what CDP() fetches first
  const client = await CDP({ host, port });
  try {
    const { result, exceptionDetails } = await client.Runtime.evaluate({ expression: '1+1' });
    if (exceptionDetails) throw new Error(`Runtime.evaluate: ${JSON.stringify(exceptionDetails)}`);
    process.stdout.write(JSON.stringify({
      ok: true,
      result: result.value,
      protocol: `${protocol.version.major}.${protocol.version.minor}`,
      domains: protocol.domains.length,
    }) + '\n');
  } finally {
    await client.close();
  }
}

main().then(() => process.exit(0), fail);
