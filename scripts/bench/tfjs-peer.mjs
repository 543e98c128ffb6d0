// TensorFlow.js peer of the benchmark: the same model, task and optimizer trained on tfjs's WebAssembly backend,
// one thread, under Node, as a step server (protocol.mjs); started by scripts/bench.mjs.
//
//   node scripts/bench/tfjs-peer.mjs [PROTOCOL_JSON]
//
// The model is written from the architecture in src/core/nn/model.hpp with tfjs ops (gradients by tf's autodiff):
// pre-LayerNorm causal decoder, GELU (tanh form) MLP, learned positions, Xavier-uniform Linears, loss on the
// copy half only; Adam with the lab's defaults.  Each step samples a fresh copy-task batch.  Two deviations,
// neither of which changes the work much: embeddings are one-hot products (the wasm backend has no kernel for
// a gather's gradient) and the causal mask adds -1e9 instead of -inf.  When tfjs or its wasm backend cannot be
// loaded it answers {"error", "skipped": true} instead of ready, and the peer is reported as skipped.
import { CONFIGS, STEP_PROTOCOL, stepServer } from './protocol.mjs';
import { serveLines } from './serve.mjs';

const ADAM = { lr: 1e-3, beta1: 0.9, beta2: 0.98, eps: 1e-9 };
const TASK = { copyLength: 10, symbols: 10 };
const LAYERNORM_EPS = 1e-5;

async function loadTf() {
  try {
    // The union package, not tfjs-core alone: it registers the gradients and the chained ops (x.add(y)).
    const tf = await import('@tensorflow/tfjs');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    wasm.setThreadsCount(1);
    if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") returned false');
    await tf.ready();
    return tf;
  } catch (error) {
    // Not a failure of the benchmark: the peer is not there (protocol.mjs, "skipped").
    console.log(JSON.stringify({ error: `tfjs wasm backend unavailable: ${error.message}`, skipped: true }));
    process.exit(3);
  }
}

