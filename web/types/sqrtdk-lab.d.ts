// TypeScript declarations of <sqrtdk-lab> (web/dist/sqrtdk-lab.js): its attributes, settings, methods,
// events and the iframe messages of lab.html.  `import 'sqrtdk-lab'` defines the element; these types then
// make document.querySelector('sqrtdk-lab') a SqrtdkLabElement and its events typed.
// The settings and attributes are checked against the lab's property table by tests/web/unit_api_types.test.mjs.

/** An attention variant of the exercise (the first one listed is the answer's reference). */
export type SqrtdkVariant = 'scaled' | 'unscaled' | 'alpha' | 'qknorm';
export type SqrtdkPanel = 'softmax' | 'train';
export type SqrtdkInit = 'xavier' | 'torch' | 'gpt';
export type SqrtdkOptimizer = 'adam' | 'sgd';
/** What hide="..." can hide: any setting's control, or one of these parts. */
export type SqrtdkHideable = Exclude<keyof SqrtdkSettings, 'panels' | 'hide'> | 'share' | 'export' | 'notices';

/** Every setting (the URL hash keys; attributes are the same names in kebab-case). Ranges: web/README.md. */
export interface SqrtdkSettings {
  /** saturation explorer: d_k, 1..1024 */
  dk: number;
  /** saturation explorer: number of keys, 2..500 */
  keys: number;
  /** saturation explorer: scale exponent, scores = q.k / d_k^alpha, 0..1 */
  alpha: number;
  /** saturation explorer: the draw's seed */
  seed: number;
  /** transformer layers, 1..6 */
  layers: number;
  dModel: 16 | 32 | 64 | 128 | 256;
  /** must divide dModel; d_k = dModel / heads */
  heads: 1 | 2 | 4 | 8 | 16;
  /** copy length L, 2..32 */
  copyLength: number;
  /** vocabulary, 2..64 */
  symbols: number;
  batch: 8 | 16 | 32 | 64 | 128;
  optimizer: SqrtdkOptimizer;
  /** learning rate, 1e-5..10 */
  lr: number;
  /** SGD's momentum, 0..0.99 */
  momentum: number;
  init: SqrtdkInit;
  variants: SqrtdkVariant[];
  /** the exponent of the 'alpha' variant, 0..1 */
  trainAlpha: number;
  /** seeds per variant, 1..20 */
  seeds: number;
  /** first training seed */
  trainSeed: number;
  /** steps between evaluations, 10..1000 */
  evalEvery: number;
  /** steps per run, 10..20000 */
  steps: number;
  /** the answer's loss threshold, 0.001..5 */
  threshold: number;
  weightsLogY: boolean;
  logY: boolean;
  /** display smoothing window, 1..200 */
  smooth: number;
  /** the attention heatmap's layer, 1..6 */
  heatLayer: number;
  /** the attention heatmap's head, 1..16 */
  heatHead: number;
  /** the seed whose runs the attention charts and maps show; -1: the median over seeds (the first seed's map) */
  seedShown: number;
  panels: SqrtdkPanel[];
  hide: SqrtdkHideable[];
}

/** The element's HTML attributes (for templates and JSX): every setting in kebab-case, plus the switches. */
export interface SqrtdkLabAttributes {
  'dk'?: string;
  'keys'?: string;
  'alpha'?: string;
  'seed'?: string;
  'layers'?: string;
  'd-model'?: string;
  'heads'?: string;
  'copy-length'?: string;
  'symbols'?: string;
  'batch'?: string;
  'optimizer'?: string;
  'lr'?: string;
  'momentum'?: string;
  'init'?: string;
  /** comma-separated, e.g. "scaled,unscaled" */
  'variants'?: string;
  'train-alpha'?: string;
  'seeds'?: string;
  'train-seed'?: string;
  'eval-every'?: string;
  'steps'?: string;
  'threshold'?: string;
  'weights-log-y'?: string;
  'log-y'?: string;
  'smooth'?: string;
  'heat-layer'?: string;
  'heat-head'?: string;
  'seed-shown'?: string;
  /** comma-separated: softmax, train */
  'panels'?: string;
  /** comma-separated setting keys or share, export, notices */
  'hide'?: string;
  /** read the settings from the page's URL hash and keep it up to date (the page's first element with it keeps the hash; another one gets a notice and leaves the hash alone) */
  'sync-url'?: '' | boolean;
  /** lab.html: talk to the parent page named by #parentOrigin=... (see SqrtdkFrameMessage) */
  'frame-messaging'?: '' | boolean;
}

/** sqrtdk-ready: the WebAssembly core answered its first request. */
export interface SqrtdkReadyDetail {
  panels: SqrtdkPanel[];
  settings: SqrtdkSettings;
}

/** sqrtdk-progress: at most every 250 ms while training, and once more when it stops. */
export interface SqrtdkProgressDetail {
  /** steps done, summed over every run */
  stepsDone: number;
  /** steps per run x runs */
  stepsPlanned: number;
  runs: number;
  /** runs that finished their steps, diverged or failed */
  runsFinished: number;
  running: boolean;
}

