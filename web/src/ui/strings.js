// Every text the lab shows a learner or throws at a lesson page, in one place, so that a translation is one
// file (web/README.md, "Translating the lab").  The locale code (the element's language, number formatting,
// plural rules) is in locale.js.
//
// A translation replaces the English texts of STRINGS (keys and the arguments of the functions stay).  Numbers
// reach the functions already formatted for the element's lang (strings, named like `steps`, `value`); a
// function that needs the count itself for a plural gets it as a number with the lang (see `plural`).
// Not here: CSS, ids, export column names (CSV/JSON keys are data), developer-only console messages, and the
// core's own texts (scenario titles and captions come from the wasm core).

import { PHRASEBOOK } from '../core-tables.js';
import { formatNumber, plural } from './locale.js';

/** English, the lab's language.  Functions take what the sentence needs. */
export const STRINGS = Object.freeze({
  // ---- the bar at the top of every element (element/lab-instance.js) ----
  brand: 'sqrtdk lab',
  copyLink: 'Copy link',
  copyLinkTitle: 'copy a link that restores every setting, seeds included',
  linkLabel: 'link to these settings',
  linkCopied: 'Link copied.',
  copyThisLink: 'Copy this link:',
  syncUrlTaken: 'Another lab on this page already keeps the page\'s link up to date (sync-url); this one neither reads nor changes it.',
  helperFailed: (message, replaced) => `The helper worker failed (${message})${replaced ? '; it was replaced.' : '.'}`,

  // ---- the frame messaging of lab.html (api/frame-bridge.js) ----
  badParentOrigin: (value) => `parentOrigin ${value} is not an exact origin such as https://lessons.example.org; `
    + 'the lab does not talk to the page around it.',
  parentOriginMismatch: (named, actual) => `parentOrigin ${named} is not the origin of the page around the lab (${actual}); `
    + 'that page receives nothing from the lab. Set parentOrigin to the embedding page\'s origin.',
  noParentFrame: 'parentOrigin is set but the lab is not inside a frame; nothing is posted.',

  // ---- the element's methods and properties (thrown as one-line Error messages) ----
  notConnected: (member) => `sqrtdk-lab: ${member} needs the element to be in the document.`,
  noExercise: (member) => `sqrtdk-lab: ${member} needs the exercise panel (panels includes "train").`,
  badMemoryBudget: (value, defaultMiB) => `sqrtdk-lab: memoryBudget must be a whole number of bytes of at least 33 MiB (the default is ${defaultMiB} MiB = ${defaultMiB * 1048576}), not ${value}.`,
  // settings: the ones that size a run, with their values, e.g. "layers 6, dModel 256, batch 128"; lower: {key, value},
  // the largest value of one of them that fits with the others as they are, or null; byBudget: the page's budget (not
  // the core's cap on a run) is the limit
  runTooLarge: (mib, largestMiB, settings, lower, byBudget) => `sqrtdk-lab: one run needs about ${mib} MiB, more than the ${largestMiB} MiB one run may use${byBudget ? ' on this page' : ''} (${settings}); `
    + `${lower ? `the largest ${lower.key} that fits is ${lower.value}` : 'no one of these settings alone makes it fit: lower several'}`
    + `${byBudget ? ', or the page may raise SqrtdkLabElement.memoryBudget' : ''}.`,
  configRefused: (message) => `sqrtdk-lab: these settings cannot run: ${message}`,
  badExportFormat: (format) => `sqrtdk-lab: exportData(format): format must be 'csv' or 'json', not ${format}.`,
  badSettingsType: (type) => `sqrtdk-lab: settings must be an object such as {dk: 256} or a hash such as "dk=256", not ${type}.`,
  badSettingType: (key, expected, type) => `sqrtdk-lab: settings.${key} must be ${expected}, not ${type}; nothing was changed.`,
  expectedType: { int: 'a number', number: 'a number', bool: 'true or false', choice: 'a string', list: 'an array of strings' },
  anArray: 'an array',
  badSetting: (problem, more) => `sqrtdk-lab: ${problem}${more > 0 ? ` (and ${more} more)` : ''}; nothing was changed.`,

  // ---- notices about settings from the link, the attributes or the `settings` property (state/url-state.js) ----
  // A notice is a problem and what was done instead; the `settings` property throws the problem alone.
  notice: {
    link: (name) => `Link setting ${name}`,
    attribute: (name) => `Attribute ${name}`,
    withRemedy: (problem, remedy) => `${problem}; ${remedy}.`,
    alone: (problem) => `${problem}.`,
    notWhole: (where, value) => `${where}: ${value} is not a whole number`,
    notChoice: (where, value, choices) => `${where}: ${value} is not one of ${choices}`,
    outside: (where, value, min, max) => `${where}: ${value} is outside ${min}..${max}`,
    tooLong: (where, length) => `${where}: value is too long (${length} characters)`,
    notNumber: (where, value) => `${where}: ${value} is not a finite number`,
    notBoolean: (where, value) => `${where}: ${value} is not true or false`,
    ignoredItem: (where, value, choices) => `${where}: ignored ${value} (not one of ${choices})`,
    empty: (where) => `${where}: empty`,
    notASetting: (where) => `${where} is not a setting of this lab`,
    twice: (where) => `${where} appears more than once`,
    headsDivide: (heads, dModel) => `heads ${heads} does not divide d_model ${dModel}`,
    using: (value) => `using ${value}`,
    usingHeads: (heads) => `using ${heads} heads`,
    keeping: (value) => `keeping ${value}`,
    ignored: 'ignored',
    lastCounts: 'the last one counts',
  },

  // ---- events' messages (sqrtdk-error detail.message) ----
  wasmFailed: (message) => `The WebAssembly core could not start: ${message}`,
  // A feature the lab needs and the browser lacks (element/browser-support.js): the whole message, one line.
  browserLacks: (feature) => `This browser lacks ${feature}, which the lab needs: open the lesson in a current Chrome, Edge, Firefox or Safari (16.4 or later).`,
  runFailed: (label, message) => `The run ${label} failed and stopped: ${message}`,
  workerReplaced: (label, step) => `The worker of ${label} failed; it was replaced and the run resumes at step ${step}.`,
  badMessage: (problem) => `sqrtdk-lab: message ignored: ${problem}`,
  unknownCommand: (type) => `unknown type ${type} (expected start, pause, reset or settings)`,

  // ---- shared pieces: notices box, controls, a run's name (the variants' names are the core's: answer below) ----
  dismiss: 'Dismiss',
  dismissNotices: 'Dismiss notices',
  exactValue: (label) => `${label} (exact value)`,
  // a table wider than the screen (ui/scroll-region.js): the hint above it, and its name when it takes focus
  scrollHint: 'Scroll the table sideways for more columns (or focus it and use the arrow keys).',
  scrollRegion: (table) => `${table}, scrolls sideways`,
  runName: (variant, seed) => `${variant} seed ${seed}`,

  // ---- charts (charts/*.js): titles and labels come from the panels ----
  charts: {
    png: 'PNG',
    pngLabel: (name) => `Download ${name} chart as PNG`,
    series: (title) => `${title}: series`,
    showOrHide: (label) => `Show or hide ${label}`,
    band: (label) => `${label} range`,
    seedLine: (label, seed) => `${label}, seed ${seed}`,
    readoutX: (label, x) => `${label} ${x}`,
    readoutItem: (label, value, range, at) => `${label} ${value}${range}${at}`,
    readoutAt: (label, x) => ` (${label} ${x})`,
    readoutRange: (lo, hi) => ` (${lo}–${hi})`,
    histogramDescription: (title) => `${title}: histogram with the predicted normal density`,
    histogramCaption: (curve, samples) => `bars: ${samples} samples; dashed: ${curve}`,
    histogramOutside: (percent) => `; ${percent} % fell outside the plotted range`,
    histogramNote: (note) => `. ${note}`,
    heatmapDescription: (title) => `${title}: attention weights, query rows by key columns`,
    heatmapEmpty: 'no map yet: start training',
    heatmapKeys: 'key position (B = BOS, S = SEP)',
    heatmapQueries: 'query position',
    heatmapScaleTop: '1',
    heatmapScaleBottom: '0',
    bos: 'B',
    sep: 'S',
  },

  // ---- panel 1, the saturation explorer (explorer/softmax-panel.js) ----
  softmax: {
    title: 'Saturation explorer: one query, many keys',
    lede: 'q and every key are random vectors with d_k independent N(0, 1) components, so q·k has variance d_k. '
      + 'Raw scores have a standard deviation of √d_k, which can saturate the softmax (one key takes almost all the weight: how often, the note under '
      + 'the printout counts); dividing by √d_k brings their standard deviation to 1.',
    settings: 'Explorer settings',
    dk: 'd_k (query/key dimension)',
    dkHint: (from, to) => `log slider, ${from} to ${to}`,
    keys: 'number of keys',
    alpha: 'scale exponent α (scores = q·k / d_k^α)',
    presets: 'scale presets',
    presetRaw: 'raw',
    presetRawTitle: 'alpha 0: no scaling',
    presetSqrt: '1/√d_k',
    presetSqrtTitle: 'alpha 0.5: the Transformer’s scaling',
    presetLinear: '1/d_k',
    presetLinearTitle: 'alpha 1: the 1/d_k scaling of μP (maximal update parametrisation)',
    seed: 'seed',
    resample: 'Resample',
    resampleTitle: 'a new draw (next seed)',
    logScale: 'log scale',
    // the printout
    printoutTitle: (keys, dk, seed, alpha) => `one draw: q and ${keys} keys ~ N(0, I) in d_k = ${dk}, seed ${seed}; `
      + `raw = softmax(q·k), scaled = softmax(q·k / d_k^α), α = ${alpha}`,
    columns: ['softmax', 'top 5 weights', 'max', 'entropy', 'eff. keys', '|J|_F'],
    columnTitles: ['raw: of q·k; scaled: of q·k / d_k^α', 'the largest softmax weights, descending', 'largest weight', 'entropy in nats',
      'exp(entropy): how many keys the weight is spread over', 'Frobenius norm of the softmax Jacobian diag(p) − p pᵀ: how much gradient gets through'],
    topWeights: (top) => `top ${top} weights`,
    printoutTable: 'Printout table',
    raw: 'raw',
    scaled: 'scaled',
    effectiveKeys: (effective, keys) => `${effective} / ${keys}`,
    printoutNote: (keys, lnKeys) => `entropy in nats (uniform over ${keys} keys: ln ${keys} = ${lnKeys}); `
      + '|J|_F = ‖diag(p) − p pᵀ‖_F, how much gradient gets through the softmax',
    readout: ({ rawTop, rawKeys, scaledTop, scaledKeys, rawJ, scaledJ, more }) => `Raw: top weight ${rawTop}, the weight shared by `
      + `${rawKeys} effective keys. Scaled: top weight ${scaledTop}, the weight shared by ${scaledKeys} keys. Gradient through the softmax (|J|_F): ${rawJ} raw vs `
      + `${scaledJ} scaled${more ? ` (${more}× more when scaled)` : ''}.`,
    // the charts
    weightsTitle: 'Softmax weights, sorted',
    weightsBelowFloor: (floor, raw, scaled, keys) => `Log axis: weights below ${floor} are left out (raw: ${raw} of ${keys}, scaled: ${scaled} of ${keys}).`,
    rank: 'rank',
    weight: 'weight',
    rawHistogram: 'q·k over many draws',
    scaledHistogram: 'scaled q·k over many draws',
    dot: 'q·k',
    scaledDot: 'q·k / d_k^α',
    rawDot: 'weights of raw q·k',
    // The scaled side as the training variants are written: 1/√d_k at α = 0.5, else 1/d_k^α with its α.
    dotOverSqrt: 'weights of q·k / √d_k',
    dotOver: (alpha) => `weights of q·k / d_k^α, α=${alpha}`,
    overSqrt: 'scaled 1/√d_k',
    over: (alpha) => `scaled 1/d_k^α, α=${alpha}`,
    normalRaw: (dk) => `N(0, d_k = ${dk})`,
    normalUnit: 'N(0, 1)',
    normalScaled: (variance) => `N(0, d_k^(1−2α) = ${variance})`,
    sweepTop: 'Median top weight vs d_k',
    sweepTopY: 'top weight',
    sweepEntropy: 'Median entropy vs d_k (nats)',
    sweepEntropyY: 'entropy',
    sweepJacobian: 'Median Jacobian norm vs d_k',
    sweepJacobianY: '|J|_F',
    dkAxis: 'd_k',
    sweepTitle: 'How saturation grows with d_k ',
    sweepHint: (draws) => `Median and middle half (quartiles) over the sweep's own ${draws} draws at each d_k (separate from the draws the rank above counts, so at the current d_k the medians can differ slightly); the dashed line marks the current d_k. `
      + 'The Jacobian norm first rises as the softmax sharpens, then collapses once it saturates.',
    computing: '(computing…)',
    useExerciseDk: (dk) => (dk === undefined ? 'use the exercise’s d_k' : `use the exercise’s d_k (${dk})`),
    failed: (what, message) => `${what} failed: ${message}`,
    demo: 'The softmax demo',
    drawSetFailed: 'The set of draws',
    showMedian: (seed) => `show the median draw (seed ${seed})`,
    histogram: 'The histogram',
    sweep: 'The sweep',
  },

  // ---- the explorer's notes, written from the numbers it measured (explorer/softmax-notes.js) ----
  softmaxNotes: {
    tail: (percent, normalPercent) => `${percent} % of samples lie more than 3 standard deviations (3σ) from 0 (a normal: ${normalPercent} %)`,
    tailNormal: (measured) => `${measured}: less than twice a normal's share, which this page reads as tails like the dashed normal curve's (no heavy tail of large scores)`,
    tailNotNormal: (measured, dk, count, lang) => `${measured}: at d_k = ${dk}, q·k is a sum of only `
      + `${plural(lang, count, { one: `${dk} product`, other: `${dk} products` })} of two normals, `
      + 'which is not normal (peaked, heavy-tailed); the dashed curve only matches its variance, and the sum approaches it as d_k grows',
    model: (dModel, heads, count, lang) => `d_model ${dModel} / ${plural(lang, count, { one: `${heads} head`, other: `${heads} heads` })}`,
    noSweep: (dk, model) => `The exercise trains with d_k = ${dk} (${model}).`,
    // Saturated: a top weight of at least the core's bar, as the training notes say it.
    notSaturated: (bar) => `the raw softmax is not saturated yet (saturated: a top weight of at least ${bar})`,
    saturated: (bar) => `the raw softmax is already saturated (a top weight of at least ${bar})`,
    saturatedFrom: (dk, lastDk, raw, scaled) => `From d_k ≈ ${dk} on, the median draw’s raw softmax is saturated, and its |J|_F falls towards 0 `
      + `(at ${lastDk}: ${raw} raw vs ${scaled} scaled, medians).`,
    neverSaturated: (bar) => `In this sweep the raw softmax never reaches a median top weight of ${bar}.`,
    evenRow: (keys, value) => `|J|_F also shrinks as a row gets longer: ${keys} keys sharing the weight evenly give ${value}, so compare raw with scaled at the same number of keys.`,
    // Where the shown draw stands among the fixed set of draws (explorer/draw-rank.js).
    drawSet: (size, last) => `the ${size} draws of seeds 0–${last}`,
    standingMedian: ({ seed, rank, size, set, dk, keys, opens }) => `Seed ${seed} is the median draw of ${set} at d_k = ${dk} with ${keys} keys `
      + `(${size % 2 ? 'the middle one' : 'the lower of the two middle ones'}): rank ${rank} of ${size}, ranked by the raw softmax’s top weight from the flattest (1) to the sharpest (${size})`
      + `${opens ? '. The explorer opens on the median draw, so that its first draw is a typical one.' : '.'}`,
    standingRank: ({ seed, rank, size, set, dk, keys, flatter }) => `Seed ${seed} is one draw: among ${set} at d_k = ${dk} with ${keys} keys, `
      + `ranked by the raw softmax’s top weight from the flattest (1) to the sharpest (${size}), it has rank ${rank} of ${size} `
      + `(${flatter} of ${size} are flatter).`,
    standingOutside: ({ seed, size, set, dk, keys, flatter }) => `Seed ${seed} is one draw outside ${set}: at d_k = ${dk} with ${keys} keys, `
      + `${flatter} of those ${size} draws have a smaller raw top weight (a flatter raw softmax).`,
    setSpread: ({ size, median, q1, q3, saturated, percent, bar }) => `Over those ${size} draws the raw top weight has a median of ${median} `
      + `and ${q1 === q3 ? `a middle half that rounds to ${q1}` : `a middle half of ${q1}–${q3}`}; ${saturated} of ${size} (${percent} %) are saturated (top weight at least ${bar}).`,
    drawSaturated: ({ top, rest, bar, rawJ, scaledJ, less }) => `This draw’s raw softmax is saturated: its top key takes ${rest ? `all but ${rest}` : top} of the weight `
      + `(saturated: at least ${bar}), and |J|_F is ${rawJ} raw vs ${scaledJ} scaled${less ? `: a ${less}× smaller |J|_F (how much gradient the softmax can pass) through the raw softmax` : ''}.`,
    drawNotSaturated: ({ top, bar, rawJ, scaledJ }) => `This draw’s raw softmax is not saturated (top weight ${top}, below ${bar}); `
      + `|J|_F is ${rawJ} raw vs ${scaledJ} scaled.`,
    drawPassesMore: ({ top, bar, effective, scaledEffective, rawJ, scaledJ }) => `This draw’s raw softmax is not saturated (top weight ${top}, below ${bar}): `
      + `its weight is shared by about ${effective} keys against ${scaledEffective} for the scaled one, and here the raw softmax passes more gradient `
      + `(|J|_F ${rawJ} raw vs ${scaledJ} scaled). |J|_F is larger when a few keys share the weight than when many share it (n keys evenly: √(n−1)/n), `
      + 'and falls towards 0 as one key takes all of it: the lesson is about saturated rows, where the gradient through the softmax vanishes.',
    passesMoreCount: ({ more, size, saturated }) => (more === '0' ? `Raw |J|_F is larger than scaled on none of the ${size} draws. `
      : `Raw |J|_F is larger than scaled on ${more} of the ${size} draws, ${saturated} of those ${more} saturated. `) + `|J|_F is largest when a few keys share the weight and falls towards 0 as one key takes all of it: `
      + 'a raw row that is not saturated can pass more gradient than the flatter scaled row, and a saturated one, whose top weight is near 1, passes little.',
    exercise: ({ dk, model, draws, keys, rawTop, scaledTop, raw, scaled, here, where, even, copyLength }) => `At the exercise’s d_k = ${dk} (${model}), `
      + `over ${draws} draws of ${keys} keys the median top weight is ${rawTop} raw vs ${scaledTop} scaled and the median |J|_F ${raw} raw vs ${scaled} scaled: `
      + `${here}. ${where} ${even} These rows have ${keys} keys; in the exercise each query attends to itself and the tokens before it, `
      + `so its rows have 1 to 2L + 1 keys (L, the copy length: ${copyLength}), and its q and k are learned, not drawn from N(0, 1).`,
  },

  // ---- panel 2, the exercise (exercise/train-panel.js) ----
  train: {
    title: 'The exercise: train with and without the scaling',
    lede: 'A small Transformer learns to copy random symbols (BOS x₁…x_L SEP x₁…x_L). The lesson asks: “the unscaled version '
      + 'should plateau earlier or fail to learn entirely: how much earlier?” Counted per run (each in its own worker): '
      + 'the steps to a loss below the threshold.',
    applyNow: 'Apply now',
    export: 'export',
    exportCsv: 'Export CSV',
    exportJson: 'Export JSON',
    exportNotebook: 'Download as notebook',
    exportScript: 'Download as Python script',
    exportTorchTitle: 'This exercise in PyTorch: the same model, task, optimizer and settings, each variant on each seed, '
      + 'the loss curves and the answer in the lab’s definitions. PyTorch draws its own random numbers: single seeds differ, rates agree.',
    answerFailed: (message) => `The answer could not be computed: ${message}`,
    cannotStart: (message) => `The runs could not start: ${message}`,
    pending: (runs, steps) => `Settings changed: Start trains them from step 0 and clears the ${runs} runs shown `
      + `(${steps} steps in all); until then their curves stay.`,
    startNew: 'Start (new settings)',
    continue: 'Continue',
    loading: (lang, count, runs) => plural(lang, count, { one: `Loading the model of ${runs} run…`, other: `Loading the model of ${runs} runs…` }),
    // runs waiting for memory (the page's budget) until runs of the page, this lab's or another's, give theirs back
    waitingForMemory: (lang, count, runs) => plural(lang, count, { one: `${runs} run waits for memory until other runs of this page finish.`,
      other: `${runs} runs wait for memory until other runs of this page finish.` }),
    training: (step, steps) => `Training: step ${step} of ${steps}.`,
    finished: (steps) => `Finished: ${steps} steps per run.`,
    paused: (step, steps) => `Paused at step ${step} of ${steps}.`,
    trainingAll: (done, planned, openFirst) => `Training: ${done} of ${planned} steps in all`
      + `${openFirst ? '; the runs that have not reached the threshold yet go first, so that the answer comes sooner' : ''}.`,
    pausedAll: (done, planned) => `Paused: ${done} of ${planned} steps in all.`,
  },

  // ---- the exercise's settings and buttons (exercise/train-controls.js) ----
  trainControls: {
    layers: 'layers',
    dModel: 'd_model',
    heads: 'heads',
    headOption: (heads, dk) => `${heads} (d_k = ${dk})`,
    copyLength: 'copy length L',
    symbols: 'symbols',
    batch: 'batch',
    lr: 'learning rate',
    lrHint: (from, to) => `log slider, ${from} to ${to}`,
    optimizer: 'optimizer',
    sgd: 'SGD with momentum',
    adam: 'Adam',
    optimizerHint: 'SGD steps by lr × gradient; Adam by lr × a normalised gradient',
    momentum: 'momentum (SGD)',
    steps: 'steps per run',
    init: 'initialisation',
    xavier: 'Xavier (unit-variance q, k)',
    torch: 'PyTorch Linear default',
    gpt: 'GPT N(0, 0.02²)',
    predictionPending: 'predicted logit std at init: …',
    prediction: (parts) => `predicted logit std at init: ${parts.join(' · ')}`,
    predictionPart: (label, std) => `${label} ${std}`,
    variants: 'variants to compare',
    trainAlpha: 'α of the 1/d_k^α variant',
    seeds: 'seeds per variant',
    trainSeed: 'first seed',
    threshold: 'loss threshold',
    evalEvery: 'evaluate every (steps)',
    start: 'Start',
    pause: 'Pause',
    step: 'Step',
    stepTitle: 'one training step of every run',
    reset: 'Reset',
    resetTitle: 'clear the curves and start again from the seeds',
    training: 'training',
    settings: 'Settings',
    settingsLabel: 'Exercise settings',
    compare: 'Compare',
    model: 'Model',
    task: 'Task',
    trainingGroup: 'Training',
  },

  // ---- the exercise's charts (exercise/train-charts.js) ----
  trainCharts: {
    loss: 'Copy loss (each seed, their median and range)',
    lossY: 'loss',
    step: 'step',
    logY: 'log y',
    smoothing: 'smoothing (steps)',
    accuracy: 'Sequence accuracy (greedy copy, evaluation batch)',
    accuracyY: 'accuracy',
    entropy: (which) => `Attention entropy per layer (nats, ${which})`,
    entropyY: 'entropy',
    qk: 'Gradient reaching the queries and keys (‖∇W_q, W_k‖: the size of the loss’s gradient on the query and key weights, all layers)',
    qkY: 'gradient norm',
    spread: 'Attention logit spread (row max − mean, after scaling; mean over layers)',
    spreadY: 'logit spread',
    jacobian: (which) => `Softmax Jacobian norm |J|_F per layer (mean over the attention rows, ${which})`,
    // Which runs the attention charts and maps show: the median over seeds, or one seed's own.
    medianOverSeeds: 'median over seeds',
    oneSeed: (seed) => `seed ${seed}`,
    seedShown: 'The attention charts and maps below show',
    seedShownMedian: 'the median over seeds',
    seedShownHint: 'With the median, the shaded band is the range of the seeds. Pick a seed to see its own curves and map, '
      + 'for example one that stalled (under Runs, each run\'s seed is a button).',
    seedLine: (label, seed) => `${label} · seed ${seed}`,
    jacobianY: '|J|_F',
    layer: 'layer',
    head: 'head',
    layerLine: (label, layer) => `${label} · layer ${layer}`,
    heatmapsTitle: 'Attention on one evaluation example',
    heatmapHint: 'Rows are query positions, columns the keys they attend to (the seed chosen above; with the median chosen, each variant\'s first seed). '
      + 'A model that copies attends, from the SEP row (S) and each row below it, to the key holding the symbol it must write next, '
      + 'L positions back: one cell per row, each with its lower-left corner on the dotted line, so these cells sit just above and to the right of the line.',
    heatmapCaption: (step, layer, head, seed) => `step ${step} · layer ${layer} · head ${head} · seed ${seed}`,
    mechanismPending: 'The readings appear once every run has done a trailing window of steps.',
    thresholdLine: (threshold) => `threshold ${threshold}`,
    medianLine: (steps) => `median ${steps}`,
    neverLine: (label) => `${label}: median never below`,
    levelMark: (level, final) => `${final ? 'final level' : 'level now'} (median) ${level}`,
    lossNote: (threshold, window, smooth) => `Thin lines: each seed; thick: the median over seeds where every seed has data, shaded: their range. `
      + `Dashed line: the threshold ${threshold}. The answer reads each seed’s smoothed loss (the mean of its last ${window} steps’ losses): a dot marks the step it first went below the threshold (a hollow dot: it went below and ended above, so it counts as never), a vertical line each variant's median of those steps (a seed that never got there counts as the slowest).`
      + (smooth === window ? '' : smooth === '1' ? ' The chart now shows each step unsmoothed, so the curves cross the threshold elsewhere than the dots.'
        : ` The chart now smooths over ${smooth} steps, so the curves cross the threshold elsewhere than the dots.`),
  },

  // ---- notes next to the exercise's charts, from numbers measured in the page (exercise/train-notes.js) ----
  trainNotes: {
    init: { xavier: 'Xavier init', torch: 'PyTorch’s default init', gpt: 'GPT-style init' },
    listItem: (label, value) => `${label} ${value}`,
    nats: (value) => `${value} nats`,
    predicted: (init, list) => `Predicted attention-logit std at init (${init}): ${list}`,
    measuredAtStep1: (list) => `. Measured at step 1: attention entropy (the mean over layers, the median over seeds) ${list} (the first point of the entropy chart; the heatmaps after one Step show it)`,
    pressStep: '. Press Step once to see it in the entropy chart and the heatmaps',
    start: (predicted, measured) => `${predicted}${measured}. Whether a variant starts saturated (one key taking almost all the weight) is read in the sentence under the softmax Jacobian chart: each layer’s mean top weight at step 1.`,
  },

  // ---- the runs' table and progress (exercise/run-table.js) ----
  runs: {
    progress: 'training progress',
    // steps trained in all runs together: "1,200 of 2,400 steps (6 runs × 400 steps)"
    summary: (done, total, runs, steps) => `${done} of ${total} steps (${runs} runs × ${steps} steps)`,
    rate: (rate) => ` · ${rate} steps/s`,
    eta: (time) => ` · about ${time} left`,
    seconds: (s) => `${s} s`,
    minutes: (m) => `${m} min`,
    hours: (h, m) => `${h} h ${m} min`,
    title: 'Runs',
    table: 'Runs table',
    showSeed: (seed) => `show seed ${seed} in the attention charts and maps`,
    columns: ['run', 'seed', 'steps', 'steps/s', 'logit std at init', 'status', 'steps to threshold', 'stall', 'smoothed loss'],
    status: { waiting: 'waiting', memory: 'waiting for memory', loading: 'loading wasm…', training: 'training', paused: 'paused', done: 'done', diverged: 'diverged', failed: 'failed' },
    // a run waiting in the page's queue for memory, with `ahead` (a count, and as written) runs of the page before it
    waitingForMemory: (lang, ahead, runs) => plural(lang, ahead, { one: `waiting for memory: ${runs} run ahead`,
      other: `waiting for memory: ${runs} runs ahead` }),
    divergedAt: (step) => `diverged at step ${step}`,
    failed: (message) => `failed: ${message}`,
    replaced: (times) => ` (worker replaced ${times}×)`,
    steps: (done, steps) => `${done} / ${steps}`,
    none: '–',
  },

  // ---- the answer box's own words (exercise/answer-view.js; the answer itself is the core's) ----
  answerBox: {
    title: 'Answer (measured)',
    definitions: 'definitions',
    definitionsSummary: 'How these numbers are measured',
    table: 'Answer table',
    pressStart: (threshold) => `Press Start: the box fills with the steps each variant needs to bring its smoothed loss below ${threshold}.`,
    measuring: (parts) => `Measuring… ${parts.join(' · ')}.`,
    measuringVariant: (label, reaching, seeds, threshold) => `${label}: ${reaching} of ${seeds} seeds below ${threshold}`,
    goingOn: (steps) => `Every run has reached the threshold or stopped. The runs go on to their ${steps} steps for the final levels and stalls.`,
    finished: (steps) => `All runs finished (${steps} steps each).`,
    announce: (sentences) => `Answer: ${sentences.join(' ')}`,
    columns: (threshold, seeds, final) => ['variant', `steps to ${threshold}, each seed (${seeds})`,
      'median of the seeds (never: the slowest)', 'vs reference', 'stall',
      final ? 'final level (median)' : 'level now (median)'],
    divergedColumn: 'diverged',
    diverged: (runs, of) => `${runs} of ${of}`,
    inspect: (threshold) => `Seeds with a run that did not reach ${threshold} or stalled; a button shows that seed's own curves and attention maps in the charts below:`,
    inspectSeed: (seed, runs) => `seed ${seed}: ${runs}`,
    inspectRun: (label, what) => `${label} ${what}`,
    stall: (cell) => `stall ${cell}`,
  },

  // ---- the offer under a finished answer (exercise/more-seeds.js) ----
  moreSeeds: {
    why: 'More seeds make the count surer: the answer counts the pairs of seeds in which one variant got there first.',
    run: (more, total) => `Run ${more} more seeds (${total} in all)`,
  },

  // ---- the scenarios box (exercise/scenarios-view.js; the presets' titles and captions are the core's) ----
  scenarios: {
    title: 'Scenarios: one click sets up an experiment',
    hint: 'A preset sets every training setting (and the link); Run also starts it. Beside it: what was measured, and folded under that, what to look at.',
    run: 'Run',
    runLabel: (title) => `Run the preset ${title}`,
    preset: 'preset',
    lookAt: 'what was measured',
    more: 'What to look at, and every count',
    table: 'Presets table',
    // What Run trains: fewer seeds than the claim counts, so that it finishes in the tab.
    runs: (seeds, variants, steps, claimSeeds) => `Run trains seeds ${seeds} of each of its ${variants} variants for ${steps} steps`
      + (claimSeeds ? `; the claim above counts seeds ${claimSeeds}.` : '.'),
    seedRange: (first, last) => `${first}–${last}`,
  },

  // ---- notices from the runs (training/exercise.js) ----
  exercise: {
    diverged: (run, step) => `${run} diverged at step ${step}; the other runs go on.`,
    workerFailedAgain: (run, message) => `The worker of ${run} failed again (${message}); the run is stopped, the others go on.`,
    workerReplaced: (run, message, step) => `The worker of ${run} failed (${message}); it was replaced and the run resumes at step ${step}.`,
    workerFailedTimes: (times, message) => `worker failed ${times} times (${message})`,
  },

  // ---- the lesson's claim and the glossary (lesson/glossary.js); the entries are the core's (answer, below) ----
  // The demo in one line above the exercise (lesson/demo-headline.js); its saturation verdict is the core's (mech.top.*).
  headline: {
    text: ({ keys, dk, seed, where, rawTop, scaledTop, rawJ, scaledJ, verdict, scale }) => `The demo in one line: one query and ${keys} `
      + `random keys in d_k = ${dk}, seed ${seed} (${where}). Raw softmax: top weight ${rawTop} (${verdict}); ${scale}: ${scaledTop}. `
      + `Gradient through the softmax (|J|_F): ${rawJ} raw vs ${scaledJ} scaled.`,
    below: ' The demo itself is below the exercise.',  // after the glossary's "?" for |J|_F
    middle: (rank, size) => `a middle draw of ${size}: rank ${rank} of ${size} by raw top weight`,
    rank: (rank, size) => `rank ${rank} of ${size} draws by raw top weight, 1 the flattest`,
    outside: (size) => `a draw outside the ${size} the demo ranks`,
    scale: (sqrt, alpha) => (sqrt ? 'scaled by 1/√d_k' : `scaled by 1/d_k^α, α = ${alpha}`),
  },
  glossary: {
    quoteSummary: 'The lesson’s claim, in the paper’s words: Vaswani et al. (2017), section 3.2.1 and footnote 4',
    source: 'Source:',
    title: (count, lang) => (count === null ? 'Glossary' : `Glossary: the ${formatNumber(count, lang)} terms this lab uses`),
    termsUsed: 'Terms used in this panel (each opens its entry in the glossary):',
    termsFirst: 'Words met here, in the glossary:',
    whatIs: (term) => `What is ${term}? (glossary)`,
    failed: (message) => `The glossary could not be loaded: ${message}`,
  },

  // answer: the core's phrasebook: the templates of the answer's sentences, table cells and definitions, key ->
  // template, "{name}" filled in (web/src/analysis/render-message.js).  English comes from the core
  // (src/core/text/phrasebook.cpp, via core-tables.js); a translation replaces PHRASEBOOK here with an object of the
  // same keys (plural keys may add .zero/.two/.few/.many forms; a missing key falls back to English).
  answer: PHRASEBOOK,
});
