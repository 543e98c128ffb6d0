// The lab's wasm module in a Blob-URL Web Worker in headless chromium, as a step server (protocol.mjs);
// started by scripts/bench.mjs.
//
//   node scripts/bench/wasm-chromium.mjs MODULE.js [PROTOCOL_JSON]
//
// The worker is built the way the page builds its own (web/src/worker/worker-url.js): a Blob whose source is the
// single-file glue, inlined, followed by a bootstrap.  The bootstrap imports web/src/wasm-api.js and the
// benchmark's modules from a tiny server on 127.0.0.1 that this process starts and stops (a worker on file://
// cannot import anything).  Requests go to the worker by postMessage; it times the steps itself.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { CONFIGS, STEP_PROTOCOL } from './protocol.mjs';
import { serveLines } from './serve.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// The only files the server hands out (URL path = repository path).
const SERVED = new Set(['/web/src/wasm-api.js', '/scripts/bench/protocol.mjs', '/scripts/bench/wasm-steps.mjs']);

function startServer() {
  const server = http.createServer((request, response) => {
    const file = new URL(request.url, 'http://127.0.0.1').pathname;
    if (file === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title>');
    } else if (SERVED.has(file)) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(path.join(REPO, file)));
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => { server.listen(0, '127.0.0.1', () => resolve(server)); });
}

// Runs inside the worker, after the glue (which defines createSqrtdkModule); serialised with toString().
function workerMain({ origin, configs, protocol }) {
  (async () => {
    try {
      const { loadLab } = await import(`${origin}/web/src/wasm-api.js`);
      const { labStepServer } = await import(`${origin}/scripts/bench/wasm-steps.mjs`);
      const lab = await loadLab(createSqrtdkModule);  // eslint-disable-line no-undef
      const handle = labStepServer(lab, configs, protocol);
      onmessage = async (event) => {
        try {
          postMessage(await handle(event.data));
        } catch (error) {
          postMessage({ error: String(error.message || error) });
        }
      };
      postMessage({ ready: true, gemm_backend: lab.gemmBackend() });
    } catch (error) {
      postMessage({ error: String((error && error.stack) || error) });
    }
  })();
}

// Runs in the page: start the Blob-URL worker, keep it on window, resolve with its first message.
function startWorker(source) {
  return new Promise((resolve) => {
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    worker.onerror = (event) => resolve({ error: event.message || 'the worker failed to start' });
    worker.onmessage = (event) => resolve(event.data);
    window.benchWorker = worker;
  });
}

// Runs in the page: one request to the worker, resolved with its reply.
function ask(line) {
  return new Promise((resolve) => {
    window.benchWorker.onmessage = (event) => resolve(event.data);
    window.benchWorker.postMessage(line);
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
  const stop = async () => {
    await browser.close();
    server.close();
  };
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const params = JSON.stringify({ origin, configs: CONFIGS, protocol });
  const source = `${readFileSync(modulePath, 'utf8')}\n(${workerMain})(${params});\n`;
  const started = await page.evaluate(startWorker, source);
  if (started.error) {
    await stop();
    console.log(JSON.stringify(started));
    process.exit(1);
  }
  await serveLines({ ...started, browser: `chromium ${browser.version()}` }, async (line) => {
    const reply = await page.evaluate(ask, line);
    if (reply.error) throw new Error(reply.error);
    if (line.trim() === 'finish') await stop();
    return reply;
  });
}

await main();
