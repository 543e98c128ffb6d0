// The element's `settings` property: the same checks as the URL hash and the attributes (url-state.js), but
// strict.  Where the hash clamps or drops a bad value with a notice, the property throws an Error with that
// notice as a one-line message and changes nothing.  Pure: no DOM.

import { PROPERTY_BY_KEY } from '../state/properties.js';
import { parseKeyValues } from '../state/url-state.js';
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

/**
 * The state after applying `input` over `base`, or an Error for the first problem (base is left as it was).
 * @param {object|string} input  @param {object} base a full state
 * @returns {object} a full, valid, frozen state
 */
export function strictSettings(input, base) {
  // The notice's problem without its remedy ("using 1024", "keeping 128"): the property applies nothing.
  const { state, problems } = parseKeyValues(pairsOf(input), base, (name) => `settings.${name}`);
  if (problems.length > 0) throw new Error(STRINGS.badSetting(problems[0], problems.length - 1));
  return state;
}

/** A state as the property returns it: a fresh plain object, lists copied (changing it changes nothing). */
export function settingsCopy(state) {
  return Object.fromEntries(Object.entries(state).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]));
}

