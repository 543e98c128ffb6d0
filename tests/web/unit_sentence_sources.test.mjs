// "No number without its source", the pure part (tests/web/helpers/sentence-sources.mjs): the numbers of a sentence
// as the page writes them, the sources of an export in the page's own number forms (web/src/ui/format.js), and the
// numbers no source matches.  (A browser test that applies it to the page after a run is still to come.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { derivedOf, formsOf, numbersIn, numbersOf, sourceOf, sourcesOf, unsourced } from './helpers/sentence-sources.mjs';

const texts = (text) => numbersIn(text).map((n) => n.text);

// A small export in the shape of curvesToJson's (web/src/export/curves-export.js), with the answer's fields the
// sentences below quote.
function exportOf({ ratio = 1.9206, final = [0.000209, 0.00308], layers = 2 } = {}) {
  const run = (variant, seed, stepsToThreshold) => ({
    variant, seed, stepsDone: 400, diverged: false, divergedStep: 0,
    config: { layers, dModel: 64, heads: 1, scale: variant, init: 'xavier', seed, lr: 0.001, evalEvery: 50 },
    loss: [2.4, 2.35, 0.777, 0.0123], gradNorm: [1.5, 1.25], entropyByLayer: [[1.85, 1.7], [1.8, 1.6]],
    evals: [{ step: 50, loss: 0.5, tokenAccuracy: 0.75, sequenceAccuracy: 0.125 }],
    stepsToThreshold,
  });
  return {
    format: 'sqrtdk-lab curves v1',
    settings: { layers: 2, dModel: 64, heads: 1, variants: ['scaled', 'unscaled'], steps: 400, seeds: 3, threshold: 0.1, init: 'xavier' },
    threshold: 0.1,
    answer: {
      threshold: 0.1, steps: 400, ratio, stepsEarlier: 58,
      definitions: { window: 20, stallBand: 0.25, stallMinSteps: 50, clearRatio: 1.25, clearShare: 0.9, saturatedTopWeight: 0.9 },
      variants: [
        { name: 'scaled', runsReaching: 3, medianStepsToThreshold: 63, medianFinalLoss: final[0], pairs: 9,
          runs: [{ seed: 0, stepsToThreshold: 68 }, { seed: 1, stepsToThreshold: 60 }, { seed: 2, stepsToThreshold: 63 }] },
        { name: 'unscaled', runsReaching: 2, medianStepsToThreshold: 121, medianFinalLoss: final[1], ratio, pairs: 9,
          medianStall: { start: 111, length: 290, level: 0.2381 },
          runs: [{ seed: 0, stepsToThreshold: 121 }, { seed: 1, stepsToThreshold: 121 }, { seed: 2, stepsToThreshold: null }] },
      ],
      sentences: ['unscaled reached smoothed loss 0.1 at a median of 121 steps, 777 said nowhere else'],
    },
    runs: [run('scaled', 0, 68), run('unscaled', 2, null)],
  };
}

