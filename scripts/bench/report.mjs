// What scripts/bench.mjs prints: a summary of the measurements (steps/s side by side, kernels against the
// peak, ratios and the speed targets they are held to) and its rendering as a text table.  Pure functions of the results.

const CONFIG_NAMES = ['canonical', 'wide'];
const MiB = 1024 * 1024;

// The speed targets on this machine, as ratios and shares from one run; per configuration (a configuration
// without a bound is shown but not judged).
const both2 = (canonical, wide) => ({ canonical, wide });
const TARGETS = [
  { key: 'chromiumOverTorch', label: 'wasm in chromium / PyTorch', min: both2(1.15, 1.0), unit: 'x' },
  { key: 'nativeOverTorch', label: 'native / PyTorch', min: { canonical: 3.0 }, unit: 'x' },
  { key: 'wasmOverTfjs', label: 'wasm / TF.js (both under Node)', min: both2(5.0, 5.0), unit: 'x' },
  { key: 'kernelsForward', label: 'wasm kernels, forward, % of peak', min: both2(60, 60), unit: '%' },
  { key: 'kernelsBackward', label: 'wasm kernels, backward, % of peak', min: both2(60, 60), unit: '%' },
  { key: 'attentionProducts', label: 'wasm slowest attention product, % of peak', min: both2(65, 65), unit: '%' },
  { key: 'outsideProducts', label: 'wasm step outside the products, % of it', max: both2(25, 25), unit: '%' },
];

// The per-head attention products (src/bench/products.cpp names them so).
const isAttentionProduct = (p) => /per head|attention/i.test(p.name);

const ok = (outcome) => outcome && outcome.status === 'ok';
const reportConfig = (report, name) => (ok(report) ? report.data.configs.find((c) => c.name === name) : undefined);
const stepsPerSecond = (outcome, name) => (ok(outcome) ? outcome.configs[name]?.stepsPerSecond : undefined);
const major = (version) => version.split('.')[0];  // 'chromium 156.0.8078.114' -> 'chromium 156'
const ratio = (a, b) => (a !== undefined && b !== undefined ? a / b : undefined);
const perConfig = (f) => Object.fromEntries(CONFIG_NAMES.map((name) => [name, f(name)]));

const STEP_ROWS = ['native', 'nativeEigen', 'wasmNode', 'wasmChromium', 'torch', 'tfjs'];

function rowLabel(key, outcome) {
  const ready = outcome.ready ?? {};
  const blas = ready.blas ? `, ${ready.blas.name.split(' ').slice(0, 2).join(' ')}` : '';
  switch (key) {
    case 'native': return `native (${ready.gemm_backend ?? 'f32x4'} kernels, -march=native)`;
    case 'nativeEigen': return `native (${ready.gemm_backend ?? 'eigen'} float products, opt-in)`;
    case 'wasmNode': return 'wasm under Node (wasm-api.js)';
    case 'wasmChromium': return `wasm in chromium Web Worker${ready.browser ? ` (${major(ready.browser)})` : ''}`;
    case 'torch': return `PyTorch ${ready.torch ?? ''}, 1 thread${blas}`;
    default: return `TF.js ${ready.tfjs ?? ''} wasm backend, 1 thread`;
  }
}

function kernelFigures(wasm, native) {
  return perConfig((name) => {
    const c = reportConfig(wasm, name);
    if (!c) return undefined;
    const n = reportConfig(native, name);
    const peak = wasm.data.simd128_peak_gflops;
    return {
      forwardGflops: c.gemm.forward_gflops,
      backwardGflops: c.gemm.backward_gflops,
      allGflops: c.gemm.gflops,
      forwardPercent: (100 * c.gemm.forward_gflops) / peak,
      backwardPercent: (100 * c.gemm.backward_gflops) / peak,
      allPercent: (100 * c.gemm.gflops) / peak,
      // Time per step in the products (from their isolated timings) and in everything else.
      productsMs: c.gemm.ms_per_step,
      otherMs: 1000 / c.steps_per_second - c.gemm.ms_per_step,
      nativeGflops: n?.gemm.gflops,
      nativeProductsMs: n?.gemm.ms_per_step,
      nativeOtherMs: n && 1000 / n.steps_per_second - n.gemm.ms_per_step,
      products: c.gemm.products.map((p) => ({ ...p, percent: (100 * p.gflops) / peak })),
    };
  });
}

function targetVerdicts(ratios) {
  return TARGETS.map((t) => {
    const values = ratios[t.key];
    const bounds = t.min ?? t.max;
    const judged = CONFIG_NAMES.filter((name) => bounds[name] !== undefined);
    const meets = (name) => (t.min ? values[name] >= t.min[name] : values[name] <= t.max[name]);
    const met = judged.every((name) => values[name] !== undefined) ? judged.every(meets) : undefined;
    return { ...t, values, met };
  });
}

