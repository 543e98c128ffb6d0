// Panel 2, the exercise: a tiny Transformer learns the copy task with each attention variant and several
// seeds, every run in its own worker; live curves (median and band over seeds), attention heatmaps, and the
// answer box with the measured steps to the loss threshold.

import { h, replaceChildren } from '../ui/dom.js';
import { button, checkboxGroup, numberControl, rangeControl, selectControl, toggleControl } from '../ui/controls.js';
import { short } from '../ui/format.js';
import { LAYER_DASHES, variantColour, variantLabel } from '../ui/palette.js';
import { LineChart } from '../charts/line-chart.js';
import { HeatmapChart } from '../charts/heatmap.js';
import { displaySteps, seedBand, smoothForDisplay } from '../analysis/curves.js';
import { AnswerClient } from '../analysis/answer-client.js';
import { AnswerView } from './answer-view.js';
import { RunTable } from './run-table.js';
import { Exercise } from '../training/exercise.js';
import { runPlan, trainConfig } from '../training/run-plan.js';
import { curvesToCsv, curvesToJson } from '../export/curves-export.js';
import { downloadBlob, downloadText } from '../export/download.js';
import { MAX_SEED, PROPERTIES, PROPERTY_BY_KEY, VARIANTS } from '../state/properties.js';

const RENDER_INTERVAL_MS = 250;
const LR_SLIDER_MAX = 1000;
const LR_MIN = 1e-5;
const LR_MAX = 10;
const TRAIN_KEYS = new Set(PROPERTIES.filter((p) => p.group === 'train').map((p) => p.key));

const lrToSlider = (lr) => Math.round((LR_SLIDER_MAX * Math.log(lr / LR_MIN)) / Math.log(LR_MAX / LR_MIN));
const sliderToLr = (s) => Number((LR_MIN * (LR_MAX / LR_MIN) ** (s / LR_SLIDER_MAX)).toPrecision(2));
const choiceOptions = (key, text = (v) => String(v)) => PROPERTY_BY_KEY.get(key).choices.map((value) => ({ value, text: text(value) }));

export class TrainPanel {
  /**
   * @param {{store, helper, theme: () => object, notify: (text: string) => void, createClient, concurrency: number,
   *   onAnswer?: (answer: object) => void}} deps  onAnswer gets each new answer (lab.compare's structured result)
   */
  constructor({ store, helper, theme, notify, createClient, concurrency, onAnswer = () => {} }) {
    this.store = store;
    this.helper = helper;
    this.answerClient = new AnswerClient(helper, {
      onAnswer: (answer) => {
        this._scheduleRender();
        onAnswer(answer);
      },
      onError: (error) => this._showProblem(`The answer could not be computed: ${error.message}`),
    });
    this.theme = theme;
    this.notify = notify;
    this.renderPending = false;
    this.renderAgain = false;
    this.lastRender = 0;
    this.exercise = new Exercise({ createClient, concurrency, onChange: () => this._scheduleRender(), onNotice: notify });
    this._buildControls();
    this._buildResults();
    this.element = h('section', { class: 'panel', attrs: { 'data-panel': 'train', 'aria-labelledby': 'lab-train-title' } }, [
      h('h2', { attrs: { id: 'lab-train-title' }, text: 'The exercise: does the scaling make training faster?' }),
      h('p', { class: 'lede', text: 'A small Transformer learns to copy a sequence of random symbols (BOS x₁…x_L SEP x₁…x_L, scored on the copy). '
        + 'Each variant and seed trains in its own worker. How many steps does each need to bring the loss below the threshold?' }),
      h('div', { class: 'panel-body' }, [this.controls, this.results]),
    ]);
    this.unsubscribe = store.subscribe((state, changed) => this._onState(state, changed));
    this._applyPlan(store.state);
    this._requestPrediction(store.state);
  }

  destroy() {
    this.unsubscribe();
    this.exercise.dispose();
    for (const chart of this._charts()) chart.destroy();
  }

  refreshTheme() {
    for (const chart of this._charts()) chart.refreshTheme();
    this.lossKey = '';
    this.accuracyKey = '';
    this.entropyKey = '';
    this._render();
  }

  _charts() { return [this.lossChart, this.accuracyChart, this.entropyChart, ...this.heatmaps.values()]; }

  // ---- controls -------------------------------------------------------------------------------

