// The exercise panel: a tiny Transformer learns the copy task with each attention variant and several seeds,
// the runs sharing a pool of workers (one per core); live curves (median and band over seeds), attention
// heatmaps, and the answer box with the measured steps to the loss threshold.  This file wires the parts
// together: the controls (train-controls.js), the charts (train-charts.js), the runs (training/exercise.js), a
// change held until Start (pending-change.js), the status (train-status.js), the answer (answer-client.js).

import { h, setText } from '../ui/dom.js';
import { button } from '../ui/controls.js';
import { variantColour } from '../ui/palette.js';
import { variantLabel } from '../analysis/localize-answer.js';
import { ThrottledRenderer } from '../ui/throttled-renderer.js';
import { pageFrames } from '../ui/frame-scheduler.js';
import { watchOnScreen } from '../ui/on-screen.js';
import { AnswerClient, runSettled } from '../analysis/answer-client.js';
import { Announcer, statusLine } from './train-status.js';
import { AnswerView } from './answer-view.js';
import { MoreSeeds } from './more-seeds.js';
import { RunTable } from './run-table.js';
import { TrainControls } from './train-controls.js';
import { TrainCharts } from './train-charts.js';
import { entropyAtStart, startNote } from './train-notes.js';
import { ScenariosView } from './scenarios-view.js';
import { Exercise } from '../training/exercise.js';
import { runPlan, trainConfig } from '../training/run-plan.js';
import { PendingChange } from './pending-change.js';
import { RunSizing } from './run-sizing.js';
import { exportText } from '../export/curves-export.js';
import { TORCH_FILES, torchExportRequest } from '../export/torch-export.js';
import { downloadText } from '../export/download.js';
import { PROPERTIES } from '../state/properties.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.train;

// The status (buttons, the runs' table) follows the runs closely, on timers: it asks for the answer, which
// decides which runs train first, also while the panel is off screen or the tab hidden.  The charts, which cost
// most of the main thread's time while training (and take it from the workers on a machine with few cores), once
// a second, in the page's animation frames, and only while the panel is on screen.
const STATUS_INTERVAL_MS = 200;
const CHART_INTERVAL_MS = 1000;
const PHONE_WIDTH = 640;
// The glossary's entries for the terms this panel uses (src/core/answer/glossary.cpp has them all).
const EXERCISE_TERMS = ['model_size', 'copy_task', 'loss', 'accuracy', 'smoothed_loss', 'steps_to_threshold', 'stall',
  'final_level', 'clear_difference', 'qk_gradient', 'logit_spread', 'jacobian_norm', 'top_weight', 'saturated', 'adam',
  'sgd', 'learning_rate', 'init', 'logit_std', 'qk_norm', 'reference', 'seed', 'worker'];
const TRAIN_KEYS = new Set(PROPERTIES.filter((p) => p.group === 'train').map((p) => p.key));

/**
 * A button that had the focus and is now disabled (Start once the runs go, Pause once they stop) would drop it to
 * the page's body: hand it to the first enabled button of the row instead, so the keyboard stays there.
 */
function keepFocus(focused, buttons) {
  if (!buttons.includes(focused) || !focused.disabled) return;
  buttons.find((b) => !b.disabled)?.focus();
}

