// The timing protocol of every JS runner, the same as src/bench/timing.cpp (and bench_torch.py): warm up
// until the rate stops improving, size a repeat from the warm rate, then take the median of several
// repeats.  Runs in Node and in a Web Worker (no Node APIs here).

/**
 * @typedef {Object} Protocol
 * @property {number} warmupSeconds     at least this long, one call at a time
 * @property {number} warmupMaxSeconds  then in rounds until a round is not 5% faster than the last, up to this
 * @property {number} warmupMinCalls
 * @property {number} repeats
 * @property {number} repeatSeconds     each repeat runs a fixed number of calls sized to last about this long
 */

/** @type {Protocol} */
export const STEP_PROTOCOL = { warmupSeconds: 1.0, warmupMaxSeconds: 15.0, warmupMinCalls: 5, repeats: 7, repeatSeconds: 0.4 };

/** The two benchmark configurations, as wasm-api.js config objects (C++: bench_configs()). */
export const CONFIGS = [
  { name: 'canonical', config: { layers: 2, dModel: 64, heads: 1, dFf: 256, copyLength: 10, batch: 32 } },
  { name: 'wide', config: { layers: 2, dModel: 128, heads: 4, dFf: 512, copyLength: 10, batch: 32 } },
];

export function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n % 2 ? v[(n - 1) / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const seconds = () => performance.now() / 1000;
const callsLasting = (duration, secondsPerCall) => Math.max(1, Math.round(duration / secondsPerCall));

async function secondsPerCall(run, calls) {
  const t0 = seconds();
  await run(calls);
  return (seconds() - t0) / calls;
}

// V8 compiles a hot wasm function with its optimising tier in the background and uses the result only from
// the next call on, so the first seconds can run several times slower (in chromium more than under Node):
// a fixed warm-up is not enough.  Returns the seconds per call of the last round and the time spent.
async function warmUp(run, p) {
  const start = seconds();
  let last = 0;
  for (let calls = 0; calls < p.warmupMinCalls || seconds() - start < p.warmupSeconds; calls += 1) {
    last = await secondsPerCall(run, 1);
  }
  while (seconds() - start < p.warmupMaxSeconds) {
    const round = await secondsPerCall(run, callsLasting(p.repeatSeconds, last));
    const improving = round < 0.95 * last;
    last = round;
    if (!improving) break;
  }
  return { last, spent: seconds() - start };
}

/**
 * Time `run(n)`, which performs n calls of the measured operation (it may be async).
 * @returns {Promise<{secondsPerCall:number, perRepeat:number[], callsPerRepeat:number, warmupSeconds:number}>}
 */
export async function timeCalls(run, protocol) {
  const warm = await warmUp(run, protocol);
  const callsPerRepeat = callsLasting(protocol.repeatSeconds, warm.last);
  const perRepeat = [];
  for (let r = 0; r < protocol.repeats; r += 1) perRepeat.push(await secondsPerCall(run, callsPerRepeat));
  return { secondsPerCall: median(perRepeat), perRepeat, callsPerRepeat, warmupSeconds: warm.spent };
}

/** Steps/s figures of one configuration from a timeCalls result whose call is one training step. */
export function stepRate(timing) {
  return {
    stepsPerSecond: 1 / timing.secondsPerCall,
    repeats: timing.perRepeat.map((s) => 1 / s),
    stepsPerRepeat: timing.callsPerRepeat,
    warmupSeconds: timing.warmupSeconds,
  };
}
