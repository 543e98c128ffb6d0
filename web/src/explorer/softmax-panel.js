// The saturation explorer: the lesson's code demo made live.  One draw of q and the keys
// (~ N(0, I_dk)); the softmax of q.k raw and scaled by d_k^-alpha; the top-5 printout; the distribution of
// q.k over many draws against N(0, d_k); and the sweep of saturation statistics over d_k.
// All numbers come from the wasm core through the helper worker.

import { h, setText } from '../ui/dom.js';
import { button, rangeControl, numberControl, toggleControl } from '../ui/controls.js';
import { formatValue, whole } from '../ui/format.js';
import { variantColour } from '../ui/palette.js';
import { LineChart } from '../charts/line-chart.js';
import { HistogramChart, shareBeyond } from '../charts/histogram.js';
import { drawNotes, exerciseDkNote, tailNote } from './softmax-notes.js';
import { drawStanding, medianDraw } from './draw-rank.js';
import { downloadBlob } from '../export/download.js';
import { EXPLORER_SETTINGS, MAX_SEED, PROPERTY_BY_KEY, rangeOf } from '../state/properties.js';
import { SoftmaxPrintout, alphaText } from './softmax-printout.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.softmax;

const DK = rangeOf('dk');
// The sweep's d_k: every half power of two over the slider's range (1, 2, 3, 4, 6, 8, 11, 16, ... 1024), finer
// than the core's default (the powers of two) so that its curves bend smoothly.
const SWEEP_DKS = [...new Set(Array.from({ length: 2 * Math.log2(DK.max) + 1 }, (_, i) => Math.round(2 ** (i / 2))))]
  .filter((dk) => dk >= DK.min && dk <= DK.max);
const SWEEP_DRAWS = 500;
const HISTOGRAM_SAMPLES = 20000;
const HISTOGRAM_BINS = 60;  // finer than the CLI's default: the chart is wide enough
const MAX_DRAWS = EXPLORER_SETTINGS.get('draws').max;
const TOP = EXPLORER_SETTINGS.get('top').default;  // the lesson's top-5
// The log axis of the sorted weights starts here: a raw softmax has weights down to 1e-300.
const WEIGHT_FLOOR = 1e-12;
const DK_SLIDER_MAX = 1000;
// The glossary's entries for the terms this panel uses (src/core/answer/glossary.cpp has them all).
const EXPLORER_TERMS = ['d_k', 'softmax', 'logit', 'top_weight', 'one_hot', 'saturated', 'entropy', 'effective_keys', 'jacobian_norm',
  'median', 'seed', 'normal', 'alpha'];
const ALPHA_PRESETS = [
  { alpha: 0, text: T.presetRaw, title: T.presetRawTitle },
  { alpha: 0.5, text: T.presetSqrt, title: T.presetSqrtTitle },
  { alpha: 1, text: T.presetLinear, title: T.presetLinearTitle },
];

/** d_k of the exercise's model: d_model / heads. */
const exerciseDk = (state) => state.dModel / state.heads;

// The d_k slider is logarithmic: position 0 is d_k 1, DK_SLIDER_MAX is the largest d_k.
const dkToSlider = (dk) => Math.round((DK_SLIDER_MAX * Math.log(dk)) / Math.log(DK.max));
const sliderToDk = (s) => Math.max(DK.min, Math.min(DK.max, Math.round(DK.max ** (s / DK_SLIDER_MAX))));

export class SoftmaxPanel {
  /**
   * @param {{store: import('../state/store.js').Store, helper: import('../worker/helper-worker.js').HelperWorker,
   *          theme: () => object, notify: (text: string) => void, lang: string,
   *          glossary?: import('../lesson/glossary.js').Glossary,
   *          headline?: import('../lesson/demo-headline.js').DemoHeadline}} deps  lang: how numbers are written; headline: the
   *          demo in one line above the exercise, told each draw once its rank is known
   */
  constructor({ store, helper, theme, notify, lang = 'en', glossary = null, headline = null }) {
    this.store = store;
    this.headline = headline;
    this.glossary = glossary;
    this.lang = lang;
    this.helper = helper;
    this.theme = theme;
    this.notify = notify;
    this.charts = [];
    this._buildControls();
    this._buildResults();
    // Found by its heading, not as a named region: two labs on a page (or a lab and its iframe) would repeat the name.
    this.element = h('section', { class: 'panel', attrs: { 'data-panel': 'softmax' } }, [
      h('h2', { attrs: { id: 'lab-softmax-title' }, text: T.title }),
      h('p', { class: 'lede', text: T.lede }),
      h('div', { class: 'panel-body' }, [this.controls, this.results]),
      glossary && glossary.termButtons(EXPLORER_TERMS),
    ]);
    this.unsubscribe = store.subscribe((state, changed) => this._onState(state, changed));
    this._refresh(store.state, ['dk', 'keys', 'alpha', 'seed']);
  }

