// What scripts/bench.mjs prints: a summary of the measurements (steps/s side by side, kernels against the
// peak, ratios and the targets of issue 5) and its rendering as a text table.  Pure functions of the results.

const CONFIG_NAMES = ['canonical', 'wide'];
const MiB = 1024 * 1024;

// Issue 5's targets on this machine, as ratios from one run.
const TARGETS = [
  { key: 'chromiumOverTorch', label: 'wasm in chromium / PyTorch', min: 1.0, unit: 'x' },
  { key: 'nativeOverTorch', label: 'native / PyTorch', min: 2.0, unit: 'x' },
  { key: 'wasmOverTfjs', label: 'wasm / TF.js (both under Node)', min: 5.0, unit: 'x' },
  { key: 'kernelsForward', label: 'wasm kernels, forward, % of peak', min: 60, unit: '%' },
  { key: 'kernelsBackward', label: 'wasm kernels, backward, % of peak', min: 60, unit: '%' },
];

const ok = (result) => result && result.status === 'ok';
const configOf = (result, name) => (ok(result) ? result.data.configs.find((c) => c.name === name) : undefined);

/** Steps/s of a runner for a configuration (the C++ and Python runners spell it steps_per_second). */
function stepsPerSecond(result, name) {
  const c = configOf(result, name);
  return c ? (c.stepsPerSecond ?? c.steps_per_second) : undefined;
}

const ratio = (a, b) => (a !== undefined && b !== undefined ? a / b : undefined);
const perConfig = (f) => Object.fromEntries(CONFIG_NAMES.map((name) => [name, f(name)]));

function rowLabels(r) {
  const d = (key) => (ok(r[key]) ? r[key].data : {});
  const blas = d('torch').blas ? d('torch').blas.name.split(' ').slice(0, 2).join(' ') : '';
  return {
    native: `native (${d('native').gemm_backend ?? 'Eigen'}, -march=native)`,
    wasmCore: 'wasm core under Node (no JS API)',
    wasmNode: 'wasm under Node (wasm-api.js)',
    wasmChromium: `wasm in chromium Web Worker${d('wasmChromium').browser ? ` (${d('wasmChromium').browser.split('.')[0]})` : ''}`,
    torch: `PyTorch ${d('torch').torch ?? ''}, 1 thread${blas ? `, ${blas}` : ''}`,
    tfjs: `TF.js ${d('tfjs').tfjs ?? ''} wasm backend, 1 thread`,
  };
}

function kernelFigures(wasmCore, native) {
  return perConfig((name) => {
    const c = configOf(wasmCore, name);
    if (!c) return undefined;
    const peak = wasmCore.data.simd128_peak_gflops;
    const stepMs = 1000 / c.steps_per_second;
    return {
      forwardGflops: c.gemm.forward_gflops,
      backwardGflops: c.gemm.backward_gflops,
      allGflops: c.gemm.gflops,
      forwardPercent: (100 * c.gemm.forward_gflops) / peak,
      backwardPercent: (100 * c.gemm.backward_gflops) / peak,
      allPercent: (100 * c.gemm.gflops) / peak,
      stepMs,
      productsMs: c.gemm.ms_per_step,
      otherMs: stepMs - c.gemm.ms_per_step,
      nativeGflops: configOf(native, name)?.gemm.gflops,
      products: c.gemm.products.map((p) => ({ ...p, percent: (100 * p.gflops) / peak })),
    };
  });
}

function targetVerdicts(ratios) {
  return TARGETS.map((t) => {
    const values = ratios[t.key];
    const measured = CONFIG_NAMES.filter((name) => values[name] !== undefined);
    const met = measured.length === CONFIG_NAMES.length ? measured.every((name) => values[name] >= t.min) : undefined;
    return { ...t, values, met };
  });
}