function exceptionsFigures(plain, withExceptions) {
  return {
    status: withExceptions.status,
    reason: withExceptions.reason,
    plain: perConfig((n) => stepsPerSecond(plain, n)),
    exceptions: perConfig((n) => stepsPerSecond(withExceptions, n)),
    stale: [plain, withExceptions].filter((o) => o.info?.stale).map((o) => o.info.module),
  };
}

function memoryFigures(outcome) {
  if (!ok(outcome)) return undefined;
  const [first, ...rest] = outcome.finish.configs;
  return { firstConfig: first.name, withFirst: first.heap_bytes_with_trainer, peak: outcome.finish.heap_bytes,
    allConfigs: [first, ...rest].map((c) => c.name) };
}

/** The figures the table shows, from the raw results of every measurement. */
export function summarize({ reports, steps }) {
  const sps = (key) => perConfig((n) => stepsPerSecond(steps[key], n));
  const kernels = kernelFigures(reports.wasm, reports.native);
  const ratios = {
    chromiumOverTorch: perConfig((n) => ratio(sps('wasmChromium')[n], sps('torch')[n])),
    nativeOverTorch: perConfig((n) => ratio(sps('native')[n], sps('torch')[n])),
    wasmOverTfjs: perConfig((n) => ratio(sps('wasmNode')[n], sps('tfjs')[n])),
    chromiumOverTfjs: perConfig((n) => ratio(sps('wasmChromium')[n], sps('tfjs')[n])),
    kernelsForward: perConfig((n) => kernels[n]?.forwardPercent),
    kernelsBackward: perConfig((n) => kernels[n]?.backwardPercent),
    attentionProducts: perConfig((n) => {
      const attention = kernels[n]?.products.filter(isAttentionProduct) ?? [];
      return attention.length ? Math.min(...attention.map((p) => p.percent)) : undefined;
    }),
    outsideProducts: perConfig((n) => (kernels[n] ? (100 * kernels[n].otherMs) / (kernels[n].productsMs + kernels[n].otherMs) : undefined)),
  };
  return {
    rows: STEP_ROWS.map((key) => ({ key, label: rowLabel(key, steps[key]), status: steps[key].status,
      reason: steps[key].reason, stepsPerSecond: sps(key) })),
    allocationsPerStep: {
      native: perConfig((n) => reportConfig(reports.native, n)?.allocations_per_step),
      wasm: perConfig((n) => reportConfig(reports.wasm, n)?.allocations_per_step),
    },
    wasmMemory: { node: memoryFigures(steps.wasmNode), chromium: memoryFigures(steps.wasmChromium) },
    peakGflops: { wasm: ok(reports.wasm) ? reports.wasm.data.simd128_peak_gflops : undefined,
      native: ok(reports.native) ? reports.native.data.simd128_peak_gflops : undefined },
    reportStatus: { native: reports.native.status, wasm: reports.wasm.status,
      reason: [reports.native.reason, reports.wasm.reason].filter(Boolean).join('; ') },
    kernels,
    exceptions: exceptionsFigures(steps.wasmNode, steps.wasmNodeExceptions),
    ratios,
    targets: targetVerdicts(ratios),
  };
}

// ---- text ---------------------------------------------------------------------------------------------

const fixed = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? '-' : x.toFixed(digits));
const pad = (text, width) => String(text).padStart(width);
const padEnd = (text, width) => String(text).padEnd(width);
const both = (values, format, width = 11) => CONFIG_NAMES.map((n) => pad(format(values[n]), width)).join('');
const titles = (width = 11) => both({ canonical: 'canonical', wide: 'wide' }, String, width);
const line = (label, cells) => `  ${padEnd(label, 44)}${cells}`;
const mib = (x) => (x === undefined ? '-' : `${(x / MiB).toFixed(0)} MiB`);

function header(meta) {
  const p = meta.protocol;
  const busy = meta.load.max > 1.2 ? ': other processes were using the cores, expect noise' : '';
  return [
    `sqrtdk lab benchmark, ${meta.date}: ${meta.cpu}, ${meta.cores} cores, node ${meta.node}; ` +
      `${fixed(meta.seconds, 0)} s`,
    `each steps/s: warm-up (>= ${p.warmupSeconds} s, until the rate stops improving), then the median of ` +
      `${p.repeats} repeats of ~${p.repeatSeconds} s, interleaved across implementations`,
    `load average (1 min) during the run: ${fixed(meta.load.min)} to ${fixed(meta.load.max)}${busy}`,
    '',
  ];
}

function stepsTable(s) {
  const lines = [`${padEnd('training steps/s', 46)}${titles()}`];
  for (const row of s.rows) {
    const cells = row.status === 'ok' ? both(row.stepsPerSecond, (x) => fixed(x)) : `  ${row.status}: ${row.reason}`;
    lines.push(line(row.label, cells));
  }
  lines.push('  canonical = 2 layers, d_model 64, 1 head, d_ff 256; wide = 2 layers, d_model 128, 4 heads, d_ff 512;',
    '  both: copy length 10, batch 32, Adam (lr 1e-3, betas 0.9/0.98, eps 1e-9), evaluation off');
  return lines;
}

