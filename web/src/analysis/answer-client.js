// The exercise's answer, computed by the core's one analysis (lab.compare, src/core/answer/analysis.hpp) in the
// helper worker from the runs as they are now.  The page computes nothing of it: it sends the curves and
// shows the structured result (sentences, table cells, definitions) as it comes back, its texts rendered
// in the element's language from the core's messages (localize-answer.js).
// Requests are "latest wins" (helper-worker.js), so while runs train the answer follows them without
// queueing, and the main thread only copies the curves.  One request per change of the runs or settings: the
// answer box and the element's sqrtdk-answer event (api/lab-events.js, through onEachAnswer) read the same answer.

import { localizeAnswer } from './localize-answer.js';

const STOPPED = new Set(['done', 'diverged', 'failed']);
// The whole-model curves the core's mechanism readings take (src/wasm/analysis_bindings.cpp, runs[].mechanism),
// and the Jacobian norm and the top weight per layer.
const MECHANISM_CURVES = Object.freeze(['qkGradNorm', 'qkUpdateNorm', 'logitSpread']);

// The helper computes the answer on a core the training workers need too, and its cost grows with all the runs'
// curves (runs x steps: 20-130 ms for 40 runs).  An answer that took over SLOW_ANSWER_MS is asked for again only
// after GAP_FACTOR times that (the helper then computes at most a quarter of the time); a cheaper one follows every
// change, and a new plan or a reset is asked for at once.
const SLOW_ANSWER_MS = 50;
const GAP_FACTOR = 4;

/** The settings the answer is computed with (besides the runs' curves): a change means a new answer. */
export const ANSWER_SETTINGS = Object.freeze(['variants', 'trainAlpha', 'threshold', 'steps']);

/**
 * The lab.compare request for the runs of an exercise, the variants in the order of `variants` (the first is
 * the reference).  Pure.
 * @param {{record: import('../training/run-record.js').RunRecord, status: string}[]} slots
 * @param {{variants: string[], trainAlpha: number, threshold: number, steps: number}} settings
 */
export function compareRequest(slots, { variants, trainAlpha, threshold, steps }) {
  // The mechanism readings need the runs' configuration (optimizer, lr, d_k, sequence length: the core's, once a
  // worker has built a run) and each run's whole-model mechanism curves.
  const config = slots.find((s) => s.record.coreConfig)?.record.coreConfig;
  return {
    threshold,
    steps,
    messages: true,  // the texts as messages too, to render them in the element's language
    ...(config ? { mechanism: { config } } : {}),
    variants: variants.map((variant) => ({
      name: variant,
      scale: variant,
      ...(variant === 'alpha' ? { alpha: trainAlpha } : {}),
      runs: slots.filter((s) => s.record.variant === variant).map(({ record, status }) => ({
        seed: record.seed,
        loss: record.loss.view.slice(),  // exactly the filled part (a view would clone its whole buffer)
        ...(config ? { mechanism: { ...Object.fromEntries(MECHANISM_CURVES.map((key) => [key, record[key].view.slice()])),
          jacobianNormByLayer: record.jacobianNormByLayer.map((c) => c.view.slice()),
          topWeightByLayer: record.topWeightByLayer.map((c) => c.view.slice()) } } : {}),
        sequenceAccuracy: Number.isFinite(record.sequenceAccuracy) ? record.sequenceAccuracy : null,
        divergedStep: record.divergedStep,
        stopped: STOPPED.has(status),
      })),
    })).filter((v) => v.runs.length > 0),
  };
}

/**
 * Whether `answer` already knows the outcome of the run `record` (its steps to threshold, or that it stopped):
 * the scheduler trains the others first.  Pure.
 */
export function runSettled(answer, record) {
  const run = answer?.variants.find((v) => v.name === record.variant)?.runs.find((r) => r.seed === record.seed);
  return Boolean(run && (run.stopped || run.stepsToThreshold !== null));
}