/** The figures the table shows, from the raw results of every runner. */
export function summarize(results) {
  const r = results;
  const rows = Object.entries(rowLabels(r)).map(([key, label]) => ({
    key, label, status: r[key].status, reason: r[key].reason, stepsPerSecond: perConfig((n) => stepsPerSecond(r[key], n)),
  }));
  const kernels = kernelFigures(r.wasmCore, r.native);
  const sps = (key) => perConfig((n) => stepsPerSecond(r[key], n));
  const ratios = {
    chromiumOverTorch: perConfig((n) => ratio(sps('wasmChromium')[n], sps('torch')[n])),
    nativeOverTorch: perConfig((n) => ratio(sps('native')[n], sps('torch')[n])),
    wasmOverTfjs: perConfig((n) => ratio(sps('wasmNode')[n], sps('tfjs')[n])),
    chromiumOverTfjs: perConfig((n) => ratio(sps('wasmChromium')[n], sps('tfjs')[n])),
    kernelsForward: perConfig((n) => kernels[n]?.forwardPercent),
    kernelsBackward: perConfig((n) => kernels[n]?.backwardPercent),
    exceptionsOverPlain: perConfig((n) => ratio(sps('wasmNodeExceptions')[n], sps('wasmNode')[n])),
  };
  return {
    rows,
    allocationsPerStep: {
      native: perConfig((n) => configOf(r.native, n)?.allocations_per_step),
      wasm: perConfig((n) => configOf(r.wasmCore, n)?.allocations_per_step),
    },
    wasmMemoryBytes: {
      node: perConfig((n) => configOf(r.wasmNode, n)?.heapBytesAfter),
      chromium: perConfig((n) => configOf(r.wasmChromium, n)?.heapBytesAfter),
    },
    peakGflops: { wasm: ok(r.wasmCore) ? r.wasmCore.data.simd128_peak_gflops : undefined,
      native: ok(r.native) ? r.native.data.simd128_peak_gflops : undefined },
    kernels,
    exceptions: { plain: sps('wasmNode'), exceptions: sps('wasmNodeExceptions'), status: r.wasmNodeExceptions.status,
      reason: r.wasmNodeExceptions.reason, builtAt: [r.wasmNode.data?.builtAt, r.wasmNodeExceptions.data?.builtAt] },
    ratios,
    targets: targetVerdicts(ratios),
  };
}

// ---- text ---------------------------------------------------------------------------------------------

const fixed = (x, digits = 1) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits));
const pad = (text, width) => String(text).padStart(width);
const padEnd = (text, width) => String(text).padEnd(width);
const both = (values, format, width = 11) => CONFIG_NAMES.map((n) => pad(format(values[n]), width)).join('');

function header(meta) {
  const loads = meta.load.map((x) => x.toFixed(1));
  return [
    `sqrtdk lab benchmark, ${meta.date}: ${meta.cpu}, ${meta.cores} cores, node ${meta.node}`,
    `each figure: warm-up (>= ${meta.protocol.warmupSeconds} s, until the rate stops improving), then the median of ` +
      `${meta.protocol.repeats} repeats of ~${meta.protocol.repeatSeconds} s; total ${fixed(meta.seconds, 0)} s`,
    `load average (1 min) across the run: ${loads.join(' .. ')}${Math.max(...meta.load) > 1.2
      ? '  (other processes were using these cores: expect noise)' : ''}`,
    '',
  ];
}

function stepsTable(s) {
  const lines = [`${padEnd('training steps/s', 46)}${both({ canonical: 'canonical', wide: 'wide' }, String)}`];
  for (const row of s.rows) {
    const figures = row.status === 'ok' ? both(row.stepsPerSecond, (x) => fixed(x)) : `  ${row.status}: ${row.reason}`;
    lines.push(`  ${padEnd(row.label, 44)}${figures}`);
  }
  lines.push('', `  configurations: canonical = 2 layers, d_model 64, 1 head, d_ff 256; wide = 2 layers, d_model 128, ` +
    '4 heads, d_ff 512; both copy length 10, batch 32, Adam');
  return lines;
}