export class TrainPanel {
  /**
   * @param {{store, helper, theme: () => object, notify: (text: string) => void, createClient, concurrency: number,
   *          lang: string, pool?: import('../worker/worker-pool.js').WorkerPool,
   *          glossary?: import('../lesson/glossary.js').Glossary}} deps  lang: how numbers are
   *   written (the element's); pool: the page's run workers (memory budget, turns); glossary: where the terms link
   */
  constructor({ store, helper, theme, notify, createClient, concurrency, lang = 'en', pool = null, glossary = null }) {
    this.store = store;
    this.pool = pool;
    this.lang = lang;
    this.helper = helper;
    this.theme = theme;
    this.notify = notify;
    this.glossary = glossary;
    // The answer is the core's (lab.compare in the helper worker); a new one is in the answer box at once, in
    // the task that received it (the task that also makes it the element's `result`), and re-renders the status
    // and the charts (the loss chart's guides and the mechanism notes read it).
    this.answerClient = new AnswerClient(helper, {
      onAnswer: () => {
        this._renderAnswer(this._renderContext());
        this.renderer.schedule();
      },
      onError: (error) => this._showProblem(T.answerFailed(error.message)),
    });
    this._buildRuns(createClient, concurrency);
    this.renderer = this._buildRenderers();
    // The buttons are disabled while a run cannot fit; a click that still arrives does nothing.
    const unlessRefused = (action) => () => { if (!this.refusal()) action(); };
    this.controls = new TrainControls({ store, lang, actions: {
      start: unlessRefused(() => this.start()), pause: () => this.pause(), step: unlessRefused(() => this._stepOnce()),
      reset: () => this.reset() } });
    if (glossary) {  // the terms a setting's label or hint uses, one click from where the learner meets them
      for (const [key, term] of [['init', 'init'], ['trainAlpha', 'alpha'], ['lr', 'learning_rate'], ['seeds', 'seed']]) {
        glossary.labelLink(this.controls.c[key], term);
      }
      this.controls.c.init.hint.append(' ', glossary.link('logit_std'));
    }
    this.charts = new TrainCharts({ store, theme, lang, glossary });
    // A preset's Run is the learner's explicit request: its settings' runs start (a held change is applied, so runs
    // of other settings are cleared; the preset's own button is the path that asks first).
    this.scenarios = new ScenariosView({ store, notify, lang, run: () => {
      if (this.pendingChange.active) this._applyPending();
      if (!this.refusal()) this.start();
    } });
    this._buildResults();
    // On a phone the settings start folded, so that Start, the answer and the loss chart share one screen.
    if (typeof matchMedia === 'function' && matchMedia(`(max-width: ${PHONE_WIDTH}px)`).matches) this.controls.settings.open = false;
    // Found by its heading, not as a named region: two labs on a page (or a lab and its iframe) would repeat the name.
    this.element = h('section', { class: 'panel', attrs: { 'data-panel': 'train' } }, [
      h('h2', { attrs: { id: 'lab-train-title' }, text: T.title }),
      // The lede names the copy task's tokens, the lesson's "plateau", its workers and its count: their entries are one click away.
      h('p', { class: 'lede' }, [T.lede, glossary ? glossary.firstTerms(['copy_task', 'stall', 'worker', 'steps_to_threshold']) : '']),
      h('div', { class: 'panel-body train-body' }, [h('div', { class: 'train-side' }, [this.controls.bar, this.pendingChange.element, this.controls.settings]), this.results]),
      glossary && glossary.termButtons(EXERCISE_TERMS),
    ]);
    this.onScreen = watchOnScreen(this.element, () => this.chartRenderer.resume());
    this.unsubscribe = store.subscribe((state, changed, origin) => this._onState(state, changed, origin));
    // The page's budget changed: if a run of these settings can no longer fit, training pauses (curves kept) and the
    // panel shows the refusal until the budget or the settings change.
    this.unsubscribeBudget = pool ? pool.onBudget(() => {
      if (this.exercise.running && this.refusal()) this.exercise.pause();
      this.renderer.now();
    }) : () => {};
    this._applyPlan(store.state);
    this._requestPrediction(store.state);
    helper.latest('scenarios', { type: 'scenarios' }).then((reply) => {
      if (reply) this.scenarios.setScenarios(reply.list);
    }, () => {});
  }

  /** The runs (exercise.js), whether they fit before Start (run-sizing.js), and a change held until Start. */
  _buildRuns(createClient, concurrency) {
    const { helper, pool } = this;
    this.sizing = new RunSizing({ helper, pool, planKey: () => this.exercise.planKey, onChange: () => this.renderer.now() });
    this.exercise = new Exercise({ createClient, concurrency, onChange: () => this.renderer.schedule(), onNotice: this.notify,
      settled: (record) => runSettled(this.answerClient.answer, record),
      estimate: (config) => this.sizing.estimate(config),
      onRefused: (error) => {
        this.sizing.refused(error);
        this.renderer.now();
      },
      onCapacity: pool ? (listener) => pool.onCapacity(listener) : undefined });
    this.pendingChange = new PendingChange({ exercise: this.exercise, lang: this.lang,
      apply: (state) => this._applyPlan(state), onApplyNow: () => this._applyPending() });
  }

