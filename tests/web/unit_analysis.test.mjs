// The answer's definitions (web/src/analysis), ported from src/core/analysis.hpp: the same cases as
// tests/cpp/test_analysis.cpp, and the same numbers and sentence as the native CLI on real curves.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  answerSentences, compareVariants, median, plateauStep, smoothedLoss, stepsToThreshold, summarizeRun, summarizeVariant,
} from '../../web/src/analysis/analysis.js';
import { exerciseAnswer } from '../../web/src/analysis/exercise-answer.js';
import { displaySteps, seedBand, smoothForDisplay } from '../../web/src/analysis/curves.js';
import { runCli } from './helpers/cli.mjs';
import { REPO } from './helpers/browser.mjs';

// Flat at `high` until `drop`, then linearly down to `low` over `ramp` steps, then flat (float32 like the core).
function curve(steps, drop, ramp, high, low) {
  return Float32Array.from({ length: steps }, (_, t) => high + (low - high) * (t < drop ? 0 : Math.min(1, (t - drop) / ramp)));
}
const variant = (name, curves, threshold) => summarizeVariant(name, curves.map((c) => summarizeRun(c, threshold, 1, 0)));
const w1 = { window: 1, plateauRelTol: 0.05, plateauAbsTol: 0.01, clearRatio: 1.25 };

test('smoothed loss is the trailing mean over the window', () => {
  assert.deepEqual(Array.from(smoothedLoss([4, 2, 0, 2], 2)), [4, 3, 1, 1]);
});

test('steps to threshold is the first step whose smoothed loss is below it', () => {
  const c = curve(1000, 100, 100, 2, 0);
  assert.equal(stepsToThreshold(c, 1.0, w1), 152);
  assert.equal(stepsToThreshold(c, -1.0, w1), -1);
});

test('a stuck curve plateaus at the step it flattened, a converging one when it reached its floor', () => {
  assert.equal(plateauStep(curve(1000, 1000, 1, 1.5, 1.5), w1), 1);
  const p = plateauStep(curve(1000, 100, 100, 2, 0), w1);
  assert.ok(p > 190 && p <= 201, String(p));
  assert.equal(plateauStep([], w1), -1);
});

test('the answer states the measured ratio when the difference is clear', () => {
  const scaled = variant('scaled', [curve(1500, 50, 100, 2, 0), curve(1500, 60, 100, 2, 0)], 0.1);
  const unscaled = variant('unscaled', [curve(1500, 400, 100, 2, 0), curve(1500, 500, 100, 2, 0)], 0.1);
  const [sentence] = answerSentences(compareVariants([scaled, unscaled]), 0.1, 1500);
  assert.ok(sentence.startsWith('unscaled reached smoothed loss 0.1 at a median of'));
  assert.match(sentence, /x later\.$/);
});

test('the answer says no clear difference when seeds overlap or the ratio is small', () => {
  const a = variant('scaled', [curve(1500, 100, 100, 2, 0), curve(1500, 300, 100, 2, 0)], 0.1);
  const b = variant('qknorm', [curve(1500, 150, 100, 2, 0), curve(1500, 250, 100, 2, 0)], 0.1);
  assert.match(answerSentences(compareVariants([a, b]), 0.1, 1500)[0], /no clear difference/);
});

test('the answer says when a variant never reached the threshold', () => {
  const a = variant('scaled', [curve(500, 10, 100, 2, 0)], 0.1);
  const b = variant('unscaled', [curve(500, 500, 1, 2, 2)], 0.1);
  assert.ok(answerSentences(compareVariants([a, b]), 0.1, 500)[0]
    .startsWith('unscaled did not reach smoothed loss 0.1 within 500 steps in 1 of 1 seeds'));
});

test('a diverged run is summarised on its finite part', () => {
  const c = Float32Array.from([...curve(100, 10, 10, 2, 0.5), NaN]);
  const r = summarizeRun(c, 0.1, 0, 101);
  assert.ok(r.diverged);
  assert.equal(r.divergedStep, 101);
  assert.ok(Number.isFinite(r.finalLoss));
  assert.equal(r.stepsToThreshold, -1);
});

