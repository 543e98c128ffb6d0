// The measurements of scripts/bench.mjs, one function each.  Every measurement runs in its own child process
// (its own JIT, heap and thread pools), one after the other, and returns its parsed JSON.  A peer or a build
// product that is not there throws Skipped with the reason: the report says so rather than showing a number.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const at = (...parts) => path.join(REPO, ...parts);

export const PATHS = {
  nativeBench: at('build/release/sqrtdk_bench'),
  wasmModule: at('wasm_build/build/sqrtdk.js'),
  wasmExceptions: at('wasm_build/build/sqrtdk_exceptions.js'),
  wasmCore: at('wasm_build/build/libsqrtdk_core.a'),
  wasmBenchDir: at('build/bench-wasm'),
  wasmBench: at('build/bench-wasm/sqrtdk_bench.js'),
  python: '/usr/bin/python3',  // Debian's interpreter: the one with torch
  chromium: '/usr/bin/chromium',
};
const WASM_BUILD_HINT = 'cmake --preset wasm && cmake --build --preset wasm -j2';
const CHILD_TIMEOUT_MS = 300000;

export class Skipped extends Error {}

/** Run a command; resolve with its stdout, reject with the tail of its stderr. */
function run(command, args, { env = {}, timeout = CHILD_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(Object.assign(new Error(`${path.basename(command)} ${signal ? `killed (${signal})` : `exited ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`), { code, stderr }));
    });
  });
}

const lastJsonLine = (stdout) => JSON.parse(stdout.trim().split('\n').pop());

function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

function requireFile(file, hint) {
  if (!existsSync(file)) throw new Skipped(`${path.relative(REPO, file)} is missing (${hint})`);
}

// ---- the C++ benchmark, native and wasm -------------------------------------------------------------

function cppFlags(protocol) {
  return ['--json', '--repeats', String(protocol.repeats), '--seconds', String(protocol.repeatSeconds),
    '--warmup', String(protocol.warmupSeconds)];
}

/** Build (incrementally) and run the native sqrtdk_bench of the native-release preset. */
export async function native(protocol) {
  const build = () => run('cmake', ['--build', '--preset', 'native-release', '--target', 'sqrtdk_bench', '-j', '2']);
  try {
    await build();
  } catch {
    // No build directory yet, or one configured before src/bench/ had sources (so no sqrtdk_bench target).
    await run('cmake', ['--preset', 'native-release']);
    await build();
  }
  return lastJsonLine(await run(PATHS.nativeBench, cppFlags(protocol)));
}

function wasmBenchInputs() {
  const bench = readdirSync(at('src/bench')).map((f) => at('src/bench', f));
  return [...bench, at('tests/cpp/alloc_counter.cpp'), at('tests/cpp/alloc_counter.hpp'), PATHS.wasmCore];
}

// The same benchmark compiled with em++ against the wasm build's core library (so it measures the kernels the
// module uses), rebuilt when a source or the library is newer.  There is no CMake target for it: the wasm
// preset's library is its only dependency.
async function buildWasmBench() {
  requireFile(PATHS.wasmCore, WASM_BUILD_HINT);
  if (wasmBenchInputs().every((f) => mtime(f) < mtime(PATHS.wasmBench))) return;
  mkdirSync(PATHS.wasmBenchDir, { recursive: true });
  // The repository's package.json says "type": "module"; emcc's output is CommonJS.
  writeFileSync(path.join(PATHS.wasmBenchDir, 'package.json'), '{"type": "commonjs"}\n');
  const sources = readdirSync(at('src/bench')).filter((f) => f.endsWith('.cpp')).map((f) => `src/bench/${f}`);
  await run('em++', ['-std=c++17', '-O3', '-msimd128', '-DEIGEN_NO_DEBUG', '-Isrc', ...sources, PATHS.wasmCore,
    '-sALLOW_MEMORY_GROWTH=1', '-sENVIRONMENT=node', '-sSINGLE_FILE=1', '-o', PATHS.wasmBench],
  { env: { NODE_PATH: '/usr/share/nodejs' } });  // emcc's JS tools need Debian's acorn (handbook section 1)
}

/** The simd128 peak probe, the kernels on the training shapes and the core's steps/s, in wasm under Node. */
export async function wasmCore(protocol) {
  if (spawnSync('em++', ['--version']).status !== 0) throw new Skipped('em++ not found (apt-get install emscripten)');
  await buildWasmBench();
  return lastJsonLine(await run(process.execPath, [PATHS.wasmBench, ...cppFlags(protocol)]));
}

// ---- the lab's wasm module through web/src/wasm-api.js ----------------------------------------------

function moduleInfo(file) {
  return { module: path.relative(REPO, file), builtAt: new Date(mtime(file)).toISOString() };
}

/** Steps/s of a build of the module under Node. */
export async function wasmNode(protocol, file = PATHS.wasmModule) {
  requireFile(file, WASM_BUILD_HINT);
  const out = await run(process.execPath, [at('scripts/bench/wasm-node.mjs'), file, JSON.stringify(protocol)]);
  return { ...moduleInfo(file), ...lastJsonLine(out) };
}

/** Steps/s of the module built with -fexceptions, under Node. */
export function wasmNodeExceptions(protocol) {
  return wasmNode(protocol, PATHS.wasmExceptions);
}

/** Steps/s of the module in a Blob-URL Web Worker in headless chromium. */
export async function wasmChromium(protocol) {
  requireFile(PATHS.wasmModule, WASM_BUILD_HINT);
  requireFile(PATHS.chromium, 'apt-get install chromium');
  if (!existsSync(at('node_modules/playwright-core'))) throw new Skipped('playwright-core is not installed (npm ci)');
  const out = await run(process.execPath, [at('scripts/bench/wasm-chromium.mjs'), PATHS.wasmModule,
    JSON.stringify(protocol)]);
  return { ...moduleInfo(PATHS.wasmModule), ...lastJsonLine(out) };
}

// ---- peers ------------------------------------------------------------------------------------------

/** PyTorch (Debian's python3-torch) on one thread. */
export async function torch(protocol) {
  requireFile(PATHS.python, 'apt-get install python3-torch');
  if (spawnSync(PATHS.python, ['-c', 'import torch']).status !== 0) {
    throw new Skipped(`${PATHS.python} has no torch (apt-get install python3-torch)`);
  }
  const args = [at('tests/reference/bench_torch.py'), ...cppFlags(protocol)];
  return lastJsonLine(await run(PATHS.python, args));
}

/** TensorFlow.js with its wasm backend, one thread, under Node. */
export async function tfjs(protocol) {
  for (const name of ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm']) {
    if (!existsSync(at('node_modules', name))) throw new Skipped(`${name} is not installed (npm ci)`);
  }
  try {
    return lastJsonLine(await run(process.execPath, [at('scripts/bench/tfjs-peer.mjs'), JSON.stringify(protocol)]));
  } catch (error) {
    if (error.code === 3) throw new Skipped(error.stderr.trim().split('\n').pop());
    throw error;
  }
}