  _buildControls() {
    const s = this.store.state;
    const update = (partial) => this.store.update(partial);
    const c = {};
    c.layers = rangeControl({ key: 'layers', label: 'layers', min: 1, max: 6, step: 1, integer: true, value: s.layers, onChange: (layers) => update({ layers }) });
    c.dModel = selectControl({ key: 'dModel', label: 'd_model', options: choiceOptions('dModel'), value: s.dModel, onChange: (dModel) => update({ dModel }) });
    c.heads = selectControl({ key: 'heads', label: 'heads', options: this._headOptions(s.dModel), value: s.heads, onChange: (heads) => update({ heads }) });
    c.copyLength = rangeControl({ key: 'copyLength', label: 'copy length L', min: 2, max: 32, step: 1, integer: true, value: s.copyLength, onChange: (copyLength) => update({ copyLength }) });
    c.symbols = rangeControl({ key: 'symbols', label: 'symbols', min: 2, max: 64, step: 1, integer: true, value: s.symbols, onChange: (symbols) => update({ symbols }) });
    c.batch = selectControl({ key: 'batch', label: 'batch', options: choiceOptions('batch'), value: s.batch, onChange: (batch) => update({ batch }) });
    c.lr = rangeControl({ key: 'lr', label: 'learning rate (Adam)', min: LR_MIN, max: LR_MAX, step: 'any', sliderMin: 0, sliderMax: LR_SLIDER_MAX,
      toSlider: lrToSlider, fromSlider: sliderToLr, value: s.lr, onChange: (lr) => update({ lr }), hint: 'log slider, 1e-5 to 10' });
    c.steps = numberControl({ key: 'steps', label: 'steps per run', min: 10, max: 20000, integer: true, value: s.steps, onChange: (steps) => update({ steps }) });
    c.init = selectControl({ key: 'init', label: 'initialisation', value: s.init, onChange: (init) => update({ init }),
      options: [{ value: 'xavier', text: 'Xavier (unit-variance q, k)' }, { value: 'torch', text: 'PyTorch Linear default' }, { value: 'gpt', text: 'GPT N(0, 0.02)' }],
      hint: 'predicted logit std at init: …' });
    c.variants = checkboxGroup({ key: 'variants', label: 'variants to compare', values: s.variants, atLeastOne: true, onChange: (variants) => update({ variants }),
      options: VARIANTS.map((v) => ({ value: v, text: variantLabel(v, s.trainAlpha) })) });
    c.trainAlpha = rangeControl({ key: 'trainAlpha', label: 'α of the 1/d_k^α variant', min: 0, max: 1, step: 0.05, value: s.trainAlpha, onChange: (trainAlpha) => update({ trainAlpha }) });
    c.seeds = rangeControl({ key: 'seeds', label: 'seeds per variant', min: 1, max: 5, step: 1, integer: true, value: s.seeds, onChange: (seeds) => update({ seeds }) });
    c.trainSeed = numberControl({ key: 'trainSeed', label: 'first seed', min: 0, max: MAX_SEED - 4, integer: true, value: s.trainSeed, onChange: (trainSeed) => update({ trainSeed }) });
    c.threshold = numberControl({ key: 'threshold', label: 'loss threshold', min: 0.001, max: 5, value: s.threshold, onChange: (threshold) => update({ threshold }) });
    c.evalEvery = numberControl({ key: 'evalEvery', label: 'evaluate every (steps)', min: 10, max: 1000, integer: true, value: s.evalEvery, onChange: (evalEvery) => update({ evalEvery }) });
    this.c = c;
    this.startButton = button({ text: 'Start', class: 'primary', onClick: () => this.exercise.start() });
    this.pauseButton = button({ text: 'Pause', onClick: () => this.exercise.pause() });
    this.stepButton = button({ text: 'Step', title: 'one training step of every run', onClick: () => this.exercise.stepOnce() });
    this.resetButton = button({ text: 'Reset', title: 'clear the curves and start again from the seeds', onClick: () => this.exercise.reset() });
    this.buttons = h('div', { class: 'buttons', attrs: { role: 'group', 'aria-label': 'training' } },
      [this.startButton, this.pauseButton, this.stepButton, this.resetButton]);
    const group = (title, items) => h('fieldset', { class: 'control-group' }, [h('legend', { text: title }), ...items.map((x) => x.element)]);
    this.controls = h('div', { class: 'controls', attrs: { role: 'group', 'aria-label': 'Exercise settings' } }, [
      this.buttons,
      group('Compare', [c.variants, c.trainAlpha, c.seeds, c.trainSeed]),
      group('Model', [c.layers, c.dModel, c.heads, c.init]),
      group('Task', [c.copyLength, c.symbols]),
      group('Training', [c.batch, c.lr, c.steps, c.threshold, c.evalEvery]),
    ]);
  }

