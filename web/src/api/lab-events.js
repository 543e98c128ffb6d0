// The events a <sqrtdk-lab> dispatches for the page around it (all bubble and cross shadow roots):
//
//   sqrtdk-ready     the WebAssembly core answered its first request      {panels, settings}
//   sqrtdk-progress  training advanced (at most every 250 ms, and last)   {stepsDone, stepsPlanned, runs, runsFinished, running}
//   sqrtdk-answer    the answer is ready (every run reached the threshold or stopped), and again when every
//                    run has finished (final: true)                       the comparison (answer-detail.js)
//   sqrtdk-diverged  a run diverged                                       {variant, seed, step}
//   sqrtdk-error     something failed                                     {kind, message, recoverable, variant?, seed?}
//
// Everything is read from the exercise's runs as they are: each change of the runs is compared with what was
// last announced.  The answer is the one the answer box shows (the exercise's AnswerClient): the element asks the
// core once per change of the runs.  Details are plain data, so they survive postMessage.

import { comparisonDetail } from './answer-detail.js';
import { ANSWER_SETTINGS } from '../analysis/answer-client.js';
import { settingsCopy } from './settings.js';
import { STRINGS } from '../ui/strings.js';
import { whole } from '../ui/format.js';
import { variantLabel } from '../analysis/localize-answer.js';

export const EVENT_NAMES = Object.freeze(['sqrtdk-ready', 'sqrtdk-progress', 'sqrtdk-answer', 'sqrtdk-diverged', 'sqrtdk-error']);

const PROGRESS_INTERVAL_MS = 250;
const FINISHED = new Set(['done', 'diverged', 'failed']);

export class LabEvents {
  /** @param {HTMLElement} host  @param {{state: object}} store  @param {string} lang how messages write numbers */
  constructor(host, store, lang = 'en') {
    this.host = host;
    this.lang = lang;
    this.store = store;
    this.result = null;
    this.destroyed = false;
    this.exercise = null;
    this.unsubscribe = () => {};
    this.timer = 0;
    this.lastTick = 0;
    // A setting the answer is computed with (e.g. the threshold) changed: the answer box is recomputed, and so
    // is the published answer, announced again.
    this.unsubscribeStore = store.subscribe((state, changed) => {
      if (this.exercise && changed.some((key) => ANSWER_SETTINGS.includes(key))) {
        this._invalidate();
        this._changed();
      }
    });
  }

  /** @param {string} name one of EVENT_NAMES  @param {object} detail */
  emit(name, detail) {
    if (this.destroyed) return;
    this.host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** @param {string} kind 'wasm' | 'helper' | 'worker' | 'run' | 'message'  @param {string} message  @param {object} extra */
  error(kind, message, { recoverable = false, ...extra } = {}) {
    this.emit('sqrtdk-error', { kind, message, recoverable, ...extra });
  }

  /** Announce readiness once `probe` (a first request to the core) resolves; report a core that cannot start. */
  whenReady(probe) {
    probe.then(() => {
      const state = this.store.state;
      this.emit('sqrtdk-ready', { panels: [...state.panels], settings: settingsCopy(state) });
    }, (error) => this.error('wasm', STRINGS.wasmFailed(error.message)));
  }

  /**
   * Follow an exercise's runs and their answers (the training panel's).
   * @param {import('../training/exercise.js').Exercise} exercise
   * @param {import('../analysis/answer-client.js').AnswerClient} answers
   */
  watch(exercise, answers) {
    this.unsubscribe();
    this.exercise = exercise;
    this.seen = new WeakMap();
    this.stepsSeen = new WeakMap();
    this.announced = { ready: false, final: false, progress: '' };
    const unsubscribeRuns = exercise.subscribe(() => this._changed());
    const unsubscribeAnswers = answers.onEachAnswer((answer) => this._answered(answer));
    this.unsubscribe = () => {
      unsubscribeRuns();
      unsubscribeAnswers();
    };
  }

  destroy() {
    this.destroyed = true;
    this.unsubscribe();
    this.unsubscribeStore();
    clearTimeout(this.timer);
  }

  /** Every change: divergence, failures and a cleared result at once; progress throttled. */
  _changed() {
    const state = this.store.state;
    const slots = this.exercise.slots;
    for (const slot of slots) this._checkRun(slot, state);
    // New runs, or runs cleared by a reset: the last answer no longer describes what the page shows.
    const fresh = slots.some((s) => !(this.stepsSeen.get(s.record) <= s.record.stepsDone));
    for (const s of slots) this.stepsSeen.set(s.record, s.record.stepsDone);
    if (fresh) this._invalidate();
    if (this.timer) return;
    const wait = Math.max(0, PROGRESS_INTERVAL_MS - (performance.now() - this.lastTick));
    this.timer = setTimeout(() => {
      this.timer = 0;
      this._tick();
      this.lastTick = performance.now();  // after the tick: the next event is at least the interval after this one
    }, wait);
  }

  /** What happened to one run since it was last seen (its record is cleared on reset, replaced on a new plan). */
  _checkRun(slot, state) {
    const { record } = slot;
    const seen = this.seen.get(record) ?? { diverged: false, failures: 0, failed: false };
    const where = { variant: record.variant, seed: record.seed };
    const label = STRINGS.runName(variantLabel(record.variant, state.trainAlpha, this.lang), whole(record.seed, this.lang));
    if (record.diverged && !seen.diverged) this.emit('sqrtdk-diverged', { ...where, step: record.divergedStep });
    if (slot.failures > seen.failures && slot.status !== 'failed') {
      const step = whole(record.stepsDone, this.lang);
      this.error('worker', STRINGS.workerReplaced(label, step), { recoverable: true, ...where });
    }
    if (slot.status === 'failed' && !seen.failed) this.error('run', STRINGS.runFailed(label, slot.error), where);
    this.seen.set(record, { diverged: record.diverged, failures: slot.failures, failed: slot.status === 'failed' });
  }

  _tick() {
    if (this.destroyed || !this.exercise) return;
    const slots = this.exercise.slots;
    const progress = {
      stepsDone: slots.reduce((sum, s) => sum + s.record.stepsDone, 0),
      stepsPlanned: slots.length * this.exercise.steps,
      runs: slots.length,
      runsFinished: slots.filter((s) => FINISHED.has(s.status)).length,
      running: this.exercise.running,
    };
    const key = JSON.stringify(progress);
    if (key !== this.announced.progress) {
      this.announced.progress = key;
      this.emit('sqrtdk-progress', progress);
    }
  }

  /** An answer for the runs as they are (the answer client drops those for other settings or reset runs). */
  _answered(answer) {
    if (this.destroyed || !this.exercise || !this.exercise.slots.some((s) => s.record.stepsDone > 0)) return;
    this._announce(comparisonDetail(answer, this.store.state));
  }

  /** The published answer no longer holds: null now, and the next one is announced as new. */
  _invalidate() {
    this.result = null;
    this.announced.ready = false;
    this.announced.final = false;
  }

  /** sqrtdk-answer on each rising edge of "ready" and of "final". */
  _announce(detail) {
    const { announced } = this;
    const rises = (detail.ready && !announced.ready) || (detail.final && !announced.final);
    announced.ready = detail.ready;
    announced.final = detail.final;
    if (!detail.ready) return;
    this.result = detail;
    if (rises) this.emit('sqrtdk-answer', detail);
  }
}
