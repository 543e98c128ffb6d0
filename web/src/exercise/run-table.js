// The runs' progress: one row per run (variant, seed, steps, steps/s, status, and from the answer its steps
// to threshold, stall and smoothed loss), an overall progress bar and the total steps per second.  Rows are rebuilt only when the runs change; otherwise cells are updated in
// place (and only when their text changes), to keep the main thread's work per frame small.

import { h, replaceChildren, setText } from '../ui/dom.js';
import { button } from '../ui/controls.js';
import { scrollRegion } from '../ui/scroll-region.js';
import { count, formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.runs;
const RATE_WINDOW_MS = 2000;


function setData(element, name, value) {
  if (element.dataset[name] !== value) element.dataset[name] = value;
}

/** A time left, rounded as a reader takes it in: "40 s", "3 min", "1 h 5 min". */
export function timeLeft(seconds, lang = 'en') {
  const s = Math.max(1, Math.round(seconds));
  if (s < 90) return T.seconds(whole(s, lang));
  const minutes = Math.round(s / 60);
  if (minutes < 60) return T.minutes(whole(minutes, lang));
  return T.hours(whole(Math.floor(minutes / 60), lang), whole(minutes % 60, lang));
}

export class RunTable {
  /**
   * @param {string} lang how numbers are written (the element's)
   * @param {((seed: number) => void)|null} showSeed  a run's seed is a button that shows that seed's curves and maps
   */
  constructor(lang = 'en', showSeed = null) {
    this.lang = lang;
    this.showSeed = showSeed;
    this.progress = h('progress', { attrs: { max: 1, value: 0, 'aria-label': T.progress } });
    // Not a live region: it changes with every tick (the panel announces phases and the answer: train-panel.js).
    this.summary = h('span', { class: 'progress-text' });
    this.body = h('tbody');
    this.rows = new Map();
    this.rowsKey = '';
    this.history = [];
    this.element = h('div', { class: 'runs' }, [
      h('div', { class: 'progress-row' }, [this.progress, this.summary]),
      h('details', { class: 'run-details' }, [
        h('summary', { text: T.title }),
        scrollRegion(T.table, [h('table', { class: 'run-table' }, [
          h('thead', {}, [h('tr', {}, T.columns.map((text) => h('th', { attrs: { scope: 'col' }, text })))]),
          this.body])]).element,
      ]),
    ]);
  }

  /**
   * @param {object[]} slots Exercise.slots  @param {number} steps  @param {(v) => string} labelOf  @param {(v) => string} colourOf
   * @param {object|null} answer lab.compare's result for these runs (answer-client.js): its per-run cells
   */
  render(slots, steps, labelOf, colourOf, answer = null) {
    const total = slots.length * steps;
    const done = slots.reduce((sum, s) => sum + Math.min(steps, s.record.stepsDone), 0);
    const now = performance.now();
    const stepsDone = slots.reduce((sum, s) => sum + s.record.stepsDone, 0);
    this.history.push({ now, stepsDone });
    while (this.history.length > 2 && now - this.history[0].now > RATE_WINDOW_MS) this.history.shift();
    const first = this.history[0];
    const rate = now > first.now ? (1000 * Math.max(0, stepsDone - first.stepsDone)) / (now - first.now) : 0;
    const training = slots.some((s) => s.status === 'training');
    if (this.progress.max !== Math.max(1, total)) this.progress.max = Math.max(1, total);
    if (this.progress.value !== done) this.progress.value = done;
    const { lang } = this;
    // The time left at the rate of the last seconds (all runs together): long presets say how long they take.
    const eta = training && rate > 0 && total > done ? T.eta(timeLeft((total - done) / rate, lang)) : '';
    setText(this.summary, T.summary(count(done, lang), count(total, lang), count(slots.length, lang), count(steps, lang)) + (training ? T.rate(formatValue(rate, lang)) : '') + eta);
    setData(this.element, 'stepsDone', String(stepsDone));

    // Display names from the core once its answer is here (the same as the answer's).
    const labels = new Map((answer?.variants ?? []).map((v) => [v.name, v.label]));
    const label = (variant) => labels.get(variant) ?? labelOf(variant);
    const key = slots.map((s) => `${s.record.id}:${colourOf(s.record.variant)}:${label(s.record.variant)}`).join('|');
    if (key !== this.rowsKey) {
      this.rowsKey = key;
      this.rows = new Map(slots.map((s) => [s.record.id, this._row(s.record, label, colourOf)]));
      replaceChildren(this.body, [...this.rows.values()].map((r) => r.tr));
    }
    const cells = new Map();
    for (const v of answer?.variants ?? []) for (const run of v.runs) cells.set(`${v.name}|${run.seed}`, run.cells);
    for (const s of slots) {
      const r = s.record;
      const row = this.rows.get(r.id);
      const analysed = r.stepsDone > 0 ? cells.get(`${r.variant}|${r.seed}`) : null;
      setText(row.threshold, analysed?.stepsToThreshold ?? T.none);
      setText(row.stall, analysed?.stall ?? T.none);
      setText(row.level, analysed?.finalLoss ?? T.none);
      let status = T.status[s.status];
      if (s.status === 'memory') status = T.waitingForMemory(lang, s.ahead, whole(s.ahead, lang));
      if (s.status === 'diverged') status = T.divergedAt(whole(r.divergedStep, lang));
      if (s.status === 'failed') status = T.failed(s.error);
      if (s.failures > 0 && s.status !== 'failed') status += T.replaced(whole(s.failures, lang));
      setData(row.tr, 'status', s.status);
      setData(row.tr, 'steps', String(r.stepsDone));
      setText(row.steps, T.steps(whole(r.stepsDone, lang), whole(steps, lang)));
      setText(row.rate, r.stepsDone ? formatValue(r.stepsPerSecond, lang) : T.none);
      setText(row.logitStd, s.info ? formatValue(s.info.measuredLogitStd, lang) : T.none);
      setText(row.status, status);
      const statusClass = `status status-${s.status}`;
      if (row.status.className !== statusClass) row.status.className = statusClass;
    }
  }

  _row(record, labelOf, colourOf) {
    const swatch = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
    swatch.style.borderTopColor = colourOf(record.variant);
    const cells = { steps: h('td'), rate: h('td'), logitStd: h('td'), status: h('td'),
      threshold: h('td', { attrs: { 'data-cell': 'threshold' } }), stall: h('td', { attrs: { 'data-cell': 'stall' } }),
      level: h('td', { attrs: { 'data-cell': 'level' } }) };
    const tr = h('tr', { attrs: { 'data-run': record.id } }, [
      h('th', { attrs: { scope: 'row' } }, [swatch, labelOf(record.variant)]),
      h('td', {}, [this.showSeed ? button({ text: whole(record.seed, this.lang), class: 'chip seed-link', key: `show-seed-${record.seed}`,
        ariaLabel: T.showSeed(whole(record.seed, this.lang)), onClick: () => this.showSeed(record.seed) }) : whole(record.seed, this.lang)]),
      cells.steps, cells.rate, cells.logitStd, cells.status, cells.threshold, cells.stall, cells.level,
    ]);
    return { tr, ...cells };
  }
}