  /** Two throttled renderers, the status' and the charts'; schedule() and now() drive both. */
  _buildRenderers() {
    const alive = () => this.element.isConnected;
    const context = () => this._renderContext();
    this.statusRenderer = new ThrottledRenderer({ intervalMs: STATUS_INTERVAL_MS, alive, context, parts: () => [(c) => this._renderStatus(c)] });
    // After the charts, the panel records how many steps (all runs) they show and which answer they drew:
    // data-drawn-steps (next to the run table's data-steps-done) and data-drawn-answer (next to the status'
    // data-answer-version, with data-answer-pending 'false') say when the charts have caught up (what tests
    // wait for).
    // Each part draws the state of its own moment, so what a pass has drawn is at least the state at the pass's
    // start: that is what the panel records at its end (a steps count or an answer that came mid-pass was not
    // drawn by the parts before it; the pass it schedules records it).
    let passStart = null;
    const started = ({ slots }) => {
      passStart = { steps: slots.reduce((sum, s) => sum + s.record.stepsDone, 0), answer: this.answerClient.version };
    };
    const drawn = () => {
      if (!this.element || !passStart) return;
      this.element.dataset.drawnSteps = String(passStart.steps);
      this.element.dataset.drawnAnswer = String(passStart.answer);
    };
    // Created before this.element: shown() is first asked after the constructor.
    this.onScreen = null;
    this.chartRenderer = new ThrottledRenderer({ intervalMs: CHART_INTERVAL_MS, alive, context, frames: pageFrames,
      shown: () => Boolean(this.onScreen?.shown()), parts: () => [started, ...this.charts.parts(), drawn] });
    return {
      schedule: () => { this.statusRenderer.schedule(); this.chartRenderer.schedule(); },
      now: () => { this.statusRenderer.now(); this.chartRenderer.now(); },
    };
  }

  destroy() {
    this.onScreen.disconnect();
    this.unsubscribe();
    this.unsubscribeBudget();
    this.exercise.dispose();
    this.charts.destroy();
  }

  refreshTheme() {
    for (const chart of this.charts.all()) chart.refreshTheme();
    this.charts.invalidate();
    this.renderer.now();
  }

  _buildResults() {
    // A run's seed (in the run table, or a seed the answer names) shows that seed in the attention charts and
    // maps, and takes the learner to them.
    const showSeed = (seed) => {
      this.store.update({ seedShown: seed });
      this.charts.seedShown.select.focus();
    };
    this.runTable = new RunTable(this.lang, showSeed);
    this.answer = new AnswerView(this.lang, showSeed, this.glossary);
    this.moreSeeds = new MoreSeeds({ lang: this.lang, onRun: (seeds) => this._runMoreSeeds(seeds) });
    this.problem = h('p', { class: 'problem', attrs: { role: 'alert' } });
    this.problem.hidden = true;
    this.startNote = h('p', { class: 'takeaway', attrs: { 'data-note': 'start', 'aria-live': 'polite' } });
    // What a screen reader hears while the runs train (train-status.js).
    this.announcer = new Announcer();
    this.exportButtons = h('div', { class: 'buttons', attrs: { 'data-key': 'export', role: 'group', 'aria-label': T.export } }, [
      button({ text: T.exportCsv, onClick: () => this._export('csv') }),
      button({ text: T.exportJson, onClick: () => this._export('json') }),
      button({ text: T.exportNotebook, title: T.exportTorchTitle, onClick: () => this._exportTorch('notebook') }),
      button({ text: T.exportScript, title: T.exportTorchTitle, onClick: () => this._exportTorch('script') }),
    ]);
    this.results = h('div', { class: 'results' }, [
      this.problem,
      this.runTable.element,
      this.answer.element,
      this.moreSeeds.element,
      this.charts.lossBlock,
      this.charts.seedShown.element,
      this.charts.mechanismBlock,
      this.charts.whyBox,
      this.charts.curveGrid,
      this.startNote,
      ...this.charts.heatmapBlock,
      this.exportButtons,
      // The presets after every chart of the run, so that the run's charts read together.
      this.scenarios.element,
      this.announcer.element,
    ]);
  }

