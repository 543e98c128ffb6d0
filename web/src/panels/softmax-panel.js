// Panel 1, the saturation explorer: the lesson's code demo made live.  One draw of q and the keys
// (~ N(0, I_dk)); the softmax of q.k raw and scaled by d_k^-alpha; the top-5 printout; the distribution of
// q.k over many draws against N(0, d_k); and the sweep of saturation statistics over d_k.
// All numbers come from the wasm core through the helper worker.

import { h, replaceChildren } from '../ui/dom.js';
import { button, rangeControl, numberControl, toggleControl } from '../ui/controls.js';
import { fixed, formatG, short } from '../ui/format.js';
import { variantColour } from '../ui/palette.js';
import { LineChart } from '../charts/line-chart.js';
import { HistogramChart, shareBeyond } from '../charts/histogram.js';
import { exerciseDkNote, tailNote } from './softmax-notes.js';
import { downloadBlob } from '../export/download.js';
import { MAX_SEED } from '../state/properties.js';

const SWEEP_DKS = [1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1024];
const SWEEP_DRAWS = 500;
const HISTOGRAM_SAMPLES = 20000;
const HISTOGRAM_BINS = 60;
const DK_SLIDER_MAX = 1000;
const ALPHA_PRESETS = [
  { alpha: 0, text: 'raw', title: 'alpha 0: no scaling' },
  { alpha: 0.5, text: '1/√d_k', title: 'alpha 0.5: the Transformer’s scaling' },
  { alpha: 1, text: '1/d_k', title: 'alpha 1: muP’s 1/d scaling' },
];

/** d_k of the exercise's model: d_model / heads. */
const exerciseDk = (state) => state.dModel / state.heads;

const dkToSlider = (dk) => Math.round((DK_SLIDER_MAX * Math.log(dk)) / Math.log(1024));
const sliderToDk = (s) => Math.max(1, Math.min(1024, Math.round(1024 ** (s / DK_SLIDER_MAX))));
const alphaText = (alpha) => String(Number(alpha.toFixed(2)));

