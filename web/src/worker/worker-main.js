// The worker's entry.  Its Blob source is the Emscripten glue (which defines createSqrtdkModule) followed by
// this bundle (see web/build.mjs and worker-url.js).  It loads the core once the page delivers it compiled,
// and answers the requests of protocol.js one at a time with worker-handlers.js.

import { loadLab } from '../wasm-api.js';
import { createHandlers } from './worker-handlers.js';
import { isCoreDelivery, isRequest, REQUEST_REPLY, transferablesOf } from './protocol.js';

function startWorker(scope) {
  let deliverCore;
  const corePromise = new Promise((resolve) => { deliverCore = resolve; });
  const labPromise = corePromise.then((core) => (core.error ? Promise.reject(new Error(core.error))
    : instantiate(scope.createSqrtdkModule, core.module)));
  // A module that cannot load (e.g. a page policy without 'wasm-unsafe-eval') fails every request with the
  // reason; mark the promise handled so that it is reported there, not as an unhandled rejection.
  labPromise.catch(() => {});
  const handlers = createHandlers();

  async function answer(message) {
    if (!isRequest(message)) {
      const id = message && Number.isSafeInteger(message.id) ? message.id : -1;
      scope.postMessage({ type: 'error', id, message: 'malformed request' });
      return;
    }
    try {
      const lab = await labPromise;
      const reply = { type: REQUEST_REPLY[message.type], id: message.id, ...handlers[message.type](lab, message) };
      scope.postMessage(reply, transferablesOf(reply));
    } catch (error) {
      scope.postMessage({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
    }
  }

  // Requests are answered strictly in order: each waits for the previous one.
  let queue = Promise.resolve();
  scope.addEventListener('message', (event) => {
    if (isCoreDelivery(event.data)) { deliverCore(event.data); return; }
    queue = queue.then(() => answer(event.data));
  });
}

/** The Emscripten module over the page's compiled core: instantiated here, never fetched or compiled again. */
function instantiate(createModule, compiledModule) {
  return new Promise((resolve, reject) => {
    const instantiateWasm = (imports, done) => {
      WebAssembly.instantiate(compiledModule, imports).then((instance) => done(instance, compiledModule), reject);
      return {};  // the exports arrive through done()
    };
    loadLab(createModule, { instantiateWasm }).then(resolve, reject);
  });
}

startWorker(self);
