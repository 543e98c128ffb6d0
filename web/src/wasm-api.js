// A thin, documented wrapper over the raw Embind module (wasm_build/build/sqrtdk.js).
//
// Every call validates in C++ and comes back either with a result or with {error}; this layer turns the
// latter into a JS Error whose message is the core's message ("config: d_model (65) must be divisible by
// n_heads (2)"), so callers use try/catch.  After any error the module is unchanged and fully usable.
// Results are plain objects and typed arrays copied out of the wasm heap: they stay valid when it grows.

/**
 * @typedef {Object} TrainConfig  Every field optional; missing fields take the canonical defaults.
 * The fields, their defaults, ranges, choices and docs are the core's settings table (src/core/settings/settings.cpp):
 * read them at run time with lab.schema(), or on the command line with `sqrtdk train --help`.  Keys are the
 * table's names in camelCase: layers, dModel, heads, dFf, scale, alpha, init, copyLength, symbols, batch,
 * evalBatch, optimizer, lr, momentum, beta1, beta2, eps, clipNorm, seed, evalEvery.  alpha is used by
 * scale 'alpha' only (score = q.k / d_k^alpha); with optimizer 'sgd' and no lr, lr is the row's sgdDefault.
 * Unknown fields, wrong types, NaN/Infinity, out-of-range values and configurations past the memory cap
 * (512 MiB) are errors.
 */

/**
 * @typedef {Object} SettingRow  One row of lab.schema().
 * @property {string} name      canonical snake_case name (JSON key, message name)
 * @property {string} jsKey     the TrainConfig key (camelCase)
 * @property {string} cliFlag   the CLI flag (--kebab-case)
 * @property {'model'|'task'|'optimizer'|'training'} group
 * @property {'integer'|'seed'|'real'|'choice'} type
 * @property {number|string} default
 * @property {number} [min]  @property {number} [max]  @property {boolean} [minOpen]  @property {boolean} [maxOpen]
 * @property {string[]} [choices]  for type 'choice'
 * @property {string} unit  @property {string} doc  @property {number} [sgdDefault]  lr only
 */

/**
 * @typedef {Object} StepChunk  Metrics of the steps one step(k) call ran, step-major.
 * @property {Int32Array} steps            (k) 1-based step numbers
 * Then one Float32Array per row of the core's per-step metrics table (src/core/train/metrics.hpp; core-tables.js
 * `metrics`), under its jsKey: (k) for shape 'step' (loss, gradNorm), (k * layers) for 'layer' (layerGradNorm,
 * maxLogit, topWeight, qkGradNorm, qkUpdateNorm, logitSpread, jacobianNorm), (k * layers * heads) for
 * 'layerHead' (entropy).
 * @property {Float32Array} loss  @property {Float32Array} gradNorm  @property {Float32Array} layerGradNorm
 * @property {Float32Array} entropy  @property {Float32Array} maxLogit  @property {Float32Array} topWeight
 * @property {Float32Array} qkGradNorm  @property {Float32Array} qkUpdateNorm  @property {Float32Array} logitSpread
 * @property {Float32Array} jacobianNorm
 * @property {Object<string, Float32Array>} wholeModel  (k) per metric with a combine rule, by its jsKey: the
 *   layers (and heads) combined into one value for the whole model by the core (src/core/answer/mechanism.hpp)
 * @property {{step:number, loss:number, tokenAccuracy:number, sequenceAccuracy:number}[]} evals
 * @property {number} stepsDone  @property {boolean} diverged  @property {number} divergedStep (0 if not)
 * @property {number} layers  @property {number} heads  @property {TrainConfig} config (normalised)
 * Fewer than k steps are returned when the run diverges (see Trainer::step in src/core/train/trainer.hpp).
 */

function unwrap(result) {
  if (result && typeof result === 'object' && typeof result.error === 'string') throw new Error(result.error);
  return result;
}

function check(message) {
  if (message) throw new Error(message);
}

