// What every implementation in the benchmark agrees on: the configurations, the timing protocol and the
// step-server protocol.  Runs in Node and in a Web Worker (no Node APIs here).
//
// Timing protocol (also src/bench/timing.cpp, tests/reference/bench_torch.py): warm up until the rate stops
// improving, size a repeat to last about repeatSeconds at the warm rate, then take the median of the repeats.
//
// Step-server protocol: each implementation runs as a child process that trains when told to, so that
// scripts/bench.mjs can interleave the repeats of all of them (on a shared machine a busy moment then slows
// every implementation alike, and the ratios survive it).  One request per line on stdin, one JSON line back:
//   (on start)        -> {"ready": true, ...what the implementation is}
//   warmup NAME       -> {"seconds_per_step": s, "warmup_seconds": w}   warm configuration NAME up
//   run NAME STEPS    -> {"seconds": t}                                 STEPS training steps, timed inside
//   finish            -> {"configs": [{"name", "last_loss", ...}], ...} and the process exits
//   any failure       -> {"error": message} and the process exits with status 1
//   (instead of ready) -> {"error": message, "skipped": true} when the implementation is not installed
// Servers: src/bench/step_server.cpp (sqrtdk_bench --serve), scripts/bench/wasm-node.mjs,
// scripts/bench/wasm-chromium.mjs, scripts/bench/tfjs-peer.mjs, tests/reference/bench_torch.py --serve.

/**
 * @typedef {Object} Protocol
 * @property {number} warmupSeconds     at least this long, one call at a time
 * @property {number} warmupMaxSeconds  then in rounds until a round is not 5% faster than the last, up to this
 * @property {number} warmupMinCalls
 * @property {number} repeats
 * @property {number} repeatSeconds     each repeat runs a fixed number of calls sized to last about this long
 */

/** @type {Protocol} */
export const STEP_PROTOCOL = {
  warmupSeconds: 1.0, warmupMaxSeconds: 15.0, warmupMinCalls: 5, repeats: 7, repeatSeconds: 0.4,
};

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

export const callsLasting = (duration, secondsPerCall) => Math.max(1, Math.round(duration / secondsPerCall));

/** Seconds per call of `run(calls)` (which performs `calls` calls; it may be async). */
export async function secondsPerCall(run, calls) {
  const t0 = seconds();
  await run(calls);
  return (seconds() - t0) / calls;
}

// V8 compiles a hot wasm function with its optimising tier in the background and uses the result only from
// the next call on, so the first seconds can run several times slower (in chromium more than under Node):
// a fixed warm-up is not enough.
/** @returns {Promise<{secondsPerCall:number, seconds:number}>} the last round's rate and the time spent */
export async function warmUp(run, p) {
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
  return { secondsPerCall: last, seconds: seconds() - start };
}

/**
 * The request handler of a step server.
 * @param {Object<string, function(number): (void|Promise<void>)>} steppers configuration name -> run(steps)
 * @param {function(): Object} finish the "finish" reply (configs' last losses, memory, ...)
 * @param {Protocol} protocol
 * @returns {function(string): Promise<Object>} request line -> reply (throws on a bad request)
 */
export function stepServer(steppers, finish, protocol) {
  return async (line) => {
    const [op, name, steps] = line.trim().split(/\s+/);
    if (op === 'finish') return finish();
    const run = steppers[name];
    if (!run) throw new Error(`bad request: ${line}`);
    if (op === 'warmup') {
      const w = await warmUp(run, protocol);
      return { seconds_per_step: w.secondsPerCall, warmup_seconds: w.seconds };
    }
    const n = Number(steps);
    if (op === 'run' && n >= 1) return { seconds: n * (await secondsPerCall(run, n)) };
    throw new Error(`bad request: ${line}`);
  };
}
