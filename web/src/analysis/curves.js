// Curves for the charts: smoothing for display and median + band over seeds.  Pure: no DOM.
// Display only: the answer's smoothed loss, thresholds and stalls are the core's (lab.compare); tests/node/analysis.test.mjs
// checks that this smoothing and median read as the core's on the same curves.

/** Trailing mean over `window` values (fewer at the start). */
function trailingMean(values, window) {
  const out = new Float64Array(values.length);
  let sum = 0;
  for (let t = 0; t < values.length; t += 1) {
    sum += values[t];
    if (t >= window) sum -= values[t - window];
    out[t] = sum / Math.min(t + 1, window);
  }
  return out;
}

/** Trailing mean for display (window 1 = the raw curve). Non-finite values pass through unsmoothed. */
export function smoothForDisplay(values, window) {
  if (window <= 1) return Float64Array.from(values);
  let end = values.length;
  while (end > 0 && !Number.isFinite(values[end - 1])) end -= 1;
  const out = new Float64Array(values.length);
  out.set(trailingMean(values.subarray ? values.subarray(0, end) : values.slice(0, end), window));
  for (let t = end; t < values.length; t += 1) out[t] = values[t];
  return out;
}

/**
 * Median, min and max over seeds at each index of `xs` (1-based steps -> index step-1 of each curve).
 * A curve shorter than a step, or non-finite there, does not count at that step; no value -> null.
 * @param {ArrayLike<number>[]} curves  @param {number[]} xs  @param {(x, j) => number} indexOf curve index of xs[j]
 * @returns {{median: (number|null)[], lo: (number|null)[], hi: (number|null)[]}}
 */
/**
 * The median of values sorted ascending: the middle one, or the mean of the two middle ones for an even count (the
 * core's rule, median in src/core/arith/median.cpp); the page's one median for what it draws and notes.
 * @param {ArrayLike<number>} sorted at least one value, ascending
 */
export function medianOfSorted(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

export function seedBand(curves, xs, indexOf = (x) => x - 1) {
  const median = new Array(xs.length).fill(null);
  const lo = new Array(xs.length).fill(null);
  const hi = new Array(xs.length).fill(null);
  const values = [];
  for (let j = 0; j < xs.length; j += 1) {
    values.length = 0;
    const i = indexOf(xs[j], j);
    for (const c of curves) {
      if (i < c.length && Number.isFinite(c[i])) values.push(c[i]);
    }
    if (values.length === 0) continue;
    values.sort((a, b) => a - b);
    median[j] = medianOfSorted(values);
    lo[j] = values[0];
    hi[j] = values[values.length - 1];
  }
  return { median, lo, hi };
}

/** 1-based steps 1..length, thinned to at most maxPoints (always keeping the last). */
export function displaySteps(length, maxPoints = 1500) {
  const stride = Math.max(1, Math.ceil(length / maxPoints));
  const xs = [];
  for (let s = stride; s <= length; s += stride) xs.push(s);
  if (length > 0 && xs[xs.length - 1] !== length) xs.push(length);
  return xs;
}