function resourcesLines(s) {
  const mib = (x) => (x === undefined ? '-' : `${(x / MiB).toFixed(0)} MiB`);
  const e = s.exceptions;
  const cost = (n) => (e.plain[n] && e.exceptions[n] ? `${fixed(100 * (1 - e.exceptions[n] / e.plain[n]), 0)}%` : '-');
  const lines = [
    '',
    `${padEnd('heap allocations per step (must be 0)', 46)}`,
    `  ${padEnd('native', 44)}${both(s.allocationsPerStep.native, (x) => fixed(x, 0))}`,
    `  ${padEnd('wasm', 44)}${both(s.allocationsPerStep.wasm, (x) => fixed(x, 0))}`,
    `${padEnd('peak wasm memory (heapBytes after the run)', 46)}`,
    `  ${padEnd('under Node', 44)}${both(s.wasmMemoryBytes.node, mib)}`,
    `  ${padEnd('in chromium', 44)}${both(s.wasmMemoryBytes.chromium, mib)}`,
    '',
    `${padEnd('carrying errors: steps/s under Node', 46)}`,
  ];
  if (e.status !== 'ok') return [...lines, `  sqrtdk_exceptions.js ${e.status}: ${e.reason}`];
  return [...lines,
    `  ${padEnd('sqrtdk.js (errors as results)', 44)}${both(e.plain, (x) => fixed(x))}`,
    `  ${padEnd('sqrtdk_exceptions.js (-fexceptions)', 44)}${both(e.exceptions, (x) => fixed(x))}`,
    `  ${padEnd('cost of -fexceptions', 44)}${both({ canonical: cost('canonical'), wide: cost('wide') }, String)}`,
    `  built ${e.builtAt.map((t) => t?.slice(0, 19)).join(' and ')}`];
}

function kernelLines(s) {
  const k = s.kernels;
  if (!k.canonical) return ['', 'matrix kernels: not measured (the wasm core benchmark did not run)'];
  const cell = (g, p) => `${fixed(g)} (${fixed(p, 0)}%)`;
  const lines = [
    '',
    `matrix products on the training shapes, GFLOP/s (% of the 128-bit SIMD peak)`,
    `  128-bit SIMD peak probe (12 chains of f32x4 mul + add): wasm under Node ${fixed(s.peakGflops.wasm)}, ` +
      `native ${fixed(s.peakGflops.native)} GFLOP/s`,
    `  ${padEnd('', 44)}${both({ canonical: 'canonical', wide: 'wide' }, String, 15)}`,
    `  ${padEnd('wasm simd128, forward products', 44)}${both(k, (x) => cell(x.forwardGflops, x.forwardPercent), 15)}`,
    `  ${padEnd('wasm simd128, backward products', 44)}${both(k, (x) => cell(x.backwardGflops, x.backwardPercent), 15)}`,
    `  ${padEnd('wasm simd128, whole step', 44)}${both(k, (x) => cell(x.allGflops, x.allPercent), 15)}`,
    `  ${padEnd('native Eigen, whole step (AVX-512, reference)', 44)}${both(k, (x) => fixed(x.nativeGflops), 15)}`,
    `  ${padEnd('wasm core ms/step: products + the rest', 44)}` +
      `${both(k, (x) => `${fixed(x.productsMs)} + ${fixed(x.otherMs)}`, 15)}`,
    '',
    `  ${padEnd('wasm simd128 per product (calls/step)', 44)}${both({ canonical: 'canonical', wide: 'wide' }, String, 15)}`,
  ];
  k.canonical.products.forEach((p, i) => {
    const q = k.wide?.products[i];
    const name = `${p.phase === 'forward' ? 'fwd' : 'bwd'} ${p.op} ${p.name}`;
    lines.push(`  ${padEnd(name, 44)}${pad(cell(p.gflops, p.percent), 15)}${pad(q ? cell(q.gflops, q.percent) : '-', 15)}`);
  });
  return lines;
}

function ratioLines(s) {
  const lines = ['', `${padEnd('ratios (targets of issue 5)', 46)}${both({ canonical: 'canonical', wide: 'wide' }, String)}   target`];
  for (const t of s.targets) {
    const format = (x) => (x === undefined ? '-' : t.unit === 'x' ? `${fixed(x, 2)}x` : `${fixed(x, 0)}%`);
    const verdict = t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT met';
    lines.push(`  ${padEnd(t.label, 44)}${both(t.values, format)}   >= ${t.min}${t.unit}: ${verdict}`);
  }
  lines.push(`  ${padEnd('(wasm in chromium / TF.js)', 44)}${both(s.ratios.chromiumOverTfjs, (x) => (x === undefined ? '-' : `${fixed(x, 2)}x`))}`);
  return lines;
}

/** The whole report as text. */
export function renderText(meta, s) {
  return [...header(meta), ...stepsTable(s), ...resourcesLines(s), ...kernelLines(s), ...ratioLines(s)].join('\n');
}