function memoryLine(label, m) {
  if (!m) return line(label, '-');
  return line(label, `${mib(m.withFirst)} with the ${m.firstConfig} trainer, ${mib(m.peak)} with both`);
}

function resourcesLines(s) {
  const lines = [
    '',
    `${padEnd('heap allocations per training step (must be 0)', 46)}${titles()}`,
    line('native', both(s.allocationsPerStep.native, (x) => fixed(x, 0))),
    line('wasm', both(s.allocationsPerStep.wasm, (x) => fixed(x, 0))),
    'peak wasm memory (heapBytes)',
    memoryLine('under Node', s.wasmMemory.node),
    memoryLine('in chromium', s.wasmMemory.chromium),
  ];
  if (s.reportStatus.reason) lines.push(`  (C++ reports: ${s.reportStatus.reason})`);
  return lines;
}

function exceptionLines(e) {
  const lines = ['', `${padEnd('carrying errors: steps/s under Node', 46)}${titles()}`];
  if (e.status !== 'ok') return [...lines, `  sqrtdk_exceptions.js ${e.status}: ${e.reason}`];
  const cost = (n) => (e.plain[n] && e.exceptions[n] ? `${fixed(100 * (1 - e.exceptions[n] / e.plain[n]), 0)}%` : '-');
  lines.push(line('sqrtdk.js (errors as results)', both(e.plain, (x) => fixed(x))),
    line('sqrtdk_exceptions.js (-fexceptions)', both(e.exceptions, (x) => fixed(x))),
    line('steps/s lost to -fexceptions', both(perConfig(cost), String)));
  if (e.stale.length) {
    lines.push(`  note: older than src/core or src/wasm, so possibly not comparable: ${e.stale.join(', ')}`);
  }
  return lines;
}

function kernelLines(s) {
  const k = s.kernels;
  if (!k.canonical) return ['', 'matrix kernels: not measured (the wasm report did not run)'];
  const cell = (g, p) => `${fixed(g)} (${fixed(p, 0)}%)`;
  const lines = [
    '',
    'matrix products on the training shapes, GFLOP/s (% of the 128-bit SIMD peak)',
    `  128-bit SIMD peak probe (12 chains of f32x4 mul + add): ${fixed(s.peakGflops.wasm)} GFLOP/s in wasm ` +
      `under Node (native: ${fixed(s.peakGflops.native)})`,
    `${padEnd('', 46)}${titles(15)}`,
    line('wasm simd128, forward products', both(k, (x) => cell(x.forwardGflops, x.forwardPercent), 15)),
    line('wasm simd128, backward products', both(k, (x) => cell(x.backwardGflops, x.backwardPercent), 15)),
    line('wasm simd128, all products of a step', both(k, (x) => cell(x.allGflops, x.allPercent), 15)),
    line('native Eigen, all products (reference)', both(k, (x) => fixed(x.nativeGflops), 15)),
    '  ms/step in the products + in everything else',
    line('  wasm core alone (no JS API)', both(k, (x) => `${fixed(x.productsMs)} + ${fixed(x.otherMs)}`, 15)),
    line('  native', both(k, (x) => `${fixed(x.nativeProductsMs)} + ${fixed(x.nativeOtherMs)}`, 15)),
    '',
    `${padEnd('  wasm simd128, per product', 46)}${titles(15)}`,
  ];
  k.canonical.products.forEach((p, i) => {
    const q = k.wide?.products[i];
    const name = `${p.phase === 'forward' ? 'fwd' : 'bwd'} ${p.op} ${p.name}`;
    lines.push(line(name, `${pad(cell(p.gflops, p.percent), 15)}${pad(q ? cell(q.gflops, q.percent) : '-', 15)}`));
  });
  return lines;
}

function ratioLines(s) {
  const times = (x) => (x === undefined ? '-' : `${fixed(x, 2)}x`);
  const lines = ['', `${padEnd('ratios (and their targets)', 46)}${titles()}   target`];
  for (const t of s.targets) {
    const verdict = t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT met';
    const format = t.unit === 'x' ? times : (x) => (x === undefined ? '-' : `${fixed(x, 0)}%`);
    const bounds = t.min ?? t.max;
    const bound = CONFIG_NAMES.filter((n) => bounds[n] !== undefined).map((n) => `${bounds[n]}${t.unit}`).join(' / ');
    lines.push(`${line(t.label, both(t.values, format))}   ${t.min ? '>=' : '<='} ${bound}: ${verdict}`);
  }
  lines.push(line('(wasm in chromium / TF.js)', both(s.ratios.chromiumOverTfjs, times)));
  return lines;
}

/** The whole report as text. */
export function renderText(meta, s) {
  return [...header(meta), ...stepsTable(s), ...resourcesLines(s), ...exceptionLines(s.exceptions),
    ...kernelLines(s), ...ratioLines(s)].join('\n');
}