// An options object's own enumerable fields, read once, as a plain object: getters run (and may throw) here in
// JS, before wasm is entered, and inherited fields are not picked up.  Non-objects pass through for the core
// to refuse with its message.
function plain(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return options;
  const copy = {};
  // defineProperty, not assignment: an own "__proto__" key must stay a key (and be refused as unknown).
  for (const key of Object.keys(options)) {
    Object.defineProperty(copy, key, { value: options[key], enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** One training run in the wasm module.  Call delete() when done: the wasm memory is not garbage-collected. */
export class Trainer {
  /** @param {object} module raw module  @param {TrainConfig} config  @throws {Error} invalid config */
  constructor(module, config) {
    const options = plain(config);
    this._raw = new module.Trainer();
    const problem = this._raw.configure(options);
    if (problem) {
      this._raw.delete();
      this._raw = null;
      throw new Error(problem);
    }
  }

  _live() {
    if (!this._raw) throw new Error('trainer was deleted');
    return this._raw;
  }

  /** Run k steps (1..100000). @returns {StepChunk} @throws {Error} bad k */
  step(k) { return unwrap(this._live().step(k)); }

  /** Greedy decoding of the fixed evaluation batch now. */
  evaluate() { return unwrap(this._live().evaluate()); }

  /**
   * Softmax weights of one evaluation example, layer and head, teacher-forced.
   * @returns {{data: Float32Array, rows: number, cols: number}} row-major T x T
   * @throws {Error} an index out of range
   */
  attentionMap(example, layer, head) { return unwrap(this._live().attentionMap(example, layer, head)); }

  /** Fresh parameters, optimizer and data for `seed` (same configuration). @throws {Error} bad seed */
  reset(seed) { check(this._live().reset(seed)); }

  /** Std of the layer-0 attention logits on the evaluation batch, measured now. */
  measuredLogitStd() { return unwrap(this._live().measuredLogitStd()).value; }

  /** {config, stepsDone, diverged, divergedStep, layers, heads} */
  status() { return unwrap(this._live().status()); }

  /** Free the wasm memory; the object is unusable afterwards.  Safe to call twice. */
  delete() {
    if (this._raw) this._raw.delete();
    this._raw = null;
  }
}

/** The lab's API over a loaded module. */
export class Lab {
  /** @param {object} module what createSqrtdkModule() resolved to */
  constructor(module) { this.module = module; }

  /** @returns {TrainConfig} the canonical configuration, every field filled */
  defaults() { return this.module.defaults(); }

  /** @returns {SettingRow[]} the core's settings table, in its order */
  schema() { return this.module.schema(); }

  /** The explorer's settings (softmaxDemo, sweep, histogram): [{name, type, default, min, max, doc}]. */
  explorerSchema() { return this.module.explorerSchema(); }

  /** An exercise run's settings (seeds, steps, threshold; src/core/settings/run_settings.hpp), as explorerSchema's rows. */
  runSchema() { return this.module.runSchema(); }

  /** @returns {string} '' if valid, else the message an Error would carry */
  validateConfig(config) { return this.module.validateConfig(plain(config)); }

  /** Predicted std of the attention logits at init (see predicted_logit_std in src/core/settings/config.hpp). */
  predictedLogitStd(config) { return unwrap(this.module.predictedLogitStd(plain(config))).value; }

  /**
   * The lesson demo: one draw of q and `keys` keys ~ N(0, I_dk); softmax raw (alpha 0) and scaled (dk^-alpha).
   * @param {{dk?:number, keys?:number, seed?:number, alpha?:number, top?:number}} options defaults and ranges: explorerSchema()
   * @returns {{dk, keys, seed, alpha, dots: Float64Array, raw: Side, scaled: Side}} where Side is
   *   {scale, scores: Float64Array, weights: Float64Array, top: Float64Array, max, entropy, effectiveKeys, jacobianNorm}
   */
  softmaxDemo(options) { return unwrap(this.module.softmaxDemo(plain(options))); }

  /**
   * The explorer's fixed set of draws (src/core/lesson/draw_set.hpp): softmaxDemo's draw of each seed 0 .. seeds - 1
   * at one dk, keys and alpha, and the quartiles of the raw top weight over the set.
   * @param {{dk?:number, keys?:number, alpha?:number, seeds?:number}} options seeds: the core's default and range
   * @returns {{rawTop: Float64Array, rawJacobian: Float64Array, scaledJacobian: Float64Array,
   *   rawTopQuartiles: {q1:number, median:number, q3:number}}} the arrays (seeds) indexed by seed
   */
  drawSet(options) { return unwrap(this.module.drawSet(plain(options))); }

  /**
   * Saturation statistics over many draws for each d_k.
   * @param {{dks?:number[], keys?:number, draws?:number, seed?:number, alpha?:number}} options
   * @returns {{rows: {dk, dotVariance, raw: Stats, scaled: Stats}[], evenRowJacobianNorm: number}} with Stats =
   *   {maxWeight, entropy, jacobianNorm}, each {q1, median, q3}; evenRowJacobianNorm: |J|_F of a row of `keys`
   *   keys sharing the weight evenly (the yardstick for rows of that length)
   */
  sweep(options) { return unwrap(this.module.sweep(plain(options))); }

  /**
   * Histogram of q.k (raw) and q.k * dk^-alpha (scaled) over draws, on shared edges.
   * @param {{dk?, keys?, draws?, seed?, alpha?, bins?, halfWidth?}} options halfWidth 0 = 4 sqrt(dk)
   * @returns {{dk, dotVariance, edges: Float64Array, raw: Float64Array, scaled: Float64Array, total, rawOutside, scaledOutside}}
   */
  histogram(options) { return unwrap(this.module.histogram(plain(options))); }

  /**
   * The one-click scenarios (src/core/claims/scenarios.cpp): settings is a URL-hash fragment in the page's keys.
   * @returns {{id: string, title: string, caption: string, settings: string}[]}
   */
  scenarios() { return this.module.scenarios(); }

  /**
   * The exercise's answer from loss curves (src/wasm/analysis_bindings.cpp has the request's fields and ranges).
   * @param {{threshold: number, steps: number, messages?: boolean, variants: {name?: string, scale: string, alpha?: number,
   *   runs: {seed: number, loss: Float32Array|Float64Array|number[], sequenceAccuracy?: number|null,
   *   divergedStep?: number, stopped?: boolean, mechanism?: object}[]}[], mechanism?: {config: TrainConfig}}} request
   *   the first variant is the reference; with request.mechanism and each run's mechanism curves (fields in
   *   src/wasm/analysis_bindings.cpp) the result also holds the mechanism readings (`mechanism`)
   * @returns {object} the structured answer (shape at the top of src/core/answer/analysis_json.cpp, camelCase); with
   *   messages: true also its texts as messages (web/src/analysis/render-message.js renders them)
   * @throws {Error} a bad request, naming the field
   */
  compare(request) {
    const r = plain(request);
    if (r && Array.isArray(r.variants)) r.variants = r.variants.map((v) => (v && Array.isArray(v.runs) ? { ...plain(v), runs: v.runs.map(plain) } : plain(v)));
    return unwrap(this.module.compare(r));
  }

  /**
   * The exercise as a PyTorch program (src/core/export/torch_export.hpp): the same text `sqrtdk export-torch`
   * writes for the same settings.
   * @param {{variants?: string[], trainAlpha?: number, seeds?: number, steps?: number, threshold?: number,
   *   config?: TrainConfig, format?: 'script'|'notebook'}} request  variants: scale names, 'alpha' taking
   *   trainAlpha; config without scale and alpha (the variants set them); missing fields take the defaults
   * @returns {string} a Python script, or a Jupyter notebook (nbformat 4 JSON)
   * @throws {Error} a bad request, naming the field
   */
  exportTorch(request) {
    const r = plain(request);
    if (r && r.config) r.config = plain(r.config);
    return unwrap(this.module.exportTorch(r)).text;
  }

  /**
   * The lesson's claim quoted and the glossary (src/core/answer/glossary.hpp), as messages
   * (web/src/analysis/render-message.js renders them); the definitions among the entries at this threshold and steps.
   * @param {{threshold?: number, steps?: number}} [request] defaults and ranges: runSchema()
   * @returns {{quote: {claim: object, footnote: object, source: object, link: string}, entries: {id: string, term: object, text: object}[]}}
   * @throws {Error} a bad request, naming the field
   */
  glossary(request = {}) { return unwrap(this.module.glossary(plain(request))); }

  /** The English templates of the answer's texts, key -> template (src/core/text/phrasebook.cpp). @returns {Record<string, string>} */
  phrasebook() { return this.module.phrasebook(); }

  /**
   * The per-step metrics table (src/core/train/metrics.hpp): what a StepChunk holds, in order, and the evaluation's
   * columns.  shape: 'step' | 'layer' | 'layerHead'; combine: how layers make one whole-model value.
   * @returns {{perStep: {name: string, jsKey: string, shape: string, combine: string, unit: string, doc: string}[],
   *            eval: {name: string, jsKey: string, doc: string}[]}}
   */
  metrics() { return this.module.metrics(); }

  /** @param {TrainConfig} config @returns {Trainer} @throws {Error} invalid config */
  createTrainer(config) { return new Trainer(this.module, config); }

  /** Current size of the wasm memory in bytes (it only grows, by what malloc asks for, in 64 KiB pages). */
  heapBytes() { return this.module.heapBytes(); }

  /** Bytes malloc has handed out and not taken back (with its per-block overhead). */
  heapInUse() { return this.module.heapInUse(); }

  /** Bytes a trainer for `config` allocates (the figure the 512 MiB cap checks). @throws {Error} invalid config */
  estimatedBytes(config) { return unwrap(this.module.estimatedBytes(plain(config))).value; }

  /** 'f32x4': the float matrix kernels, the same as the native build's. */
  gemmBackend() { return this.module.gemmBackend(); }

  /** A hash of short training curves (src/core/train/fingerprint.hpp): the same in every build on every machine. */
  fingerprint() { return this.module.fingerprint(); }
}

/**
 * Load the module and wrap it.
 * @param {Function} createModule the factory createSqrtdkModule from sqrtdk.js
 * @returns {Promise<Lab>}
 */
export async function loadLab(createModule, moduleOptions = {}) {
  return new Lab(await createModule(moduleOptions));
}
