// The round-trip benchmark's client, in Node like Puppeteer, Playwright and
// the MCP servers that connect to cdpvisor: sequential Runtime.evaluate "1"
// on one flattened session per side, the sides interleaved in slices so
// that drift and noise hit each of them alike.
//
//   node bench_roundtrip.mjs '<json>'
//
// json: {"sides":[{"name":"direct","ws":"ws://…"},…], "target":"<targetId>",
//        "rounds":3, "calls":2000, "slice":100, "warmup":200}
// calls is per side and round. A side may name its own "target" (a page of
// another browser); the others attach to "target". stdout: one JSON line
//   {"sides":{"direct":[µs, …], …}}
// with every call's latency in microseconds, in the order they were made.
// Exit codes: 0 ok, 1 failure (error on stderr).
import WebSocket from 'ws';

function fail(err) {
  process.stderr.write(`bench_roundtrip: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

// Side is one connection: requests by id, answers matched to them.
class Side {
  constructor(name, url, target) {
    this.name = name;
    this.url = url;
    this.target = target;
    this.nextId = 1;
    this.waiting = new Map();
    this.latencies = [];
  }

  open() {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(this.url, { perMessageDeflate: false, maxPayload: 256 << 20 });
      this.ws.on('open', resolve);
      this.ws.on('error', reject);
      this.ws.on('close', (code, reason) => {
        for (const { reject: r } of this.waiting.values()) r(new Error(`${this.name}: closed ${code} ${reason}`));
        this.waiting.clear();
      });
      this.ws.on('message', (data) => {
        const msg = JSON.parse(data);
        const w = msg.id !== undefined && this.waiting.get(msg.id);
        if (!w) return; // an event
        this.waiting.delete(msg.id);
        if (msg.error) w.reject(new Error(`${this.name}: ${JSON.stringify(msg.error)}`));
        else w.resolve(msg.result);
      });
    });
  }

  call(method, params, sessionId) {
    const id = this.nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(msg));
    });
  }

  async attach(targetId) {
    const r = await this.call('Target.attachToTarget', { targetId, flatten: true });
    this.session = r.sessionId;
  }

  // evaluate is the measured unit.
  async evaluate(record) {
    const t0 = process.hrtime.bigint();
    await this.call('Runtime.evaluate', { expression: '1' }, this.session);
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (record) this.latencies.push(us);
  }

  close() {
    this.ws.close();
  }
}

async function main() {
  const cfg = JSON.parse(process.argv[2] || 'null');
  if (!cfg || !Array.isArray(cfg.sides) || !cfg.sides.every((s) => s.target || cfg.target)) {
    throw new Error("usage: bench_roundtrip.mjs '{\"sides\":[…],\"target\":…}'");
  }
  const sides = cfg.sides.map((s) => new Side(s.name, s.ws, s.target || cfg.target));
  for (const s of sides) {
    await s.open();
    await s.attach(s.target);
  }
  for (const s of sides) for (let i = 0; i < (cfg.warmup ?? 200); i++) await s.evaluate(false);
  // Each round: every side makes `calls` calls, `slice` at a time, sides in
  // turn; the order of the sides rotates from round to round.
  for (let round = 0; round < cfg.rounds; round++) {
    for (let done = 0; done < cfg.calls; done += cfg.slice) {
      const n = Math.min(cfg.slice, cfg.calls - done);
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(k + round) % sides.length];
        for (let i = 0; i < n; i++) await s.evaluate(true);
      }
    }
  }
  for (const s of sides) {
    await s.call('Target.detachFromTarget', { sessionId: s.session }).catch(() => {});
    s.close();
  }
  const out = { sides: {} };
  for (const s of sides) out.sides[s.name] = s.latencies.map((v) => Math.round(v * 10) / 10);
  return JSON.stringify(out) + '\n';
}

// A pipe takes stdout asynchronously: exit once all of it is written.
main().then((out) => process.stdout.write(out, () => process.exit(0)), fail);
