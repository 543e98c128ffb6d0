// Reading and writing the lab's settings as text: the URL hash (#dk=128&lr=0.001...) and the element's
// attributes.  Pure: strings in, a state object and human-readable notices out.  Every value is checked
// against the property table; a bad value is clamped (out of range) or dropped (not a value of the type),
// and each such decision yields a notice that the page shows with textContent.

import { PROPERTIES, PROPERTY_BY_ATTRIBUTE, PROPERTY_BY_KEY, defaultLr, defaultState } from './properties.js';
import { STRINGS } from '../ui/strings.js';

const N = STRINGS.notice;

const MAX_TEXT_LENGTH = 200;
const SHOWN_TEXT_LENGTH = 40;
const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no']);

/**
 * Notices as the page shows them, with the problems alone beside them (the `settings` property throws those).
 * @returns {{texts: string[], problems: string[], add: (problem: string, remedy?: string) => void}}
 */
function noticeList() {
  const texts = [];
  const problems = [];
  const add = (problem, remedy) => {
    texts.push(remedy === undefined ? N.alone(problem) : N.withRemedy(problem, remedy));
    problems.push(problem);
  };
  return { texts, problems, add };
}

/** A value quoted for a notice: shortened, control characters replaced. */
export function quoteForNotice(text) {
  const flat = String(text).replace(/[\u0000-\u001f\u007f]/g, '?');
  const short = flat.length > SHOWN_TEXT_LENGTH ? `${flat.slice(0, SHOWN_TEXT_LENGTH)}…` : flat;
  return `"${short}"`;
}

function clampNumber(property, value, notices, where) {
  let v = value;
  if (property.type === 'int' && !Number.isInteger(v)) {
    v = Math.round(v);
    notices.add(N.notWhole(where, value), N.using(v));
  }
  if (property.choices) {
    const nearest = property.choices.reduce((best, c) => (Math.abs(c - v) < Math.abs(best - v) ? c : best));
    if (nearest !== v) notices.add(N.notChoice(where, v, property.choices.join(', ')), N.using(nearest));
    return nearest;
  }
  if (v < property.min || v > property.max) {
    const clamped = Math.min(property.max, Math.max(property.min, v));
    notices.add(N.outside(where, v, property.min, property.max), N.using(clamped));
    return clamped;
  }
  return v;
}

/**
 * One value from text.  Returns {ok: true, value} or {ok: false}; appends notices.
 * @param {object} property a row of PROPERTIES
 * @param {string} text
 * @param {{add: (problem: string, remedy?: string) => void}} notices (noticeList)
 * @param {string} where how the notice names the setting, e.g. 'Link setting "lr"'
 */
export function parseValue(property, text, notices, where = property.key) {
  const raw = String(text).trim();
  const keep = N.keeping(hashValue(property, property.default));
  // A list may name every choice once (hide= can list every setting).
  const limit = property.type === 'list' ? Math.max(MAX_TEXT_LENGTH, property.choices.join(',').length) : MAX_TEXT_LENGTH;
  if (raw.length > limit) {
    notices.add(N.tooLong(where, raw.length), keep);
    return { ok: false };
  }
  switch (property.type) {
    case 'int':
    case 'number': {
      const n = NUMBER_PATTERN.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) {
        notices.add(N.notNumber(where, quoteForNotice(raw)), keep);
        return { ok: false };
      }
      return { ok: true, value: clampNumber(property, n, notices, where) };
    }
    case 'bool': {
      const word = raw.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      notices.add(N.notBoolean(where, quoteForNotice(raw)), keep);
      return { ok: false };
    }
    case 'choice': {
      const found = property.choices.find((c) => c === raw.toLowerCase());
      if (found === undefined) {
        notices.add(N.notChoice(where, quoteForNotice(raw), property.choices.join(', ')), keep);
        return { ok: false };
      }
      return { ok: true, value: found };
    }
    case 'list': {
      const items = raw === '' ? [] : raw.split(',').map((s) => s.trim());
      const chosen = [];
      for (const item of items) {
        const found = property.choices.find((c) => c.toLowerCase() === item.toLowerCase());
        if (found === undefined) notices.add(N.ignoredItem(where, quoteForNotice(item), property.choices.join(', ')));
        else if (!chosen.includes(found)) chosen.push(found);
      }
      if (chosen.length === 0 && !property.allowEmpty) {
        if (items.length === 0) notices.add(N.empty(where), keep);
        return { ok: false };
      }
      // Lists keep the table's order (the first variant is the answer's reference).
      return { ok: true, value: property.choices.filter((c) => chosen.includes(c)) };
    }
    default:
      return { ok: false };
  }
}