  _headOptions(dModel) {
    return PROPERTY_BY_KEY.get('heads').choices.filter((h) => dModel % h === 0)
      .map((value) => ({ value, text: `${value} (d_k = ${dModel / value})` }));
  }

  // ---- results --------------------------------------------------------------------------------

  _buildResults() {
    const s = this.store.state;
    const theme = this.theme;
    const update = (partial) => this.store.update(partial);
    this.runTable = new RunTable();
    this.answer = new AnswerView();
    this.problem = h('p', { class: 'problem', attrs: { role: 'alert' } });
    this.problem.hidden = true;
    this.lossChart = new LineChart({ name: 'loss', title: 'Copy loss (median over seeds, band = range)', xLabel: 'step', yLabel: 'loss', theme, logY: s.logY, height: 260 });
    this.logY = toggleControl({ key: 'logY', label: 'log y', value: s.logY, onChange: (logY) => update({ logY }) });
    this.smooth = rangeControl({ key: 'smooth', label: 'smoothing (steps)', min: 1, max: 200, step: 1, integer: true, value: s.smooth, onChange: (smooth) => update({ smooth }) });
    this.lossChart.addTool(this.logY.element);
    this.accuracyChart = new LineChart({ name: 'accuracy', title: 'Sequence accuracy (greedy copy, evaluation batch)', xLabel: 'step', yLabel: 'accuracy', theme, yRange: [0, 1], height: 200 });
    this.entropyChart = new LineChart({ name: 'entropy', title: 'Attention entropy per layer (nats, median over seeds)', xLabel: 'step', yLabel: 'entropy', theme, height: 200 });
    for (const chart of [this.lossChart, this.accuracyChart, this.entropyChart]) this._addPng(chart, chart.options.name);
    this.heatLayer = selectControl({ key: 'heatLayer', label: 'layer', options: [], value: s.heatLayer, onChange: (heatLayer) => update({ heatLayer }) });
    this.heatHead = selectControl({ key: 'heatHead', label: 'head', options: [], value: s.heatHead, onChange: (heatHead) => update({ heatHead }) });
    this.heatmaps = new Map();
    this.heatmapGrid = h('div', { class: 'chart-grid heatmaps' });
    this.exportButtons = h('div', { class: 'buttons', attrs: { 'data-key': 'export', role: 'group', 'aria-label': 'export' } }, [
      button({ text: 'Export CSV', onClick: () => this._exportCsv() }),
      button({ text: 'Export JSON', onClick: () => this._exportJson() }),
    ]);
    this.results = h('div', { class: 'results' }, [
      this.problem,
      this.runTable.element,
      this.answer.element,
      h('div', { class: 'chart-with-controls' }, [this.lossChart.element, this.smooth.element]),
      h('div', { class: 'chart-grid' }, [this.accuracyChart.element, this.entropyChart.element]),
      h('h3', { text: 'Attention on one evaluation example' }),
      h('p', { class: 'hint', text: 'Rows are query positions, columns the keys they attend to (first seed of each variant). '
        + 'A model that copies attends from each position of the copy to the symbol it must output next: the cells just above the dotted line.' }),
      h('div', { class: 'inline-controls' }, [this.heatLayer.element, this.heatHead.element]),
      this.heatmapGrid,
      this.exportButtons,
    ]);
    this._syncHeatSelects(s);
  }

  _addPng(chart, name) {
    chart.addTool(button({ text: 'PNG', class: 'chip', ariaLabel: `Download ${name} chart as PNG`,
      onClick: () => chart.toPng().then((blob) => downloadBlob(blob, `sqrtdk-${name}.png`)) }));
  }

  _syncHeatSelects(s) {
    const options = (n) => Array.from({ length: n }, (_, i) => ({ value: i + 1, text: String(i + 1) }));
    this.heatLayer.setOptions(options(s.layers));
    this.heatHead.setOptions(options(s.heads));
    this.heatLayer.set(s.heatLayer);
    this.heatHead.set(s.heatHead);
  }

  // ---- state ----------------------------------------------------------------------------------

