// The answer box: measured numbers only, from exercise-answer.js (the definitions of analysis.hpp).

import { h, replaceChildren } from '../ui/dom.js';
import { short, stepsText } from '../ui/format.js';
import { compareVariants } from '../analysis/analysis.js';

export class AnswerView {
  constructor() {
    this.state = h('p', { class: 'answer-state' });
    this.table = h('div', { class: 'table-scroll' });
    this.sentences = h('div', { class: 'answer-sentences' });
    this.definitions = h('p', { class: 'hint', text: 'Smoothed loss = trailing mean over 20 steps. Steps to threshold = first step whose smoothed loss is below the threshold; '
      + 'median over seeds, a seed that never got there counts as infinitely slow. A clear difference needs medians at least 1.25× apart and seed ranges that do not overlap. '
      + 'Plateau = where the smoothed curve flattened for good (it never again fell more than 5 % or 0.01 below).' });
    this.element = h('section', { class: 'answer', attrs: { 'aria-labelledby': 'lab-answer-title', 'data-ready': 'false', 'aria-live': 'polite' } }, [
      h('h3', { attrs: { id: 'lab-answer-title' }, text: 'Answer (measured)' }), this.state, this.sentences, this.table, this.definitions]);
  }

  /** @param {ReturnType<import('../analysis/exercise-answer.js').exerciseAnswer>} answer  @param {(v) => string} labelOf  @param {boolean} started */
  render(answer, labelOf, started) {
    // Rebuild only when what is shown changes: the counts and medians, not every step.
    const key = JSON.stringify([started, answer.ready, answer.final, answer.threshold, answer.steps, answer.sentences,
      answer.variants.map((v) => [v.name, labelOf(v.name), v.runsReaching, v.runs.length, v.runs.map((r) => r.stepsToThreshold),
        answer.final ? [v.medianPlateauStep, v.medianPlateauLoss] : 0, v.runsDiverged])]);
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.element.dataset.ready = String(answer.ready);
    this.element.dataset.final = String(answer.final);
    const threshold = short(answer.threshold);
    if (!started) {
      this.state.textContent = `Press Start: the box fills with the steps each variant needs to bring its smoothed loss below ${threshold}.`;
      replaceChildren(this.table, []);
      replaceChildren(this.sentences, []);
      return;
    }
    if (!answer.ready) {
      const waiting = answer.variants.map((v) => `${labelOf(v.name)}: ${v.runsReaching} of ${v.runs.length} seeds below ${threshold}`).join(' · ');
      this.state.textContent = `Measuring… ${waiting}.`;
    } else if (!answer.final) {
      this.state.textContent = `Every run has reached the threshold or stopped. The runs go on to their ${answer.steps} steps for the plateau.`;
    } else {
      this.state.textContent = `All runs finished (${answer.steps} steps each).`;
    }
    replaceChildren(this.sentences, answer.sentences.map((text) => h('p', { class: 'answer-sentence', text })));
    replaceChildren(this.table, [this._table(answer, labelOf)]);
  }

  _table(answer, labelOf) {
    const comparison = answer.ready ? compareVariants(answer.variants) : { comparisons: [] };
    const versus = new Map(comparison.comparisons.map((c) => [c.name, c]));
    const anyDiverged = answer.variants.some((v) => v.runsDiverged > 0);
    const head = ['variant', `seeds below ${short(answer.threshold)}`, 'median steps to threshold', 'vs reference', 'plateau (median step, loss)'];
    if (anyDiverged) head.push('diverged');
    const rows = answer.variants.map((v, i) => {
      let median = '…';
      if (v.medianStepsToThreshold > 0) median = stepsText(v.medianStepsToThreshold);
      else if (answer.ready) median = `did not reach it in ${answer.steps} steps`;
      const c = versus.get(v.name);
      let relation = i === 0 ? 'reference' : '…';
      if (c) {
        if (c.kind === 'later') relation = `${short(c.ratio)}× later`;
        else if (c.kind === 'earlier') relation = `${short(1 / c.ratio)}× earlier`;
        else if (c.kind === 'unclear') relation = `no clear difference (ratio ${short(c.ratio)})`;
        else relation = 'cannot compare';
      }
      const plateau = answer.final && Number.isFinite(v.medianPlateauStep)
        ? `${stepsText(v.medianPlateauStep)} at ${short(v.medianPlateauLoss)}` : 'when finished';
      const perSeed = v.runs.map((r, k) => `seed ${v.seeds[k]}: ${r.stepsToThreshold > 0 ? r.stepsToThreshold : '—'}`).join(', ');
      return h('tr', { attrs: { 'data-variant': v.name } }, [
        h('th', { attrs: { scope: 'row' }, text: labelOf(v.name) }),
        h('td', { text: `${v.runsReaching} / ${v.runs.length}`, attrs: { title: perSeed } }),
        h('td', { attrs: { 'data-cell': 'median' }, text: median }),
        h('td', { attrs: { 'data-cell': 'relation' }, text: relation }),
        h('td', { text: plateau }),
        anyDiverged ? h('td', { attrs: { 'data-cell': 'diverged' }, text: `${v.runsDiverged} of ${v.runs.length}` }) : null,
      ]);
    });
    return h('table', { class: 'answer-table' }, [
      h('thead', {}, [h('tr', {}, head.map((text) => h('th', { attrs: { scope: 'col' }, text })))]), h('tbody', {}, rows)]);
  }
}