test('numbersIn reads the numbers as the page writes them', () => {
  assert.deepEqual(texts('at a median of 121 steps over its 3 seeds: 58 steps later (1.92× as many steps).'), ['121', '3', '58', '1.92']);
  assert.deepEqual(numbersIn('1.92× as many').map((n) => [n.kind, n.value]), [['ratio', 1.92]]);
  // Powers of ten with superscripts, a bare power, a negative exponent and a positive one.
  assert.deepEqual(texts('2.03×10⁻⁵ then 10⁻⁶ and 1.23×10⁵'), ['2.03×10⁻⁵', '10⁻⁶', '1.23×10⁵']);
  assert.deepEqual(numbersIn('2.03×10⁻⁵ and 10⁻⁶').map((n) => n.value), [2.03e-5, 1e-6]);
  // Percentages, with or without the space the page puts before %.
  assert.deepEqual(numbersIn('within 25 % for 90% of pairs').map((n) => [n.text, n.kind]), [['25%', 'percent'], ['90%', 'percent']]);
  // "more than 1000×" (times_arg): one number, a lower bound.
  assert.deepEqual(numbersIn('ended more than 1000× below its peak').map((n) => [n.text, n.kind, n.value]), [['>1000', 'over', 1000]]);
  // Ranges: both ends; "121–never" one number.
  assert.deepEqual(texts('every seed of unscaled (121–never steps) later than scaled (60–68), steps 381–400'), ['121', '60', '68', '381', '400']);
  // Grouping (count(): "20,000") and a list ("0, 1, 2").
  assert.deepEqual(texts('20,000 steps; seeds 0, 1, 2'), ['20,000', '0', '1', '2']);
  // A sign after a space is a negative number, the minus in a formula is not.
  assert.deepEqual(texts('lies between −1 and 1; √(n−1)/n (about 1/√n)'), ['-1', '1']);
  assert.deepEqual(texts('steps 1-20 and 381–400'), ['1', '20', '381', '400']);
  // Names and formulas are not measurements: d_k, l1, W_q, 1/√d_k (its 1), q·k.
  assert.deepEqual(texts('scaled 1/√d_k multiplies q·k; layer_grad_norm_l1 and W_q; 1/√d_k = 1/8'), ['8']);
  // The word before: "layer 2", and a range's second end gets its first end's word.
  assert.deepEqual(numbersIn('(layer 2) at step 1, steps 381–400').map((n) => [n.text, n.context]),
    [['2', 'layer'], ['1', 'step'], ['381', 'steps'], ['400', 'steps']]);
  assert.deepEqual(texts('no numbers here: never, none, –'), []);
});

test('formsOf writes a source as the page would: format.js\'s rules, not a tolerance', () => {
  const forms = formsOf(0.2381);
  assert.ok(forms.includes('0.238'));
  assert.ok(!forms.includes('0.24') && !forms.includes('0.2381'), forms.join(' '));
  assert.ok(formsOf(0.2).includes('0.200'), 'formatSignificant keeps the zeros: 0.200');
  assert.ok(formsOf(2.0312e-5).includes('2.03×10⁻⁵'));
  assert.ok(formsOf(1e-6).includes('10⁻⁶'));
  assert.ok(formsOf(0.25).includes('25%'));
  assert.ok(formsOf(20000).includes('20,000') && formsOf(20000).includes('20000'));
  assert.ok(formsOf(119.5).includes('119.5'));
  assert.ok(formsOf(4321.5).includes('>1000') && formsOf(12000).includes('>10000') && !formsOf(999).some((f) => f.startsWith('>')));
});

test('numbersOf walks the export, without strings and without the runs\' per-step curves', () => {
  const numbers = numbersOf(exportOf());
  const paths = numbers.map((n) => n.path);
  assert.ok(paths.includes('answer.ratio') && paths.includes('answer.variants[1].medianStall.level'));
  assert.ok(paths.includes('runs[0].evals[0].sequenceAccuracy') && paths.includes('runs[0].config.dModel'));
  assert.ok(!paths.some((p) => /runs\[\d+\]\.(loss|gradNorm|entropyByLayer)/.test(p)), paths.join(' '));
  // 777 is only in a sentence (a string) and 0.777 only in a loss curve: neither is a source.
  assert.ok(!numbers.some((n) => n.value === 777 || n.value === 0.777));
});

