// The lab's benchmark: how fast the tiny Transformer trains here, natively, in WebAssembly (under Node and in a
// Web Worker in headless chromium) and in its peers (PyTorch, TensorFlow.js), and how close the wasm matrix
// kernels come to the core's 128-bit SIMD peak.  All measured in one run, on the machine it runs on.
//
//   node scripts/bench.mjs [--json] [--quick]
//
//   --json   print the whole report as JSON (every repeat, every product) instead of the table
//   --quick  3 short repeats per figure instead of 7: a smoke test, not a measurement
//
// It builds what it needs that is cheap to build (the native sqrtdk_bench, incrementally; the same benchmark
// compiled with em++ against the wasm build's core library) and uses the wasm module as built by the wasm preset.
// A peer or build product that is missing is reported as skipped, with the reason.  See README "Benchmark".
import os from 'node:os';

import { renderText, summarize } from './bench/report.mjs';
import { STEP_PROTOCOL } from './bench/protocol.mjs';
import * as runners from './bench/runners.mjs';

const QUICK = { repeats: 3, repeatSeconds: 0.2, warmupSeconds: 0.5 };

// In this order: the noisiest neighbours (the browser, TF.js's long warm-up) last.
const MEASUREMENTS = [
  ['native', runners.native],
  ['wasmCore', runners.wasmCore],
  ['wasmNode', runners.wasmNode],
  ['wasmNodeExceptions', runners.wasmNodeExceptions],
  ['wasmChromium', runners.wasmChromium],
  ['torch', runners.torch],
  ['tfjs', runners.tfjs],
];

function parseArgs(argv) {
  const known = new Set(['--json', '--quick']);
  const unknown = argv.filter((a) => !known.has(a));
  if (unknown.length) {
    console.error(`bench: unknown argument ${unknown[0]}\nusage: node scripts/bench.mjs [--json] [--quick]`);
    process.exit(2);
  }
  return { json: argv.includes('--json'), quick: argv.includes('--quick') };
}

async function measure(key, fn, protocol, log) {
  const t0 = performance.now();
  const loadBefore = os.loadavg()[0];
  log(`bench: ${key} ...`);
  let outcome;
  try {
    outcome = { status: 'ok', data: await fn(protocol) };
  } catch (error) {
    outcome = { status: error instanceof runners.Skipped ? 'skipped' : 'failed', reason: error.message };
  }
  return { ...outcome, loadBefore, loadAfter: os.loadavg()[0], seconds: (performance.now() - t0) / 1000 };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const protocol = { ...STEP_PROTOCOL, ...(args.quick ? QUICK : {}) };
  const log = (line) => process.stderr.write(`${line}\n`);  // progress on stderr keeps stdout clean for --json
  const start = performance.now();
  const results = {};
  for (const [key, fn] of MEASUREMENTS) results[key] = await measure(key, fn, protocol, log);
  const meta = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.cpus().length,
    node: process.version,
    protocol,
    seconds: (performance.now() - start) / 1000,
    load: Object.values(results).flatMap((r) => [r.loadBefore, r.loadAfter]),
  };
  const summary = summarize(results);
  if (args.json) console.log(JSON.stringify({ meta, summary, results }, null, 1));
  else console.log(renderText(meta, summary));
}

await main();
