// An agent that signs in to the local test sites of the logins tests
// (issue 35) with playwright-core, and reports what it sees.
//
//   node logins.mjs <browser> STEP…
//
// <browser> is one of
//   cdp=URL             connectOverCDP(URL); the steps run in its default
//                       context (a world's own context on a world's endpoint)
//   launch=EXE          chromium.launch({executablePath: EXE}) and a new context
//   launch=EXE,STATE    the same, the context made by newContext({storageState: STATE})
// STEP is one of
//   site=URL            the site the next steps go to (https://HOST:PORT)
//   signin=USER         GET /signin?user=USER: the server sets the session
//                       cookie, the page's script stores its token
//   whoami              GET /whoami: the server's check of the cookie (#server)
//                       and the page's own read of localStorage (#token), both
//                       taken as the page's scripts ran
//   logout              GET /logout: the server clears the cookie, the page
//                       its token
//   keep                the next steps' pages stay open (as tabs an agent or a user
//                       leaves open); without it each is closed once read
//   save=PATH           context.storageState({path: PATH})
//   wait                print {"ready":true,"seen":[…]} and wait for a line on stdin
//                       (or its end: the test may have ended the endpoint meanwhile)
//
// stdout: {"ready":…} lines, then {"ok":true,"seen":[{"step","server","token"}…]}
// where each signin, whoami and logout step reports what its page showed.
// Each step's page is closed once it has been read, unless a keep step came.
// Exit codes: 0 ok, 1 failure (on stderr), 2 overall timeout (CLIENT_TIMEOUT_MS).
import { chromium } from 'playwright-core';
import { script, nextLine, within } from './cycles.mjs';

const NAME = 'logins';
const { timeoutMs, fail } = script(NAME, 60000);

async function open(spec) {
  if (spec.startsWith('cdp=')) {
    const browser = await chromium.connectOverCDP(spec.slice(4), { timeout: timeoutMs });
    const context = browser.contexts()[0];
    if (!context) throw new Error('the connected browser has no default context');
    return { browser, context };
  }
  if (spec.startsWith('launch=')) {
    const [exe, state] = spec.slice(7).split(',');
    const browser = await chromium.launch({ executablePath: exe, headless: true, args: ['--no-first-run'] });
    const options = { ignoreHTTPSErrors: true };
    if (state) options.storageState = state;
    const context = await browser.newContext(options);
    return { browser, context };
  }
  throw new Error(`unknown browser ${JSON.stringify(spec)}: want cdp=URL or launch=EXE[,STATE]`);
}

let keepPages = false;

// visit opens path in a page of its own and answers what it shows.
async function visit(context, site, path, step) {
  const page = await within(20000, context.newPage(), `${step}: newPage`);
  try {
    await within(20000, page.goto(site + path), `${step}: goto ${path}`);
    const shown = await page.evaluate(() => ({
      server: document.getElementById('server')?.textContent ?? null,
      token: document.getElementById('token')?.textContent ?? null,
    }));
    return { step, ...shown };
  } finally {
    // As an agent that is done with a page, unless a keep step came.
    if (!keepPages) await page.close().catch(() => {});
  }
}

async function main() {
  const [spec, ...steps] = process.argv.slice(2);
  if (!spec) throw new Error('usage: logins.mjs <cdp=URL|launch=EXE[,STATE]> STEP…');
  const { browser, context } = await open(spec);
  const seen = [];
  let site = null;
  for (const step of steps) {
    const eq = step.indexOf('=');
    const [op, arg] = eq < 0 ? [step, ''] : [step.slice(0, eq), step.slice(eq + 1)];
    switch (op) {
      case 'site':
        site = arg;
        break;
      case 'signin':
        seen.push(await visit(context, site, `/signin?user=${encodeURIComponent(arg)}`, step));
        break;
      case 'whoami':
        seen.push(await visit(context, site, '/whoami', step));
        break;
      case 'logout':
        seen.push(await visit(context, site, '/logout', step));
        break;
      case 'keep':
        keepPages = true;
        break;
      case 'save':
        await within(20000, context.storageState({ path: arg }), step);
        break;
      case 'wait':
        process.stdout.write(JSON.stringify({ ready: true, seen }) + '\n');
        await nextLine(); // a line, or stdin's end: go on either way
        break;
      default:
        throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }
  process.stdout.write(JSON.stringify({ ok: true, seen }) + '\n');
  // On a CDP connection close() only disconnects; a launched browser ends.
  await within(20000, browser.close(), 'close').catch(() => {});
  process.exit(0);
}

main().catch(fail);
