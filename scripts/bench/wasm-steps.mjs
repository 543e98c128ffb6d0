// Training steps/s of the lab's wasm module through its JS API (web/src/wasm-api.js): the same code path
// the page's worker uses.  Runs under Node (wasm-node.mjs) and inside a Web Worker (wasm-chromium.mjs).
import { stepRate, timeCalls } from './protocol.mjs';

const NO_EVALUATION = 1000000;  // evalEvery's maximum: step(k) never evaluates while timed

/**
 * @param {import('../../web/src/wasm-api.js').Lab} lab
 * @param {{name:string, config:object}[]} configs
 * @param {import('./protocol.mjs').Protocol} protocol
 */
export async function benchLab(lab, configs, protocol) {
  const results = [];
  for (const { name, config } of configs) {
    const trainer = lab.createTrainer({ ...config, evalEvery: NO_EVALUATION });
    try {
      let last = null;
      const timing = await timeCalls((steps) => {
        last = trainer.step(steps);
        if (last.diverged) throw new Error(`${name}: the run diverged at step ${last.divergedStep}`);
      }, protocol);
      results.push({
        name,
        ...stepRate(timing),
        lastLoss: last.loss[last.loss.length - 1],
        heapBytesAfter: lab.heapBytes(),  // wasm memory only grows: this is the peak so far
      });
    } finally {
      trainer.delete();
    }
  }
  return { gemmBackend: lab.gemmBackend(), configs: results, heapBytes: lab.heapBytes() };
}
