// The exercise's curves as CSV and JSON, with the configuration.  Pure: no DOM.

import { evalMetrics, metrics } from '../core-tables.js';
import { metricWidth } from '../training/run-record.js';

/** A CSV cell: a finite number as JS prints it (it reads back to the same float), no value (null, NaN,
 * ±Infinity) as an empty cell, text quoted when needed: the CLI's encoding. */
function cell(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const finiteOrNull = (x) => (Number.isFinite(x) ? x : null);

/**
 * A metric's CSV columns (src/core/train/metrics.hpp, metric_columns): the name, then _l<layer> and _h<head>, from 1.
 * @returns {string[]}
 */
export function metricColumns(metric, layers, heads) {
  if (metric.shape === 'step') return [metric.name];
  const out = [];
  for (let l = 1; l <= layers; l += 1) {
    if (metric.shape === 'layer') out.push(`${metric.name}_l${l}`);
    else for (let h = 1; h <= heads; h += 1) out.push(`${metric.name}_l${l}_h${h}`);
  }
  return out;
}

/** The one CSV header of a run's curves (the CLI's `sqrtdk train --csv` writes the same). */
export function curvesCsvHeader(layers, heads) {
  return ['variant', 'seed', 'step', ...metrics.flatMap((m) => metricColumns(m, layers, heads)), ...evalMetrics.map((e) => e.name)];
}

/** A run's curve of one metric column j (see metricColumns), or null where the run has no such layer or head. */
function columnCurve(run, metric, j, layers, heads) {
  if (metric.shape === 'step') return run[metric.jsKey];
  if (metric.shape === 'layer') return j < run.layers ? run[`${metric.jsKey}ByLayer`][j] : null;
  const l = Math.floor(j / heads);
  const h = j % heads;
  return l < run.layers && h < run.heads ? run[`${metric.jsKey}ByHead`][l * run.heads + h] : null;
}

/**
 * One row per (run, step), in the one CSV format of a run's curves: variant, seed, step, every per-step metric
 * of the core's table (per layer, per head), then the evaluation's columns at the steps where one ran.
 * @param {import('../training/run-record.js').RunRecord[]} runs
 */
export function curvesToCsv(runs) {
  const layers = Math.max(0, ...runs.map((r) => r.layers));
  const heads = Math.max(0, ...runs.map((r) => r.heads));
  const lines = [curvesCsvHeader(layers, heads).join(',')];
  for (const run of runs) {
    const evalsByStep = new Map(run.evals.map((e) => [e.step, e]));
    const curves = metrics.flatMap((m) => Array.from({ length: metricWidth(m, layers, heads) }, (_, j) => columnCurve(run, m, j, layers, heads)));
    for (let i = 0; i < run.loss.length; i += 1) {
      const step = i + 1;
      const e = evalsByStep.get(step);
      const row = [run.variant, run.seed, step, ...curves.map((c) => (c ? c.view[i] : null)),
        ...evalMetrics.map((m) => (e ? e[m.jsKey] : null))];
      lines.push(row.map(cell).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Everything needed to reproduce and re-plot the exercise.  Non-finite numbers become null (JSON has none).
 * @param {{settings: object, runs: RunRecord[], answer: object|null, start?: object|null, claim?: object|null,
 *   generator: string}} input
 */
export function curvesToJson({ settings, runs, answer, start = null, claim = null, generator }) {
  const list = (typed) => Array.from(typed, finiteOrNull);
  return {
    format: 'sqrtdk-lab curves v1',
    generator,
    settings,
    threshold: settings.threshold,
    answer,  // lab.compare's structured result (null before the first), as the page showed it
    // The start note's numbers: per variant, the core's predicted logit std at init and the entropy at step 1
    // (median over seeds of the mean over layers, nats); null while none is shown.
    start: start && { variants: start.variants, predictedLogitStd: Array.from(start.predictedLogitStd, finiteOrNull),
      entropyAtStep1: start.entropyAtStep1.map(finiteOrNull) },
    claim,  // the preset whose claim is shown beside the answer: {id, counts: lab.scenarios()'s counts}, or null
    runs: runs.map((r) => ({
      variant: r.variant,
      seed: r.seed,
      config: r.coreConfig ?? r.config,
      stepsDone: r.stepsDone,
      diverged: r.diverged,
      divergedStep: r.divergedStep,
      // Every metric as the run record holds it: loss, gradNorm, <key>ByLayer, and entropyByHead too.
      ...Object.fromEntries(metrics.flatMap((m) => (m.shape === 'step' ? [[m.jsKey, list(r[m.jsKey].view)]]
        : [[`${m.jsKey}ByLayer`, r[`${m.jsKey}ByLayer`].map((c) => list(c.view))],
          ...(m.shape === 'layerHead' ? [[`${m.jsKey}ByHead`, r[`${m.jsKey}ByHead`].map((c) => list(c.view))]] : [])]))),
      evals: r.evals.map((e) => ({ step: e.step, ...Object.fromEntries(evalMetrics.map((m) => [m.jsKey, finiteOrNull(e[m.jsKey])])) })),
    })),
  };
}

/** Who wrote an export, as its JSON says. */
export const EXPORT_GENERATOR = 'sqrtdk lab (web)';

/**
 * The exercise's curves as the Export buttons save them and exportData() returns them.
 * @param {'csv'|'json'} format  @param {{settings: object, runs: RunRecord[], answer: object|null}} exercise
 */
export function exportText(format, { settings, runs, answer, start = null, claim = null }) {
  if (format === 'csv') return curvesToCsv(runs);
  return `${JSON.stringify(curvesToJson({ settings, runs, answer, start, claim, generator: EXPORT_GENERATOR }), null, 1)}\n`;
}
