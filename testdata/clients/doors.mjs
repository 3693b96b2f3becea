// The doors of a guarded world out to the machine (issue 47), tried by a
// client through an adapter of its own (doors_puppeteer.mjs,
// doors_playwright.mjs): the same tries, each made the way that client
// makes it (its goto, its upload, its CDP sessions).
// testdata/goclients/cmd/chromedp_doors makes the same tries, by the same
// names, with chromedp; cmd/cdpvisor/doors_e2e_test.go judges them.
//
// An adapter has:
//   newPage()                  a new page of the world (the client's own)
//   goto(page, url)            the client's navigation (Page.navigate)
//   evaluate(page, fn, arg)    the client's evaluate
//   click(page, selector)      the client's click (Input.dispatchMouseEvent)
//   upload(page, sel, path)    the client's file upload (DOM.setFileInputFiles)
//   pageSend(page, m, params)  a CDP command on the page's session
//   browserSend(m, params)     a CDP command on the browser's session
//   onBrowserEvent(m, fn)      a browser session's event
//   console                    the messages the world's pages logged so far
//                              (Chromium's "Not allowed to load local resource" among them)
//   frames(page)               the page's frames (each with url() and evaluate(fn))
//   frameText(frame)           a frame's document as text, as the client reads it
//   targetId(page)             the page's target id
//   pageURL(page)              the page's URL as the client knows it
//   pages()                    the world's pages, as the client knows them
//   close(page)                closes a page
//   clientUpload(page, sel, p) optional: the client's own upload when it is not
//                              DOM.setFileInputFiles (Playwright's setInputFiles)
//
// Each try gives a record:
//   {result: 'refused'|'error'|'ok', error, leak, urls, read, console}
// 'refused': an error of cdpvisor's wall ("… is refused in world …");
// 'error': any other error (Chromium's, the client's); leak: the secret
// file's marker was in something the client read during the try (an answer,
// an error, a page's or a frame's text after it); urls: every target of the
// world (Target.getTargets) and every frame of the page after the try; read:
// the first bytes of what was read, and what the pages logged, for the
// report.
import WebSocket from 'ws';
import { within } from './cycles.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// settle is how long a renderer's try is given to load something.
const settle = 1500;

// frames are the page's frames as the client reads them: each one's URL,
// its document's location (href) and its document as text.
async function frames(a, page) {
  const out = [];
  for (const f of a.frames(page)) {
    const text = await within(1000, a.frameText(f), 'frame text').catch((e) => '(unread: ' + String(e.message).split('\n')[0] + ')');
    const href = await within(1000, f.evaluate(() => location.href), 'frame location').catch(() => '');
    out.push({ url: f.url(), href, text });
  }
  return out;
}

// readAll is what a page and its frames show, as text (each frame's
// document, and the page's URL): what a client could read.
async function readAll(a, page) {
  let text = '';
  const urls = [];
  const failed = []; // frames showing Chromium's error page for a load that failed: at no document of that URL
  try {
    for (const f of await within(10000, frames(a, page), 'frames')) {
      if ((f.href || '').startsWith('chrome-error:')) {
        failed.push(f.url);
        urls.push(`chrome-error (a failed load of ${f.url})`);
      } else {
        urls.push(f.url);
      }
      text += `\n[${f.url}] ${f.text}`;
    }
  } catch (e) {
    text += '\n(frames: ' + e.message + ')';
  }
  try {
    // The URLs whose loads failed, as the browser says (the page's target
    // keeps such a URL while its frame shows the error page).
    const { frameTree } = await within(5000, a.pageSend(page, 'Page.getFrameTree', {}), 'frame tree');
    const walk = (t) => {
      if (t.frame.unreachableUrl) failed.push(t.frame.unreachableUrl);
      (t.childFrames || []).forEach(walk);
    };
    walk(frameTree);
  } catch (e) {
    text += '\n(frame tree: ' + e.message + ')';
  }
  return { text, urls, failed };
}

// worldURLs are the URLs of every target of the world.
async function worldURLs(a) {
  try {
    const { targetInfos } = await within(10000, a.browserSend('Target.getTargets', {}), 'Target.getTargets');
    return targetInfos.map((t) => t.url);
  } catch (e) {
    return ['(Target.getTargets: ' + e.message + ')'];
  }
}

function message(e) {
  return String((e && e.message) || e).split('\n')[0];
}