test('the median counts a seed that never reached the threshold as infinitely slow', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
  const v = variant('x', [curve(100, 0, 10, 2, 0), curve(100, 100, 1, 2, 2), curve(100, 100, 1, 2, 2)], 0.1);
  assert.equal(v.medianStepsToThreshold, -1);
  assert.equal(v.runsReaching, 1);
});

test('the live answer is ready only when every run crossed the threshold or stopped', () => {
  const run = (variantName, seed, loss, stopped) => ({ variant: variantName, seed, loss, stopped, divergedStep: 0, sequenceAccuracy: 1 });
  const fast = curve(200, 10, 20, 2, 0);
  const slow = curve(200, 300, 1, 2, 2);
  const running = exerciseAnswer([run('scaled', 0, fast, false), run('unscaled', 0, slow, false)], ['scaled', 'unscaled'], 0.1, 400);
  assert.equal(running.ready, false);
  const stopped = exerciseAnswer([run('scaled', 0, fast, false), run('unscaled', 0, slow, true)], ['scaled', 'unscaled'], 0.1, 200);
  assert.equal(stopped.ready, true);
  assert.equal(stopped.final, false);
  assert.match(stopped.sentences[0], /^unscaled did not reach smoothed loss 0.1 within 200 steps/);
});

test('display curves: median and range over seeds, thinned steps', () => {
  const band = seedBand([[1, 5, NaN], [3, 1], [2, 2, 2]], [1, 2, 3]);
  assert.deepEqual(band.median, [2, 2, 2]);
  assert.deepEqual(band.lo, [1, 1, 2]);
  assert.deepEqual(band.hi, [3, 5, 2]);
  assert.deepEqual(displaySteps(5), [1, 2, 3, 4, 5]);
  const thin = displaySteps(10000, 1500);
  assert.ok(thin.length <= 1501 && thin.at(-1) === 10000);
  assert.deepEqual(Array.from(smoothForDisplay(Float32Array.from([2, 4, Infinity]), 2)), [2, 3, Infinity]);
});

test('on real curves from the native CLI, the port gives the CLI\'s numbers and sentence', async () => {
  runCli(['--help']);
  const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-analysis-'));
  const cli = join(REPO, 'build/release/sqrtdk');
  const run = promisify(execFile);
  const steps = 150;
  try {
    const jobs = [['scaled', 0], ['scaled', 1], ['unscaled', 0], ['unscaled', 1]].map(async ([scale, seed]) => {
      const csv = join(dir, `${scale}-${seed}.csv`);
      const { stdout } = await run(cli, ['train', '--scale', scale, '--steps', String(steps), '--seed', String(seed), '--csv', csv, '--json', '--quiet']);
      const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1);
      return { scale, seed, summary: JSON.parse(stdout), loss: Float32Array.from(rows, (r) => Number(r.split(',')[1])) };
    });
    const compare = run(cli, ['compare', '--variants', 'scaled,unscaled', '--seeds', '2', '--steps', String(steps), '--json', '--quiet']);
    const runs = await Promise.all(jobs);
    for (const r of runs) {
      const mine = summarizeRun(r.loss, 0.1, 1, 0);
      assert.equal(mine.stepsToThreshold, r.summary.steps_to_threshold ?? -1, `${r.scale} ${r.seed}`);
      assert.equal(mine.plateauStep, r.summary.plateau_step);
      assert.ok(Math.abs(mine.plateauLoss - r.summary.plateau_loss) < 1e-12);
    }
    const variants = ['scaled', 'unscaled'].map((name) => summarizeVariant(name, runs.filter((r) => r.scale === name).map((r) => summarizeRun(r.loss, 0.1, 1, 0))));
    const native = JSON.parse((await compare).stdout).answer;
    const [sentence] = answerSentences(compareVariants(variants), 0.1, steps);
    assert.ok(native.startsWith(sentence), `page: ${sentence}\nCLI:  ${native}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
