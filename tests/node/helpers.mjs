// Shared by the Node tests: load the single-file wasm module, wrap it, find (or build) the native CLI.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { loadLab } from '../../web/src/wasm-api.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const MODULE_PATH = `${REPO}wasm_build/build/sqrtdk.js`;
export const CLI_PATH = `${REPO}build/release/sqrtdk`;

// The lesson's canonical configuration, spelled out: the API's defaults() must equal it.
export const CANONICAL = Object.freeze({
  layers: 2, dModel: 64, heads: 1, dFf: 0, scale: 'scaled', alpha: 0.5, init: 'xavier', copyLength: 10,
  symbols: 10, batch: 32, evalBatch: 64, optimizer: 'adam', lr: 1e-3, momentum: 0.9, beta1: 0.9, beta2: 0.98,
  eps: 1e-9, clipNorm: 0, seed: 0, evalEvery: 50,
});

// The core's message for a configuration past the 512 MiB cap (src/core/settings/config.cpp).
export const CAP_MESSAGE = new RegExp('^config: configuration needs about \\d+ MiB, over the cap of 512 MiB; ' +
  'most of it is the (output logits|attention maps|activations|parameters) \\([^()]*: reduce [a-z_, ]+\\)$');

/** The factory createSqrtdkModule (CommonJS: the build marks its folder with {"type": "commonjs"}). */
export function loadFactory() {
  if (!existsSync(MODULE_PATH)) {
    const build = 'cmake --preset wasm && cmake --build --preset wasm --target sqrtdk_module';
    throw new Error(`${MODULE_PATH} is missing: ${build}`);
  }
  const factory = createRequire(import.meta.url)(MODULE_PATH);
  if (typeof factory !== 'function') {
    throw new Error(`${MODULE_PATH} exports no factory: wasm_build/build/package.json ({"type": "commonjs"}) missing?`);
  }
  return factory;
}

/** A fresh module instance behind the documented wrapper. */
export function freshLab() {
  return loadLab(loadFactory());
}

/** Path of the native CLI, built with the native-release preset if it is missing. */
export function nativeCli() {
  if (!existsSync(CLI_PATH)) {
    const cmake = (args) => execFileSync('cmake', args, { cwd: REPO, stdio: 'inherit' });
    cmake(['--preset', 'native-release']);
    cmake(['--build', '--preset', 'native-release', '-j2', '--target', 'sqrtdk']);
  }
  return CLI_PATH;
}

export function runCli(args) {
  return execFileSync(nativeCli(), args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** Columns of a CSV with a header row, as arrays of strings keyed by column name. */
export function parseCsv(text) {
  const [header, ...rows] = text.trim().split('\n').map((line) => line.split(','));
  return Object.fromEntries(header.map((name, j) => [name, rows.map((row) => row[j])]));
}

/** Runs fn and returns the message of the Error it throws; fails if it returns or throws something else. */
export function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof Error)) throw new Error(`threw a non-Error: ${String(e)}`);
    return e.message;
  }
  throw new Error('did not throw');
}

export const relDiff = (a, b) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));

export const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

/**
 * Bytes malloc can hand out (in 64 KiB blocks) before the heap must grow, found by allocating blocks until it grows
 * and freeing them: `now` is the free space before that growth, `after` includes the room the growth added.
 * Comparing one probe's `after` with a later probe's `now` measures what was allocated and kept in between.
 */
export function probeFreeHeap(lab) {
  const block = 65536;
  const start = lab.heapBytes();
  const blocks = [];
  while (lab.heapBytes() === start) {
    const pointer = lab.module._malloc(block);
    if (pointer === 0) break;
    blocks.push(pointer);
  }
  for (const pointer of blocks) lab.module._free(pointer);
  const now = (blocks.length - 1) * block;
  return { now, after: now + lab.heapBytes() - start };
}

/** The CLI's JSON (snake_case keys, as the core writes them by default) with the keys the wasm module gives JS. */
const camel = (key) => key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
export function camelKeys(value) {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]));
  return value;
}
