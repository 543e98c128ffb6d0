// The exercise's curves as CSV and JSON, with the configuration.  Pure: no DOM.

import { MECHANISM } from '../training/run-record.js';

/** A CSV cell: numbers as JS prints them (NaN, Infinity kept as words), text quoted when needed. */
function cell(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const finiteOrNull = (x) => (Number.isFinite(x) ? x : null);

// CSV names of the mechanism metrics (RunRecord.MECHANISM order).
const MECHANISM_COLUMNS = ['qk_grad_norm', 'qk_update_norm', 'logit_spread', 'jacobian_norm'];

/**
 * One row per (run, step): variant, seed, step, loss, grad_norm, then per layer entropy, max_logit,
 * top_weight, qk_grad_norm, qk_update_norm, logit_spread, jacobian_norm, then the evaluation columns at the steps where one ran (empty elsewhere).
 * @param {import('../training/run-record.js').RunRecord[]} runs
 */
export function curvesToCsv(runs) {
  const layers = Math.max(0, ...runs.map((r) => r.layers));
  const perLayer = [];
  for (let l = 1; l <= layers; l += 1) {
    perLayer.push(`entropy_l${l}`, `max_logit_l${l}`, `top_weight_l${l}`, ...MECHANISM_COLUMNS.map((c) => `${c}_l${l}`));
  }
  const header = ['variant', 'seed', 'step', 'loss', 'grad_norm', ...perLayer,
    'eval_loss', 'eval_token_accuracy', 'eval_sequence_accuracy'];
  const lines = [header.join(',')];
  for (const run of runs) {
    const evalsByStep = new Map(run.evals.map((e) => [e.step, e]));
    const loss = run.loss.view;
    const grad = run.gradNorm.view;
    for (let i = 0; i < loss.length; i += 1) {
      const step = i + 1;
      const row = [run.variant, run.seed, step, loss[i], grad[i]];
      for (let l = 0; l < layers; l += 1) {
        if (l < run.layers) {
          row.push(run.entropyByLayer[l].view[i], run.maxLogitByLayer[l].view[i], run.topWeightByLayer[l].view[i],
            ...MECHANISM.map((name) => run[`${name}ByLayer`][l].view[i]));
        } else {
          row.push(...new Array(3 + MECHANISM.length).fill(null));
        }
      }
      const e = evalsByStep.get(step);
      row.push(e ? e.loss : null, e ? e.tokenAccuracy : null, e ? e.sequenceAccuracy : null);
      lines.push(row.map(cell).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Everything needed to reproduce and re-plot the exercise.  Non-finite numbers become null (JSON has none).
 * @param {{settings: object, runs: RunRecord[], answer: object|null, generator: string}} input
 */
export function curvesToJson({ settings, runs, answer, generator }) {
  const list = (typed) => Array.from(typed, finiteOrNull);
  return {
    format: 'sqrtdk-lab curves v1',
    generator,
    settings,
    threshold: settings.threshold,
    answer,  // lab.compare's structured result (null before the first), as the page showed it
    runs: runs.map((r) => ({
      variant: r.variant,
      seed: r.seed,
      config: r.coreConfig ?? r.config,
      stepsDone: r.stepsDone,
      diverged: r.diverged,
      divergedStep: r.divergedStep,
      loss: list(r.loss.view),
      gradNorm: list(r.gradNorm.view),
      entropyByLayer: r.entropyByLayer.map((c) => list(c.view)),
      maxLogitByLayer: r.maxLogitByLayer.map((c) => list(c.view)),
      topWeightByLayer: r.topWeightByLayer.map((c) => list(c.view)),
      ...Object.fromEntries(MECHANISM.map((name) => [`${name}ByLayer`, r[`${name}ByLayer`].map((c) => list(c.view))])),
      evals: r.evals.map((e) => ({ step: e.step, loss: finiteOrNull(e.loss), tokenAccuracy: e.tokenAccuracy,
        sequenceAccuracy: e.sequenceAccuracy })),
    })),
  };
}
