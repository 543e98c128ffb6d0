// The exercise's charts: loss, sequence accuracy, attention entropy and the attention heatmaps, drawn from
// the runs (series.js shapes the data).  Each render part skips work when its data did not change.

import { h, replaceChildren, setParagraphs, setText } from '../ui/dom.js';
import { button, rangeControl, selectControl, toggleControl } from '../ui/controls.js';
import { LAYER_DASHES } from '../ui/palette.js';
import { LineChart } from '../charts/line-chart.js';
import { HeatmapChart } from '../charts/heatmap.js';
import { accuracySeries, layerId, layerSeries, lossSeries, runSeeds, runSeries, seedsOf } from '../training/series.js';
import { downloadBlob } from '../export/download.js';
import { STRINGS } from '../ui/strings.js';
import { curveDefinitions } from '../core-tables.js';
import { formatValue, whole } from '../ui/format.js';

const T = STRINGS.trainCharts;

// Axis ranges before any data (so that an empty chart already shows its axes).
const EMPTY_LOSS_RANGE = [0.01, 3];
const EMPTY_ENTROPY_RANGE = [0, 3];
const EMPTY_GRAD_RANGE = [1e-4, 10];
const EMPTY_SPREAD_RANGE = [0.1, 30];
const EMPTY_JACOBIAN_RANGE = [0, 0.5];

export class TrainCharts {
  /**
   * @param {{store, theme: () => object, lang: string, glossary?: import('../lesson/glossary.js').Glossary}} deps
   *   lang: how numbers are written; glossary: where the charts' terms link
   */
  constructor({ store, theme, lang = 'en', glossary = null }) {
    const s = store.state;
    const update = (partial) => store.update(partial);
    this.theme = theme;
    this.lang = lang;
    this.loss = new LineChart({ name: 'loss', title: T.loss, xLabel: T.step, yLabel: T.lossY, theme,
      logY: s.logY, height: 260, integerX: true, emptyY: EMPTY_LOSS_RANGE, lang });
    this.logY = toggleControl({ key: 'logY', label: T.logY, value: s.logY, onChange: (logY) => update({ logY }) });
    this.smooth = rangeControl({ key: 'smooth', label: T.smoothing, min: 1, max: 200, step: 1, integer: true, value: s.smooth, onChange: (smooth) => update({ smooth }) });
    this.loss.addTool(this.logY.element);
    this.accuracy = new LineChart({ name: 'accuracy', title: T.accuracy, xLabel: T.step, yLabel: T.accuracyY, theme,
      yRange: [0, 1], height: 200, integerX: true, lang });
    this.entropy = new LineChart({ name: 'entropy', title: T.entropy(T.medianOverSeeds), xLabel: T.step, yLabel: T.entropyY, theme,
      height: 200, integerX: true, emptyY: EMPTY_ENTROPY_RANGE, lang });
    // The mechanism: the gradient that reaches the queries and keys, and how spread the attention logits are.
    this.qk = new LineChart({ name: 'qk-grad', title: T.qk, xLabel: T.step,
      yLabel: T.qkY, theme, logY: true, height: 220, integerX: true, emptyY: EMPTY_GRAD_RANGE, lang });
    this.spread = new LineChart({ name: 'logit-spread', title: T.spread, xLabel: T.step,
      yLabel: T.spreadY, theme, logY: true, height: 220, integerX: true, emptyY: EMPTY_SPREAD_RANGE, lang });
    // The softmax Jacobian's norm measured in each layer's attention rows: how much gradient the softmax passes
    // (linear y: a saturated layer's is 0).
    this.jacobian = new LineChart({ name: 'jacobian', title: T.jacobian(T.medianOverSeeds), xLabel: T.step,
      yLabel: T.jacobianY, theme, height: 220, integerX: true, emptyY: EMPTY_JACOBIAN_RANGE, lang });
    for (const chart of this.lineCharts()) addPng(chart, chart.options.name);
    if (glossary) {
      for (const [chart, term] of [[this.loss, 'smoothed_loss'], [this.accuracy, 'accuracy'], [this.entropy, 'entropy'], [this.qk, 'qk_gradient'],
        [this.spread, 'logit_spread'], [this.jacobian, 'jacobian_norm']]) chart.addTool(glossary.link(term));
    }
    // The sentences under the mechanism charts and the "why" box are the core's (the answer's `mechanism`).
    // Not live regions: they follow the runs while training.
    const note = (name) => h('div', { class: 'chart-note', attrs: { 'data-note': name } });
    this.qkNote = note('qk-grad');
    this.spreadNote = note('logit-spread');
    this.jacobianNote = note('jacobian');
    this.whyTitle = h('h4', { attrs: { id: 'lab-why' } });
    this.whyText = h('div', { class: 'chart-note' });
    this.whyBox = h('aside', { class: 'why-box', attrs: { 'data-note': 'why', 'aria-labelledby': 'lab-why' } }, [this.whyTitle, this.whyText]);
    this.whyBox.hidden = true;
    // The attention charts (these three, the entropy) and the maps show the median over seeds or one seed's runs.
    this.seedShown = selectControl({ key: 'seedShown', label: T.seedShown, hint: T.seedShownHint,
      options: [{ value: -1, text: T.seedShownMedian }], value: -1, onChange: (seedShown) => update({ seedShown }) });
    this.seedShown.element.classList.add('seed-shown');
    this.mechanismBlock = h('div', { class: 'chart-grid' }, [
      h('div', { class: 'chart-with-note' }, [this.jacobian.element, this.jacobianNote]),
      h('div', { class: 'chart-with-note' }, [this.qk.element, this.qkNote]),
      h('div', { class: 'chart-with-note' }, [this.spread.element, this.spreadNote]),
    ]);
    this.heatLayer = selectControl({ key: 'heatLayer', label: T.layer, options: [], value: s.heatLayer, onChange: (heatLayer) => update({ heatLayer }) });
    this.heatHead = selectControl({ key: 'heatHead', label: T.head, options: [], value: s.heatHead, onChange: (heatHead) => update({ heatHead }) });
    this.heatmaps = new Map();
    this.heatmapGrid = h('div', { class: 'chart-grid heatmaps' });
    this.keys = {};
    // What the loss chart draws and how it relates to the answer (its window, the threshold, the markers).
    this.lossNote = h('p', { class: 'chart-note', attrs: { 'data-note': 'loss' } });
    this.lossBlock = h('div', { class: 'chart-with-controls' }, [this.loss.element, this.lossNote, this.smooth.element]);
    this.curveGrid = h('div', { class: 'chart-grid' }, [this.accuracy.element, this.entropy.element]);
    this.heatmapHint = h('p', { class: 'hint', text: T.heatmapHint });
    this.heatmapBlock = [h('h3', { text: T.heatmapsTitle }), this.heatmapHint,
      h('div', { class: 'inline-controls' }, [this.heatLayer.element, this.heatHead.element]), this.heatmapGrid];
    this.syncHeatSelects(s);
  }