  destroy() {
    this.unsubscribe();
    for (const chart of this.charts) chart.destroy();
  }

  refreshTheme() {
    for (const chart of this.charts) if (chart.refreshTheme) chart.refreshTheme();
    this._renderColours();
  }

  _buildControls() {
    const s = this.store.state;
    const update = (partial) => this.store.update(partial);
    const n = (x) => whole(x, this.lang);
    this.dk = rangeControl({ key: 'dk', label: T.dk, ...DK, step: 1, integer: true,
      sliderMin: 0, sliderMax: DK_SLIDER_MAX, sliderStep: 1, toSlider: dkToSlider, fromSlider: sliderToDk,
      value: s.dk, onChange: (dk) => update({ dk }), hint: T.dkHint(n(DK.min), n(DK.max)) });
    this.keys = rangeControl({ key: 'keys', label: T.keys, ...rangeOf('keys'), step: 1, integer: true,
      value: s.keys, onChange: (keys) => update({ keys }) });
    this.alpha = rangeControl({ key: 'alpha', label: T.alpha, ...rangeOf('alpha'), step: 0.01,
      value: s.alpha, onChange: (alpha) => update({ alpha }) });
    this.presets = ALPHA_PRESETS.map((p) => button({ text: p.text, title: p.title, class: 'chip',
      onClick: () => update({ alpha: p.alpha }) }));
    if (this.glossary) this.glossary.labelLink(this.alpha, 'alpha');
    this.alpha.element.append(h('div', { class: 'chips', attrs: { role: 'group', 'aria-label': T.presets } }, this.presets));
    this.seed = numberControl({ key: 'seed', label: T.seed, ...rangeOf('seed'), integer: true, value: s.seed,
      onChange: (seed) => update({ seed }),
      extra: [button({ text: T.resample, title: T.resampleTitle, key: 'seed',
        onClick: () => update({ seed: (this.store.state.seed + 1) % (MAX_SEED + 1) }) })] });
    this.weightsLog = toggleControl({ key: 'weightsLogY', label: T.logScale, value: s.weightsLogY,
      onChange: (weightsLogY) => update({ weightsLogY }) });
    this.controls = h('div', { class: 'controls', attrs: { role: 'group', 'aria-label': T.settings } }, [
      this.dk.element, this.keys.element, this.alpha.element, this.seed.element]);
  }

