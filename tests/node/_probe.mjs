import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const t0 = performance.now();
const { loadFactory } = await import("/work/main/tests/node/helpers.mjs"); const factory = loadFactory();
const { loadLab } = await import('/work/main/web/src/wasm-api.js');
const lab = await loadLab(factory);
console.log('load ms', performance.now() - t0);
console.log(lab.defaults(), lab.gemmBackend(), lab.heapBytes());
const tries = [
  {dModel: 'x'}, {dModel: NaN}, {dModel: Infinity}, {dModel: -1}, {dModel: 1e300}, {dModel: 64.5}, {foo: 1},
  {dModel: 1024, dFf: 8192, layers: 12, batch: 1024, copyLength: 64}, {lr: NaN}, {lr: -0}, {seed: -1}, {scale: 'x'}, {init: 3}, 5, 'a', [], null,
  {dModel: -0}, {seed: -0}, {dModel: 65, heads: 2}, {beta1: 1},
];
for (const c of tries) { try { const t = lab.createTrainer(c); console.log('OK', JSON.stringify(c)); t.delete(); } catch (e) { console.log(JSON.stringify(c), '->', e.message); } }
const t = lab.createTrainer({});
for (const k of [0, -1, 1.5, NaN, 'a', undefined, 100001, Infinity]) { try { t.step(k); console.log('OK', k);} catch (e) { console.log('step', k, '->', e.message); } }
for (const a of [[64,0,0],[0,2,0],[0,0,1],[-1,0,0],[0.5,0,0],['0',0,0]]) { try { t.attentionMap(...a); console.log('ok', a);} catch (e) { console.log('attn', a, '->', e.message); } }
for (const s of [-1, 1.5, 2**53, NaN, 'a']) { try { t.reset(s); console.log('ok', s);} catch (e) { console.log('reset', s, '->', e.message); } }
const r = t.step(3); console.log(r);
console.log(t.evaluate(), t.measuredLogitStd(), t.status());
const m = t.attentionMap(0,1,0); console.log(m.rows, m.cols, m.data.length);
t.delete(); try { t.step(1) } catch (e) { console.log(e.message) }
console.log(lab.softmaxDemo({}));
console.log(JSON.stringify(lab.sweep({dks:[16,128], draws: 200})));
console.log(lab.histogram({}).total);
console.log(lab.predictedLogitStd({}), lab.predictedLogitStd({scale:'unscaled'}), lab.validateConfig({dModel: 3}));
