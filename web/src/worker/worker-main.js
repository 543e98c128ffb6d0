// The worker's entry.  Its Blob source is the Emscripten glue (which defines createSqrtdkModule) followed by
// this bundle (see web/build.mjs and worker-url.js).  It answers the requests of protocol.js, one at a time.
// A training worker holds the trainers of the runs the page's worker pool gave it (keyed by each request's
// `run`), stepping whichever a request names: the page interleaves their chunks.  The page's helper worker
// answers the softmax explorer's requests and computes the exercise's answer.

import { loadLab } from '../wasm-api.js';
import { metrics } from '../core-tables.js';
import { isCoreDelivery, isRequest, REQUEST_REPLY, transferablesOf } from './protocol.js';

const FAST_FORWARD_CHUNK = 1000;

function startWorker(scope) {
  let deliverCore;
  const corePromise = new Promise((resolve) => { deliverCore = resolve; });
  const labPromise = corePromise.then((core) => (core.error ? Promise.reject(new Error(core.error))
    : instantiate(scope.createSqrtdkModule, core.module)));
  // A module that cannot load (e.g. a page policy without 'wasm-unsafe-eval') fails every request with the
  // reason; mark the promise handled so that it is reported there, not as an unhandled rejection.
  labPromise.catch(() => {});
  const trainers = new Map();  // run -> Trainer

  const handlers = {
    init(lab, { run, config, fastForward }) {
      drop(run);
      const trainer = lab.createTrainer(config);
      trainers.set(run, trainer);
      const measuredLogitStd = trainer.measuredLogitStd();
      let left = Number.isSafeInteger(fastForward) && fastForward > 0 ? fastForward : 0;
      while (left > 0 && !trainer.status().diverged) {
        const k = Math.min(left, FAST_FORWARD_CHUNK);
        trainer.step(k);
        left -= k;
      }
      const status = trainer.status();
      return { config: status.config, stepsDone: status.stepsDone, measuredLogitStd };
    },
    step(lab, { run, steps, attention }) {
      const trainer = requireTrainer(run);
      const started = performance.now();
      const chunk = trainer.step(steps);
      const elapsedMs = performance.now() - started;
      const map = attention ? attentionOf(trainer, attention) : null;
      return {
        ...Object.fromEntries(metrics.map((m) => [m.jsKey, chunk[m.jsKey]])),
        evals: chunk.evals,
        stepsDone: chunk.stepsDone,
        diverged: chunk.diverged,
        divergedStep: chunk.divergedStep,
        elapsedMs,
        attention: map,
      };
    },
    attention(lab, request) {
      return attentionOf(requireTrainer(request.run), request);
    },
    drop(lab, { run }) {
      drop(run);
      return {};
    },
    softmaxDemo(lab, { options }) { return { result: lab.softmaxDemo(options) }; },
    sweep(lab, { options }) { return { result: lab.sweep(options) }; },
    histogram(lab, { options }) { return { result: lab.histogram(options) }; },
    estimate(lab, { config }) { return { bytes: lab.estimatedBytes(config) }; },
    predictLogitStd(lab, { configs }) { return { values: configs.map((c) => lab.predictedLogitStd(c)) }; },
    compare(lab, { request }) { return { result: lab.compare(request) }; },
    scenarios(lab) { return { list: lab.scenarios() }; },
  };

  function requireTrainer(run) {
    const trainer = trainers.get(run);
    if (!trainer) throw new Error('no run: send init first');
    return trainer;
  }

  function drop(run) {
    trainers.get(run)?.delete();  // frees its wasm memory for the next run's trainer
    trainers.delete(run);
  }

  function attentionOf(trainer, { example, layer, head }) {
    const map = trainer.attentionMap(example, layer, head);
    return { data: map.data, rows: map.rows, cols: map.cols, layout: map.layout, layer, head };
  }

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
