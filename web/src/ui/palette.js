// Colours: the Okabe-Ito colour-blind-safe palette.  Each variant keeps one hue in every chart (scaled is
// always blue, unscaled always vermillion); dark mode uses a lighter blue for contrast.  The lesson's raw
// softmax is the unscaled colour, its scaled softmax the scaled colour.

import { STRINGS, formatNumber } from './strings.js';

const OKABE_ITO = {
  blue: '#0072B2', skyBlue: '#56B4E9', vermillion: '#D55E00', orange: '#E69F00', green: '#009E73',
  purple: '#CC79A7', yellow: '#F0E442',
};

const VARIANT_COLOURS = {
  scaled: { light: OKABE_ITO.blue, dark: OKABE_ITO.skyBlue },
  unscaled: { light: OKABE_ITO.vermillion, dark: OKABE_ITO.vermillion },
  alpha: { light: OKABE_ITO.green, dark: OKABE_ITO.green },
  qknorm: { light: OKABE_ITO.purple, dark: OKABE_ITO.purple },
};

/** Line dash per layer (layer 1 solid), for charts with one line per layer. */
export const LAYER_DASHES = [[], [6, 4], [2, 3], [8, 3, 2, 3], [1, 2], [10, 5]];

/** @param {'scaled'|'unscaled'|'alpha'|'qknorm'} variant  @param {boolean} dark */
export function variantColour(variant, dark) {
  const c = VARIANT_COLOURS[variant] ?? VARIANT_COLOURS.scaled;
  return dark ? c.dark : c.light;
}

/** '#RRGGBB' -> 'rgba(r, g, b, a)' */
export function withAlpha(hex, alpha) {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** '#RRGGBB' -> [r, g, b] */
export function rgbOf(hex) {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const ALPHA_DIGITS = Object.freeze({ maximumFractionDigits: 6, useGrouping: false });

/** How the lab names a variant (strings.js); the alpha variant shows its exponent, written for `lang`. */
export function variantLabel(variant, alpha, lang = 'en') {
  const name = Object.hasOwn(STRINGS.variants, variant) ? STRINGS.variants[variant] : variant;
  return typeof name === 'function' ? name(formatNumber(alpha, lang, ALPHA_DIGITS)) : name;
}
