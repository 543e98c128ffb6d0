// The axes and scales of a LineChart, as uPlot options: tick labels written in the element's language, log axes
// labelled at their powers of ten, step axes from 0 with integer ticks.

import uPlot from 'uplot';
import { formatValue, powerOfTen } from '../ui/format.js';
import { formatNumber } from '../ui/locale.js';

// Number formats of the axes and readouts, made once (formatNumber finds their formatter without building a key).
const TICK_DECIMALS = Array.from({ length: 13 }, (_, d) => Object.freeze({ maximumFractionDigits: d }));
const POWER_OF_10 = Object.freeze({ maximumFractionDigits: 3, useGrouping: false });
const INTEGER_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000];

const isPowerOf10 = (v) => v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;

const PLAIN_EXPONENTS = [-3, 4];
/** Whether every power of ten among `values` is written plainly (0.001 ... 10000) by logTickLabel. */
const allPlain = (values) => values.filter(isPowerOf10).every((v) => {
  const e = Math.round(Math.log10(v));
  return e >= PLAIN_EXPONENTS[0] && e <= PLAIN_EXPONENTS[1];
});

/**
 * A log axis tick: 0.01, 1, 100 for moderate powers of ten, 10⁻⁵ beyond (never a rounded "0").  `plain` false:
 * 10² even for a moderate one, so that an axis that needs 10⁶ does not also say 10000.
 */
export function logTickLabel(v, lang = 'en', plain = true) {
  if (!(v > 0)) return '';
  const e = Math.round(Math.log10(v));
  if (isPowerOf10(v)) return plain && e >= PLAIN_EXPONENTS[0] && e <= PLAIN_EXPONENTS[1] ? formatNumber(10 ** e, lang, POWER_OF_10) : powerOfTen(e);
  return formatValue(v, lang);
}

/**
 * Log axes: label and grid only the powers of ten when at least two are in view (uPlot's 2..9 minor
 * splits make the grid too dense), else every split.
 */
function logAxisParts(lang) {
  const decades = (splits) => splits.filter(isPowerOf10).length >= 2;
  // Many decades on a short axis: label every k-th power of ten, about one label per 28 px.
  const every = (u, splits) => {
    const room = Math.max(2, Math.floor(u.bbox.height / (devicePixelRatio || 1) / 28));
    return Math.max(1, Math.ceil(splits.filter(isPowerOf10).length / room));
  };
  return {
    values: (u, splits) => {
      const k = every(u, splits);
      const shown = splits.filter((v) => !decades(splits) || (isPowerOf10(v) && Math.round(Math.log10(v)) % k === 0));
      const plain = allPlain(shown);
      return splits.map((v) => (shown.includes(v) ? logTickLabel(v, lang, plain) : null));
    },
    filter: (u, splits) => (decades(splits) ? splits.map((v) => (isPowerOf10(v) ? v : null)) : splits),
  };
}

/** Linear axis ticks with as many decimals as the tick spacing needs (no "0.30000000000000004"). */
const linearLabels = (lang) => (u, splits, axisIdx, space, incr) => {
  const decimals = Math.max(0, Math.min(12, -Math.floor(Math.log10(incr) + 1e-9)));
  return splits.map((v) => (v === null ? null : formatNumber(Number(v.toFixed(decimals)), lang, TICK_DECIMALS[decimals])));
};

/**
 * uPlot's x and y scales for a chart's options (see LineChart's constructor).
 * @returns {{x: object, y: object}}
 */
export function lineScales({ logY, logX, integerX, emptyY, yRange }) {
  const y = logY ? { distr: 3, log: 10 } : { distr: 1 };
  if (yRange && !logY) y.range = yRange;
  else if (emptyY) {
    y.range = (u, min, max) => {
      if (!(Number.isFinite(min) && Number.isFinite(max))) return logY ? [Math.max(emptyY[0], 1e-6), emptyY[1]] : emptyY;
      return logY ? uPlot.rangeLog(min, max, 10, true) : uPlot.rangeNum(min, max, 0.1, true);
    };
  }
  let x = logX ? { time: false, distr: 3, log: 2 } : { time: false };
  // Steps: from 0 to at least 10, so that one step does not stretch the axis to 0, 0.2 ... 2.
  if (integerX) x = { time: false, range: (u, min, max) => [0, Math.max(10, Number.isFinite(max) ? max : 0)] };
  return { x, y };
}

/**
 * uPlot's x and y axes for a chart's options; `record(name, text)` receives the labels an axis drew
 * ('xTicks' / 'yTicks', comma-joined).
 */
export function lineAxes(options, record) {
  const { theme, lang, logX, logY, integerX } = options;
  const axisFont = `12px ${theme().font}`;
  const axis = (label, name, extra = {}) => ({
    ...extra,
    values: (u, splits, ...rest) => {
      const labels = (extra.values ?? linearLabels(lang))(u, splits, ...rest);
      record(name, labels.filter((t) => t !== null && t !== '').join(','));
      return labels;
    },
    label,
    stroke: () => theme().muted,
    grid: { stroke: () => theme().grid, width: 1, ...(extra.filter ? { filter: extra.filter } : {}) },
    ticks: { stroke: () => theme().grid, width: 1, ...(extra.filter ? { filter: extra.filter } : {}) },
    font: axisFont,
    labelFont: axisFont,
  });
  const logXLabels = (u, splits) => splits.map((v) => (v === null ? null : formatNumber(v, lang, TICK_DECIMALS[3])));
  return [
    axis(options.xLabel, 'xTicks', integerX ? { incrs: INTEGER_INCRS } : logX ? { values: logXLabels } : {}),
    axis(options.yLabel, 'yTicks', logY ? logAxisParts(lang) : {}),
  ];
}
