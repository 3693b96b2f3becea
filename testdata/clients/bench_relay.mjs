// A plain Node relay, the yardstick of cdpvisor's round trip: a `ws`
// server on loopback that opens one upstream connection per client and
// passes every message on as it came, nothing else.
//
//   node bench_relay.mjs ws://127.0.0.1:PORT/devtools/browser/ID
//
// stdout: one JSON line {"port":N} once it listens. It exits when its
// stdin closes (so it never outlives the bench that started it) or on
// SIGTERM.
import WebSocket, { WebSocketServer } from 'ws';

const upstream = process.argv[2];
if (!upstream) {
  process.stderr.write('usage: bench_relay.mjs <upstream ws url>\n');
  process.exit(1);
}
const maxPayload = 256 << 20;
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload });

server.on('connection', (client) => {
  const up = new WebSocket(upstream, { perMessageDeflate: false, maxPayload });
  const early = []; // what the client sent before upstream was open
  client.on('message', (data, isBinary) => {
    if (up.readyState === WebSocket.OPEN) up.send(data, { binary: isBinary });
    else early.push([data, isBinary]);
  });
  up.on('open', () => {
    for (const [data, isBinary] of early) up.send(data, { binary: isBinary });
    early.length = 0;
  });
  up.on('message', (data, isBinary) => client.send(data, { binary: isBinary }));
  up.on('close', () => client.close());
  up.on('error', () => client.terminate());
  client.on('close', () => up.close());
  client.on('error', () => up.terminate());
});
server.on('listening', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
server.on('error', (err) => {
  process.stderr.write(`bench_relay: ${err.stack || err}\n`);
  process.exit(1);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