  lineCharts() { return [this.loss, this.accuracy, this.entropy, this.jacobian, this.qk, this.spread]; }

  all() { return [...this.lineCharts(), ...this.heatmaps.values()]; }

  /** Forget what was drawn (after a theme change or a new plan). */
  invalidate() { this.keys = {}; }

  show(state, changed) {
    if (changed.includes('logY')) {
      this.logY.set(state.logY);
      this.loss.setLogY(state.logY);
    }
    if (changed.includes('smooth')) this.smooth.set(state.smooth);
    if (changed.some((k) => ['layers', 'heads', 'heatLayer', 'heatHead'].includes(k))) this.syncHeatSelects(state);
  }

  /**
   * The seed choice's options (the runs' seeds) and which seed the attention charts show: state.seedShown when it is
   * one of the runs' seeds, else -1 (the median).  Titles say which.  @returns {number}
   */
  _seedShown(state, slots) {
    const seeds = runSeeds(slots);
    const key = seeds.join(',');
    if (this.seedOptionsKey !== key) {
      this.seedOptionsKey = key;
      this.seedShown.setOptions([{ value: -1, text: T.seedShownMedian },
        ...seeds.map((seed) => ({ value: seed, text: T.oneSeed(whole(seed, this.lang)) }))]);
    }
    const seed = seeds.includes(state.seedShown) ? state.seedShown : -1;
    this.seedShown.set(seed);
    const which = seed < 0 ? T.medianOverSeeds : T.oneSeed(whole(seed, this.lang));
    this.entropy.setTitle(T.entropy(which));
    this.jacobian.setTitle(T.jacobian(which));
    return seed;
  }