  _buildResults() {
    const theme = this.theme;
    const update = (partial) => this.store.update(partial);
    this.printout = new SoftmaxPrintout(this.lang);
    if (this.glossary) {  // the columns' terms, linked where the learner meets them: max (the top weight), entropy, eff. keys, |J|_F
      [null, 'top_weight', 'entropy', 'effective_keys', 'jacobian_norm'].forEach((term, i) => {
        if (term) this.printout.headers[i + 1].append(' ', this.glossary.link(term));
      });
    }
    this._buildDrawNote();
    const lang = this.lang;
    this.weightsChart = new LineChart({ name: 'weights', title: T.weightsTitle, xLabel: T.rank, yLabel: T.weight,
      theme, height: 200, logY: this.store.state.weightsLogY, lang });
    this.weightsChart.addTool(this.weightsLog.element);
    this.weightsNote = h('p', { class: 'chart-note', attrs: { 'data-note': 'weights' } });
    this.rawHistogram = new HistogramChart({ name: 'dots-raw', title: T.rawHistogram, xLabel: T.dot, theme, lang });
    this.scaledHistogram = new HistogramChart({ name: 'dots-scaled', title: T.scaledHistogram, xLabel: T.scaledDot, theme, lang });
    const band = (label, key) => ({ id: key, label, band: true });
    this.sweepCharts = [
      ['maxWeight', T.sweepTop, T.sweepTopY, [0, 1], 'top_weight'],
      ['entropy', T.sweepEntropy, T.sweepEntropyY, null, 'entropy'],
      ['jacobianNorm', T.sweepJacobian, T.sweepJacobianY, null, 'jacobian_norm'],
    ].map(([stat, title, yLabel, yRange, term]) => {
      const chart = new LineChart({ name: `sweep-${stat}`, title, xLabel: T.dkAxis, yLabel, logX: true, theme, height: 190,
        yRange: yRange ?? undefined, lang });
      chart.stat = stat;
      chart.groupsSpec = [band(T.raw, 'raw'), band(T.scaled, 'scaled')];
      if (this.glossary) chart.addTool(this.glossary.link(term));
      return chart;
    });
    this.charts = [this.weightsChart, this.rawHistogram, this.scaledHistogram, ...this.sweepCharts];
    for (const chart of this.charts) {
      chart.addTool(button({ text: STRINGS.charts.png, class: 'chip', ariaLabel: STRINGS.charts.pngLabel(chart.element.dataset.chart),
        onClick: () => chart.toPng().then((blob) => downloadBlob(blob, `sqrtdk-${chart.element.dataset.chart}.png`)) }));
    }
    this.sweepStatus = h('span', { class: 'hint', attrs: { role: 'status', 'data-sweep-status': '' } });
    // Ties the explorer to the exercise: the sweep's numbers at the exercise's d_k, and a button to go there.
    this.exerciseText = h('span');
    this.useExerciseDk = button({ text: T.useExerciseDk(), class: 'chip', key: 'dk',
      onClick: () => update({ dk: exerciseDk(this.store.state) }) });
    this.exerciseNote = h('p', { class: 'takeaway', attrs: { 'data-note': 'exercise-dk', 'aria-live': 'polite' } }, [this.exerciseText, ' ', this.useExerciseDk]);
    this.results = h('div', { class: 'results' }, [
      this.printout.element,
      this.drawNote,
      h('div', { class: 'chart-grid' }, [h('div', { class: 'chart-with-note' }, [this.weightsChart.element, this.weightsNote]),
        this.rawHistogram.element, this.scaledHistogram.element]),
      h('h3', {}, [T.sweepTitle, this.sweepStatus]),
      h('p', { class: 'hint', text: T.sweepHint(whole(SWEEP_DRAWS, lang)) }),
      h('div', { class: 'chart-grid three' }, this.sweepCharts.map((c) => c.element)),
      this.exerciseNote,
    ]);
    this._renderColours();
  }

  /** Where the draw stands among the fixed set of draws, and the button to the set's median draw. */
  _buildDrawNote() {
    this.standingText = h('span');
    this.medianButton = button({ text: T.showMedian(''), class: 'chip', key: 'seed',
      onClick: () => { if (this.drawSet) this.store.update({ seed: medianDraw(this.drawSet.set).seed }); } });
    this.medianButton.hidden = true;
    this.spreadText = h('p', { attrs: { 'data-note': 'draw-set' } });
    this.readingText = h('p', { class: 'takeaway', attrs: { 'data-note': 'draw-reading' } });
    this.passesMoreText = h('p', { class: 'hint', attrs: { 'data-note': 'draw-jacobian' } });
    this.drawNote = h('div', { class: 'draw-note', attrs: { 'data-note': 'draw', 'aria-live': 'polite' } }, [
      h('p', { attrs: { 'data-note': 'draw-rank' } }, [this.standingText, ' ', this.medianButton]),
      this.spreadText, this.readingText, this.passesMoreText]);
  }

  _renderColours() {
    const dark = this.theme().dark;
    const raw = variantColour('unscaled', dark);
    const scaled = variantColour('scaled', dark);
    const alpha = alphaText(this.store.state.alpha, this.lang);
    const sqrt = this.store.state.alpha === 0.5;
    this.weightsChart.setGroups([{ id: 'raw', label: T.rawDot, colour: raw },
      { id: 'scaled', label: sqrt ? T.dotOverSqrt : T.dotOver(alpha), colour: scaled }]);
    for (const chart of this.sweepCharts) {
      chart.setGroups([{ id: 'raw', label: T.raw, colour: raw, band: true },
        { id: 'scaled', label: sqrt ? T.overSqrt : T.over(alpha), colour: scaled, band: true }]);
    }
  }