  _onState(state, changed) {
    for (const key of changed) {
      const control = this.c[key] ?? { logY: this.logY, smooth: this.smooth }[key];
      if (control) control.set(state[key]);
    }
    if (changed.includes('dModel')) {
      this.c.heads.setOptions(this._headOptions(state.dModel));
      this.c.heads.set(state.heads);
    }
    if (changed.includes('trainAlpha')) this.c.variants.labels.alpha.textContent = variantLabel('alpha', state.trainAlpha);
    if (changed.some((k) => ['layers', 'heads', 'heatLayer', 'heatHead'].includes(k))) this._syncHeatSelects(state);
    if (changed.includes('logY')) this.lossChart.setLogY(state.logY);
    if (changed.some((k) => TRAIN_KEYS.has(k))) {
      this._applyPlan(state);
      this._requestPrediction(state);
    } else if (changed.includes('steps')) {
      this.exercise.setSteps(state.steps);
    }
    if (changed.some((k) => ['heatLayer', 'heatHead'].includes(k))) this.exercise.setAttentionView(state.heatLayer - 1, state.heatHead - 1);
    this._render();
  }

  _applyPlan(state) {
    this.exercise.setPlan(runPlan(state), state.steps);
    this.exercise.setAttentionView(state.heatLayer - 1, state.heatHead - 1);
    this._rebuildHeatmaps(state);
  }

  _rebuildHeatmaps(state) {
    for (const map of this.heatmaps.values()) map.destroy();
    this.heatmaps = new Map(state.variants.map((v) => {
      const map = new HeatmapChart({ name: `attention-${v}`, title: variantLabel(v, state.trainAlpha), theme: this.theme, variant: v });
      this._addPng(map, `attention-${v}`);
      return [v, map];
    }));
    replaceChildren(this.heatmapGrid, [...this.heatmaps.values()].map((m) => m.element));
  }

  _requestPrediction(state) {
    const configs = state.variants.map((v) => trainConfig(state, v, state.trainSeed));
    this.helper.latest('prediction', { type: 'predictLogitStd', configs }).then((reply) => {
      if (!reply) return;
      const parts = state.variants.map((v, i) => `${variantLabel(v, state.trainAlpha)} ${short(reply.values[i])}`);
      this.c.init.hint.textContent = `predicted logit std at init: ${parts.join(' · ')}`;
      this._showProblem('');
    }, (error) => this._showProblem(error.message.startsWith('This page') ? error.message : `These settings cannot run: ${error.message}`));
  }

  _showProblem(text) {
    this.problem.textContent = text;
    this.problem.hidden = text === '';
  }

  // ---- rendering ------------------------------------------------------------------------------
  // While training, the panel re-renders at most every RENDER_INTERVAL_MS, one part per task (status and
  // answer, loss, accuracy, entropy, heatmaps), so that no single main-thread task is long.  Timers, not
  // requestAnimationFrame: a page that is not being painted (hidden, or headless before its first frame)
  // would otherwise never get its last update.

  _scheduleRender() {
    if (this.renderPending) {
      this.renderAgain = true;
      return;
    }
    this.renderPending = true;
    this.renderAgain = false;
    const wait = Math.max(0, RENDER_INTERVAL_MS - (performance.now() - this.lastRender));
    const parts = this._renderParts();
    const next = (i) => setTimeout(() => {
      try {
        if (this.element.isConnected) parts[i](this._renderContext());
      } finally {
        if (i + 1 < parts.length) {
          next(i + 1);
        } else {
          this.renderPending = false;
          // A change that arrived while the parts were rendering may have missed an earlier part.
          if (this.renderAgain) this._scheduleRender();
        }
      }
    }, i === 0 ? wait : 0);
    this.lastRender = performance.now() + wait;
    next(0);
  }

  /** Everything at once (after a settings change). */
  _render() {
    this.lastRender = performance.now();
    const context = this._renderContext();
    for (const part of this._renderParts()) part(context);
  }

  _renderParts() {
    return [
      (c) => this._renderStatus(c),
      (c) => this._renderLoss(c),
      (c) => this._renderAccuracy(c),
      (c) => this._renderEntropy(c),
      (c) => this._renderHeatmaps(c.state, c.slots),
    ];
  }

  _renderContext() {
    const state = this.store.state;
    const dark = this.theme().dark;
    const slots = this.exercise.slots;
    return {
      state,
      slots,
      runs: slots.map((s) => s.record),
      labelOf: (v) => variantLabel(v, state.trainAlpha),
      colourOf: (v) => variantColour(v, dark),
      band: state.seeds > 1,
    };
  }

  _renderStatus({ state, slots, labelOf, colourOf }) {
    const ex = this.exercise;
    const started = slots.some((s) => s.record.stepsDone > 0);
    const failedAll = slots.length > 0 && slots.every((s) => s.status === 'failed');
    if (failedAll) this._showProblem(`The runs could not start: ${slots[0].error}`);
    const startText = started && ex.canAdvance ? 'Continue' : 'Start';
    if (this.startButton.textContent !== startText) this.startButton.textContent = startText;
    this.startButton.disabled = ex.running || !ex.canAdvance;
    this.pauseButton.disabled = !ex.running;
    this.stepButton.disabled = ex.running || !ex.canAdvance;
    this.resetButton.disabled = !started && !ex.running;
    if (this.element.dataset.running !== String(ex.running)) this.element.dataset.running = String(ex.running);
    this.answerClient.update(slots, state);
    this.runTable.render(slots, state.steps, labelOf, colourOf, this.answerClient.answer);
    this.answer.render(this.answerClient.answer, { started, threshold: state.threshold });
  }