  /** A variant's line label, naming the seed when one is shown. */
  _lineLabel(labelOf, seed) {
    return seed < 0 ? labelOf : (v) => T.seedLine(labelOf(v), whole(seed, this.lang));
  }

  syncHeatSelects(s) {
    const options = (n) => Array.from({ length: n }, (_, i) => ({ value: i + 1, text: whole(i + 1, this.lang) }));
    this.heatLayer.setOptions(options(s.layers));
    this.heatHead.setOptions(options(s.heads));
    this.heatLayer.set(s.heatLayer);
    this.heatHead.set(s.heatHead);
  }

  rebuildHeatmaps(state, labelOf) {
    for (const map of this.heatmaps.values()) map.destroy();
    this.heatmaps = new Map(state.variants.map((v) => {
      const map = new HeatmapChart({ name: `attention-${v}`, title: labelOf(v), theme: this.theme, variant: v });
      addPng(map, `attention-${v}`);
      return [v, map];
    }));
    replaceChildren(this.heatmapGrid, [...this.heatmaps.values()].map((m) => m.element));
  }

  /** Render parts, each a function of the panel's render context {state, slots, labelOf, colourOf, band}. */
  parts() {
    return [(c) => this.renderLoss(c), (c) => this.renderMechanism(c), (c) => this.renderAccuracy(c), (c) => this.renderEntropy(c),
      (c) => this.renderHeatmaps(c)];
  }

  renderLoss({ state, slots, labelOf, colourOf, band, answer }) {
    this.loss.setGroups(state.variants.map((v) => ({ id: v, label: labelOf(v), colour: colourOf(v), band,
      seeds: seedsOf(slots, v).length })));
    this.loss.setGuides(lossGuides(answer, state, colourOf, this.lang));
    setText(this.lossNote, T.lossNote(formatValue(state.threshold, this.lang), whole(curveDefinitions.window, this.lang),
      whole(state.smooth, this.lang)));
    if (!this._changed('loss', `${slots.map((s) => `${s.record.stepsDone}${s.status}`)}|${state.smooth}|${state.variants}`)) return;
    const { xs, columns } = lossSeries(slots, state.variants, state.smooth);
    this.loss.setData(xs, columns);
  }

  renderMechanism({ state, slots, labelOf, colourOf, band, answer }) {
    const seed = this._seedShown(state, slots);
    const label = this._lineLabel(labelOf, seed);
    const groups = state.variants.map((v) => ({ id: v, label: label(v), colour: colourOf(v), band: seed < 0 && band }));
    for (const chart of [this.qk, this.spread]) chart.setGroups(groups);
    this.jacobian.setGroups(this._layerGroups(state, label, colourOf));
    const m = answer?.mechanism;
    setParagraphs(this.qkNote, m ? m.qk : []);
    setParagraphs(this.jacobianNote, m ? m.jacobian : []);
    setParagraphs(this.spreadNote, m ? m.spread : []);
    this.whyBox.hidden = !m?.whyTitle;
    setText(this.whyTitle, m?.whyTitle ?? '');
    setParagraphs(this.whyText, m ? m.why : []);
    if (!this._changed('mechanism', `${slots.map((s) => `${s.record.stepsDone}${s.status}`)}|${state.smooth}|${state.variants}|${state.layers}|${seed}`)) return;
    for (const [chart, key] of [[this.qk, 'qkGradNorm'], [this.spread, 'logitSpread']]) {
      const { xs, columns } = runSeries(slots, state.variants, key, state.smooth, seed);
      chart.setData(xs, columns);
    }
    const jacobian = layerSeries(slots, state.variants, state.layers, 'jacobianNormByLayer', state.smooth, { seed });
    this.jacobian.setData(jacobian.xs, jacobian.columns);
  }

  /** One line per variant and layer (dashed by layer), as the entropy and Jacobian charts draw them. */
  _layerGroups(state, labelOf, colourOf) {
    return state.variants.flatMap((v) => Array.from({ length: state.layers }, (_, l) => ({ id: layerId(v, l),
      label: T.layerLine(labelOf(v), whole(l + 1, this.lang)), colour: colourOf(v), dash: LAYER_DASHES[l % LAYER_DASHES.length] })));
  }