  _onState(state, changed) {
    if (changed.includes('dk')) this.dk.set(state.dk);
    if (changed.includes('keys')) this.keys.set(state.keys);
    if (changed.includes('alpha')) this.alpha.set(state.alpha);
    if (changed.includes('seed')) this.seed.set(state.seed);
    if (changed.includes('weightsLogY')) {
      this.weightsLog.set(state.weightsLogY);
      this.weightsChart.setLogY(state.weightsLogY);
      if (this.lastDemo) this._renderWeights(this.lastDemo);
    }
    if (changed.includes('alpha')) this._renderColours();
    this._refresh(state, changed);
  }

  _refresh(state, changed) {
    const touches = (...keys) => keys.some((k) => changed.includes(k));
    for (const preset of this.presets) {
      const p = ALPHA_PRESETS[this.presets.indexOf(preset)];
      preset.setAttribute('aria-pressed', String(Math.abs(p.alpha - state.alpha) < 1e-9));
    }
    if (touches('dk', 'keys', 'alpha', 'seed')) {
      this._requestDemo(state);
      this._requestHistograms(state);
    }
    if (touches('dk', 'keys', 'alpha')) this._requestDrawSet(state);
    if (touches('keys', 'alpha', 'seed')) this._requestSweep(state);
    if (touches('dk')) for (const chart of this.sweepCharts) chart.setMarker(state.dk);
    if (touches('dk', 'dModel', 'heads')) this._renderExerciseNote(state);
  }

  _fail(what, error) {
    this.notify(T.failed(what, error.message));
  }

  _requestDemo(state) {
    const options = { dk: state.dk, keys: state.keys, seed: state.seed, alpha: state.alpha, top: Math.min(TOP, state.keys) };
    this.helper.latest('demo', { type: 'softmaxDemo', options }).then((reply) => {
      if (reply) this._renderDemo(reply.result);
    }, (error) => this._fail(T.demo, error));
  }

  _renderDemo(demo) {
    this.printout.render(demo);
    this.lastDemo = demo;
    this._renderWeights(demo);
    this._renderDrawNote();
  }

  /** The fixed set of draws at the current d_k, keys and alpha (the core's seeds 0 .. 199). */
  _requestDrawSet(state) {
    const options = { dk: state.dk, keys: state.keys, alpha: state.alpha };
    this.helper.latest('draw-set', { type: 'drawSet', options }).then((reply) => {
      if (!reply) return;
      this.drawSet = { options, set: reply.result };
      this._renderDrawNote();
    }, (error) => this._fail(T.drawSetFailed, error));
  }

  /** Written once the demo and the set of the same d_k, keys and alpha are both in. */
  _renderDrawNote() {
    const demo = this.lastDemo;
    const set = this.drawSet;
    const same = demo && set && set.options.dk === demo.dk && set.options.keys === demo.keys && set.options.alpha === demo.alpha;
    if (!same) return;
    const standing = drawStanding(set.set, { seed: demo.seed, rawTop: demo.raw.max });
    const opens = ['dk', 'keys', 'alpha', 'seed'].every((key) => PROPERTY_BY_KEY.get(key).default === demo[key]);
    const notes = drawNotes(standing, demo, opens, this.lang);
    setText(this.standingText, notes.standing);
    setText(this.medianButton, T.showMedian(whole(standing.median.seed, this.lang)));
    this.medianButton.hidden = standing.median.seed === demo.seed;
    setText(this.spreadText, notes.spread);
    setText(this.readingText, notes.reading);
    setText(this.passesMoreText, notes.passesMore);
    this.headline?.show(demo, standing);
  }

