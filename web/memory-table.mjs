// The core's memory estimate of a run (lab.estimatedBytes: src/core/nn/memory.cpp, the allocation itself) as data
// the page can evaluate at once, on the main thread, without the wasm module: the source of web/src/memory-table.js.
//
// For a fixed scale and optimizer the estimate is a polynomial in the settings that size a run, of degree at most
// 1 in layers, batch, symbols and heads, and 2 in copy length (the attention maps: T^2, T = 2 L + 1) and d_model
// (the weights: d_model^2).  Such a polynomial is its Newton series over a grid of that many points per setting:
// f(x) = sum over k of (delta^k f)(x0) * prod_i C(u_i - u0_i, k_i), every term an integer (u: the setting on the
// grid's unit steps).  The grid is small (all far under the core's cap); the coefficients are the core's numbers'
// differences, so the page's estimate is the core's exactly (tests/node/memory_table.test.mjs checks it over the
// lab's settings).  Evaluation: web/src/training/run-memory.js.
import { createRequire } from 'node:module';

import { loadLab } from './src/wasm-api.js';

// Each variable: the TrainConfig key, the grid's first value, its step and its degree.  d_model steps by 2 so that
// heads 1 and 2 both divide it.
export const MEMORY_VARIABLES = [
  { key: 'layers', first: 1, step: 1, degree: 1 },
  { key: 'batch', first: 1, step: 1, degree: 1 },
  { key: 'symbols', first: 2, step: 1, degree: 1 },
  { key: 'heads', first: 1, step: 1, degree: 1 },
  { key: 'copyLength', first: 1, step: 1, degree: 2 },
  { key: 'dModel', first: 2, step: 2, degree: 2 },
];

/** Every grid point (index vectors), the last variable fastest. */
function gridIndices() {
  let points = [[]];
  for (const v of MEMORY_VARIABLES) points = points.flatMap((p) => Array.from({ length: v.degree + 1 }, (_, i) => [...p, i]));
  return points;
}

/** Forward differences of the grid's values along every variable: the Newton coefficients, in the grid's order. */
function newtonCoefficients(values) {
  const sizes = MEMORY_VARIABLES.map((v) => v.degree + 1);
  const c = [...values];
  let stride = c.length;
  for (const size of sizes) {
    stride /= size;
    // along this variable: repeated differences, highest order last
    for (let base = 0; base < c.length; base += 1) {
      if (Math.floor(base / stride) % size !== 0) continue;
      for (let order = 1; order < size; order += 1) {
        for (let i = size - 1; i >= order; i -= 1) c[base + i * stride] -= c[base + (i - 1) * stride];
      }
    }
  }
  return c;
}

/** @returns {Promise<string>} the source of web/src/memory-table.js */
export async function memoryTableSource(gluePath) {
  const lab = await loadLab(createRequire(import.meta.url)(gluePath));
  const choices = (name) => lab.schema().find((s) => s.name === name).choices;
  const grid = gridIndices();
  const tables = [];
  const byKey = {};
  for (const scale of choices('scale')) {
    for (const optimizer of choices('optimizer')) {
      const values = grid.map((index) => lab.estimatedBytes(Object.fromEntries([['scale', scale], ['optimizer', optimizer],
        ...MEMORY_VARIABLES.map((v, i) => [v.key, v.first + v.step * index[i]])])));
      const coefficients = JSON.stringify(newtonCoefficients(values));
      let at = tables.indexOf(coefficients);
      if (at < 0) at = tables.push(coefficients) - 1;
      byKey[`${scale} ${optimizer}`] = at;
    }
  }
  // The core's cap on one run, as its refusal states it ("over the cap of 512 MiB").
  let cap = null;
  try {
    lab.estimatedBytes({ layers: 6, dModel: 256, heads: 16, copyLength: 32, symbols: 64, batch: 128 });
  } catch (error) {
    const match = /over the cap of (\d+) MiB/.exec(error.message);
    if (match) cap = Number(match[1]) * 1024 * 1024;
  }
  if (cap === null) throw new Error('memory-table.mjs: the core did not state its cap on a run ("over the cap of N MiB")');
  return `// Generated from the wasm module by web/memory-table.mjs (npm run tables): do not edit.
// The core's memory estimate of a run (src/core/nn/memory.cpp) as Newton coefficients over a small grid, per scale
// and optimizer; web/src/training/run-memory.js evaluates it (the same number as lab.estimatedBytes), and
// RUN_CAP_BYTES is the core's cap on one run.
export const MEMORY_VARIABLES = Object.freeze(${JSON.stringify(MEMORY_VARIABLES)}.map(Object.freeze));

export const RUN_CAP_BYTES = ${cap};

export const MEMORY_TABLE = Object.freeze({
${Object.entries(byKey).map(([key, at]) => `  ${JSON.stringify(key)}: ${at},`).join('\n')}
});

export const MEMORY_COEFFICIENTS = Object.freeze([
${tables.map((t) => `  Object.freeze(${t}),`).join('\n')}
]);
`;
}

// node web/memory-table.mjs --write  (npm run tables): writes web/src/memory-table.js from the built wasm module.
if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--write') {
  const { writeFileSync } = await import('node:fs');
  const { NODE_MODULE } = await import('./build-inputs.mjs');
  writeFileSync(new URL('./src/memory-table.js', import.meta.url), await memoryTableSource(NODE_MODULE));
}
