// A soak agent on chrome-remote-interface, on the browser websocket with
// flat sessions (cdpbench --only soak; soak_loop.mjs has the protocol):
// each loop makes a tab, navigates, types, clicks, evaluates, takes a
// screenshot, downloads a file and closes the tab.
import CDP from 'chrome-remote-interface';
import { run } from './soak_loop.mjs';

async function load(client, sessionId, url) {
  const loaded = new Promise((resolve) => client.once(`Page.loadEventFired.${sessionId}`, resolve));
  const nav = await client.Page.navigate({ url }, sessionId);
  if (nav.errorText) throw new Error(`Page.navigate ${url}: ${nav.errorText}`);
  await loaded;
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
    await client.Page.enable(sessionId);
    await load(client, sessionId, `${site}/page?agent=cri&i=${i}`);
    await evaluate(client, sessionId, "document.querySelector('#q').focus()");
    await client.Input.insertText({ text: `hello ${i}` }, sessionId);
    await evaluate(client, sessionId, "document.querySelector('#b').click()");
    const title = await evaluate(client, sessionId, 'document.title');
    if (title !== `clicked hello ${i}`) throw new Error(`title ${JSON.stringify(title)}`);
    await client.Page.captureScreenshot({}, sessionId);
    await evaluate(client, sessionId, "document.querySelector('#dl').click()");
    await client.Target.closeTarget({ targetId });
  },
  close: async (client) => client.close(),
});
