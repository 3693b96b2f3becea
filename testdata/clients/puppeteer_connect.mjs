// Connects puppeteer-core to a CDP endpoint the way real users do and runs one
// evaluation in a fresh page.
//
//   node puppeteer_connect.mjs <http://127.0.0.1:PORT> [--ws] [--token=T | --token-query=T]
//
// Default: puppeteer.connect({browserURL}) (puppeteer itself GETs /json/version).
// --ws:    GET <endpoint>/json/version here, then connect({browserWSEndpoint}).
// --token=T: --ws with Authorization: Bearer T on both (an endpoint beyond loopback).
// --token-query=T: --ws with ?token=T on /json/version, then its URL as given.
//
// stdout: exactly one JSON line on success:
//   {"ok":true,"result":2,"wsEndpoint":"ws://..."}
// Exit codes: 0 ok, 1 failure (error on stderr), 2 overall timeout
// (env CLIENT_TIMEOUT_MS, default 30000).
import puppeteer from 'puppeteer-core';

const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS) || 30000;
setTimeout(() => {
  process.stderr.write(`puppeteer_connect: timed out after ${timeoutMs} ms\n`);
  process.exit(2);
}, timeoutMs);

function fail(err) {
  process.stderr.write(`puppeteer_connect: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

async function main() {
  const args = process.argv.slice(2);
  const token = (args.find((a) => a.startsWith('--token=')) || '').slice('--token='.length);
  const tokenQuery = (args.find((a) => a.startsWith('--token-query=')) || '').slice('--token-query='.length);
  const useWS = args.includes('--ws') || token !== '' || tokenQuery !== '';
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const endpoint = args.find((a) => !a.startsWith('--'));
  if (!endpoint) throw new Error('usage: puppeteer_connect.mjs <endpoint> [--ws]');

  let browser;
  if (useWS) {
    const url = endpoint.replace(/\/+$/, '') + '/json/version' + (tokenQuery ? `?token=${tokenQuery}` : '');
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
    const info = await res.json();
    if (!info.webSocketDebuggerUrl) throw new Error(`GET ${url}: no webSocketDebuggerUrl in ${JSON.stringify(info)}`);
    browser = await puppeteer.connect({ browserWSEndpoint: info.webSocketDebuggerUrl, headers });
  } else {
    browser = await puppeteer.connect({ browserURL: endpoint });
  }
  const page = await browser.newPage();
  const result = await page.evaluate(() => 1 + 1);
  if (result !== 2) throw new Error(`evaluate returned ${JSON.stringify(result)}, want 2`);
  await page.close();
  const wsEndpoint = browser.wsEndpoint();
  await browser.disconnect();
  process.stdout.write(JSON.stringify({ ok: true, result, wsEndpoint }) + '\n');
  process.exit(0);
}

main().catch(fail);