export class SoftmaxPanel {
  /**
   * @param {{store: import('../state/store.js').Store, helper: import('../worker/helper-worker.js').HelperWorker,
   *          theme: () => object, notify: (text: string) => void}} deps
   */
  constructor({ store, helper, theme, notify }) {
    this.store = store;
    this.helper = helper;
    this.theme = theme;
    this.notify = notify;
    this.charts = [];
    this._buildControls();
    this._buildResults();
    this.element = h('section', { class: 'panel', attrs: { 'data-panel': 'softmax', 'aria-labelledby': 'lab-softmax-title' } }, [
      h('h2', { attrs: { id: 'lab-softmax-title' }, text: 'Saturation explorer: one query, many keys' }),
      h('p', { class: 'lede', text: 'q and every key are random vectors with d_k independent N(0, 1) components, so q·k has variance d_k. '
        + 'Raw scores spread like √d_k and the softmax puts almost all weight on one key; dividing by √d_k keeps the spread near 1.' }),
      h('div', { class: 'panel-body' }, [this.controls, this.results]),
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
    this.dk = rangeControl({ key: 'dk', label: 'd_k (query/key dimension)', min: 1, max: 1024, step: 1, integer: true,
      sliderMin: 0, sliderMax: DK_SLIDER_MAX, sliderStep: 1, toSlider: dkToSlider, fromSlider: sliderToDk,
      value: s.dk, onChange: (dk) => update({ dk }), hint: 'log slider, 1 to 1024' });
    this.keys = rangeControl({ key: 'keys', label: 'number of keys', min: 2, max: 500, step: 1, integer: true,
      value: s.keys, onChange: (keys) => update({ keys }) });
    this.alpha = rangeControl({ key: 'alpha', label: 'scale exponent α (scores = q·k / d_k^α)', min: 0, max: 1, step: 0.01,
      value: s.alpha, onChange: (alpha) => update({ alpha }) });
    this.presets = ALPHA_PRESETS.map((p) => button({ text: p.text, title: p.title, class: 'chip',
      onClick: () => update({ alpha: p.alpha }) }));
    this.alpha.element.append(h('div', { class: 'chips', attrs: { role: 'group', 'aria-label': 'scale presets' } }, this.presets));
    this.seed = numberControl({ key: 'seed', label: 'seed', min: 0, max: MAX_SEED, integer: true, value: s.seed,
      onChange: (seed) => update({ seed }),
      extra: [button({ text: 'Resample', title: 'a new draw (next seed)', key: 'seed',
        onClick: () => update({ seed: (this.store.state.seed + 1) % (MAX_SEED + 1) }) })] });
    this.weightsLog = toggleControl({ key: 'weightsLogY', label: 'log scale', value: s.weightsLogY,
      onChange: (weightsLogY) => update({ weightsLogY }) });
    this.controls = h('div', { class: 'controls', attrs: { role: 'group', 'aria-label': 'Explorer settings' } }, [
      this.dk.element, this.keys.element, this.alpha.element, this.seed.element]);
  }

  _buildResults() {
    const theme = this.theme;
    const update = (partial) => this.store.update(partial);
    this.printoutTitle = h('p', { class: 'printout-title' });
    this.printoutBody = h('tbody');
    this.printoutNote = h('p', { class: 'hint' });
    this.readout = h('p', { class: 'takeaway', attrs: { 'aria-live': 'polite' } });
    const header = ['', 'top 5 weights', 'max', 'entropy', 'eff. keys', '|J|_F'];
    this.topHeader = null;
    const titles = ['', 'the largest softmax weights, descending', 'largest weight', 'entropy in nats',
      'exp(entropy): how many keys the weight is spread over', 'Frobenius norm of the softmax Jacobian diag(p) − p pᵀ: how much gradient gets through'];
    const printout = h('div', { class: 'printout' }, [
      this.printoutTitle,
      h('div', { class: 'table-scroll' }, [h('table', { class: 'top5', attrs: { 'data-table': 'top5' } }, [
        h('thead', {}, [h('tr', {}, header.map((text, i) => {
          const th = h('th', { text, attrs: { scope: 'col', title: titles[i] || null } });
          if (i === 1) this.topHeader = th;
          return th;
        }))]),
        this.printoutBody])]),
      this.printoutNote,
      this.readout,
    ]);
    this.weightsChart = new LineChart({ name: 'weights', title: 'Softmax weights, sorted', xLabel: 'rank', yLabel: 'weight',
      theme, height: 200, logY: this.store.state.weightsLogY });
    this.weightsChart.addTool(this.weightsLog.element);
    this.rawHistogram = new HistogramChart({ name: 'dots-raw', title: 'q·k over many draws', xLabel: 'q·k', theme });
    this.scaledHistogram = new HistogramChart({ name: 'dots-scaled', title: 'scaled q·k over many draws', xLabel: 'q·k / d_k^α', theme });
    const band = (label, key) => ({ id: key, label, band: true });
    this.sweepCharts = [
      ['maxWeight', 'Median top weight vs d_k', 'top weight', [0, 1]],
      ['entropy', 'Median entropy vs d_k (nats)', 'entropy', null],
      ['jacobianNorm', 'Median Jacobian norm vs d_k', '|J|_F', null],
    ].map(([stat, title, yLabel, yRange]) => {
      const chart = new LineChart({ name: `sweep-${stat}`, title, xLabel: 'd_k', yLabel, logX: true, theme, height: 190,
        yRange: yRange ?? undefined });
      chart.stat = stat;
      chart.groupsSpec = [band('raw', 'raw'), band('scaled', 'scaled')];
      return chart;
    });
    this.charts = [this.weightsChart, this.rawHistogram, this.scaledHistogram, ...this.sweepCharts];
    for (const chart of this.charts) {
      chart.addTool(button({ text: 'PNG', class: 'chip', ariaLabel: `Download ${chart.element.dataset.chart} chart as PNG`,
        onClick: () => chart.toPng().then((blob) => downloadBlob(blob, `sqrtdk-${chart.element.dataset.chart}.png`)) }));
    }
    this.sweepStatus = h('span', { class: 'hint', attrs: { role: 'status' } });
    // Ties the explorer to the exercise: the sweep's numbers at the exercise's d_k, and a button to go there.
    this.exerciseText = h('span');
    this.useExerciseDk = button({ text: 'use the exercise’s d_k', class: 'chip', key: 'dk',
      onClick: () => update({ dk: exerciseDk(this.store.state) }) });
    this.exerciseNote = h('p', { class: 'takeaway', attrs: { 'data-note': 'exercise-dk', 'aria-live': 'polite' } }, [this.exerciseText, ' ', this.useExerciseDk]);
    this.results = h('div', { class: 'results' }, [
      printout,
      h('div', { class: 'chart-grid' }, [this.weightsChart.element, this.rawHistogram.element, this.scaledHistogram.element]),
      h('h3', {}, ['How saturation grows with d_k ', this.sweepStatus]),
      h('p', { class: 'hint', text: `Median and quartiles over ${SWEEP_DRAWS} draws at each d_k; the dashed line marks the current d_k. `
        + 'The Jacobian norm first rises as the softmax sharpens, then collapses once it saturates.' }),
      h('div', { class: 'chart-grid three' }, this.sweepCharts.map((c) => c.element)),
      this.exerciseNote,
    ]);
    this._renderColours();
  }

  _renderColours() {
    const dark = this.theme().dark;
    const raw = variantColour('unscaled', dark);
    const scaled = variantColour('scaled', dark);
    const alpha = alphaText(this.store.state.alpha);
    this.weightsChart.setGroups([{ id: 'raw', label: 'raw q·k', colour: raw }, { id: 'scaled', label: `q·k / d_k^${alpha}`, colour: scaled }]);
    for (const chart of this.sweepCharts) {
      chart.setGroups([{ id: 'raw', label: 'raw', colour: raw, band: true }, { id: 'scaled', label: `÷ d_k^${alpha}`, colour: scaled, band: true }]);
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
      const p = ALPHA_PRESETS.find((x) => x.text === preset.textContent);
      preset.setAttribute('aria-pressed', String(Math.abs(p.alpha - state.alpha) < 1e-9));
    }
    if (touches('dk', 'keys', 'alpha', 'seed')) {
      this._requestDemo(state);
      this._requestHistograms(state);
    }
    if (touches('keys', 'alpha', 'seed')) this._requestSweep(state);
    if (touches('dk')) for (const chart of this.sweepCharts) chart.setMarker(state.dk);
    if (touches('dk', 'dModel', 'heads')) this._renderExerciseNote(state);
  }

  _fail(what, error) {
    this.notify(`${what} failed: ${error.message}`);
  }

  _requestDemo(state) {
    const options = { dk: state.dk, keys: state.keys, seed: state.seed, alpha: state.alpha, top: Math.min(5, state.keys) };
    this.helper.latest('demo', { type: 'softmaxDemo', options }).then((reply) => {
      if (reply) this._renderDemo(reply.result);
    }, (error) => this._fail('The softmax demo', error));
  }

  _renderDemo(demo) {
    const dk = demo.dk;
    const keys = demo.keys;
    const alpha = alphaText(demo.alpha);
    this.printoutTitle.textContent = `one draw: q and ${keys} keys ~ N(0, I) in d_k = ${dk}, seed ${demo.seed}; `
      + `raw = softmax(q·k), scaled = softmax(q·k / ${dk}^${alpha})`;
    const row = (name, side) => h('tr', { attrs: { 'data-row': name } }, [
      h('th', { attrs: { scope: 'row' }, text: name }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'top' }, text: Array.from(side.top, (w) => fixed(w, 4)).join(' ') }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'max' }, text: fixed(side.max, 4) }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'entropy' }, text: fixed(side.entropy, 3) }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'effective' }, text: `${fixed(side.effectiveKeys, 2)} / ${keys}` }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'jacobian' }, text: formatG(side.jacobianNorm, 3) }),
    ]);
    replaceChildren(this.printoutBody, [row('raw', demo.raw), row('scaled', demo.scaled)]);
    this.topHeader.textContent = `top ${demo.raw.top.length} weights`;
    this.printoutNote.textContent = `entropy in nats (uniform over ${keys} keys: ln ${keys} = ${fixed(Math.log(keys), 3)}); `
      + '|J|_F = ‖diag(p) − p pᵀ‖_F, how much gradient gets through the softmax';
    const ratio = demo.scaled.jacobianNorm / Math.max(demo.raw.jacobianNorm, 1e-300);
    this.readout.textContent = `Raw: the top key takes ${short(100 * demo.raw.max)} % of the weight, spread over `
      + `${fixed(demo.raw.effectiveKeys, 1)} effective keys. Scaled: ${short(100 * demo.scaled.max)} % over `
      + `${fixed(demo.scaled.effectiveKeys, 1)} keys. Gradient through the softmax: ${formatG(demo.raw.jacobianNorm, 3)} raw vs `
      + `${formatG(demo.scaled.jacobianNorm, 3)} scaled${ratio > 1.05 ? ` (${short(ratio)}× more when scaled)` : ''}.`;
    this.lastDemo = demo;
    this._renderWeights(demo);
  }

  /** The sorted weights; on a log axis, clipped at 1e-12 (a raw softmax has weights down to 1e-300). */
  _renderWeights(demo) {
    const keys = demo.keys;
    const sortedDesc = (a) => Float64Array.from(a).sort().reverse();
    const raw = sortedDesc(demo.raw.weights);
    const scaled = sortedDesc(demo.scaled.weights);
    const floor = 1e-12;
    const logY = this.store.state.weightsLogY;
    const clip = (w) => (logY ? Math.max(w, floor) : w);
    this.weightsChart.setData(Array.from({ length: keys }, (_, i) => i + 1), {
      raw: { median: Array.from(raw, clip) }, scaled: { median: Array.from(scaled, clip) } });
  }

  _requestHistograms(state) {
    const draws = Math.min(100000, Math.ceil(HISTOGRAM_SAMPLES / state.keys));
    const scale = state.dk ** -state.alpha;
    const base = { dk: state.dk, keys: state.keys, draws, seed: state.seed, alpha: state.alpha, bins: HISTOGRAM_BINS };
    const halfRaw = 4 * Math.sqrt(state.dk);
    this.helper.latest('histogram-raw', { type: 'histogram', options: { ...base, halfWidth: halfRaw } }).then((reply) => {
      if (!reply) return;
      const r = reply.result;
      const view = { edges: r.edges, counts: r.raw, total: r.total, outside: r.rawOutside };
      this.rawHistogram.setData({ ...view, variance: state.dk, variant: 'unscaled', curveLabel: `N(0, d_k = ${state.dk})`,
        note: tailNote(shareBeyond(view, 3 * Math.sqrt(state.dk)), state.dk) });
    }, (error) => this._fail('The histogram', error));
    this._requestScaledHistogram({ ...base, halfWidth: halfRaw * scale }, state, scale);
  }

  _requestScaledHistogram(options, state, scale) {
    const variance = state.dk * scale * scale;
    const label = Math.abs(state.alpha - 0.5) < 1e-9 ? 'N(0, 1)' : `N(0, d_k^(1−2α) = ${short(variance)})`;
    this.helper.latest('histogram-scaled', { type: 'histogram', options }).then((reply) => {
      if (!reply) return;
      const r = reply.result;
      this.scaledHistogram.setData({ edges: r.edges, counts: r.scaled, total: r.total, outside: r.scaledOutside,
        variance, variant: 'scaled', curveLabel: label });
    }, (error) => this._fail('The histogram', error));
  }

  /** The sweep's median |J|_F at the exercise's d_k, and where saturation starts to kill the gradient. */
  _renderExerciseNote(state) {
    const dk = exerciseDk(state);
    this.useExerciseDk.textContent = `use the exercise’s d_k (${dk})`;
    this.useExerciseDk.disabled = state.dk === dk;
    this.exerciseText.textContent = exerciseDkNote(this.sweepRows ?? [], dk, state, SWEEP_DRAWS);
  }

  _requestSweep(state) {
    this.sweepStatus.textContent = '(computing…)';
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
      this.sweepRows = rows;
      this._renderExerciseNote(this.store.state);
    }, (error) => {
      this.sweepStatus.textContent = '';
      this._fail('The sweep', error);
    });
  }
}
