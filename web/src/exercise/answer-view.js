// The answer box: the structured answer of lab.compare (answer-client.js) as it is, with no wording of its
// own beyond the progress line.  Sentences, table cells, display names and the definitions under the table
// all come from the core (its messages, in the element's language: analysis/localize-answer.js), as in `sqrtdk compare`.
// Not a live region: while the runs train its cells change with every tick; the panel announces the answer once.

import { h, replaceChildren } from '../ui/dom.js';
import { button } from '../ui/controls.js';
import { scrollRegion } from '../ui/scroll-region.js';
import { formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';
import { renderMessage } from '../analysis/render-message.js';

const T = STRINGS.answerBox;

export class AnswerView {
  /**
   * @param {string} lang how the page's own numbers are written (the element's)
   * @param {((seed: number) => void)|null} showSeed  shows one seed in the attention charts and maps
   * @param {import('../lesson/glossary.js').Glossary|null} glossary  where the table's column names link
   */
  constructor(lang = 'en', showSeed = null, glossary = null) {
    this.lang = lang;
    // The links beside the table's column names, made once: the table is rebuilt on every answer.
    this.columnLinks = glossary ? { 2: glossary.link('median'), 3: glossary.link('reference'), 4: glossary.link('stall') } : {};
    this.showSeed = showSeed;
    this.state = h('p', { class: 'answer-state' });
    this.sentences = h('div', { class: 'answer-sentences' });
    // The runs in the claims' form, beside the preset's 20-seed claim when the settings are a preset's.
    this.beside = h('div', { class: 'answer-beside', attrs: { 'data-note': 'beside-claim' } });
    // The seeds with a run that did not get there or stalled, each a button to its own curves (once final).
    this.inspect = h('div', { class: 'answer-inspect', attrs: { 'data-note': 'inspect-seeds' } });
    const table = scrollRegion(T.table);
    this.table = table.box;
    this.definitions = h('ul', { class: 'hint answer-definitions', attrs: { 'aria-label': T.definitions } });
    // Folded: the numbers come first; how each is measured is one click away.
    const definitionsBox = h('details', { class: 'answer-definitions-box' }, [h('summary', { text: T.definitionsSummary }), this.definitions]);
    this.element = h('section', { class: 'answer', attrs: { 'aria-labelledby': 'lab-answer-title', 'data-ready': 'false' } }, [
      h('h3', { attrs: { id: 'lab-answer-title' }, text: T.title }), this.state, this.sentences, table.element, this.beside,
      this.inspect, definitionsBox]);
  }

  /**
   * @param {object|null} answer lab.compare's result for the current runs (null until the first arrives)
   * @param {{started: boolean, threshold: number, claim?: object|null}} context  claim: the preset (lab.scenarios()'s
   *   entry) whose 20-seed claim these runs' settings are, or null
   */
  render(answer, { started, threshold, claim = null }) {
    const key = JSON.stringify([started, threshold, claim?.id, answer && [answer.ready, answer.final, answer.sentences,
      answer.runsHeadline, answer.definitions.text,
      answer.variants.map((v) => [v.label, v.cells, v.runsReaching, v.runsDiverged])]]);
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.element.dataset.ready = String(Boolean(started && answer?.ready));
    this.element.dataset.final = String(Boolean(started && answer?.final));
    this.element.dataset.outcome = started && answer ? answer.outcome : '';
    replaceChildren(this.definitions, answer ? Object.values(answer.definitions.text).map((text) => h('li', { text })) : []);
    if (!started || !answer) {
      this.state.textContent = T.pressStart(formatValue(threshold, this.lang));
      replaceChildren(this.table, []);
      replaceChildren(this.sentences, []);
      replaceChildren(this.beside, []);
      replaceChildren(this.inspect, []);
      return;
    }
    this.state.textContent = progressText(answer, this.lang);
    replaceChildren(this.sentences, answer.sentences.map((text) => h('p', { class: 'answer-sentence', text })));
    replaceChildren(this.table, [answerTable(answer, this.lang, this.columnLinks)]);
    replaceChildren(this.beside, this._beside(answer, claim));
    replaceChildren(this.inspect, this._inspect(answer));
  }

  /**
   * Under a final answer: each seed with a run that did not reach the threshold or stalled, named with those runs'
   * cells (the run table's words), as a button that shows the seed's own curves and maps.
   */
  _inspect(answer) {
    if (!answer.final || !this.showSeed) return [];
    const bySeed = new Map();
    for (const v of answer.variants) {
      for (const run of v.runs) {
        if (run.stepsToThreshold !== null && run.stall === null) continue;
        const parts = [run.stepsToThreshold === null ? run.cells.stepsToThreshold : null, run.stall === null ? null : T.stall(run.cells.stall)];
        bySeed.set(run.seed, [...(bySeed.get(run.seed) ?? []), T.inspectRun(v.label, parts.filter(Boolean).join(', '))]);
      }
    }
    if (bySeed.size === 0) return [];
    const seeds = [...bySeed.keys()].sort((a, b) => a - b);
    return [h('p', { class: 'hint', text: T.inspect(formatValue(answer.threshold, this.lang)) }),
      h('div', { class: 'chips' }, seeds.map((seed) => button({
        text: T.inspectSeed(whole(seed, this.lang), bySeed.get(seed).join('; ')), class: 'chip', key: `inspect-seed-${seed}`,
        onClick: () => this.showSeed(seed) })))];
  }

  /** The runs' headline, and under it the preset's claim and which median each means (nothing until final). */
  _beside(answer, claim) {
    if (!answer.runsHeadline) return [];
    const say = (message) => renderMessage(message, STRINGS.answer, this.lang);
    return [h('p', { attrs: { 'data-line': 'runs' }, text: answer.runsHeadline }),
      ...(claim ? [h('p', { attrs: { 'data-line': 'claim', 'data-scenario': claim.id },
        text: say({ key: 'runs_headline.claim', args: { headline: claim.messages.headline } }) }),
      h('p', { class: 'hint', text: say({ key: 'runs_headline.medians', args: {} }) })] : [])];
  }
}

function progressText(answer, lang) {
  const w = (x) => whole(x, lang);
  if (!answer.ready) {
    const t = formatValue(answer.threshold, lang);
    return T.measuring(answer.variants.map((v) => T.measuringVariant(v.label, w(v.runsReaching), w(v.runs.length), t)));
  }
  if (!answer.final) return T.goingOn(w(answer.steps));
  return T.finished(w(answer.steps));
}

function answerTable(answer, lang, links) {
  const anyDiverged = answer.variants.some((v) => v.runsDiverged > 0);
  const seeds = answer.variants[0].runs.map((r) => whole(r.seed, lang)).join(', ');
  const head = T.columns(formatValue(answer.threshold, lang), seeds, answer.final);
  if (anyDiverged) head.push(T.divergedColumn);
  // data-label: the column's name, shown before each cell when a narrow box stacks the table.
  const cell = (name, label, text) => h('td', { attrs: { 'data-cell': name, 'data-label': label }, text });
  const rows = answer.variants.map((v) => h('tr', { attrs: { 'data-variant': v.name, 'data-outcome': v.outcome } }, [
    h('th', { attrs: { scope: 'row' }, text: v.label }),
    cell('seeds', head[1], v.cells.seeds),
    cell('median', head[2], v.cells.median),
    cell('relation', head[3], v.cells.relation),
    cell('stall', head[4], v.cells.stall),
    cell('final', head[5], v.cells.finalLoss),
    anyDiverged ? cell('diverged', head[6], T.diverged(whole(v.runsDiverged, lang), whole(v.runs.length, lang))) : null,
  ]));
  return h('table', { class: 'answer-table' }, [
    h('thead', {}, [h('tr', {}, head.map((text, i) => h('th', { attrs: { scope: 'col' } }, links[i] ? [text, ' ', links[i]] : [text])))]),
    h('tbody', {}, rows)]);
}
