// The element's `settings` property: the same checks as the URL hash and the attributes (url-state.js), but
// strict.  Where the hash clamps or drops a bad value with a notice, the property throws an Error with that
// notice as a one-line message and changes nothing.  Pure: no DOM.

import { PROPERTY_BY_KEY } from '../state/properties.js';
import { parseKeyValues } from '../state/url-state.js';
import { runPlan } from '../training/run-plan.js';
import { SIZING_KEYS, memoryRefusalLine, memoryShortfall } from '../training/run-memory.js';
import { STRINGS } from '../ui/strings.js';

const EXPECTED = STRINGS.expectedType;

function typeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return STRINGS.anArray;
  return typeof value;
}

/** A value as the hash would carry it, or null when its JavaScript type cannot be that setting. */
function asText(property, value) {
  const type = typeof value;
  switch (property.type) {
    case 'int':
    case 'number': return type === 'number' || type === 'string' ? String(value) : null;
    case 'bool': return type === 'boolean' || type === 'string' ? String(value) : null;
    case 'choice': return type === 'string' ? value : null;
    case 'list':
      if (type === 'string') return value;
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : null;
    default: return null;
  }
}

/**
 * [key, text] pairs of a settings value: an object {dk: 256, variants: ['scaled']} or a hash "dk=256&seeds=1".
 * @throws {Error} when the value or one of its members has the wrong JavaScript type
 */
function pairsOf(input) {
  if (typeof input === 'string') return [...new URLSearchParams(input.replace(/^#/, ''))];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new Error(STRINGS.badSettingsType(typeName(input)));
  return Object.entries(input).map(([key, value]) => {
    const property = PROPERTY_BY_KEY.get(key);
    if (!property) return [key, String(value)];
    const text = asText(property, value);
    if (text === null) throw new Error(STRINGS.badSettingType(key, EXPECTED[property.type], typeName(value)));
    return [key, text];
  });
}

// The settings a run's memory depends on: a change of one of them is checked against the memory a run may use.
const MEMORY_KEYS = new Set([...SIZING_KEYS, 'variants', 'optimizer']);

/**
 * The state after applying `input` over `base`, or an Error for the first problem (base is left as it was).
 * With `runLimit` (the most one run may use on the page, memory-budget.js's largestRun), a change of a setting that
 * sizes a run whose runs could then never fit throws the line the exercise shows for them (run-memory.js).
 * @param {object|string} input  @param {object} base a full state  @param {number} [runLimit] bytes
 * @returns {object} a full, valid, frozen state
 */
export function strictSettings(input, base, runLimit = Infinity) {
  // The notice's problem without its remedy ("using 1024", "keeping 128"): the property applies nothing.
  const pairs = pairsOf(input);
  const { state, problems } = parseKeyValues(pairs, base, (name) => `settings.${name}`);
  if (problems.length > 0) throw new Error(STRINGS.badSetting(problems[0], problems.length - 1));
  if (pairs.some(([key]) => MEMORY_KEYS.has(key))) {
    const shortfall = memoryShortfall(runPlan({ ...state, seeds: 1 }), runLimit);
    if (shortfall) throw new Error(memoryRefusalLine(shortfall));
  }
  return state;
}

/** A state as the property returns it: a fresh plain object, lists copied (changing it changes nothing). */
export function settingsCopy(state) {
  return Object.fromEntries(Object.entries(state).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]));
}

