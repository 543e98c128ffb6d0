// What a worker does for each request of protocol.js: a training worker steps the trainers of the runs the
// page's worker pool gave it (keyed by each request's `run`; the page interleaves their chunks), the helper
// worker answers the softmax explorer and computes the exercise's answer.  Each handler returns its reply's
// fields; worker-main.js adds the type and id.

import { metrics } from '../core-tables.js';

const FAST_FORWARD_CHUNK = 1000;

/** The handlers over one worker's trainers: request type -> (lab, request) => reply fields. */
export function createHandlers() {
  const trainers = new Map();  // run -> Trainer

  function requireTrainer(run) {
    const trainer = trainers.get(run);
    if (!trainer) throw new Error('no run: send init first');
    return trainer;
  }

  function drop(run) {
    trainers.get(run)?.delete();  // frees its wasm memory for the next run's trainer
    trainers.delete(run);
  }

  return {
    init(lab, { run, config, fastForward }) {
      drop(run);
      const trainer = lab.createTrainer(config);
      trainers.set(run, trainer);
      const measuredLogitStd = trainer.measuredLogitStd();
      fastForwardTrainer(trainer, fastForward);
      const status = trainer.status();
      return { config: status.config, stepsDone: status.stepsDone, measuredLogitStd };
    },
    step(lab, { run, steps, attention }) {
      const trainer = requireTrainer(run);
      const started = performance.now();
      const chunk = trainer.step(steps);
      const elapsedMs = performance.now() - started;
      return {
        ...Object.fromEntries(metrics.map((m) => [m.jsKey, chunk[m.jsKey]])),
        wholeModel: chunk.wholeModel,
        evals: chunk.evals,
        stepsDone: chunk.stepsDone,
        diverged: chunk.diverged,
        divergedStep: chunk.divergedStep,
        elapsedMs,
        attention: attention ? attentionOf(trainer, attention) : null,
      };
    },
    attention(lab, request) { return attentionOf(requireTrainer(request.run), request); },
    drop(lab, { run }) { drop(run); return {}; },
    softmaxDemo(lab, { options }) { return { result: lab.softmaxDemo(options) }; },
    drawSet(lab, { options }) { return { result: lab.drawSet(options) }; },
    sweep(lab, { options }) { return { result: lab.sweep(options) }; },
    histogram(lab, { options }) { return { result: lab.histogram(options) }; },
    estimate(lab, { config }) { return { bytes: lab.estimatedBytes(config) }; },
    predictLogitStd(lab, { configs }) { return { values: configs.map((c) => lab.predictedLogitStd(c)) }; },
    compare(lab, { request }) { return { result: lab.compare(request) }; },
    scenarios(lab) { return { list: lab.scenarios() }; },
    exportTorch(lab, { request }) { return { text: lab.exportTorch(request) }; },
    glossary(lab, { request }) { return { result: lab.glossary(request) }; },
  };
}

/** Steps a fresh trainer `fastForward` steps (a restored run) in chunks, stopping if it diverges. */
function fastForwardTrainer(trainer, fastForward) {
  let left = Number.isSafeInteger(fastForward) && fastForward > 0 ? fastForward : 0;
  while (left > 0 && !trainer.status().diverged) {
    const k = Math.min(left, FAST_FORWARD_CHUNK);
    trainer.step(k);
    left -= k;
  }
}

function attentionOf(trainer, { example, layer, head }) {
  const map = trainer.attentionMap(example, layer, head);
  return { data: map.data, rows: map.rows, cols: map.cols, layout: map.layout, layer, head };
}
