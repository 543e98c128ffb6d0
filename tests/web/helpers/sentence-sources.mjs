// "No number without its source": the numbers of a sentence the page shows, the numbers of the page's JSON export
// (what Export JSON saves, web/src/export/curves-export.js) in every form the page could write them, and the
// numbers of a sentence that no source matches.  Pure: no DOM, no browser (tests/web/unit_sentence_sources.test.mjs).
//
// The forms are written by the page's own formatter (web/src/ui/format.js, the twin of the core's
// src/core/text/number_text.cpp), so the rounding rule lives in one place: a number matches when its text is the
// text the page would write for a source, not when it is "close".

import { count, formatCount, formatSignificant, formatValue, whole } from '../../../web/src/ui/format.js';

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUPER = '[⁰¹²³⁴⁵⁶⁷⁸⁹]';

// One number as the page writes it, tried in this order at each position:
//   over    "more than 1000×" (mechanism_reading.cpp times_arg: a ratio from 1000 on, as the power of ten it exceeds)
//   power   "2.03×10⁻⁵", "10⁻⁶", "1.23×10⁵" (format.js formatValue beyond 10⁻⁴..999)
//   plain   "0.238", "121", "20,000" (count(): the language's grouping), "-0.5" / "−1" (a sign after a space)
// then an optional "×" (a ratio: "1.92×") or "%" / " %" (a percent: "25 %").
const NUMBER = new RegExp([
  `(?<over>more than (?<overN>\\d+(?:,\\d{3})*)×)`,
  `(?<power>(?:(?<mant>\\d+(?:\\.\\d+)?)×)?10(?<exp>⁻?${SUPER}+))`,
  `(?<plain>(?<sign>[-−])?\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?(?!\\d)|(?<sign2>[-−])?\\d+(?:\\.\\d+)?)`,
].join('|'), 'gu');
const AFTER = /^(?<times>×)|^(?<percent>\s?%)/u;

/** The value of a power-of-ten text: '2.03×10⁻⁵' -> 2.03e-5. */
function powerValue(mantissa, exponent) {
  const e = Number([...exponent].map((c) => (c === '⁻' ? '-' : SUPERSCRIPTS.indexOf(c))).join(''));
  return Number(`${mantissa ?? 1}e${e}`);
}

/**
 * Every number in `text` as the page writes it: [{text, value, kind, context, index}].
 *   text     the number normalised for matching: the minus as '-', a percent as '25%', a ratio without its '×',
 *            "more than 1000×" as '>1000'
 *   kind     'value' (plain or a power of ten), 'ratio' ("1.92×"), 'percent', 'over' ("more than 1000×")
 *   context  the word just before it, lower case ('layer' in "layer 2", 'steps' in "steps 381–400"), or ''
 * Not numbers of the sentence (left out): digits inside a name or formula: after a letter, '_' or '^' ("d_k",
 * "l1", "n−1", "W_q"), a numerator ("1/√d_k", "1/√n": the formula's 1, not a measurement), a digit of a word.
 * A range "121–180" gives its two ends; "121 steps or more" its one number.
 * @param {string} text
 */
export function numbersIn(text) {
  const out = [];
  for (const m of text.matchAll(NUMBER)) {
    const g = m.groups;
    const index = m.index;
    const before = text.slice(0, index);
    let end = index + m[0].length;
    if (g.plain) {
      // A digit that continues a name or formula ("d_k2", "l1", "n−1", "x^2"), or begins a word ("2x").
      if (/[\p{L}_^][-−+]?$/u.test(before) || /^\p{L}/u.test(text.slice(end))) continue;
      if (text[end] === '/') continue;  // a numerator: the formula's 1 in "1/√d_k", "1/√n"
    }
    let kind = 'value';
    let normal;
    let value;
    if (g.over) {
      kind = 'over';
      value = Number(g.overN.replace(/,/g, ''));
      normal = `>${g.overN}`;
    } else if (g.power) {
      value = powerValue(g.mant, g.exp);
      normal = g.power;
    } else {
      normal = g.plain.replace('−', '-');
      // A hyphen between digits is a range ("1-20"), not a sign: the second end is 20.
      if (/^-/.test(normal) && /[\d]$/.test(before)) normal = normal.slice(1);
      value = Number(normal.replace(/,/g, ''));
      const after = AFTER.exec(text.slice(end));
      if (after?.groups.times) {
        kind = 'ratio';
        end += 1;
      } else if (after?.groups.percent) {
        kind = 'percent';
        end += after[0].length;
        normal = `${normal}%`;
      }
    }
    // The word before, skipping a range's first end ("steps 381–400": 'steps' for both ends).
    const context = /(\p{L}+)[^\p{L}.;:!?]*$/u.exec(before.slice(-24))?.[1]?.toLowerCase() ?? '';
    out.push({ text: normal, value, kind, context, index, end });
  }
  return out;
}

