// One small interface over the three engines the suite drives, so that each check is written once:
//   chromium     Debian's /usr/bin/chromium through puppeteer-core (Chrome DevTools Protocol);
//   firefox      Debian's Firefox ESR through puppeteer-core over WebDriver BiDi (no browser download);
//   webkit       Safari's engine: WebKitGTK's MiniBrowser through WebKitWebDriver, plain WebDriver over HTTP
//                (fetch), on an Xvfb display of its own.
// A driver: {name, version, goto(url), evaluate(fn, arg), waitFor(fn, arg, timeoutMs), screenshot(path), close()}.
// `fn` runs in the page with one JSON argument and returns JSON data (or a promise of it).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import puppeteer from 'puppeteer-core';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
const VIEWPORT = { width: 1280, height: 900 };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Poll `probe` until it returns a truthy value (a state, not a time, decides); that value. */
async function poll(probe, what, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// On a loaded machine a browser can take longer than puppeteer's 30 s to start or to load a page: the suite's
// own waits (for states) decide, these limits only stop a browser that never answers.
const LAUNCH_TIMEOUT_MS = 180000;

async function puppeteerDriver(name) {
  const browser = await puppeteer.launch({ timeout: LAUNCH_TIMEOUT_MS, headless: true, ...(name === 'firefox'
    ? { browser: 'firefox', executablePath: '/usr/bin/firefox-esr' }
    : { browser: 'chrome', executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS }) });
  const page = await browser.newPage();
  page.setDefaultNavigationTimeout(LAUNCH_TIMEOUT_MS);
  await page.setViewport(VIEWPORT);
  return {
    name,
    version: await browser.version(),
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    evaluate: (fn, arg = null) => page.evaluate(fn, arg),
    waitFor: (fn, arg = null, timeoutMs = 60000) => poll(() => page.evaluate(fn, arg), String(fn), timeoutMs),
    screenshot: (path) => page.screenshot({ path }),
    close: () => browser.close(),
  };
}

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  }).on('error', reject);
});

/** An Xvfb display of its own (-displayfd picks a free number): {display, process}. */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    xvfb.on('error', reject);
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it named its display`)));
    let text = '';
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve({ display: `:${text.trim()}`, process: xvfb });
    });
  });
}

async function webkitDriver() {
  const xvfb = await startXvfb();
  const port = await freePort();
  // LANG=C.UTF-8, the usual container default: WebKit then reports navigator.language "C", an invalid tag the
  // lab must survive (web/src/ui/locale.js).
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { env: { ...process.env, DISPLAY: xvfb.display, LANG: 'C.UTF-8' }, stdio: 'ignore' });
  // Neither outlives the suite, even one that stops half-way.
  const stop = () => {
    driver.kill();
    xvfb.process.kill();
  };
  process.once('exit', stop);
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    const reply = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${reply.value?.error}: ${reply.value?.message}`);
    return reply.value;
  };
  await poll(() => fetch(`${base}/status`).then((r) => r.ok, () => false), 'WebKitWebDriver', LAUNCH_TIMEOUT_MS);
  const session = await call('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } } });
  const id = session.sessionId;
  const version = `${session.capabilities.browserName} ${session.capabilities.browserVersion}`;
  await call('POST', `/session/${id}/window/rect`, VIEWPORT).catch(() => {});
  // The function's result travels as JSON text, its error as a message.
  const evaluate = async (fn, arg = null) => {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn})(arguments[0])).then((v) => done({ value: JSON.stringify(v ?? null) }), (e) => done({ error: String(e && e.stack || e) }));`;
    const reply = await call('POST', `/session/${id}/execute/async`, { script, args: [arg] });
    if (reply.error) throw new Error(reply.error);
    return JSON.parse(reply.value);
  };
  return {
    name: 'webkit',
    version,
    goto: (url) => call('POST', `/session/${id}/url`, { url }),
    evaluate,
    waitFor: (fn, arg = null, timeoutMs = 60000) => poll(() => evaluate(fn, arg), String(fn), timeoutMs),
    screenshot: async (path) => writeFileSync(path, Buffer.from(await call('GET', `/session/${id}/screenshot`), 'base64')),
    async close() {
      await call('DELETE', `/session/${id}`).catch(() => {});
      stop();
      process.off('exit', stop);
    },
  };
}

/** A driver for engine `name` (one of ENGINES). */
export function launch(name) {
  return name === 'webkit' ? webkitDriver() : puppeteerDriver(name);
}