// doorsOptions reads a doors client's command line: <endpoint> <site>
// <secret> <marker> [--upload=F] [--downloads=D] [--whole=E] [--only=…].
export function doorsOptions(name, argv) {
  const flags = {};
  const rest = [];
  for (const arg of argv) {
    const m = /^--([a-z]+)=(.*)$/.exec(arg);
    if (m) flags[m[1]] = m[2];
    else rest.push(arg);
  }
  const [endpoint, site, secret, marker] = rest;
  if (!endpoint || !site || !secret || !marker) {
    throw new Error(`usage: ${name} <endpoint> <site> <secret> <marker> [--upload=F] [--downloads=D] [--whole=E] [--only=…]`);
  }
  return { endpoint, site, secret, marker, upload: flags.upload, downloads: flags.downloads, whole: flags.whole, only: flags.only?.split(',') };
}

// runDoors tries every door and answers {doors: {name: record}, pages: [urls]}.
// opts: site (A's page URL, allowed by the policy), secret (the file's
// path), marker (its text), upload (a file in the world's uploads folder),
// downloads (a folder of the client's own), whole (the whole browser's
// endpoint, to plant a history entry), only (doors' names: those alone).
export async function runDoors(a, opts) {
  const { site, secret, marker } = opts;
  const fileURL = 'file://' + secret;
  const pageA = site + (site.includes('?') ? '&' : '?') + 'f=' + encodeURIComponent(fileURL);
  const doors = {};
  const wanted = (name) => !opts.only || opts.only.includes(name);
  // The pages there before the runner came stay (on the whole browser's
  // endpoint, other worlds' pages); the pages its tries opened are closed
  // before each try.
  const before = new Set(await a.pages());
  const page = await a.newPage();
  const closeOthers = async () => {
    for (const p of await a.pages()) {
      if (p !== page && !before.has(p)) await a.close(p).catch(() => {});
    }
  };

  // attempt runs one door: body(page) answers what it read (any value);
  // after(page), if given, reads more once the try is over (its error too).
  async function attempt(name, body, { fresh = true, after } = {}) {
    if (!wanted(name)) return;
    if (fresh) {
      await closeOthers();
      await within(20000, a.goto(page, pageA), `${name}: goto A`);
    }
    const rec = { result: 'ok', error: '', leak: false, urls: [], read: '', console: [] };
    const logged = a.console.length;
    let got = '';
    try {
      const v = await within(30000, body(page), name);
      got = typeof v === 'string' ? v : JSON.stringify(v ?? null);
    } catch (e) {
      rec.error = message(e);
      rec.result = rec.error.includes('is refused in world') ? 'refused' : 'error';
      got = String((e && e.stack) || e);
    }
    await sleep(200);
    if (after) got += ' after: ' + (await after(page).catch((e) => message(e)));
    const seen = await readAllPages(a);
    // A target's URL is its error page's failed URL too: not a document of it.
    const shown = (u) => !seen.failed.includes(u);
    rec.urls = [...new Set([...(await worldURLs(a)).filter(shown), ...seen.urls, a.pageURL(page)].filter((u) => u === undefined || shown(u)))];
    rec.leak = (got + seen.text).includes(marker);
    rec.read = got.slice(0, 400);
    rec.console = a.console.slice(logged, logged + 5).map((m) => m.slice(0, 200));
    doors[name] = rec;
  }

  // Navigations the client asks for.
  const gotos = {
    'goto file': fileURL,
    'goto FILE upper case': 'FILE://' + secret,
    'goto view-source file': 'view-source:' + fileURL,
    'goto chrome://version': 'chrome://version',
    'goto about:version': 'about:version',
    'goto chrome-untrusted': 'chrome-untrusted://print/',
    'goto devtools': 'devtools://devtools/bundled/inspector.html',
    'goto filesystem file': 'filesystem:' + fileURL,
    'goto chrome-extension': 'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html',
  };
  for (const [name, url] of Object.entries(gotos)) {
    await attempt(name, async (p) => {
      await a.goto(p, url);
      return (await readAll(a, p)).text;
    });
  }

  // Raw CDP: the browser's session and the page's.
  for (const [name, url] of [['Target.createTarget file', fileURL], ['Target.createTarget chrome://version', 'chrome://version']]) {
    await attempt(name, async () => {
      const { targetId } = await a.browserSend('Target.createTarget', { url });
      await sleep(settle);
      return 'made ' + targetId;
    });
  }
  await attempt('Network.loadNetworkResource file', async (p) => {
    const { frameTree } = await a.pageSend(p, 'Page.getFrameTree', {});
    const { resource } = await a.pageSend(p, 'Network.loadNetworkResource', {
      frameId: frameTree.frame.id, url: fileURL, options: { disableCache: true, includeCredentials: false },
    });
    let body = '';
    if (resource.stream) {
      for (;;) {
        const chunk = await a.pageSend(p, 'IO.read', { handle: resource.stream });
        body += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
        if (chunk.eof) break;
      }
      await a.pageSend(p, 'IO.close', { handle: resource.stream });
    }
    return JSON.stringify(resource) + ' ' + body;
  });
  await attempt('/json/new file', async () => {
    const res = await fetch(opts.endpoint.replace(/\/+$/, '') + '/json/new?' + fileURL, { method: 'PUT' });
    const text = await res.text();
    if (!res.ok) throw new Error(`/json/new: ${res.status} ${text}`);
    await sleep(settle);
    return text;
  });

  // A history entry at the file, planted by the whole browser's client
  // (the owner): the world's client asks for it by Page.navigateToHistoryEntry,
  // and a page script by history.back().
  if (opts.whole && (wanted('Page.navigateToHistoryEntry file') || wanted('history.back into a planted file entry'))) {
    await closeOthers();
    await a.goto(page, pageA);
    await plant(opts.whole, await a.targetId(page), [fileURL, pageA]);
    await attempt('Page.navigateToHistoryEntry file', async (p) => {
      const { entries } = await a.pageSend(p, 'Page.getNavigationHistory', {});
      const entry = entries.find((e) => e.url.startsWith('file:'));
      if (!entry) throw new Error('no file: entry was planted: ' + entries.map((e) => e.url).join(' '));
      await a.pageSend(p, 'Page.navigateToHistoryEntry', { entryId: entry.id });
      await sleep(settle);
      return (await readAll(a, p)).text;
    }, { fresh: false });
    await a.goto(page, pageA);
    await plant(opts.whole, await a.targetId(page), [fileURL, pageA]);
    await attempt('history.back into a planted file entry', async (p) => {
      await a.evaluate(p, () => { setTimeout(() => history.back()); });
      await sleep(settle);
      return (await readAll(a, p)).text;
    }, { fresh: false });
  }

  // From A's page, as its own scripts would.
  await attempt('iframe file', async (p) => {
    await a.evaluate(p, (u) => {
      const f = document.createElement('iframe');
      f.src = u;
      document.body.append(f);
    }, fileURL);
    await sleep(settle);
    return (await readAll(a, p)).text;
  });
  await attempt('data: page iframe file', async (p) => {
    await a.goto(p, 'data:text/html,' + encodeURIComponent(`<p>data page</p><iframe src="${fileURL}"></iframe>`));
    await sleep(settle);
    return (await readAll(a, p)).text;
  });
  await attempt('data: iframe in A with iframe file', async (p) => {
    await a.evaluate(p, (u) => {
      const f = document.createElement('iframe');
      f.src = 'data:text/html,' + encodeURIComponent(`<p>data frame</p><iframe src="${u}"></iframe>`);
      document.body.append(f);
    }, fileURL);
    await sleep(settle);
    return (await readAll(a, p)).text;
  });
  await attempt('window.open file', async (p) => {
    // A's own URL opened beside it shows that the page may open windows.
    const r = await a.evaluate(p, ([u, ok]) => [u, ok].map((x) => (window.open(x) ? 'opened ' : 'not opened ') + x).join('; '), [fileURL, site + '#opened']);
    await sleep(settle);
    return r + (await readAllPages(a)).text;
  });
  await attempt('popup target=_blank file', async (p) => {
    await a.click(p, '#pop');
    await sleep(settle);
    return (await readAllPages(a)).text;
  });
  await attempt('location.href file', async (p) => {
    await a.evaluate(p, (u) => { location.href = u; }, fileURL);
    await sleep(settle);
    return (await readAll(a, p)).text;
  });
  await attempt('history.back after a refused file navigation', async () => {
    // A page of its own: its history is about:blank, then A.
    const q = await a.newPage();
    await a.goto(q, pageA);
    let refused = '';
    try {
      await a.goto(q, fileURL);
    } catch (e) {
      refused = message(e);
    }
    await a.evaluate(q, () => { setTimeout(() => history.back()); });
    await sleep(settle);
    return refused + (await readAll(a, q)).text;
  });
  await attempt('service worker fetch file', async (p) => a.evaluate(p, async (u) => {
    const reg = await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    const answer = new Promise((resolve) => navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data), { once: true }));
    (reg.active || reg.waiting || reg.installing).postMessage(u);
    return answer;
  }, fileURL));

  // Files handed to a page.
  const inputFiles = (p) => a.evaluate(p, async () => {
    const out = [];
    for (const f of document.querySelector('#f').files) out.push(f.name + ': ' + (await f.text()));
    return out.join('\n');
  });
  await attempt('DOM.setFileInputFiles secret', async (p) => {
    await a.upload(p, '#f', secret);
    return 'uploaded';
  }, { after: inputFiles });
  if (opts.upload) {
    await attempt('DOM.setFileInputFiles uploads', async (p) => {
      await a.upload(p, '#f', opts.upload);
      return 'uploaded';
    }, { after: inputFiles });
  }
  if (a.clientUpload) {
    // Not DOM.setFileInputFiles: the client reads the file itself and hands
    // the page its bytes (Playwright over connectOverCDP).
    await attempt('client upload secret', async (p) => {
      await a.clientUpload(p, '#f', secret);
      return 'uploaded';
    }, { after: inputFiles });
  }

  // The raw protocol: a channel to the browser the wall would not see.
  await attempt('Target.exposeDevToolsProtocol hidden', async () => {
    const { targetId } = await a.browserSend('Target.createTarget', { url: 'about:blank', hidden: true });
    try {
      await a.browserSend('Target.exposeDevToolsProtocol', { targetId, bindingName: 'cdp' });
      return 'exposed on ' + targetId;
    } finally {
      await a.browserSend('Target.closeTarget', { targetId }).catch(() => {});
    }
  });
  await attempt('Target.sendMessageToTarget', async (p) => {
    const targetId = await a.targetId(p);
    const r = await a.browserSend('Target.sendMessageToTarget', {
      targetId, message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: '1' } }),
    });
    return JSON.stringify(r);
  });

  // A download with a folder of the client's own.
  if (opts.downloads) {
    await attempt('download', async (p) => {
      const done = new Promise((resolve) => a.onBrowserEvent('Browser.downloadProgress', (e) => {
        if (e.state !== 'inProgress') resolve(e.state);
      }));
      await a.browserSend('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: opts.downloads, eventsEnabled: true });
      await a.click(p, '#dl');
      return 'download ' + (await within(15000, done, 'the download'));
    });
    // The page's own (deprecated) setting, on its session: no events tell
    // the client where the file went; the test looks.
    await attempt('download by Page.setDownloadBehavior', async (p) => {
      await a.pageSend(p, 'Page.setDownloadBehavior', { behavior: 'allow', downloadPath: opts.downloads });
      await a.click(p, '#dl2');
      await sleep(2000);
      return 'clicked';
    });
  }

  await closeOthers();
  const pages = await worldURLs(a);
  await a.close(page).catch(() => {});
  return { doors, pages };
}