  /**
   * The sorted weights.  On a log axis the weights below WEIGHT_FLOOR are left out (a raw softmax has weights
   * down to 1e-300, which would squeeze the axis), and the note under the chart says how many.
   */
  _renderWeights(demo) {
    const keys = demo.keys;
    const sortedDesc = (a) => Float64Array.from(a).sort().reverse();
    const raw = sortedDesc(demo.raw.weights);
    const scaled = sortedDesc(demo.scaled.weights);
    const logY = this.store.state.weightsLogY;
    const shown = (w) => (logY && w < WEIGHT_FLOOR ? null : w);
    this.weightsChart.setData(Array.from({ length: keys }, (_, i) => i + 1), {
      raw: { median: Array.from(raw, shown) }, scaled: { median: Array.from(scaled, shown) } });
    const below = (list) => list.filter((w) => w < WEIGHT_FLOOR).length;
    const { lang } = this;
    this.weightsNote.textContent = logY && below(raw) + below(scaled) > 0
      ? T.weightsBelowFloor(formatValue(WEIGHT_FLOOR, lang), whole(below(raw), lang), whole(below(scaled), lang), whole(keys, lang)) : '';
  }

  _requestHistograms(state) {
    const draws = Math.min(MAX_DRAWS, Math.ceil(HISTOGRAM_SAMPLES / state.keys));
    const scale = state.dk ** -state.alpha;
    const base = { dk: state.dk, keys: state.keys, draws, seed: state.seed, alpha: state.alpha, bins: HISTOGRAM_BINS };
    const halfRaw = 4 * Math.sqrt(state.dk);
    this.helper.latest('histogram-raw', { type: 'histogram', options: { ...base, halfWidth: halfRaw } }).then((reply) => {
      if (!reply) return;
      const r = reply.result;
      const view = { edges: r.edges, counts: r.raw, total: r.total, outside: r.rawOutside };
      this.rawHistogram.setData({ ...view, variance: state.dk, variant: 'unscaled', curveLabel: T.normalRaw(whole(state.dk, this.lang)),
        note: tailNote(shareBeyond(view, 3 * Math.sqrt(state.dk)), state.dk, this.lang) });
    }, (error) => this._fail(T.histogram, error));
    this._requestScaledHistogram({ ...base, halfWidth: halfRaw * scale }, state, scale);
  }

  _requestScaledHistogram(options, state, scale) {
    const variance = state.dk * scale * scale;
    const label = Math.abs(state.alpha - 0.5) < 1e-9 ? T.normalUnit : T.normalScaled(formatValue(variance, this.lang));
    this.helper.latest('histogram-scaled', { type: 'histogram', options }).then((reply) => {
      if (!reply) return;
      const r = reply.result;
      this.scaledHistogram.setData({ edges: r.edges, counts: r.scaled, total: r.total, outside: r.scaledOutside,
        variance, variant: 'scaled', curveLabel: label });
    }, (error) => this._fail(T.histogram, error));
  }

  /** The sweep's median |J|_F at the exercise's d_k, and where saturation starts to kill the gradient. */
  _renderExerciseNote(state) {
    const dk = exerciseDk(state);
    setText(this.useExerciseDk, T.useExerciseDk(whole(dk, this.lang)));
    this.useExerciseDk.disabled = state.dk === dk;
    setText(this.exerciseText, exerciseDkNote(this.sweep ?? null, dk, state, SWEEP_DRAWS, this.lang));
  }

  _requestSweep(state) {
    this.sweepStatus.textContent = T.computing;
    const options = { dks: SWEEP_DKS, keys: state.keys, draws: SWEEP_DRAWS, seed: state.seed, alpha: state.alpha };
    this.helper.latest('sweep', { type: 'sweep', options }).then((reply) => {
      if (!reply) return;
      this.sweepStatus.textContent = '';
      const rows = reply.result.rows;
      const xs = rows.map((r) => r.dk);
      for (const chart of this.sweepCharts) {
        const column = (side) => ({
          median: rows.map((r) => r[side][chart.stat].median),
          lo: rows.map((r) => r[side][chart.stat].q1),
          hi: rows.map((r) => r[side][chart.stat].q3),
        });
        chart.setData(xs, { raw: column('raw'), scaled: column('scaled') });
        chart.setMarker(this.store.state.dk);
      }
      this.sweep = reply.result;
      this._renderExerciseNote(this.store.state);
    }, (error) => {
      this.sweepStatus.textContent = '';
      this._fail(T.sweep, error);
    });
  }
}