  // ---- actions (the buttons, and the element's start/pause/reset) -------------------------------

  /** Why the runs cannot start ('' when they can): the core refuses the settings, or one run cannot fit. */
  refusal() { return this.pendingChange.active ? '' : this.sizing.refusal(); }

  /** @throws {Error} the one line saying why, when a run of these settings cannot fit (nothing changes) */
  start() {
    const refusal = this.refusal();
    if (refusal) throw new Error(refusal);
    if (this.pendingChange.active) this._applyPending();
    this.exercise.start();
  }

  pause() { return this.exercise.pause(); }

  _stepOnce() {
    if (this.pendingChange.active) this._applyPending();
    this.exercise.stepOnce();
  }

  reset() {
    if (this.pendingChange.active) this._applyPending();
    else this.exercise.reset();
  }

  /** More seeds: the plan keeps every finished run (exercise.setPlan), so only the new seeds train. */
  _runMoreSeeds(seeds) {
    this.store.update({ seeds });
    this.start();
  }

  _applyPending() {
    this.pendingChange.applyNow(this.store.state);
    this.renderer.now();
  }

  // ---- state ------------------------------------------------------------------------------------

  _onState(state, changed, origin) {
    this.controls.show(state, changed);
    this.charts.show(state, changed);
    this.scenarios.show(state);
    if (changed.some((k) => TRAIN_KEYS.has(k))) {
      this._requestPrediction(state);
      this.pendingChange.change(state, origin);
    }
    // The runs shown keep their steps while a change is held (its Start trains the new settings for the new steps).
    if (!this.pendingChange.active) this.exercise.setSteps(state.steps);
    if (changed.some((k) => ['heatLayer', 'heatHead', 'seedShown'].includes(k))) this._setAttentionView(state);
    this.renderer.now();
  }

  _setAttentionView(state) { this.exercise.setAttentionView(state.heatLayer - 1, state.heatHead - 1, state.seedShown); }

  _applyPlan(state) {
    const plan = runPlan(state);
    this.exercise.setPlan(plan, state.steps);
    this.sizing.check(plan);
    this._setAttentionView(state);
    this.charts.rebuildHeatmaps(state, (v) => variantLabel(v, state.trainAlpha, this.lang));
    this.charts.invalidate();
  }

  _requestPrediction(state) {
    const configs = state.variants.map((v) => trainConfig(state, v, state.trainSeed));
    // A refused configuration shows the same line as the sizing check's refusal (run-sizing.js), whichever of the
    // two answers last.
    this.helper.latest('prediction', { type: 'predictLogitStd', configs }).then((reply) => {
      if (!reply) return;
      this.prediction = { key: JSON.stringify(configs), values: reply.values };
      this.controls.showPrediction(state, reply.values);
      this.renderer.schedule();
      this._showProblem('');
    }, (error) => this._showProblem(error.message.startsWith('This page') ? error.message : STRINGS.configRefused(error.message)));
  }

  _showProblem(text) {
    this.problem.textContent = text;
    this.problem.hidden = text === '';
  }

  // ---- rendering --------------------------------------------------------------------------------

  /** What every render part reads; while a change is pending, the runs shown are the previous settings'. */
  _renderContext() {
    const current = this.store.state;
    const slots = this.exercise.slots;
    const state = this.pendingChange.shownState(current);
    const dark = this.theme().dark;
    return {
      state,
      slots,
      labelOf: (v) => variantLabel(v, state.trainAlpha, this.lang),
      colourOf: (v) => variantColour(v, dark),
      band: new Set(slots.map((s) => s.record.seed)).size > 1,
      answer: this.answerClient.answer,
    };
  }