test('unsourced: the numbers of a sentence that the export does not hold', () => {
  const sources = sourcesOf(exportOf());
  const sentence = 'scaled 1/√d_k reached smoothed loss 0.1 at a median of 63 steps, 58 steps earlier than unscaled, which '
    + 'reached it at a median of 121 steps over its 3 seeds (1 never got there and counts as the slowest); unscaled took 1.92× as many steps as scaled 1/√d_k. '
    + 'Counted over 3 seeds each, every seed of scaled 1/√d_k (60–68 steps) was faster than every seed of unscaled (121 steps '
    + 'or more; 1 never reached it): all 9 pairs of seeds.';
  assert.deepEqual(unsourced(sentence, sources), []);
  assert.deepEqual(unsourced('Stalls within 25 % for at least 50 steps above 0.1: unscaled in 1 of 3 seeds, from step 111 to the '
    + 'end (290 steps) at 0.238. Final smoothed loss: scaled 1/√d_k 0.000209, unscaled 0.00308.', sources), []);
  assert.equal(sourceOf(numbersIn('1.92×')[0], sources), 'answer.ratio');
  // A number absent from the export is reported, with where it stands.
  const found = unsourced('unscaled\'s q/k gradient is 1.06, 4.3× larger than scaled 1/√d_k\'s 0.247 (median 121 steps).', sources);
  assert.deepEqual(found.map((n) => [n.text, n.kind]), [['1.06', 'value'], ['4.3', 'ratio'], ['0.247', 'value']]);
  // Rounded differently from the page's rule: not a match (0.2381 is written 0.238, never 0.24).
  assert.deepEqual(unsourced('at 0.24', sources).map((n) => n.text), ['0.24']);
  // A value that is only in a curve, or only in a sentence of the export: unsourced.
  assert.deepEqual(unsourced('the loss was 0.777, then 777', sources).map((n) => n.text), ['0.777', '777']);
  // "more than 1000×" needs a source of at least 1000.
  assert.deepEqual(unsourced('more than 1000× below', sources).map((n) => n.text), ['>1000']);
  assert.deepEqual(unsourced('more than 1000× below', sourcesOf(exportOf({ ratio: 1234 }))), []);
});

test('derived numbers are few, named, and a context number only counts in its context', () => {
  const derived = derivedOf(exportOf());
  assert.ok(derived.length < 30, `${derived.length} derived numbers`);
  for (const d of derived) assert.ok(d.why.length > 3, JSON.stringify(d));
  const sources = sourcesOf(exportOf());
  // d_k = 64 and √d_k = 8 follow from dModel and heads.
  assert.deepEqual(unsourced('1/√d_k = 1/8; d_k = 64', sources), []);
  // "1 never got there": 3 runs, 2 reaching.  "layer 2", "step 1": layers and steps are numbered from 1.
  assert.deepEqual(unsourced('(layer 2) at step 1', sources), []);
  // Constants of the settings the export names: GPT init's N(0, 0.02²), QK-norm's [−1, 1]; not without them.
  assert.deepEqual(unsourced('N(0, 0.02²) (standard deviation 0.02); between −1 and 1', sources).map((n) => n.text), ['0.02', '0.02', '-1']);
  const gpt = exportOf();
  gpt.settings = { ...gpt.settings, init: 'gpt', variants: ['scaled', 'qknorm'] };
  assert.deepEqual(unsourced('N(0, 0.02²) (standard deviation 0.02); between −1 and 1', sourcesOf(gpt)), []);
  // A layer number counts only as a layer: with 5 layers "layer 4" is sourced, "4 seeds" is not; nor is a layer
  // beyond the model ("layer 7").
  const five = sourcesOf(exportOf({ layers: 5 }));
  assert.deepEqual(unsourced('layer 4', five), []);
  assert.deepEqual(unsourced('on 4 seeds; layer 7', five).map((n) => n.text), ['4', '7']);
});

test('derived: the mechanism\'s ratios to the reference either way up, and the claim\'s last seed', () => {
  const data = exportOf();
  data.answer.mechanism = { readings: { variants: [{ earlyGrad: 0.247, earlyUpdate: 0.0135, earlySpread: 1.43 },
    { earlyGrad: 1.0621, earlyUpdate: 0.01, earlySpread: 11.8 }] } };
  data.claim = { id: 'adam', counts: [{ variant: 'scaled', seeds: 20, learned: 20, medianSteps: 65.5 }] };
  const sources = sourcesOf(data);
  assert.deepEqual(unsourced('q/k gradient 4.3× larger; the change 1.35× smaller; spread 8.25× scaled\'s', sources), []);
  assert.deepEqual(unsourced('The preset\'s claim: Seeds 0–19: on 20 of 20 (median 65.5 steps)', sources), []);
  // Not any number: a ratio the readings do not give, and 19 where it is not a seed.
  assert.deepEqual(unsourced('4.4× larger; 19 steps', sources).map((n) => n.text), ['4.4', '19']);
});
