// The curves of one training run (one variant, one seed), grown chunk by chunk.  Pure: no DOM, no workers.

import { metrics } from '../core-tables.js';

const INITIAL_CAPACITY = 512;

/** Values per step of a metric of the core's table (src/core/train/metrics.hpp): 1, layers or layers * heads. */
export function metricWidth(metric, layers, heads) {
  return metric.shape === 'step' ? 1 : metric.shape === 'layer' ? layers : layers * heads;
}

/** A Float32Array that grows by doubling; `view` is the filled part. */
class GrowableFloats {
  constructor() {
    this._data = new Float32Array(INITIAL_CAPACITY);
    this.length = 0;
  }

  push(value) {
    if (this.length === this._data.length) {
      const bigger = new Float32Array(this._data.length * 2);
      bigger.set(this._data);
      this._data = bigger;
    }
    this._data[this.length] = value;
    this.length += 1;
  }

  get view() { return this._data.subarray(0, this.length); }
}

export class RunRecord {
  /**
   * @param {{id: string, variant: string, seed: number, config: object}} run
   */
  constructor({ id, variant, seed, config }) {
    this.id = id;
    this.variant = variant;
    this.seed = seed;
    this.config = config;   // what the page asked for
    this.coreConfig = null; // the core's full config (defaults filled in), once a worker has built the run
    this.clear();
  }

  /** Forget every curve (the run starts again from step 0). */
  clear() {
    this.layers = this.config.layers;
    this.heads = this.config.heads;
    const curves = (n) => Array.from({ length: n }, () => new GrowableFloats());
    // Every metric of the core's table, by its jsKey: a step metric as one curve (record.loss); a per-layer one
    // as record.<key>ByLayer; a per-head one as record.<key>ByHead (layer-major) and, for the charts, the mean
    // over heads as record.<key>ByLayer.  A metric with a combine rule also as one curve for the whole model
    // (record.qkGradNorm: the norm of all layers' tensors; record.jacobianNorm: the mean over layers), as the core
    // combined it (the chunk's wholeModel).
    for (const m of metrics) {
      if (m.shape === 'step') {
        this[m.jsKey] = new GrowableFloats();
        continue;
      }
      if (m.shape === 'layerHead') this[`${m.jsKey}ByHead`] = curves(this.layers * this.heads);
      this[`${m.jsKey}ByLayer`] = curves(this.layers);
      if (m.combine !== 'none') this[m.jsKey] = new GrowableFloats();
    }
    this.evals = [];
    this.stepsDone = 0;
    this.divergedStep = 0;
    this.computeMs = 0;
  }

  get diverged() { return this.divergedStep > 0; }

  /** Last evaluation's sequence accuracy, NaN before the first. */
  get sequenceAccuracy() { return this.evals.length ? this.evals[this.evals.length - 1].sequenceAccuracy : NaN; }

  /** Steps per second of the worker's compute, over the whole run. */
  get stepsPerSecond() { return this.computeMs > 0 ? (1000 * this.stepsDone) / this.computeMs : 0; }

  /**
   * Append one chunk (the worker's reply to a step request; see protocol.js).
   * entropy is (k, layers, heads): stored per layer as the mean over heads.
   */
  append(chunk) {
    const k = chunk.loss.length;
    const { layers, heads } = this;
    for (const m of metrics) {
      const values = chunk[m.jsKey];
      const width = metricWidth(m, layers, heads);
      const at = (i, j) => (values ? values[i * width + j] : NaN);
      for (let i = 0; i < k; i += 1) {
        if (m.shape === 'step') {
          this[m.jsKey].push(at(i, 0));
          continue;
        }
        if (m.shape === 'layerHead') for (let j = 0; j < width; j += 1) this[`${m.jsKey}ByHead`][j].push(at(i, j));
        for (let l = 0; l < layers; l += 1) {
          let v = at(i, l);
          if (m.shape === 'layerHead') {
            v = 0;
            for (let h = 0; h < heads; h += 1) v += at(i, l * heads + h) / heads;
          }
          this[`${m.jsKey}ByLayer`][l].push(v);
        }
        // A metric the chunk did not send has no value, as for the per-layer values above.
        if (m.combine !== 'none') this[m.jsKey].push(chunk.wholeModel?.[m.jsKey]?.[i] ?? NaN);
      }
    }
    for (const e of chunk.evals) this.evals.push({ ...e });
    this.stepsDone = chunk.stepsDone;
    this.divergedStep = chunk.divergedStep;
    this.computeMs += chunk.elapsedMs;
  }
}

/**
 * Split a chunk (a step reply, see protocol.js) after its first `n` steps: [the first n, the rest].  Per-step
 * arrays are step-major (k, layers[, heads]); the attention map and a divergence belong to the rest.
 * @param {object} chunk  @param {number} n  0 < n < steps in the chunk  @param {number} layers  @param {number} heads
 */
export function splitChunk(chunk, n, layers, heads) {
  const k = chunk.loss.length;
  const firstDone = chunk.stepsDone - k + n;
  const part = (from, to) => {
    const per = (array, width) => (array ? array.slice(from * width, to * width) : array);
    const whole = chunk.wholeModel ?? {};
    return {
      ...Object.fromEntries(metrics.map((m) => [m.jsKey, per(chunk[m.jsKey], metricWidth(m, layers, heads))])),
      wholeModel: Object.fromEntries(Object.entries(whole).map(([key, array]) => [key, per(array, 1)])),
      elapsedMs: (chunk.elapsedMs * (to - from)) / k,
    };
  };
  const first = { ...part(0, n), evals: chunk.evals.filter((e) => e.step <= firstDone), stepsDone: firstDone,
    diverged: false, divergedStep: 0, attention: null };
  const rest = { ...chunk, ...part(n, k), evals: chunk.evals.filter((e) => e.step > firstDone) };
  return [first, rest];
}