  _renderStatus({ state, slots, labelOf, colourOf }) {
    const ex = this.exercise;
    const { start, pause, step, reset } = this.controls;
    const started = slots.some((s) => s.record.stepsDone > 0);
    const failedAll = slots.length > 0 && slots.every((s) => s.status === 'failed');
    if (failedAll) this._showProblem(T.cannotStart(slots[0].error));
    const startText = this.pendingChange.active ? T.startNew : started && ex.canAdvance ? T.continue : STRINGS.trainControls.start;
    setText(start, startText);
    const refusal = this.refusal();
    if (refusal || this.shownRefusal) this._showProblem(refusal);
    this.shownRefusal = refusal;
    const focused = start.getRootNode().activeElement;
    start.disabled = Boolean(refusal) || ex.running || !(ex.canAdvance || this.pendingChange.active);
    pause.disabled = !ex.running;
    step.disabled = Boolean(refusal) || ex.running || !(ex.canAdvance || this.pendingChange.active);
    reset.disabled = !started && !ex.running && !this.pendingChange.active;
    keepFocus(focused, [start, pause, step, reset]);
    if (this.element.dataset.running !== String(ex.running)) this.element.dataset.running = String(ex.running);
    const { phase, text } = statusLine(slots, state.steps, this.answerClient.answer, this.lang);
    setText(this.controls.status, text);
    this.answerClient.update(slots, state, this.lang);
    this.element.dataset.answerVersion = String(this.answerClient.version);
    this.element.dataset.answerPending = String(this.answerClient.pending);
    this.runTable.render(slots, state.steps, labelOf, colourOf, this.answerClient.answer);
    this._renderAnswer({ state, slots });
    this.moreSeeds.render(started ? this.answerClient.answer : null, state.seeds);
    this.announcer.announce(phase, text, started && this.answerClient.answer?.ready ? this.answerClient.answer : null);
    this._renderStartNote(state, slots, labelOf);
  }

  /** The answer box, with the latest answer. */
  _renderAnswer({ state, slots }) {
    const started = slots.some((s) => s.record.stepsDone > 0);
    this.answer.render(this.answerClient.answer, { started, threshold: state.threshold, claim: this.scenarios.claimFor(state) });
  }

  /** The start note's numbers, per variant in the settings' order, or null while no prediction is for them. */
  _start(state, slots) {
    const p = this.prediction;
    const matches = p && !this.pendingChange.active
      && p.key === JSON.stringify(state.variants.map((v) => trainConfig(state, v, state.trainSeed)));
    return matches ? { variants: state.variants, predictedLogitStd: p.values,
      entropyAtStep1: entropyAtStart(slots.map((s) => s.record), state.variants) } : null;
  }

  _renderStartNote(state, slots, labelOf) {
    const start = this._start(state, slots);
    setText(this.startNote, start ? startNote({ variants: start.variants, labelOf, init: state.init, predicted: start.predictedLogitStd,
      entropyAtStart: start.entropyAtStep1, lang: this.lang }) : '');
  }

  // ---- export -----------------------------------------------------------------------------------

  /**
   * What an export holds besides the runs: the settings, the answer, the start note's numbers and the counts of the
   * preset's claim shown beside the answer, so that every number the panel writes is in it.
   */
  exportInput() {
    const state = this.store.state;
    const claim = this.scenarios.claimFor(state);
    return { settings: { ...state }, runs: this.exercise.runs, answer: this.answerClient.answer,
      start: this._start(state, this.exercise.runs.map((record) => ({ record }))),
      claim: claim ? { id: claim.id, counts: claim.counts } : null };
  }

  _export(format) {
    const text = exportText(format, this.exportInput());
    downloadText(text, `sqrtdk-curves.${format}`, format === 'csv' ? 'text/csv' : 'application/json');
  }

  /** The settings on screen (a pending change included) as a PyTorch notebook or script, written by the core. */
  _exportTorch(format) {
    const request = torchExportRequest(this.store.state, format);
    this.helper.latest(`export-${format}`, { type: 'exportTorch', request }).then((reply) => {
      if (reply) downloadText(reply.text, TORCH_FILES[format].filename, TORCH_FILES[format].type);
    }, (error) => this._showProblem(STRINGS.configRefused(error.message)));
  }
}