// SplitMix-style 32-bit generator (mulberry32): the batches need to be random, not the same as the lab's.
function randomInts(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

// The copy-task layout of src/core/settings/copy_layout.hpp: BOS x1..xL SEP x1..xL, input = sequence minus its last token.
function copyBatch(tf, shape, next) {
  const { B, L, T } = shape;
  const inputs = new Int32Array(B * T);
  const targets = new Int32Array(B * T);
  for (let b = 0; b < B; b += 1) {
    const sequence = [0];
    const x = Array.from({ length: L }, () => 2 + next(TASK.symbols));
    sequence.push(...x, 1, ...x);
    for (let p = 0; p < T; p += 1) {
      inputs[b * T + p] = sequence[p];
      targets[b * T + p] = sequence[p + 1];
    }
  }
  return { inputs: tf.tensor1d(inputs, 'int32'), targets: tf.tensor1d(targets, 'int32') };
}

function initParameters(tf, c, V, T) {
  const C = c.dModel;
  const F = c.dFf;
  const linear = (i, o) => tf.variable(tf.randomUniform([i, o], -Math.sqrt(6 / (i + o)), Math.sqrt(6 / (i + o))));
  const zeros = (n) => tf.variable(tf.zeros([n]));
  const ones = (n) => tf.variable(tf.ones([n]));
  const layer = () => ({
    ln1g: ones(C), ln1b: zeros(C), wq: linear(C, C), bq: zeros(C), wk: linear(C, C), bk: zeros(C),
    wv: linear(C, C), bv: zeros(C), wo: linear(C, C), bo: zeros(C), ln2g: ones(C), ln2b: zeros(C),
    w1: linear(C, F), b1: zeros(F), w2: linear(F, C), b2: zeros(C),
  });
  return {
    wte: tf.variable(tf.randomNormal([V, C])), wpe: tf.variable(tf.randomNormal([T, C])),
    layers: Array.from({ length: c.layers }, layer),
    lnfg: ones(C), lnfb: zeros(C), headW: linear(C, V), headB: zeros(V),
  };
}

function allVariables(p) {
  const { layers, ...top } = p;
  return [...Object.values(top), ...layers.flatMap((l) => Object.values(l))];
}

/** The copy loss of one batch as a scalar tensor (inside the optimizer's tidy). */
function makeLoss(tf, c, shape, p) {
  const { B, L, T, V } = shape;
  const N = B * T;
  const H = c.heads;
  const D = c.dModel / H;
  const C = c.dModel;
  const scale = 1 / Math.sqrt(D);
  const causal = Array.from({ length: T * T }, (_, i) => (i % T > Math.floor(i / T) ? -1e9 : 0));
  const future = tf.keep(tf.tensor2d(causal, [T, T]));
  const scored = tf.keep(tf.tensor1d(Array.from({ length: N }, (_, n) => (n % T >= L + 1 ? 1 : 0))));
  const layerNorm = (x, g, b) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return x.sub(mean).mul(tf.rsqrt(variance.add(LAYERNORM_EPS))).mul(g).add(b);
  };
  const linear = (x, w, b) => tf.matMul(x, w).add(b);
  // GELU, tanh form, written as x sigmoid(2z) = 0.5 x (1 + tanh z): the same function, and tfjs-wasm's sigmoid
  // (XNNPACK) runs about 15x faster than its tanh, which would otherwise dominate the step.
  const gelu = (x) => x.mul(tf.sigmoid(x.add(x.mul(x).mul(x).mul(0.044715)).mul(2 * Math.sqrt(2 / Math.PI))));
  const heads = (t) => t.reshape([B, T, H, D]).transpose([0, 2, 1, 3]);
  const attention = (x, l) => {
    const q = heads(linear(x, l.wq, l.bq));
    const k = heads(linear(x, l.wk, l.bk));
    const v = heads(linear(x, l.wv, l.bv));
    const weights = tf.softmax(tf.matMul(q, k, false, true).mul(scale).add(future));
    return linear(tf.matMul(weights, v).transpose([0, 2, 1, 3]).reshape([N, C]), l.wo, l.bo);
  };
  return (inputs, targets) => {
    let x = tf.matMul(tf.oneHot(inputs, V), p.wte).reshape([B, T, C]).add(p.wpe).reshape([N, C]);
    for (const l of p.layers) {
      x = x.add(attention(layerNorm(x, l.ln1g, l.ln1b), l));
      x = x.add(linear(gelu(linear(layerNorm(x, l.ln2g, l.ln2b), l.w1, l.b1)), l.w2, l.b2));
    }
    const logp = tf.logSoftmax(linear(layerNorm(x, p.lnfg, p.lnfb), p.headW, p.headB));
    const picked = logp.mul(tf.oneHot(targets, V)).sum(-1);
    return picked.mul(scored).sum().div(B * L).neg();
  };
}

// One configuration's training run; step(n) runs n steps.
function trainingRun(tf, name, c) {
  const shape = { B: c.batch, L: TASK.copyLength, T: 2 * TASK.copyLength + 1, V: TASK.symbols + 2 };
  const params = initParameters(tf, c, shape.V, shape.T);
  const loss = makeLoss(tf, c, shape, params);
  const optimizer = tf.train.adam(ADAM.lr, ADAM.beta1, ADAM.beta2, ADAM.eps);
  const variables = allVariables(params);
  const next = randomInts(1);
  const run = { name, lastLoss: NaN };
  run.step = (steps) => {
    for (let i = 0; i < steps; i += 1) {
      const batch = copyBatch(tf, shape, next);
      const cost = optimizer.minimize(() => loss(batch.inputs, batch.targets), true, variables);
      run.lastLoss = cost.dataSync()[0];
      tf.dispose([cost, batch.inputs, batch.targets]);
      if (!Number.isFinite(run.lastLoss)) throw new Error(`${name} diverged`);
    }
  };
  return run;
}

const protocol = { ...STEP_PROTOCOL, ...(process.argv[2] ? JSON.parse(process.argv[2]) : {}) };
const tf = await loadTf();
const runs = CONFIGS.map(({ name, config }) => trainingRun(tf, name, config));
const finish = () => ({
  configs: runs.map((r) => ({ name: r.name, last_loss: r.lastLoss })),
  live_tensors: tf.memory().numTensors,  // parameters, Adam moments and constants: a leak would show here
});
await serveLines({
  tfjs: tf.version_core,
  backend: tf.getBackend(),
  simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
  threads: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'several' : 1,
}, stepServer(Object.fromEntries(runs.map((r) => [r.name, r.step])), finish, protocol));