/**
 * A stall: at least `definitions.stallMinSteps` steps in which the smoothed loss stays above the threshold and
 * within `definitions.stallBand` (highest <= (1 + band) x lowest).  A run's longest one.
 */
export interface SqrtdkStall {
  /** first step */
  start: number;
  /** steps */
  length: number;
  /** median smoothed loss over the stall */
  level: number;
  /** lasts to the run's last step */
  toEnd: boolean;
}

/** One run (one variant, one seed) in the answer. */
export interface SqrtdkRunResult {
  seed: number;
  /** steps analysed (the finite part of the curve, at most the planned steps) */
  steps: number;
  /** finished, diverged or failed */
  stopped: boolean;
  /** first step whose smoothed loss is below the threshold, for a run that learned (is still below it at its last
   *  step); null if it never got there (so far), or touched it and ended above it */
  stepsToThreshold: number | null;
  /** first step whose smoothed loss was below the threshold, whether or not the run stayed there; null if none */
  touchedStep: number | null;
  stall: SqrtdkStall | null;
  /** smoothed loss at the last step */
  finalLoss: number | null;
  /** last evaluation's sequence accuracy; null before the first */
  sequenceAccuracy: number | null;
  diverged: boolean;
  divergedStep: number | null;
  /** the answer box's and the Runs list's wording */
  cells: { stepsToThreshold: string; stall: string; finalLoss: string };
}

/** One variant over its seeds. */
export interface SqrtdkVariantResult {
  name: SqrtdkVariant;
  /** the display name, e.g. "scaled 1/√d_k" (the core's, the same in the sentences and the table) */
  label: string;
  /** against the reference ('reference' for the first variant) */
  outcome: SqrtdkOutcome;
  ratio: number | null;
  stepsEarlier: number | null;
  /** median over seeds (a seed that never reached the threshold counts as slower than any); null if not a number */
  medianStepsToThreshold: number | null;
  /** the median is "never" */
  medianNever: boolean;
  medianFinalLoss: number | null;
  /** medians of start, length and level over the stalled runs (toEnd: all of them to the end); null if none */
  medianStall: SqrtdkStall | null;
  runsReaching: number;
  runsStalled: number;
  runsDiverged: number;
  /** still training and not yet below the threshold */
  runsPending: number;
  /** stopped runs that touched the threshold and ended above it: they did not learn */
  runsFellBack: number;
  stallsToEnd: number;
  /** (seed of this variant, seed of the reference) pairs compared; 0 for the reference */
  pairs: number;
  /** of them, the pairs in which the variant on the medians' side got there strictly first (for the slower
   *  variant: strictly later); a seed that never got there is the slowest, a tie counts for neither */
  pairsAhead: number;
  /** the answer table's cells */
  cells: { median: string; seeds: string; relation: string; stall: string; finalLoss: string };
  runs: SqrtdkRunResult[];
}

/**
 * 'clear': at least clearShare of the (seed, seed) pairs ordered and medians >= clearRatio apart; 'within-spread':
 * fewer pairs ordered; 'small': enough pairs ordered but medians closer than clearRatio; 'one-seed': no spread to judge; 'never' / 'reference-never' / 'neither':
 * who did not reach the threshold (median over seeds); 'pending': not known yet; 'reference': the first variant;
 * 'single': only one variant.
 */
export type SqrtdkOutcome = 'clear' | 'within-spread' | 'small' | 'one-seed' | 'never' | 'reference-never' | 'neither'
  | 'pending' | 'reference' | 'single';

/** One variant against the reference. */
export interface SqrtdkComparison {
  variant: SqrtdkVariant;
  reference: SqrtdkVariant;
  outcome: SqrtdkOutcome;
  /** variant's median steps / reference's (e.g. 1.9 = took 1.9x as many steps); null if either never got there */
  ratio: number | null;
  /** variant's median - reference's: how many steps earlier the reference got there; null as ratio */
  stepsEarlier: number | null;
}

/** sqrtdk-answer (and the element's `result`): the measured comparison, as the core's lab.compare gives it. */
export interface SqrtdkAnswerDetail {
  /** always true in the event: every run reached the threshold or stopped */
  ready: boolean;
  /** every run has finished (final levels and stalls are final) */
  final: boolean;
  threshold: number;
  steps: number;
  /** of the first comparison (the usual two-variant exercise) */
  outcome: SqrtdkOutcome;
  ratio: number | null;
  stepsEarlier: number | null;
  /** the definitions behind the numbers, and as the text shown under the table */
  definitions: {
    window: number; stallBand: number; stallMinSteps: number; clearRatio: number; clearShare: number;
    /** a softmax row is saturated when its top weight is at least this */
    saturatedTopWeight: number;
    text: { smoothedLoss: string; stepsToThreshold: string; stall: string; finalLevel: string; clearDifference: string };
  };
  variants: SqrtdkVariantResult[];
  /** the answer box's sentences, and them joined; like every text of the detail, in the element's lang (English
   *  unless strings.js is translated) */
  sentences: string[];
  sentence: string;
  /** the runs in the claims' form, "Your seeds 0–2: scaled 1/√d_k reached loss 0.1 and ended below on 3 of 3
   *  (median 63 steps), ...", the median over the seeds that learned; "" until the answer is final */
  runsHeadline: string;
  reference: SqrtdkVariant | null;
  /** every other variant against the reference */
  comparisons: SqrtdkComparison[];
  /** the mechanism readings: the sentences under the Jacobian, q/k gradient and logit-spread charts and the
   *  "why" box (title null while there is no box), as the page shows them */
  mechanism?: SqrtdkMechanism;
  /** the settings the runs used */
  settings: SqrtdkSettings;
}