  _renderLoss({ state, runs, labelOf, colourOf, band }) {
    const xs = displaySteps(Math.max(0, ...runs.map((r) => r.loss.length)));
    this.lossChart.setGroups(state.variants.map((v) => ({ id: v, label: labelOf(v), colour: colourOf(v), band })));
    const key = `${runs.map((r) => r.loss.length)}|${state.smooth}|${state.variants}`;
    if (key === this.lossKey && xs.length > 0) return;
    this.lossKey = key;
    const loss = {};
    for (const v of state.variants) {
      loss[v] = seedBand(runs.filter((r) => r.variant === v).map((r) => smoothForDisplay(r.loss.view, state.smooth)), xs);
    }
    this.lossChart.setData(xs, loss);
  }

  _renderAccuracy({ state, runs, labelOf, colourOf, band }) {
    const evalSteps = [...new Set(runs.flatMap((r) => r.evals.map((e) => e.step)))].sort((a, b) => a - b);
    this.accuracyChart.setGroups(state.variants.map((v) => ({ id: v, label: labelOf(v), colour: colourOf(v), band })));
    const key = `${runs.map((r) => r.evals.length)}|${state.variants}`;
    if (key === this.accuracyKey) return;
    this.accuracyKey = key;
    const accuracy = {};
    for (const v of state.variants) {
      const curves = runs.filter((r) => r.variant === v).map((r) => {
        const byStep = new Map(r.evals.map((e) => [e.step, e.sequenceAccuracy]));
        return evalSteps.map((step) => (byStep.has(step) ? byStep.get(step) : NaN));
      });
      accuracy[v] = seedBand(curves, evalSteps, (_, j) => j);
    }
    this.accuracyChart.setData(evalSteps, accuracy);
  }

  _renderEntropy({ state, runs, labelOf, colourOf }) {
    const xs = displaySteps(Math.max(0, ...runs.map((r) => r.loss.length)));
    const layers = state.layers;
    const groups = [];
    const entropy = {};
    for (const v of state.variants) {
      const mine = runs.filter((r) => r.variant === v && r.layers === layers);
      for (let l = 0; l < layers; l += 1) {
        const id = `${v}-l${l}`;
        groups.push({ id, label: `${labelOf(v)} · layer ${l + 1}`, colour: colourOf(v), dash: LAYER_DASHES[l % LAYER_DASHES.length] });
        entropy[id] = { median: seedBand(mine.map((r) => smoothForDisplay(r.entropyByLayer[l].view, state.smooth)), xs).median };
      }
    }
    this.entropyChart.setGroups(groups);
    const key = `${runs.map((r) => r.loss.length)}|${state.smooth}|${state.variants}|${layers}`;
    if (key === this.entropyKey && xs.length > 0) return;
    this.entropyKey = key;
    this.entropyChart.setData(xs, entropy);
  }

  _renderHeatmaps(state, slots) {
    for (const [variant, map] of this.heatmaps) {
      const slot = slots.find((s) => s.record.variant === variant);
      const a = slot?.attention;
      if (!a) {
        if (map.shownStep !== 0) map.setData(null, state.copyLength, '');
        map.shownStep = 0;
        continue;
      }
      const key = `${a.step}-${a.layer}-${a.head}`;
      if (map.shownKey === key) continue;
      map.shownKey = key;
      map.shownStep = a.step;
      map.setData(a, state.copyLength, `step ${a.step} · layer ${a.layer + 1} · head ${a.head + 1} · seed ${slot.record.seed}`);
    }
  }

  // ---- export ---------------------------------------------------------------------------------

  _exportCsv() {
    downloadText(curvesToCsv(this.exercise.runs), 'sqrtdk-curves.csv', 'text/csv');
  }

  _exportJson() {
    const json = curvesToJson({ settings: { ...this.store.state }, runs: this.exercise.runs, answer: this.answerClient.answer,
      generator: 'sqrtdk lab (web)' });
    downloadText(`${JSON.stringify(json, null, 1)}\n`, 'sqrtdk-curves.json', 'application/json');
  }
}
