// Every setting of the lab in one table, in the spirit of TensorFlow Playground's state.ts: the URL hash,
// the element's attributes and the controls all read it, so a setting exists in exactly one place.
// Pure data: no DOM.
//
// Settings of a training run come from the core's settings table (core-tables.js, generated from
// src/core/settings/settings.cpp), the explorer's from its table (src/core/settings/explorer_settings.hpp), seeds, steps and
// threshold from the run table (src/core/settings/run_settings.hpp): their type, default, limits, choices and doc are
// the core's.  This file adds only what belongs to the page: the key (the core's JS key unless it would
// clash), the label, the group, and a narrower range or a set of choices where the page wants one.
//
//   key      the URL hash key (attribute: the same in kebab-case, e.g. dModel -> d-model)
//   type     'int' | 'number' | 'bool' | 'choice' | 'list'
//   default  the value when nothing sets it
//   min/max  inclusive range for int and number (values outside are clamped with a notice)
//   choices  allowed values for choice and list, and for an int restricted to a set (nearest is taken)
//   group    'softmax' (panel 1), 'train' (panel 2 model/task/optimizer: changing one starts a fresh
//            exercise), 'run' (panel 2 settings that do not invalidate the runs), 'view', 'layout'
//   label    how notices and controls name it
//   sparse   written in the page's link only when not its default (as the layout keys are)
//   setting  the core setting's canonical name, for properties backed by one (its row: CORE_SETTINGS);
//            explorerSetting, runSetting: the same for the explorer's and the run's tables
//   doc      the core's one-line doc, for those; for a property of the page alone, the page's
//   note     what a user needs beyond the core's doc, written after it
// web/settings-docs.mjs writes web/README.md's settings table and the .d.ts's settings types from these rows.

import { curveDefinitions, explorerSettings, runSettings, settings } from '../core-tables.js';

/** The core's settings table by canonical name (src/core/settings/settings.cpp). */
export const CORE_SETTINGS = new Map(settings.map((s) => [s.name, s]));
/** The explorer's settings table by name (src/core/settings/explorer_settings.hpp). */
export const EXPLORER_SETTINGS = new Map(explorerSettings.map((s) => [s.name, s]));
/** An exercise run's settings table by name: seeds, steps, threshold (src/core/settings/run_settings.hpp). */
export const RUN_SETTINGS = new Map(runSettings.map((s) => [s.name, s]));

const PAGE_TYPE = { integer: 'int', seed: 'int', real: 'number', choice: 'choice' };

/**
 * A page property backed by the core setting `name`: type, default, range, choices and doc from the core;
 * `page` gives the key (default: the core's JS key), the label and group, and may narrow the range (min/max
 * inside the core's) or restrict an integer to `choices`.
 */
function fromCore(name, page) {
  const s = CORE_SETTINGS.get(name);
  if (!s) throw new Error(`properties.js: the core has no setting '${name}'`);
  return {
    key: s.jsKey,
    type: PAGE_TYPE[s.type],
    default: s.default,
    ...(s.type === 'choice' ? { choices: s.choices } : page.choices ? {} : { min: s.min, max: s.max }),
    setting: s.name,
    doc: s.doc,
    ...page,
  };
}

/**
 * A page property backed by a row of a core range table (the explorer's or a run's) named `name`: default,
 * range and doc from the core; `page` as in fromCore.
 */
function fromRange(table, name, page) {
  const s = table.get(name);
  if (!s) throw new Error(`properties.js: the core has no range setting '${name}'`);
  return { key: name, type: s.type === 'integer' ? 'int' : 'number', default: s.default, min: s.min, max: s.max,
    doc: s.doc, ...page };
}
const fromExplorer = (name, page) => fromRange(EXPLORER_SETTINGS, name, { explorerSetting: name, ...page });
const fromRun = (name, page) => fromRange(RUN_SETTINGS, name, { runSetting: name, ...page });

// The largest seed: the core's (2^53 - 1, exact in a JS number), as its seed rows say.
export const MAX_SEED = CORE_SETTINGS.get('seed').max;
// Seeds per variant the page trains at most (the core allows more): the claims' seeds (kClaimSeeds, src/core/claims/claims.hpp;
// tests/node/mechanism.test.mjs holds the two equal), enough for a verdict over 20 x 20 pairs of
// seeds, as the scenarios' claims are measured; the memory budget queues what does not fit at once.
const MAX_SEEDS = 20;

/** Attention variants of the exercise (the core's scale modes), in the order the answer compares them. */
export const VARIANTS = CORE_SETTINGS.get('scale').choices;
// In the order they are shown: the experiment first (its Start in the first screen), then the explorer of why.
export const PANELS = Object.freeze(['train', 'softmax']);

/** The learning rate an optimizer trains at unless one is given (the core's lr row). */
export function defaultLr(optimizer) {
  const lr = CORE_SETTINGS.get('lr');
  return optimizer === 'sgd' ? lr.sgdDefault : lr.default;
}

/** UI parts that are not settings but can still be hidden with hide="...". */
export const HIDEABLE_PARTS = Object.freeze(['share', 'export', 'notices']);

// The page's sliders stop inside the core's ranges: d_k at 1024 (the sweep chart spans the slider's range), keys
// at 500 and alpha at 1 (muP's 1/d_k), where the charts stay readable.
const SOFTMAX = [
  fromExplorer('dk', { max: 1024, group: 'softmax', label: 'd_k', note: 'a log slider' }),
  fromExplorer('keys', { max: 500, group: 'softmax', label: 'number of keys' }),
  fromExplorer('alpha', { max: 1, group: 'softmax', label: 'scale exponent alpha' }),
  fromExplorer('seed', { group: 'softmax', label: 'demo seed',
    note: '142: a middle draw of seeds 0–199 at the defaults, rank 100 of 200 by raw top weight' }),
];