/** The core's readings of the attention mechanism from the runs (src/core/answer/mechanism_reading.hpp). */
export interface SqrtdkMechanism {
  qk: string[];
  jacobian: string[];
  spread: string[];
  whyTitle: string | null;
  why: string[];
}

/** sqrtdk-diverged: a run's loss or gradient stopped being finite (or exploded); its curve so far is kept. */
export interface SqrtdkDivergedDetail {
  variant: SqrtdkVariant;
  seed: number;
  step: number;
}

/**
 * sqrtdk-error.  kind: 'wasm' the core cannot start (e.g. a Content-Security-Policy without 'wasm-unsafe-eval',
 * or a browser without WebAssembly SIMD: then the element shows only that line and its methods throw it);
 * 'helper' the explorer's worker failed; 'worker' a run's worker failed and was replaced (recoverable);
 * 'run' a run failed for good; 'message' lab.html got a bad command from its parent.
 */
export interface SqrtdkErrorDetail {
  kind: 'wasm' | 'helper' | 'worker' | 'run' | 'message';
  /** one line, for a person */
  message: string;
  /** the lab carries on by itself */
  recoverable: boolean;
  variant?: SqrtdkVariant;
  seed?: number;
}

export interface SqrtdkLabEventMap {
  'sqrtdk-ready': CustomEvent<SqrtdkReadyDetail>;
  'sqrtdk-progress': CustomEvent<SqrtdkProgressDetail>;
  'sqrtdk-answer': CustomEvent<SqrtdkAnswerDetail>;
  'sqrtdk-diverged': CustomEvent<SqrtdkDivergedDetail>;
  'sqrtdk-error': CustomEvent<SqrtdkErrorDetail>;
}

/** The element's class (customElements.get('sqrtdk-lab')): page-wide settings. */
export interface SqrtdkLabElementConstructor {
  new (): SqrtdkLabElement;
  /** Bytes the training workers of every element on the page may hold together (default 1 GiB). */
  memoryBudget: number;
}

/** <sqrtdk-lab>.  Every method throws an Error with a one-line message (and changes nothing) when it cannot act. */
export interface SqrtdkLabElement extends HTMLElement {
  /** Start or continue training (needs the train panel). */
  start(): void;
  /** Pause training: from the call on, no step is counted or drawn; resolves once no chunk is computing. */
  pause(): Promise<void>;
  /** Clear the curves; the runs start again from their seeds. */
  reset(): void;
  /** Every setting (a fresh copy). */
  get settings(): SqrtdkSettings;
  /** Some settings, or a hash such as "dk=256&seeds=1": checked like the URL; a bad value throws and changes nothing. */
  set settings(value: Partial<SqrtdkSettings> | string);
  /** The last answer, or null before one is ready and after a reset. */
  readonly result: SqrtdkAnswerDetail | null;
  /** The exercise's curves as CSV or JSON text, as the Export buttons save them (needs the train panel). */
  exportData(format: 'csv' | 'json'): string;
}

/** lab.html -> parent page, posted to exactly the origin in #parentOrigin=... */
export type SqrtdkFrameMessage =
  | { source: 'sqrtdk-lab'; type: 'sqrtdk-height'; height: number }
  | { [K in keyof SqrtdkLabEventMap]: { source: 'sqrtdk-lab'; type: K; detail: SqrtdkLabEventMap[K]['detail'] } }[keyof SqrtdkLabEventMap];

/** parent page -> lab.html (accepted only from the parent window at that origin). */
export type SqrtdkFrameCommand =
  | { type: 'start' }
  | { type: 'pause' }
  | { type: 'reset' }
  | { type: 'settings'; settings: Partial<SqrtdkSettings> | string };

declare global {
  interface HTMLElementTagNameMap {
    'sqrtdk-lab': SqrtdkLabElement;
  }
  interface CustomElementRegistry {
    get(name: 'sqrtdk-lab'): SqrtdkLabElementConstructor | undefined;
  }
  // The events bubble and are composed: a listener on the element, any ancestor or the document receives them.
  interface HTMLElementEventMap extends SqrtdkLabEventMap {}
  interface DocumentEventMap extends SqrtdkLabEventMap {}
}
