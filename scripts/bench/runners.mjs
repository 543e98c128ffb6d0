// What scripts/bench.mjs runs: the two reports of the C++ benchmark (native and compiled to wasm: products,
// peak probe, allocations), and the step servers of every implementation (protocol.mjs).  Each function either
// returns what to run or throws Skipped with the reason when a peer or build product is not there: the report
// then says so rather than showing a number.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const at = (...parts) => path.join(REPO, ...parts);

export const PATHS = {
  nativeBench: at('build/release/sqrtdk_bench'),
  nativeBenchEigen: at('build/release/sqrtdk_bench_eigen'),  // float products on Eigen: results depend on the CPU
  wasmModule: at('wasm_build/build/sqrtdk.js'),
  wasmExceptions: at('wasm_build/build/sqrtdk_exceptions.js'),
  wasmCore: at('wasm_build/build/libsqrtdk_core.a'),
  wasmBench: at('wasm_build/build/sqrtdk_bench.js'),
  python: '/usr/bin/python3',  // Debian's interpreter: the one with torch
  chromium: '/usr/bin/chromium',
};
const WASM_BUILD_HINT = 'cmake --preset wasm && cmake --build --preset wasm -j2';
const CHILD_TIMEOUT_MS = 300000;

export class Skipped extends Error {
  get skipped() { return true; }
}

function failure(command, code, signal, stderr) {
  const how = signal ? `killed (${signal})` : `exited ${code}`;
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  return Object.assign(new Error(`${path.basename(command)} ${how}: ${tail}`), { code, stderr });
}

/** Run a command to completion; resolve with its stdout, reject with the tail of its stderr. */
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
      else reject(failure(command, code, signal, stderr));
    });
  });
}

const lastJsonLine = (stdout) => JSON.parse(stdout.trim().split('\n').pop());
const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

function requireFile(file, hint) {
  if (!existsSync(file)) throw new Skipped(`${path.relative(REPO, file)} is missing (${hint})`);
}

function cppFlags(protocol) {
  return ['--repeats', String(protocol.repeats), '--seconds', String(protocol.repeatSeconds),
    '--warmup', String(protocol.warmupSeconds)];
}

// ---- builds -----------------------------------------------------------------------------------------

/** Build (incrementally) the native sqrtdk_bench and sqrtdk_bench_eigen of the native-release preset. */
export async function buildNative() {
  const build = () => run('cmake', ['--build', '--preset', 'native-release', '--target', 'sqrtdk_bench',
    'sqrtdk_bench_eigen', '-j', '2']);
  try {
    await build();
  } catch {
    // No build directory yet, or one configured before src/bench/ had sources (so no sqrtdk_bench target).
    await run('cmake', ['--preset', 'native-release']);
    await build();
  }
}

// The same benchmark compiled to wasm (target sqrtdk_bench_wasm of the wasm preset: the kernels the module uses),
// rebuilt incrementally by CMake.
export async function buildWasmBench() {
  requireFile(PATHS.wasmCore, WASM_BUILD_HINT);
  await run('cmake', ['--build', '--preset', 'wasm', '--target', 'sqrtdk_bench_wasm', '-j', '2']);
}

// ---- reports of the C++ benchmark (run to completion, one after the other) ----------------------------

/** Native: Eigen products, the 128-bit probe, allocations, steps/s. */
export async function nativeReport(protocol) {
  await buildNative();
  return lastJsonLine(await run(PATHS.nativeBench, ['--json', ...cppFlags(protocol)]));
}

/** Compiled to wasm, under Node: the simd128 kernels on the training shapes, the probe, allocations. */
export async function wasmReport(protocol) {
  await buildWasmBench();
  return lastJsonLine(await run(process.execPath, [PATHS.wasmBench, '--json', ...cppFlags(protocol)]));
}

// ---- step servers (what to spawn; see interleave.mjs) ---------------------------------------------------

const nodeServer = (script, ...args) => ({
  command: process.execPath, args: [at('scripts/bench', script), ...args], cwd: REPO,
});

// Whether a module is older than the sources it is built from: a comparison of two modules (sqrtdk.js and
// sqrtdk_exceptions.js) only means something when both are current.
function moduleInfo(file) {
  const sources = ['src/core', 'src/wasm'].flatMap((dir) => readdirSync(at(dir), { recursive: true }).map((f) => at(dir, f)));
  const newest = Math.max(...sources.map(mtime));
  const built = mtime(file);
  return { module: path.relative(REPO, file), built_at: new Date(built).toISOString(), stale: built < newest };
}

export const servers = {
  native: async (protocol) => {
    await buildNative();
    return { command: PATHS.nativeBench, args: ['--serve', ...cppFlags(protocol)], cwd: REPO };
  },
  nativeEigen: async (protocol) => {
    await buildNative();
    return { command: PATHS.nativeBenchEigen, args: ['--serve', ...cppFlags(protocol)], cwd: REPO };
  },
  wasmNode: (protocol) => {
    requireFile(PATHS.wasmModule, WASM_BUILD_HINT);
    return { ...nodeServer('wasm-node.mjs', PATHS.wasmModule, JSON.stringify(protocol)),
      info: moduleInfo(PATHS.wasmModule) };
  },
  wasmNodeExceptions: (protocol) => {
    requireFile(PATHS.wasmExceptions, WASM_BUILD_HINT);
    return { ...nodeServer('wasm-node.mjs', PATHS.wasmExceptions, JSON.stringify(protocol)),
      info: moduleInfo(PATHS.wasmExceptions) };
  },
  wasmChromium: (protocol) => {
    requireFile(PATHS.wasmModule, WASM_BUILD_HINT);
    requireFile(PATHS.chromium, 'apt-get install chromium');
    if (!existsSync(at('node_modules/playwright-core'))) throw new Skipped('playwright-core is not installed (npm ci)');
    return { ...nodeServer('wasm-chromium.mjs', PATHS.wasmModule, JSON.stringify(protocol)),
      info: moduleInfo(PATHS.wasmModule) };
  },
  torch: (protocol) => {
    requireFile(PATHS.python, 'apt-get install python3-torch');
    if (spawnSync(PATHS.python, ['-c', 'import torch']).status !== 0) {
      throw new Skipped(`${PATHS.python} has no torch (apt-get install python3-torch)`);
    }
    const script = at('tests/reference/bench_torch.py');
    return { command: PATHS.python, args: [script, '--serve', ...cppFlags(protocol)], cwd: REPO };
  },
  tfjs: (protocol) => {
    for (const name of ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm']) {
      if (!existsSync(at('node_modules', name))) throw new Skipped(`${name} is not installed (npm ci)`);
    }
    return nodeServer('tfjs-peer.mjs', JSON.stringify(protocol));
  },
};