/** Is `key` one of the per-step curves of a run in the export (loss, gradNorm, <metric>ByLayer, <metric>ByHead)? */
function isCurve(value) {
  return Array.isArray(value) && (value.length === 0 || typeof value[0] === 'number' || value[0] === null || Array.isArray(value[0]));
}

/**
 * Every number of the export, once each: [{path, value}].  Strings are not sources (the export's sentences are the
 * page's sentences: a number read from them would source itself), and neither are the runs' per-step curves
 * (runs[].loss, runs[].<metric>ByLayer...): with 10⁴–10⁵ values over a few decades, every three-digit number
 * would match one of them by chance and the check would say nothing.  A number the page reads off a curve must
 * be in the export as itself (as the answer's final levels are).  The evaluations (runs[].evals) are few and kept.
 * @param {object} exportJson
 */
export function numbersOf(exportJson) {
  const out = [];
  const walk = (node, path, inRun) => {
    if (typeof node === 'number') {
      if (Number.isFinite(node)) out.push({ path, value: node });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${i}]`, false));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (inRun && key !== 'evals' && isCurve(value)) continue;
      walk(value, path ? `${path}.${key}` : key, false);
    }
  };
  for (const [key, value] of Object.entries(exportJson ?? {})) {
    if (key === 'runs' && Array.isArray(value)) value.forEach((run, i) => walk(run, `runs[${i}]`, true));
    else walk(value, key, false);
  }
  return out;
}

/**
 * Numbers the export does not hold as numbers but which follow from it by one named rule, each with its reason:
 * [{value, why, context?}].  A context restricts the number to that word before it ("layer 2" but not "2 seeds").
 * Kept short: anything beyond these is a number the export lacks.
 */
export function derivedOf(exportJson) {
  const out = [];
  const add = (value, why, context) => out.push({ value, why, ...(context ? { context } : {}) });
  const answer = exportJson?.answer ?? null;
  const runs = exportJson?.runs ?? [];
  const configs = [exportJson?.settings, ...runs.map((r) => r.config)].filter(Boolean);
  // d_k = d_model / heads (README: "d_k = d_model / heads"), and √d_k, the factor between the two scales
  // ("1/√d_k = 1/8", "8× as far", the unscaled logits' predicted std).
  for (const c of configs) {
    if (c.dModel > 0 && c.heads > 0) {
      const dk = c.dModel / c.heads;
      add(dk, 'd_k = dModel / heads');
      add(Math.sqrt(dk), '√d_k');
    }
  }
  // "k of n": a variant's runs (n), and those that never reached the threshold (n − runsReaching: "1 never got there").
  for (const v of answer?.variants ?? []) {
    // The answer's ratio names the variant that took more steps: the reference's median over a faster variant's.
    if (v.ratio > 0 && v.ratio < 1) add(1 / v.ratio, `${v.name}: the reference's median steps over the variant's`);
    const n = v.runs?.length ?? 0;
    add(n, `${v.name}: its runs`);
    if (Number.isFinite(v.runsReaching)) add(n - v.runsReaching, `${v.name}: runs that never reached the threshold`);
  }
  // The mechanism's comparisons with the reference ("4.3× larger", "1.35× smaller": mechanism_reading.cpp
  // relation): the ratio of a variant's early reading to the reference's, either way up.
  const readings = answer?.mechanism?.readings?.variants ?? [];
  for (const v of readings.slice(1)) {
    for (const key of ['earlyGrad', 'earlyUpdate', 'earlySpread']) {
      const ratio = v[key] / readings[0][key];
      if (Number.isFinite(ratio) && ratio > 0) {
        add(ratio, `${key}: a variant's over the reference's`);
        add(1 / ratio, `${key}: the reference's over a variant's`);
        // Less than halved is said as a percent: "26 % smaller" for a ratio of 0.74.
        for (const r of [ratio, 1 / ratio]) if (r > 0.5 && r < 1) add(1 - r, `${key}: the percent one is smaller`);
      }
    }
  }
  // The preset claim's seeds, "Seeds 0–19": from 0 to its count less one.
  for (const c of exportJson?.claim?.counts ?? []) add(c.seeds - 1, 'the claim\'s last seed', 'seeds');
  // Layers and heads are named by number from 1 ("layer 2", "head 1"); steps from 1 ("at step 1", "steps 1–20").
  const most = (key) => Math.max(0, ...configs.map((c) => c[key] ?? 0));
  for (let l = 1; l <= most('layers'); l += 1) add(l, 'a layer of the model', 'layer');
  for (let h = 1; h <= most('heads'); h += 1) add(h, 'a head of the model', 'head');
  if (runs.some((r) => r.stepsDone > 0)) for (const context of ['step', 'steps']) add(1, 'the first step', context);
  // Constants of the settings named in the export (not measured): the unscaled variant multiplies q·k by 1; QK-norm
  // puts q·k between −1 and 1; GPT init draws from N(0, 0.02²).
  const variants = exportJson?.settings?.variants ?? [];
  if (variants.includes('unscaled')) add(1, 'the unscaled scale');
  if (variants.includes('qknorm')) for (const x of [-1, 1]) add(x, 'QK-norm bounds q·k to [−1, 1]');
  if (configs.some((c) => c.init === 'gpt')) for (const x of [0, 0.02]) add(x, 'GPT init: N(0, 0.02²)');
  return out;
}

/** Every text the page could write for `x` (format.js: the one rule for a measured value, counts, d_k and seeds). */
export function formsOf(x, lang = 'en') {
  const forms = new Set([formatValue(x, lang), formatSignificant(x, lang)]);
  if (Number.isInteger(x * 2)) forms.add(formatCount(x, lang));
  if (Number.isInteger(x)) {
    forms.add(whole(x, lang));
    forms.add(count(x, lang));
  }
  // As a percent: "25 %" for 0.25 (the stall band), "90 %" (the clear share).
  forms.add(`${formatValue(x * 100, lang)}%`);
  if (Number.isInteger(Math.round(x * 1e9) / 1e7)) forms.add(`${whole(Math.round(x * 100), lang)}%`);
  // From 1000 on, a ratio is written "more than 10ᵏ×" (times_arg): the largest power of ten it reaches.
  if (x >= 1000 && Number.isFinite(x)) {
    let power = 1000;
    while (power * 10 <= x) power *= 10;
    forms.add(`>${formatCount(power, lang)}`);
  }
  return [...forms].map((f) => f.replace('−', '-'));
}

/**
 * The sources of an export: every form of every number in it (numbersOf), and of the few numbers that follow from
 * it (derivedOf).  @returns {{forms: Map<string, string>, contextual: Map<string, string>, numbers: number}}
 *   forms: text -> where it comes from (a path in the export); contextual: 'layer:2' -> why
 */
export function sourcesOf(exportJson, lang = 'en') {
  const forms = new Map();
  const contextual = new Map();
  const numbers = numbersOf(exportJson);
  for (const { path, value } of numbers) for (const f of formsOf(value, lang)) if (!forms.has(f)) forms.set(f, path);
  for (const { value, why, context } of derivedOf(exportJson)) {
    for (const f of formsOf(value, lang)) {
      if (context) contextual.set(`${context}:${f}`, why);
      else if (!forms.has(f)) forms.set(f, `derived: ${why}`);
    }
  }
  return { forms, contextual, numbers: numbers.length };
}

/**
 * The numbers of `text` that no source matches: [{text, value, kind, context, index}] (numbersIn's), in order.
 * @param {string} text  @param {{forms: Map<string, string>, contextual: Map<string, string>}} sources (sourcesOf)
 */
export function unsourced(text, sources) {
  return numbersIn(text).filter((n) => !sources.forms.has(n.text) && !sources.contextual.has(`${n.context}:${n.text}`));
}

/** Where a number of a sentence comes from ('answer.variants[1].ratio'), or null. */
export function sourceOf(number, sources) {
  return sources.forms.get(number.text) ?? sources.contextual.get(`${number.context}:${number.text}`) ?? null;
}
