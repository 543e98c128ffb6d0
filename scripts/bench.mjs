// The lab's benchmark: how fast the tiny Transformer trains here, natively, in WebAssembly (under Node and in a
// Web Worker in headless chromium) and in its peers (PyTorch, TensorFlow.js), and how close the wasm matrix
// kernels come to the core's 128-bit SIMD peak.  All measured in one run, on the machine it runs on.
//
//   node scripts/bench.mjs [--json] [--quick]
//
//   --json   print the whole report as JSON (every repeat, every product) instead of the table
//   --quick  3 short repeats per figure instead of 7, and the page's exercises shortened: a smoke test, not a measurement
//
// Two phases.  First the C++ benchmark's reports, one after the other: natively (Eigen) and compiled to wasm
// under Node (the simd128 kernels on the training shapes, the 128-bit peak probe, allocations per step).  Then
// the training steps/s of every implementation, each a step server (scripts/bench/protocol.mjs) whose repeats
// are interleaved with the others' (scripts/bench/interleave.mjs).  It builds what is cheap to build (the
// native sqrtdk_bench, incrementally; the wasm benchmark against the wasm build's core library) and uses the
// wasm modules as the wasm preset built them.  Whatever is missing is reported as skipped, with the reason.
import os from 'node:os';

import { interleave, StepServer } from './bench/interleave.mjs';
import { CONFIGS, STEP_PROTOCOL } from './bench/protocol.mjs';
import { measurePage } from './bench/page-timing.mjs';
import { pageVerdicts, renderPage } from './bench/page-report.mjs';
import { renderText, summarize } from './bench/report.mjs';
import * as runners from './bench/runners.mjs';

const QUICK = { repeats: 3, repeatSeconds: 0.2, warmupSeconds: 0.5 };
const REPORTS = [['native', runners.nativeReport], ['wasm', runners.wasmReport]];
const STEP_SERVERS = ['native', 'nativeEigen', 'wasmNode', 'wasmNodeExceptions', 'wasmChromium', 'torch', 'tfjs'];

function parseArgs(argv) {
  const unknown = argv.filter((a) => a !== '--json' && a !== '--quick');
  if (unknown.length) {
    console.error(`bench: unknown argument ${unknown[0]}\nusage: node scripts/bench.mjs [--json] [--quick]`);
    process.exit(2);
  }
  return { json: argv.includes('--json'), quick: argv.includes('--quick') };
}

const outcomeOf = (error) => ({ status: error.skipped ? 'skipped' : 'failed', reason: error.message });

async function runReports(protocol, log) {
  const out = {};
  for (const [key, report] of REPORTS) {
    log(`bench: ${key} report (products, peak probe, allocations)`);
    try {
      out[key] = { status: 'ok', data: await report(protocol) };
    } catch (error) {
      out[key] = outcomeOf(error);
    }
  }
  return out;
}

// Started one at a time, so that none starts (compiles, loads a browser) while another is being timed.
async function startServers(protocol, log) {
  const servers = {};
  const outcomes = {};
  for (const key of STEP_SERVERS) {
    log(`bench: starting ${key}`);
    let server;
    try {
      const spec = await runners.servers[key](protocol);
      server = new StepServer(spec);
      outcomes[key] = { status: 'ok', info: spec.info, ready: await server.ready() };
      servers[key] = server;
    } catch (error) {
      server?.kill();
      outcomes[key] = outcomeOf(error);
    }
  }
  return { servers, outcomes };
}

async function measureSteps(protocol, log) {
  const { servers, outcomes } = await startServers(protocol, log);
  const timed = await interleave(servers, CONFIGS.map((c) => c.name), protocol, log);
  return Object.fromEntries(STEP_SERVERS.map((key) => [key, { ...outcomes[key], ...timed[key] }]));
}

function loadSampler() {
  const samples = [];
  const sample = () => samples.push(os.loadavg()[0]);
  sample();
  const timer = setInterval(sample, 5000);
  return () => {
    clearInterval(timer);
    sample();
    return samples;
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const protocol = { ...STEP_PROTOCOL, ...(args.quick ? QUICK : {}) };
  const log = (line) => process.stderr.write(`${line}\n`);  // progress on stderr keeps stdout clean for --json
  const start = performance.now();
  const stopSampling = loadSampler();
  const results = { reports: await runReports(protocol, log), steps: await measureSteps(protocol, log) };
  // Last, alone: the page's own workers would compete with the step servers.
  results.page = await measurePage({ quick: args.quick, log })
    .catch((error) => ({ status: 'failed', reason: String(error.message ?? error) }));
  const load = stopSampling();
  const meta = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.cpus().length,
    node: process.version,
    protocol,
    seconds: (performance.now() - start) / 1000,
    load: { min: Math.min(...load), max: Math.max(...load), samples: load },
  };
  const summary = summarize(results);
  // The bare-worker reference of the page's exercises: the chromium step server's one worker, canonical.
  const ref = { workerStepsPerS: summary.rows.find((r) => r.key === 'wasmChromium')?.stepsPerSecond.canonical ?? NaN,
    cores: meta.cores };
  summary.pageTargets = pageVerdicts(results.page, ref);
  if (args.json) console.log(JSON.stringify({ meta, summary, results }, null, 1));
  else {
    console.log(renderText(meta, summary));
    console.log(['', 'The page in headless chromium:', ...renderPage(results.page, ref).map((l) => (l ? `  ${l}` : l))].join('\n'));
  }
}

await main();