/** A value as the URL and the notices write it. */
export function hashValue(property, value) {
  if (property.type === 'list') return value.join(',');
  return String(value);
}

/**
 * Settings from [name, text] pairs over a base state.
 * @param {Iterable<[string, string]>} pairs
 * @param {object} base a full state
 * @param {{lookup: Map, describe: (name) => string}} naming how names map to properties and notices name them
 * @returns {{state: object, notices: string[], problems: string[]}} problems: each notice's problem alone
 */
function applyPairs(pairs, base, naming) {
  const values = { ...base };
  const notices = noticeList();
  const seen = new Set();
  for (const [name, text] of pairs) {
    const property = naming.lookup.get(name);
    if (!property) {
      notices.add(N.notASetting(naming.describe(quoteForNotice(name))), N.ignored);
      continue;
    }
    if (seen.has(property.key)) notices.add(N.twice(naming.describe(name)), N.lastCounts);
    seen.add(property.key);
    const parsed = parseValue(property, text, notices, naming.describe(name));
    if (parsed.ok) values[property.key] = parsed.value;
  }
  const normalized = normalizeState(followOptimizerLr(base, values, seen.has('lr')));
  return { state: normalized.state, notices: notices.texts.concat(normalized.notices),
    problems: notices.problems.concat(normalized.problems) };
}

/**
 * The learning rate's default depends on the optimizer (the core's lr row: default for Adam, sgdDefault for SGD).
 * When the optimizer changes and the learning rate was not set with it and still is the old optimizer's default,
 * it becomes the new optimizer's: choosing SGD trains at SGD's rate, as `sqrtdk train --optimizer sgd` does.
 * @returns {object} `next`, or a copy with lr changed
 */
export function followOptimizerLr(previous, next, lrGiven) {
  if (lrGiven || previous.optimizer === next.optimizer || previous.lr !== defaultLr(previous.optimizer)) return next;
  return { ...next, lr: defaultLr(next.optimizer) };
}

/** Settings from a URL hash such as "#dk=256&seed=3" (leading '#' optional) over `base` (default: defaults). */
export function parseHash(hash, base = defaultState()) {
  const text = String(hash ?? '').replace(/^#/, '');
  const pairs = text === '' ? [] : [...new URLSearchParams(text)];
  return applyPairs(pairs, base, { lookup: PROPERTY_BY_KEY, describe: N.link });
}

/**
 * Settings from element attributes over `base`.
 * @param {Iterable<[string, string]>} attributes [name, value] pairs of the attributes that name settings
 */
export function parseAttributes(attributes, base = defaultState()) {
  return applyPairs(attributes, base, { lookup: PROPERTY_BY_ATTRIBUTE, describe: N.attribute });
}

/**
 * Settings from [key, text] pairs (setting keys, as in the hash) over `base`, with notices naming each
 * setting through `describe` (the element's `settings` property names them "settings.dk").
 */
export function parseKeyValues(pairs, base, describe) {
  return applyPairs(pairs, base, { lookup: PROPERTY_BY_KEY, describe });
}

/**
 * Rules between settings: heads must divide d_model, the heatmap's layer and head must exist.
 * @returns {{state: object, notices: string[], problems: string[]}} a frozen full state
 */
export function normalizeState(values) {
  const state = { ...values };
  const notices = noticeList();
  if (state.dModel % state.heads !== 0) {
    const heads = PROPERTY_BY_KEY.get('heads').choices.filter((h) => h <= state.heads && state.dModel % h === 0).pop() ?? 1;
    notices.add(N.headsDivide(state.heads, state.dModel), N.usingHeads(heads));
    state.heads = heads;
  }
  if (state.heatLayer > state.layers) state.heatLayer = state.layers;
  if (state.heatHead > state.heads) state.heatHead = state.heads;
  return { state: Object.freeze(state), notices: notices.texts, problems: notices.problems };
}

/** The URL hash (without '#') of a state: every setting, layout keys only when not default. */
export function serializeHash(state) {
  const params = new URLSearchParams();
  for (const property of PROPERTIES) {
    const value = state[property.key];
    const isDefault = hashValue(property, value) === hashValue(property, property.default);
    if ((property.group === 'layout' || property.sparse) && isDefault) continue;
    params.set(property.key, hashValue(property, value));
  }
  return params.toString().replace(/%2C/g, ',');
}

/** Keys whose values differ between two states. */
export function changedKeys(a, b) {
  return PROPERTIES.filter((p) => hashValue(p, a[p.key]) !== hashValue(p, b[p.key])).map((p) => p.key);
}