  renderAccuracy({ state, slots, labelOf, colourOf, band }) {
    this.accuracy.setGroups(state.variants.map((v) => ({ id: v, label: labelOf(v), colour: colourOf(v), band })));
    if (!this._changed('accuracy', `${slots.map((s) => `${s.record.evals.length}${s.record.stepsDone}${s.status}`)}|${state.variants}`)) return;
    const { xs, columns } = accuracySeries(slots, state.variants);
    this.accuracy.setData(xs, columns);
  }

  renderEntropy({ state, slots, labelOf, colourOf }) {
    const seed = this._seedShown(state, slots);
    this.entropy.setGroups(this._layerGroups(state, this._lineLabel(labelOf, seed), colourOf));
    if (!this._changed('entropy', `${slots.map((s) => `${s.record.stepsDone}${s.status}`)}|${state.smooth}|${state.variants}|${state.layers}|${seed}`)) return;
    const { xs, columns } = layerSeries(slots, state.variants, state.layers, 'entropyByLayer', state.smooth, { seed });
    this.entropy.setData(xs, columns);
  }

  renderHeatmaps({ state, slots }) {
    for (const [variant, map] of this.heatmaps) {
      const slot = slots.find((s) => s.record.variant === variant && s.heatmap);  // the seed chosen (exercise.js)
      const a = slot?.attention;
      if (!a) {
        if (map.shownStep !== 0) map.setData(null, '');
        map.shownStep = 0;
        map.shownKey = '';
        continue;
      }
      const key = `${slot.record.seed}-${a.step}-${a.layer}-${a.head}`;
      if (map.shownKey === key) continue;
      map.shownKey = key;
      map.shownStep = a.step;
      const w = (x) => whole(x, this.lang);
      map.setData(a, T.heatmapCaption(w(a.step), w(a.layer + 1), w(a.head + 1), w(slot.record.seed)));
    }
  }

  destroy() { for (const chart of this.all()) chart.destroy(); }

  /** Has `key` changed since the last call with this name (a chart with no points always redraws)? */
  _changed(name, key) {
    if (this.keys[name] === key) return false;
    this.keys[name] = key;
    return true;
  }
}

/**
 * What the answer reads, for the loss chart: the threshold, a vertical line at each variant's median steps to
 * threshold, a dot at each seed's (hollow where a seed touched it and ended above), and a tick at each variant's
 * level now / final level (the core's numbers, answer.variants).  Mid-run the level is the median of each seed's latest smoothed loss, which the median
 * curve (drawn where every seed has data) does not reach yet: the tick shows the table's number itself.
 * Before an answer: the threshold only.
 */
export function lossGuides(answer, state, colourOf, lang) {
  const level = { value: state.threshold, label: T.thresholdLine(formatValue(state.threshold, lang)) };
  if (!answer) return { level, lines: [], dots: [], never: [], levels: [] };
  const reached = (x) => typeof x === 'number' && Number.isFinite(x);
  const variants = answer.variants.filter((v) => state.variants.includes(v.name));
  return {
    level,
    lines: variants.filter((v) => reached(v.medianStepsToThreshold)).map((v) => ({ x: v.medianStepsToThreshold,
      colour: colourOf(v.name), name: v.label, label: T.medianLine(v.cells.median) })),  // as the answer's table writes it
    never: variants.filter((v) => v.medianNever).map((v) => ({ colour: colourOf(v.name), label: T.neverLine(v.label) })),
    // Filled: the step a seed learned; hollow: the step a seed touched the threshold and then ended above it.
    dots: variants.flatMap((v) => v.runs.flatMap((r) => (reached(r.stepsToThreshold)
      ? [{ x: r.stepsToThreshold, colour: colourOf(v.name) }]
      : reached(r.touchedStep) ? [{ x: r.touchedStep, colour: colourOf(v.name), hollow: true }] : []))),
    levels: variants.filter((v) => reached(v.medianFinalLoss)).map((v) => ({ value: v.medianFinalLoss,
      colour: colourOf(v.name), name: v.label, label: T.levelMark(v.cells.finalLoss, answer.final) })),
  };
}


function addPng(chart, name) {
  chart.addTool(button({ text: STRINGS.charts.png, class: 'chip', ariaLabel: STRINGS.charts.pngLabel(name),
    onClick: () => chart.toPng().then((blob) => downloadBlob(blob, `sqrtdk-${name}.png`)) }));
}
