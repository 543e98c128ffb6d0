// The curves of one training run (one variant, one seed), grown chunk by chunk.  Pure: no DOM, no workers.

const INITIAL_CAPACITY = 512;

/** Per-layer metrics of the attention mechanism in a step chunk (NaN when the core does not send them). */
export const MECHANISM = Object.freeze(['qkGradNorm', 'qkUpdateNorm', 'logitSpread', 'jacobianNorm']);
const NORMS = new Set(['qkGradNorm', 'qkUpdateNorm']);

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
    this.loss = new GrowableFloats();
    this.gradNorm = new GrowableFloats();
    this.entropyByLayer = Array.from({ length: this.layers }, () => new GrowableFloats());
    this.maxLogitByLayer = Array.from({ length: this.layers }, () => new GrowableFloats());
    this.topWeightByLayer = Array.from({ length: this.layers }, () => new GrowableFloats());
    // The attention mechanism, per layer: the gradient reaching W_q, W_k (and biases), the change the
    // optimizer applied to them, the spread of the attention logits and the softmax Jacobian's norm.
    for (const name of MECHANISM) this[`${name}ByLayer`] = Array.from({ length: this.layers }, () => new GrowableFloats());
    // The same over all layers: norms combine as the norm of all layers' q/k tensors, the rest as the mean.
    for (const name of MECHANISM) this[name] = new GrowableFloats();
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
    for (let i = 0; i < k; i += 1) {
      this.loss.push(chunk.loss[i]);
      this.gradNorm.push(chunk.gradNorm[i]);
      for (let l = 0; l < layers; l += 1) {
        let sum = 0;
        for (let h = 0; h < heads; h += 1) sum += chunk.entropy[(i * layers + l) * heads + h];
        this.entropyByLayer[l].push(sum / heads);
        this.maxLogitByLayer[l].push(chunk.maxLogit[i * layers + l]);
        this.topWeightByLayer[l].push(chunk.topWeight[i * layers + l]);
      }
      for (const name of MECHANISM) {
        const values = chunk[name];
        let combined = 0;
        for (let l = 0; l < layers; l += 1) {
          const v = values ? values[i * layers + l] : NaN;
          this[`${name}ByLayer`][l].push(v);
          combined += NORMS.has(name) ? v * v : v / layers;
        }
        this[name].push(NORMS.has(name) ? Math.sqrt(combined) : combined);
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
    return {
      loss: per(chunk.loss, 1),
      gradNorm: per(chunk.gradNorm, 1),
      entropy: per(chunk.entropy, layers * heads),
      maxLogit: per(chunk.maxLogit, layers),
      topWeight: per(chunk.topWeight, layers),
      ...Object.fromEntries(MECHANISM.map((name) => [name, per(chunk[name], layers)])),
      elapsedMs: (chunk.elapsedMs * (to - from)) / k,
    };
  };
  const first = { ...part(0, n), evals: chunk.evals.filter((e) => e.step <= firstDone), stepsDone: firstDone,
    diverged: false, divergedStep: 0, attention: null };
  const rest = { ...chunk, ...part(n, k), evals: chunk.evals.filter((e) => e.step > firstDone) };
  return [first, rest];
}
