// What the soak agents share (cdpbench --only soak): the arguments, a
// line per loop on stdout, and the retry of a failed loop.
//
//   node soak_<client>.mjs <endpoint> <site> <loops>
//
// stdout, one JSON line each:
//   {"loop":N}                            loop N done
//   {"fail":"msg","loop":N,"t0":ms,"t1":ms,"gone":ms}
//                                         loop N failed between t0 and t1
//                                         (epoch ms); the harness tells a
//                                         request in flight at a kill from
//                                         the rest by those times; gone:
//                                         when the client heard its page
//                                         closed, if after t0 (conn.goneAt)
//   {"done":N}                            every loop done
// A failed loop is tried again on a fresh connection, up to 5 times; an
// agent that says keep(conn) (an AI host: its MCP server lives on) tries
// again on the same one, but for a third failure in a row. After each
// loop the agent pauses $SOAK_THINK_MS (its model thinking). An agent's
// heardGone(error) says whether a failure is itself its client's word that
// the page closed (a client may fail the call under way before it tells of
// the close): then gone is the failure's time, if not heard before.
// Exit codes: 0 done, 1 a loop failed 5 times.

export const args = () => {
  const [endpoint, site, loops] = process.argv.slice(2);
  if (!endpoint || !site || !Number.isInteger(Number(loops))) {
    throw new Error('usage: <endpoint> <site> <loops>');
  }
  return { endpoint, site, loops: Number(loops) };
};

const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');

// within fails a step that does not settle in ms: a stall is a failure.
export function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// mainPage notes on c when its page closes (c.goneAt): a loop that fails
// on a page whose close its client heard only after the loop began was
// in flight at a kill, whatever the kill's time.
export function mainPage(c, page) {
  page.on('close', () => { c.goneAt = Date.now(); });
  c.page = page;
  return c;
}

// run loops work(conn, i) over a connection from connect(); close(conn)
// drops a connection after a failure, unless keep(conn) says it lives on.
export async function run({ connect, work, close, keep = () => false, heardGone = () => false }) {
  const { endpoint, site, loops } = args();
  let conn = null;
  for (let i = 0; i < loops; i++) {
    for (let tries = 1; ; tries++) {
      const t0 = Date.now();
      try {
        if (!conn) {
          const pending = connect(endpoint);
          try {
            conn = await within(60000, pending, 'connect');
          } catch (e) {
            // A connection that comes after its time is closed, not left
            // to attach to the world's pages for the rest of the run.
            pending.then((late) => close(late).catch(() => {}), () => {});
            throw e;
          }
        }
        await within(60000, work(conn, site, i), `loop ${i}`);
        say({ loop: i });
        await new Promise((r) => setTimeout(r, Number(process.env.SOAK_THINK_MS || 0)));
        break;
      } catch (e) {
        const t1 = Date.now();
        let gone = conn && conn.goneAt >= t0 ? conn.goneAt : undefined;
        if (gone === undefined && conn && heardGone(e)) gone = t1;
        say({ fail: String(e && e.message ? e.message : e).slice(0, 300), loop: i, t0, t1, gone });
        if (tries >= 5) process.exit(1);
        if (conn && (tries % 3 === 0 || !keep(conn))) {
          await Promise.race([close(conn).catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
          conn = null;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
  if (conn) await Promise.race([close(conn).catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
  say({ done: loops });
  process.exit(0);
}
