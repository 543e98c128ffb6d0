// The benchmark's summary (scripts/bench/report.mjs): the targets are judged per configuration, as minima
// (ratios, % of peak) or maxima (the share of a step outside the products).
import test from 'node:test';
import assert from 'node:assert/strict';
import { renderText, summarize } from '../../scripts/bench/report.mjs';

const product = (name, gflops, phase = 'forward') => ({ name, op: 'nt', phase, gflops });
function config(name, { attention, productsMs, stepsPerSecond }) {
  return { name, steps_per_second: stepsPerSecond, allocations_per_step: 0,
    gemm: { forward_gflops: 40, backward_gflops: 40, gflops: 40, ms_per_step: productsMs,
      products: [product('x W1', 50), product('Q K^T (per head)', attention), product('dY V^T (per head)', 45, 'backward')] } };
}
const report = (configs) => ({ status: 'ok', data: { simd128_peak_gflops: 50, configs } });
const steps = (canonical, wide) => ({ status: 'ok', configs: { canonical: { stepsPerSecond: canonical }, wide: { stepsPerSecond: wide } }, ready: {},
  finish: { heap_bytes: 64 << 20, configs: [{ name: 'canonical', heap_bytes_with_trainer: 40 << 20 }, { name: 'wide' }] } });

function results({ chromium, attentionWide }) {
  return {
    reports: {
      native: report([config('canonical', { attention: 40, productsMs: 3, stepsPerSecond: 300 }), config('wide', { attention: 40, productsMs: 9, stepsPerSecond: 90 })]),
      // canonical: 8 ms of 10 in the products (20 % outside); wide: 20 of 25 (20 %)
      wasm: report([config('canonical', { attention: 40, productsMs: 8, stepsPerSecond: 100 }), config('wide', { attention: attentionWide, productsMs: 20, stepsPerSecond: 40 })]),
    },
    steps: { native: steps(300, 90), nativeEigen: steps(400, 120), wasmNode: steps(100, 40), wasmNodeExceptions: steps(95, 38),
      wasmChromium: steps(chromium, 40), torch: steps(100, 40), tfjs: steps(10, 4) },
  };
}

const target = (summary, key) => summary.targets.find((t) => t.key === key);

test('targets are judged per configuration, each against its own bound', () => {
  const met = summarize(results({ chromium: 116, attentionWide: 33 }));
  assert.equal(target(met, 'chromiumOverTorch').met, true, '1.16x canonical >= 1.15, 1.0x wide >= 1.0');
  assert.equal(target(met, 'attentionProducts').met, true, 'slowest attention product 66 % >= 65 %');
  assert.equal(target(met, 'outsideProducts').met, true, '20 % outside the products <= 25 %');
  assert.equal(target(met, 'nativeOverTorch').met, true, 'only the canonical configuration is bounded (3x)');
  const missed = summarize(results({ chromium: 110, attentionWide: 32 }));
  assert.equal(target(missed, 'chromiumOverTorch').met, false, '1.10x canonical < 1.15');
  assert.equal(target(missed, 'attentionProducts').met, false, '64 % < 65 %');
  assert.ok(Math.abs(target(missed, 'attentionProducts').values.wide - 64) < 1e-9);
  assert.ok(Math.abs(target(missed, 'outsideProducts').values.canonical - 20) < 1e-9);
});

test('the text shows each bound and verdict', () => {
  const meta = { date: 'today', cpu: 'cpu', cores: 2, node: 'v20', seconds: 1, load: { min: 0.1, max: 0.2 },
    protocol: { warmupSeconds: 1, repeats: 7, repeatSeconds: 1 } };
  const text = renderText(meta, summarize(results({ chromium: 110, attentionWide: 33 })));
  assert.match(text, /wasm in chromium \/ PyTorch .*>= 1\.15x \/ 1x: NOT met/);
  assert.match(text, /outside the products, % of it .*<= 25% \/ 25%: met/);
  assert.match(text, /native \/ PyTorch .*>= 3x: met/);
});
