// Child process of scripts/bench.mjs: steps/s of the wasm module in a Blob-URL Web Worker in headless
// chromium, as JSON.
//
//   node scripts/bench/wasm-chromium.mjs MODULE.js [PROTOCOL_JSON]
//
// The worker is built the way the page builds its own (handbook section 2): a Blob whose source is the
// single-file glue, inlined, followed by a bootstrap.  The bootstrap imports web/src/wasm-api.js and the
// timing code from a tiny server on 127.0.0.1 that this script starts and stops (a worker on file://
// cannot import anything).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { CONFIGS, STEP_PROTOCOL } from './protocol.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TIMEOUT_MS = 180000;
// The only files the server hands out (URL path -> repository path).
const SERVED = {
  '/web/src/wasm-api.js': 'web/src/wasm-api.js',
  '/scripts/bench/protocol.mjs': 'scripts/bench/protocol.mjs',
  '/scripts/bench/wasm-steps.mjs': 'scripts/bench/wasm-steps.mjs',
};

function startServer() {
  const server = http.createServer((request, response) => {
    const file = SERVED[new URL(request.url, 'http://x').pathname];
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title>');
    } else if (file) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(path.join(REPO, file)));
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Runs inside the worker, after the glue (which defines createSqrtdkModule); serialised with toString().
function workerMain({ origin, configs, protocol }) {
  (async () => {
    try {
      const { loadLab } = await import(`${origin}/web/src/wasm-api.js`);
      const { benchLab } = await import(`${origin}/scripts/bench/wasm-steps.mjs`);
      const lab = await loadLab(createSqrtdkModule);  // eslint-disable-line no-undef
      postMessage({ type: 'result', result: await benchLab(lab, configs, protocol) });
    } catch (error) {
      postMessage({ type: 'error', message: String((error && error.stack) || error) });
    }
  })();
}

// Runs in the page: start the Blob-URL worker and wait for its one reply.
function pageMain(source) {
  return new Promise((resolve) => {
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ type: 'error', message: event.message || 'worker failed to start' });
  });
}

async function main() {
  const [modulePath, protocolJson] = process.argv.slice(2);
  if (!modulePath) {
    console.error('usage: node scripts/bench/wasm-chromium.mjs MODULE.js [PROTOCOL_JSON]');
    process.exit(2);
  }
  const protocol = { ...STEP_PROTOCOL, ...(protocolJson ? JSON.parse(protocolJson) : {}) };
  const server = await startServer();
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const params = JSON.stringify({ origin, configs: CONFIGS, protocol });
    const source = `${readFileSync(modulePath, 'utf8')}\n(${workerMain.toString()})(${params});\n`;
    let timer;
    const reply = await Promise.race([
      page.evaluate(pageMain, source),
      new Promise((resolve) => { timer = setTimeout(() => resolve({ type: 'error', message: 'timed out' }), TIMEOUT_MS); }),
    ]);
    clearTimeout(timer);
    if (reply.type !== 'result') throw new Error(`worker: ${reply.message}`);
    console.log(JSON.stringify({ browser: `chromium ${browser.version()}`, ...reply.result }));
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
