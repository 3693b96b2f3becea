// A soak agent on chrome-remote-interface, on the browser websocket with
// flat sessions (cdpbench --only soak; soak_loop.mjs has the protocol):
// each loop makes a tab, navigates, types, clicks, evaluates, takes a
// screenshot, downloads a file and closes the tab.
import CDP from 'chrome-remote-interface';
import { run } from './soak_loop.mjs';

// load navigates and waits for the load event, or the tab's end (gone):
// a page that died fires none.
async function load(client, sessionId, url, gone) {
  const loaded = new Promise((resolve) => client.once(`Page.loadEventFired.${sessionId}`, resolve));
  const nav = await client.Page.navigate({ url }, sessionId);
  if (nav.errorText) throw new Error(`Page.navigate ${url}: ${nav.errorText}`);
  await Promise.race([loaded, gone]);
}

const evaluate = async (client, sessionId, expression) =>
  (await client.Runtime.evaluate({ expression, returnByValue: true, awaitPromise: true }, sessionId)).result.value;

run({
  connect: async (endpoint) => {
    const version = await (await fetch(`${endpoint}/json/version`)).json();
    return CDP({ target: version.webSocketDebuggerUrl });
  },
  work: async (client, site, i) => {
    const { targetId } = await client.Target.createTarget({ url: 'about:blank' });
    const { sessionId } = await client.Target.attachToTarget({ targetId, flatten: true });
    // When the tab's session ends (a kill took it), the client heard its page go.
    let tabGone;
    const gone = new Promise((_, reject) => { tabGone = reject; });
    gone.catch(() => {});
    const detached = (p) => {
      if (p.sessionId !== sessionId) return;
      client.goneAt = Date.now();
      tabGone(new Error('the tab was detached: its page is gone'));
    };
    client.on('Target.detachedFromTarget', detached);
    try {
      await client.Page.enable(sessionId);
      await load(client, sessionId, `${site}/page?agent=cri&i=${i}`, gone);
      await evaluate(client, sessionId, "document.querySelector('#q').focus()");
      await client.Input.insertText({ text: `hello ${i}` }, sessionId);
      await evaluate(client, sessionId, "document.querySelector('#b').click()");
      const title = await evaluate(client, sessionId, 'document.title');
      if (title !== `clicked hello ${i}`) throw new Error(`title ${JSON.stringify(title)}`);
      await client.Page.captureScreenshot({}, sessionId);
      await evaluate(client, sessionId, "document.querySelector('#dl').click()");
      await client.Target.closeTarget({ targetId });
    } finally {
      client.removeListener('Target.detachedFromTarget', detached);
    }
  },
  close: async (client) => client.close(),
});
