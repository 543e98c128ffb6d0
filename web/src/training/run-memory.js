// A run's memory, known at once on the main thread: the core's estimate (lab.estimatedBytes) evaluated from the
// table web/memory-table.mjs derives from it (the same number, checked by tests/node/memory_table.test.mjs), and
// what a plan that does not fit should lower: the one setting of the lab whose largest fitting value keeps the
// most of its current value.  Pure: no DOM.

import { MEMORY_COEFFICIENTS, MEMORY_TABLE, MEMORY_VARIABLES, RUN_CAP_BYTES } from '../memory-table.js';
import { CORE_SETTINGS, PROPERTY_BY_KEY } from '../state/properties.js';
import { STRINGS } from '../ui/strings.js';

const MIB = 1024 * 1024;

/** The settings that size a run, as the lab names them (its keys), in the order of the lab's settings table. */
const ORDER = [...PROPERTY_BY_KEY.keys()];
export const SIZING_KEYS = Object.freeze(MEMORY_VARIABLES.map((v) => v.key).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)));

const coreDefault = (key) => [...CORE_SETTINGS.values()].find((s) => s.jsKey === key).default;

/** C(n, k) for the small k of the table. */
function binomial(n, k) {
  let value = 1;
  for (let i = 0; i < k; i += 1) value = (value * (n - i)) / (i + 1);
  return value;
}

/**
 * Bytes a trainer of `config` (a TrainConfig as run-plan.js writes it) allocates: the core's estimate.
 * @returns {number}
 */
export function runBytes(config) {
  const scale = config.scale ?? coreDefault('scale');
  const optimizer = config.optimizer ?? coreDefault('optimizer');
  const coefficients = MEMORY_COEFFICIENTS[MEMORY_TABLE[`${scale} ${optimizer}`]];
  // Per variable, the Newton basis C(u - u0, k) for k = 0..degree (u on the grid's unit steps).
  const bases = MEMORY_VARIABLES.map((v) => {
    const u = ((config[v.key] ?? coreDefault(v.key)) - v.first) / v.step;
    return Array.from({ length: v.degree + 1 }, (_, k) => binomial(u, k));
  });
  let sum = 0;
  coefficients.forEach((c, index) => {
    if (c === 0) return;
    let term = c;
    let rest = index;
    for (let i = bases.length - 1; i >= 0; i -= 1) {
      const size = bases[i].length;
      term *= bases[i][rest % size];
      rest = Math.floor(rest / size);
    }
    sum += term;
  });
  return sum;
}

/** The plan's largest run: {bytes, config}. */
export function largestOf(plan) {
  return plan.reduce((a, run) => {
    const bytes = runBytes(run.config);
    return bytes > a.bytes ? { bytes, config: run.config } : a;
  }, { bytes: 0, config: plan[0]?.config ?? {} });
}

/** Values the lab allows for `key` below `current`, largest first. */
function lowerValues(key, current) {
  const p = PROPERTY_BY_KEY.get(key);
  const values = p.choices ? [...p.choices] : Array.from({ length: Math.max(0, current - p.min) }, (_, i) => p.min + i);
  return values.filter((v) => v < current).sort((a, b) => b - a);
}

/**
 * Whether the plan's runs fit in `limit` bytes each, and if not, what to lower.
 * @param {{config: object}[]} plan  @param {number} limit the most one run may use
 * @returns {null | {bytes: number, limit: number, config: object, lower: {key: string, value: number}|null}}
 *   null when every run fits; lower: the setting (and its largest value) that alone makes every run fit, keeping
 *   the most of its current value, or null when no one setting does
 */
export function memoryShortfall(plan, limit) {
  const largest = largestOf(plan);
  if (plan.length === 0 || largest.bytes <= limit) return null;
  const fits = (key, value) => plan.every((run) => runBytes({ ...run.config, [key]: value }) <= limit);
  const options = SIZING_KEYS.flatMap((key) => {
    const current = largest.config[key];
    const value = lowerValues(key, current).find((v) => (key !== 'dModel' || v % largest.config.heads === 0) && fits(key, v));
    return value === undefined ? [] : [{ key, value, kept: value / current }];
  });
  const best = options.reduce((a, b) => (b.kept > a.kept ? b : a), options[0] ?? null);
  return { bytes: largest.bytes, limit, config: largest.config, lower: best && { key: best.key, value: best.value } };
}

/** The settings that size a run, as "layers 6, dModel 256, ..." (for a message naming them). */
export function sizingText(config) {
  return SIZING_KEYS.map((key) => `${key} ${config[key] ?? coreDefault(key)}`).join(', ');
}

/**
 * memoryShortfall's answer as the one line the panel shows, start() and the `settings` property throw: the run's
 * MiB, the limit's, the settings that size it and the largest value of one of them that fits; the page's budget
 * is named only when it, not the core's cap on a run, is the limit.
 */
export function memoryRefusalLine(shortfall) {
  const mib = (bytes) => Math.floor(bytes / MIB);  // as the core writes it
  return STRINGS.runTooLarge(mib(shortfall.bytes), Math.floor(shortfall.limit / MIB), sizingText(shortfall.config), shortfall.lower,
    shortfall.limit < RUN_CAP_BYTES);
}