/** What the answer is about (the plan), and what it was computed from (the curves so far). */
function keys(slots, settings) {
  const plan = JSON.stringify([...ANSWER_SETTINGS.map((key) => settings[key]), slots.map((s) => s.record.id)]);
  const data = slots.map((s) => `${s.record.loss.length}:${STOPPED.has(s.status)}:${s.record.sequenceAccuracy}`).join('|');
  return { plan, data };
}

export class AnswerClient {
  /**
   * @param {import('../worker/helper-worker.js').HelperWorker} helper
   * @param {{onAnswer: (answer: object) => void, onError: (error: Error) => void}} callbacks
   */
  constructor(helper, { onAnswer, onError }) {
    this.helper = helper;
    this.onAnswer = onAnswer;
    this.onError = onError;
    this.key = '';
    this.plan = '';
    this.generation = 0;  // counts restarts of the same plan (a curve got shorter: the runs were reset)
    this.lengths = [];
    this.result = null;   // the latest answer for the current plan (lab.compare's, with messages), or null
    this.lang = 'en';
    this.shown = null;    // {result, lang, answer}: the last localized answer
    this.version = 0;     // counts the answers received, so that views can say which one they show
    this.pending = false; // a request is on its way (or waits for the helper's gap)
    this.sentAt = 0;      // when the latest request was sent, and how long the latest answered one took
    this.computeMs = 0;
    this.later = null;    // {timer} of a request held back by the gap
    this.listeners = new Set();
  }

  /** Also call `listener` with each answer received (in the element's language). @returns {() => void} unsubscribe */
  onEachAnswer(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The latest answer for the current plan in the element's language (null before the first). */
  get answer() {
    if (!this.result) return null;
    if (this.shown?.result !== this.result || this.shown.lang !== this.lang) {
      this.shown = { result: this.result, lang: this.lang, answer: localizeAnswer(this.result, this.lang) };
    }
    return this.shown.answer;
  }

  /** Ask for the answer if the runs or settings changed since the last request.  lang: the element's. */
  update(slots, settings, lang = 'en') {
    this.lang = lang;
    const keyed = keys(slots, settings);
    const lengths = slots.map((s) => s.record.loss.length);
    if (keyed.plan === this.basePlan && lengths.some((n, i) => n < this.lengths[i])) this.generation += 1;
    this.basePlan = keyed.plan;
    this.lengths = lengths;
    const plan = `${this.generation}|${keyed.plan}`;
    const data = `${plan}|${keyed.data}`;
    if (data === this.key) return;
    if (this.later) clearTimeout(this.later.timer);
    this.later = null;
    const wait = plan === this.plan && this.computeMs > SLOW_ANSWER_MS ? this.sentAt + GAP_FACTOR * this.computeMs - performance.now() : 0;
    if (wait > 0) {
      this.pending = true;
      this.later = { timer: setTimeout(() => { this.later = null; this.update(slots, settings, lang); }, wait) };
      return;
    }
    this.key = data;
    if (plan !== this.plan) this.result = null;
    this.plan = plan;
    const request = compareRequest(slots, settings);
    if (request.variants.length === 0) return;
    this.pending = true;
    const sent = this.key;
    const sentAt = performance.now();
    this.sentAt = sentAt;
    const records = slots.map((s) => s.record);
    this.helper.latest('answer', { type: 'compare', request }).then((reply) => {
      // null: a newer request replaced this one.  An answer for other settings is dropped, and so is one for
      // runs reset since (a curve shorter now than it was sent: the next update asks again); one for the same
      // runs a little shorter is shown (a newer one follows).
      if (reply) this.computeMs = performance.now() - sentAt;
      if (sent === this.key && !this.later) this.pending = false;
      if (!reply || plan !== this.plan || records.some((r, i) => r.loss.length < lengths[i])) return;
      this.result = reply.result;
      this.version += 1;
      const answer = this.answer;
      this.onAnswer(answer);
      for (const listener of this.listeners) listener(answer);
    }, (error) => {
      if (sent === this.key && !this.later) this.pending = false;
      this.onError(error);
    });
  }
}
