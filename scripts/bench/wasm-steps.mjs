// The lab's wasm module as a step server (protocol.mjs), through its JS API (web/src/wasm-api.js): the same
// code path the page's worker uses.  Runs under Node (wasm-node.mjs) and inside a Web Worker (wasm-chromium.mjs).
import { stepServer } from './protocol.mjs';

const NO_EVALUATION = 1000000;  // evalEvery's maximum: step(k) never evaluates while timed

/**
 * @param {import('../../web/src/wasm-api.js').Lab} lab
 * @param {{name:string, config:object}[]} configs
 * @param {import('./protocol.mjs').Protocol} protocol
 * @returns {function(string): Promise<Object>} the request handler
 */
export function labStepServer(lab, configs, protocol) {
  // The trainers are created in order and live side by side, so the heap size after each creation is the
  // memory of the configurations so far (wasm memory only grows).
  const runs = configs.map(({ name, config }) => {
    const trainer = lab.createTrainer({ ...config, evalEvery: NO_EVALUATION });
    return { name, trainer, heapBytes: lab.heapBytes(), lastLoss: NaN };
  });
  const steppers = Object.fromEntries(runs.map((r) => [r.name, (steps) => {
    const chunk = r.trainer.step(steps);
    if (chunk.diverged) throw new Error(`${r.name} diverged at step ${chunk.divergedStep}`);
    r.lastLoss = chunk.loss[chunk.loss.length - 1];
  }]));
  const finish = () => {
    for (const r of runs) r.trainer.delete();
    const replies = runs.map((r) => ({ name: r.name, last_loss: r.lastLoss, heap_bytes_with_trainer: r.heapBytes }));
    return { configs: replies, heap_bytes: lab.heapBytes() };
  };
  return stepServer(steppers, finish, protocol);
}