const TRAIN = [
  fromCore('layers', { max: 6, group: 'train', label: 'layers' }),
  fromCore('d_model', { choices: [16, 32, 64, 128, 256], group: 'train', label: 'd_model' }),
  fromCore('heads', { choices: [1, 2, 4, 8, 16], group: 'train', label: 'heads' }),
  fromCore('copy_length', { min: 2, max: 32, group: 'train', label: 'copy length' }),
  fromCore('symbols', { max: 64, group: 'train', label: 'symbols' }),
  fromCore('batch', { choices: [8, 16, 32, 64, 128], group: 'train', label: 'batch' }),
  fromCore('optimizer', { group: 'train', label: 'optimizer' }),
  fromCore('lr', { min: 1e-5, max: 10, group: 'train', label: 'learning rate' }),
  fromCore('momentum', { max: 0.99, group: 'train', label: 'SGD momentum' }),
  fromCore('init', { group: 'train', label: 'init' }),
  { key: 'variants', type: 'list', default: ['scaled', 'unscaled'], choices: VARIANTS, group: 'train',
    label: 'variants', doc: 'the attention variants trained side by side; the first is the answer\'s reference' },
  fromRun('trainAlpha', { max: 1, group: 'train', label: 'alpha of the alpha variant' }),
  fromRun('seeds', { max: MAX_SEEDS, group: 'train', label: 'seeds',
    note: 'under a finished answer the page offers to run more, keeping the finished runs' }),
  fromCore('seed', { key: 'trainSeed', max: MAX_SEED - (MAX_SEEDS - 1), group: 'train', label: 'first seed',
    note: 'the first training seed: the runs use trainSeed .. trainSeed + seeds − 1' }),
  fromCore('eval_every', { min: 10, max: 1000, group: 'train', label: 'evaluate every' }),
];

// The page's controls stop inside the core's ranges: at least 10 steps (a curve to read) and at most 20000 (a
// few minutes in a browser), a threshold between 0.001 and 5 (the copy task's loss starts at ln(symbols)).
const RUN = [
  fromRun('steps', { min: 10, max: 20000, group: 'run', label: 'steps' }),
  fromRun('threshold', { min: 0.001, max: 5, group: 'run', label: 'loss threshold' }),
];

const VIEW = [
  { key: 'weightsLogY', type: 'bool', default: false, group: 'view', label: 'log-scale softmax weights',
    doc: 'the explorer\'s sorted-weights chart on a log scale' },
  { key: 'logY', type: 'bool', default: true, group: 'view', label: 'log-scale loss', doc: 'the loss chart on a log scale' },
  // By default the charts smooth as the answer does (its trailing window), so its markers sit on the curves.
  { key: 'smooth', type: 'int', default: curveDefinitions.window, min: 1, max: 200, group: 'view', label: 'smoothing window',
    doc: 'the charts\' display smoothing window, in steps' },
  { key: 'heatLayer', type: 'int', default: 2, min: 1, max: 6, group: 'view', label: 'heatmap layer',
    doc: 'the layer of the attention map shown (clamped to the model)' },
  { key: 'heatHead', type: 'int', default: 1, min: 1, max: 16, group: 'view', label: 'heatmap head',
    doc: 'the head of the attention map shown (clamped to the model)' },
  { key: 'seedShown', type: 'int', default: -1, min: -1, max: MAX_SEED, group: 'view', sparse: true,
    label: 'seed shown by the mechanism charts and attention maps (-1: the median over seeds)',
    doc: 'the seed whose own curves the attention charts and whose map the heatmaps show; -1 (or a seed with no '
      + 'run): the median over seeds and each variant\'s first seed\'s map' },
];

const LAYOUT = [
  { key: 'panels', type: 'list', default: [...PANELS], choices: PANELS, group: 'layout', label: 'panels',
    doc: 'the panels shown, always in the order of the choices' },
  { key: 'hide', type: 'list', default: [], allowEmpty: true, group: 'layout', label: 'hidden controls',
    doc: 'controls to hide; hidden settings still apply',
    choices: [...SOFTMAX, ...TRAIN, ...RUN, ...VIEW].map((p) => p.key).concat(HIDEABLE_PARTS) },
];

export const PROPERTIES = Object.freeze([...SOFTMAX, ...TRAIN, ...RUN, ...VIEW, ...LAYOUT].map((p) => Object.freeze({
  ...p,
  attribute: p.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
  choices: p.choices ? Object.freeze([...p.choices]) : undefined,
  default: Array.isArray(p.default) ? Object.freeze([...p.default]) : p.default,
})));

/** key -> property; a Map, so that keys such as "__proto__" or "constructor" are simply unknown. */
export const PROPERTY_BY_KEY = new Map(PROPERTIES.map((p) => [p.key, p]));

/** attribute name -> property */
export const PROPERTY_BY_ATTRIBUTE = new Map(PROPERTIES.map((p) => [p.attribute, p]));

/** A numeric property's inclusive range, as a control's {min, max}. */
export function rangeOf(key) {
  const { min, max } = PROPERTY_BY_KEY.get(key);
  return { min, max };
}

/** The default state: one frozen plain object with every key. */
export function defaultState() {
  return Object.freeze(Object.fromEntries(PROPERTIES.map((p) => [p.key, p.default])));
}
