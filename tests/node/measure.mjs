// Not a test: prints the module's size, load time and speed.  node tests/node/measure.mjs [repeats=3] [steps=300]
//   module size; load time in Node (fresh process each time, median); steps/s of the canonical configuration
//   in wasm (Node) next to the native CLI's, interleaved in the same run.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';

import { MODULE_PATH, freshLab, runCli } from './helpers.mjs';

const repeats = Number(process.argv[2] ?? 3);
const steps = Number(process.argv[3] ?? 300);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// One fresh Node process: ms from reading sqrtdk.js to the module being ready.
const loadScript = `
  const { loadFactory } = await import(${JSON.stringify(new URL('./helpers.mjs', import.meta.url).href)});
  const t0 = performance.now();
  await loadFactory()();
  console.log(performance.now() - t0);`;
function load() {
  const t0 = performance.now();
  const ms = Number(execFileSync(process.execPath, ['--input-type=module', '-e', loadScript], { encoding: 'utf8' }));
  return { ms, processMs: performance.now() - t0 };
}

// Canonical run in wasm: 50 warm-up steps (V8 tiers hot functions up), then `steps` in chunks of 25.
async function wasmStepsPerSecond(evalEvery) {
  const lab = await freshLab();
  const trainer = lab.createTrainer({ evalEvery });
  trainer.step(50);
  const t0 = performance.now();
  for (let done = 0; done < steps; done += 25) trainer.step(25);
  const seconds = (performance.now() - t0) / 1000;
  trainer.delete();
  return steps / seconds;
}

const nativeStepsPerSecond = (evalEvery) => JSON.parse(runCli(['train', '--steps', String(steps), '--json', '--quiet',
  '--eval-every', String(evalEvery)])).steps_per_second;

const bytes = statSync(MODULE_PATH).size;
console.log(`module ${MODULE_PATH}: ${bytes} bytes (${(bytes / 2 ** 20).toFixed(2)} MiB), ` +
  `gzip -9 ${gzipSync(readFileSync(MODULE_PATH), { level: 9 }).length} bytes`);

const loads = Array.from({ length: 7 }, load);
const shown = (xs) => `median ${median(xs).toFixed(0)} ms of ${xs.map((ms) => ms.toFixed(0)).join(', ')}`;
console.log(`load in Node ${process.version}, 7 fresh processes: read + compile + instantiate ` +
  `${shown(loads.map((l) => l.ms))}; whole process (Node start-up, load, exit) ${shown(loads.map((l) => l.processMs))}`);

console.log(`\nload average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores, shared)`);
console.log(`canonical configuration, ${steps} steps per run, median of ${repeats} interleaved runs:\n`);
console.log('| evaluation               | wasm in Node (steps/s) | native CLI (steps/s) | native / wasm |');
console.log('|--------------------------|------------------------|----------------------|---------------|');
for (const evalEvery of [50, 1000000]) {
  const wasm = [];
  const native = [];
  for (let i = 0; i < repeats; i++) {
    native.push(nativeStepsPerSecond(evalEvery));
    wasm.push(await wasmStepsPerSecond(evalEvery));
  }
  const label = evalEvery === 50 ? 'every 50 steps (default)' : 'none';
  const cells = [label.padEnd(24), median(wasm).toFixed(1).padStart(22), median(native).toFixed(1).padStart(20),
    (median(native) / median(wasm)).toFixed(2).padStart(13)];
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