// setFileInputFiles hands the page's input sel the file at path by
// DOM.setFileInputFiles, on the page's CDP session.
export async function setFileInputFiles(a, page, sel, path) {
  const { result } = await a.pageSend(page, 'Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(sel)})` });
  await a.pageSend(page, 'DOM.setFileInputFiles', { files: [path], objectId: result.objectId });
}

// readAllPages is what every page of the world shows (a popup's too).
async function readAllPages(a) {
  let text = '';
  const urls = [];
  const failed = [];
  for (const p of await within(10000, a.pages(), 'pages')) {
    const seen = await readAll(a, p);
    text += seen.text;
    urls.push(...seen.urls);
    failed.push(...seen.failed);
  }
  return { text, urls, failed };
}

// plant navigates the world's page targetId through the whole browser's
// endpoint (the owner's client) to each url in turn, so that its history
// holds them.
export async function plant(whole, targetId, urls) {
  const res = await fetch(whole.replace(/\/+$/, '') + '/json/version');
  const { webSocketDebuggerUrl } = await res.json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  const waiting = new Map();
  const loaded = [];
  ws.on('message', (data) => {
    const m = JSON.parse(data);
    if (m.id !== undefined && waiting.has(m.id)) {
      waiting.get(m.id)(m);
      waiting.delete(m.id);
    }
    if (m.method === 'Page.loadEventFired') loaded.shift()?.();
  });
  const send = (method, params = {}, sessionId) => {
    const i = ++id;
    ws.send(JSON.stringify({ id: i, method, params, sessionId }));
    return within(10000, new Promise((resolve) => waiting.set(i, resolve)), `plant: ${method}`).then((m) => {
      if (m.error) throw new Error(`plant: ${method}: ${m.error.message}`);
      return m.result;
    });
  };
  try {
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    await send('Page.enable', {}, sessionId);
    for (const url of urls) {
      const load = within(10000, new Promise((resolve) => loaded.push(resolve)), `plant: load ${url}`);
      await send('Page.navigate', { url }, sessionId);
      await load;
    }
    await send('Target.detachFromTarget', { sessionId });
  } finally {
    ws.close();
  }
}
