// Every setting of the lab in one table, in the spirit of TensorFlow Playground's state.ts: the URL hash,
// the element's attributes and the controls all read it, so a setting exists in exactly one place.
// Pure data: no DOM.
//
//   key      the URL hash key (attribute: the same in kebab-case, e.g. dModel -> d-model)
//   type     'int' | 'number' | 'bool' | 'choice' | 'list'
//   default  the value when nothing sets it
//   min/max  inclusive range for int and number (values outside are clamped with a notice)
//   choices  allowed values for choice and list, and for an int restricted to a set (nearest is taken)
//   group    'softmax' (panel 1), 'train' (panel 2 model/task/optimizer: changing one starts a fresh
//            exercise), 'run' (panel 2 settings that do not invalidate the runs), 'view', 'layout'
//   label    how notices and controls name it

export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** Attention variants of the exercise, in the order the answer compares them (the first is the reference). */
export const VARIANTS = Object.freeze(['scaled', 'unscaled', 'alpha', 'qknorm']);
export const PANELS = Object.freeze(['softmax', 'train']);
export const INIT_SCHEMES = Object.freeze(['xavier', 'torch', 'gpt']);

/** UI parts that are not settings but can still be hidden with hide="...". */
export const HIDEABLE_PARTS = Object.freeze(['share', 'export', 'notices']);

const SOFTMAX = [
  { key: 'dk', type: 'int', default: 128, min: 1, max: 1024, group: 'softmax', label: 'd_k' },
  { key: 'keys', type: 'int', default: 50, min: 2, max: 500, group: 'softmax', label: 'number of keys' },
  { key: 'alpha', type: 'number', default: 0.5, min: 0, max: 1, group: 'softmax', label: 'scale exponent alpha' },
  { key: 'seed', type: 'int', default: 0, min: 0, max: MAX_SEED, group: 'softmax', label: 'demo seed' },
];

const TRAIN = [
  { key: 'layers', type: 'int', default: 2, min: 1, max: 6, group: 'train', label: 'layers' },
  { key: 'dModel', type: 'int', default: 64, choices: [16, 32, 64, 128, 256], group: 'train', label: 'd_model' },
  { key: 'heads', type: 'int', default: 1, choices: [1, 2, 4, 8, 16], group: 'train', label: 'heads' },
  { key: 'copyLength', type: 'int', default: 10, min: 2, max: 32, group: 'train', label: 'copy length' },
  { key: 'symbols', type: 'int', default: 10, min: 2, max: 64, group: 'train', label: 'symbols' },
  { key: 'batch', type: 'int', default: 32, choices: [8, 16, 32, 64, 128], group: 'train', label: 'batch' },
  { key: 'lr', type: 'number', default: 0.001, min: 1e-5, max: 10, group: 'train', label: 'learning rate' },
  { key: 'init', type: 'choice', default: 'xavier', choices: INIT_SCHEMES, group: 'train', label: 'init' },
  { key: 'variants', type: 'list', default: ['scaled', 'unscaled'], choices: VARIANTS, group: 'train',
    label: 'variants' },
  { key: 'trainAlpha', type: 'number', default: 1, min: 0, max: 1, group: 'train',
    label: 'alpha of the alpha variant' },
  { key: 'seeds', type: 'int', default: 3, min: 1, max: 5, group: 'train', label: 'seeds' },
  { key: 'trainSeed', type: 'int', default: 0, min: 0, max: MAX_SEED - 4, group: 'train', label: 'first seed' },
  { key: 'evalEvery', type: 'int', default: 50, min: 10, max: 1000, group: 'train', label: 'evaluate every' },
];

const RUN = [
  { key: 'steps', type: 'int', default: 400, min: 10, max: 20000, group: 'run', label: 'steps' },
  { key: 'threshold', type: 'number', default: 0.1, min: 0.001, max: 5, group: 'run', label: 'loss threshold' },
];

const VIEW = [
  { key: 'weightsLogY', type: 'bool', default: false, group: 'view', label: 'log-scale softmax weights' },
  { key: 'logY', type: 'bool', default: true, group: 'view', label: 'log-scale loss' },
  { key: 'smooth', type: 'int', default: 20, min: 1, max: 200, group: 'view', label: 'smoothing window' },
  { key: 'heatLayer', type: 'int', default: 2, min: 1, max: 6, group: 'view', label: 'heatmap layer' },
  { key: 'heatHead', type: 'int', default: 1, min: 1, max: 16, group: 'view', label: 'heatmap head' },
];

const LAYOUT = [
  { key: 'panels', type: 'list', default: ['softmax', 'train'], choices: PANELS, group: 'layout', label: 'panels' },
  { key: 'hide', type: 'list', default: [], allowEmpty: true, group: 'layout', label: 'hidden controls',
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

/** The default state: one frozen plain object with every key. */
export function defaultState() {
  return Object.freeze(Object.fromEntries(PROPERTIES.map((p) => [p.key, p.default])));
}
