// A raw CDP client on the browser websocket: the `ws` package, flat
// sessions, and nothing a library would add (no Target.setAutoAttach, no
// discovery). Issue 33's bystander: before the fix, the relay's recovery
// gave such a client an auto-attach of its own that held every new page of
// the relaunched browser, whoever made it.
import WebSocket from 'ws';

export class RawCDP {
  #ws;
  #nextId = 1;
  #pending = new Map();
  closed = false;
  // held counts the pages attached to this client waiting for a debugger:
  // it never asked for auto-attach, so any is the relay's doing.
  held = 0;

  static async connect(url) {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new RawCDP(ws);
  }

  constructor(ws) {
    this.#ws = ws;
    ws.on('message', (data) => this.#receive(JSON.parse(data.toString())));
    ws.on('close', () => {
      this.closed = true;
      for (const { reject } of this.#pending.values()) reject(new Error('raw CDP client: websocket closed'));
      this.#pending.clear();
    });
  }

  #receive(msg) {
    if (msg.method === 'Target.attachedToTarget' && msg.params.waitingForDebugger) this.held++;
    if (msg.id === undefined) return;
    const call = this.#pending.get(msg.id);
    if (!call) return;
    this.#pending.delete(msg.id);
    if (msg.error) call.reject(new Error(`${call.method}: ${JSON.stringify(msg.error)}`));
    else call.resolve(msg.result);
  }

  // send resolves with the command's result; on a session when sessionId is given.
  send(method, params = {}, sessionId) {
    const id = this.#nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { method, resolve, reject });
      this.#ws.send(JSON.stringify(msg));
    });
  }

  close() {
    this.#ws.close();
  }
}
