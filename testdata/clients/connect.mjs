// How the scripts connect Puppeteer to an endpoint, a world's included.
//
// Puppeteer's connect({browserURL}) fetches new URL('/json/version',
// browserURL): an absolute path, so the /context/NAME of a world's endpoint
// is dropped and the client lands on the whole browser (puppeteer-core
// 24.43, BrowserConnector.js; chrome-devtools-mcp --browserUrl inherits
// it). A world's clients are therefore given the world's websocket, read
// from the world's own /json/version as Playwright reads it; the whole
// browser's endpoint is connected to by browserURL, as before.
export async function connectPuppeteer(puppeteer, endpoint, options = {}) {
  if (new URL(endpoint).pathname.replace(/\/+$/, '') === '') {
    return puppeteer.connect({ browserURL: endpoint, ...options });
  }
  const res = await fetch(endpoint.replace(/\/+$/, '') + '/json/version');
  if (!res.ok) throw new Error(`${endpoint}/json/version: ${res.status} ${await res.text()}`);
  const { webSocketDebuggerUrl } = await res.json();
  return puppeteer.connect({ browserWSEndpoint: webSocketDebuggerUrl, ...options });
}
