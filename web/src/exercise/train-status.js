// What the exercise's status says: one line about what the runs are doing, and a screen reader's announcements
// of it (each phase and the ready answer, once each).  The status line and the answer box change with every
// tick; the announcer speaks only when the phase changes or the answer first becomes ready.

import { h } from '../ui/dom.js';
import { count, whole } from '../ui/format.js';
import { runSettled } from '../analysis/answer-client.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.train;
const FINISHED = ['done', 'diverged', 'failed'];

/**
 * The status line of `slots` trained to `steps` (e.g. loading the model in the workers after a first Step).
 * While the runs are at different steps (the open ones go first: exercise.js), it counts the steps of all runs.
 * @param {object|null} answer the current answer (a run it has settled waits for the others)
 * @returns {{phase: string, text: string}} phase: 'loading', 'memory', 'training', 'finished', 'paused' or ''
 */
export function statusLine(slots, steps, answer, lang) {
  const howMany = (status) => slots.filter((s) => s.status === status).length;
  const w = (x) => whole(x, lang);
  const done = slots.map((s) => Math.min(s.record.stepsDone, steps));
  const together = done.every((d) => d === done[0]);
  const total = count(done.reduce((a, b) => a + b, 0), lang);
  const planned = count(slots.length * steps, lang);
  const waiting = slots.some((s) => s.status === 'training' && runSettled(answer, s.record));
  if (howMany('loading') > 0) return { phase: 'loading', text: T.loading(lang, howMany('loading'), w(howMany('loading'))) };
  if (howMany('memory') > 0 && howMany('training') === 0) {
    return { phase: 'memory', text: T.waitingForMemory(lang, howMany('memory'), w(howMany('memory'))) };
  }
  if (howMany('training') > 0) {
    return { phase: 'training', text: together ? T.training(w(done[0]), w(steps)) : T.trainingAll(total, planned, waiting) };
  }
  if (slots.length && slots.every((s) => FINISHED.includes(s.status))) return { phase: 'finished', text: T.finished(w(steps)) };
  if (howMany('paused') > 0) {
    return { phase: 'paused', text: together ? T.paused(w(done[0]), w(steps)) : T.pausedAll(total, planned) };
  }
  return { phase: '', text: '' };
}

/** A visually hidden live region that announces each new phase and a newly ready answer, each once. */
export class Announcer {
  constructor() {
    this.element = h('p', { class: 'visually-hidden', attrs: { role: 'status', 'aria-atomic': 'true', 'data-announcer': '' } });
    this.phase = '';
    this.answer = false;
  }

  /** @param {string} phase  @param {string} statusText the status line's words  @param {object|null} readyAnswer */
  announce(phase, statusText, readyAnswer) {
    const parts = [];
    if (phase !== this.phase) {
      this.phase = phase;
      if (phase) parts.push(statusText);
    }
    if (readyAnswer && !this.answer) parts.push(STRINGS.answerBox.announce(readyAnswer.sentences));
    this.answer = Boolean(readyAnswer);
    if (parts.length) this.element.textContent = parts.join(' ');
  }
}
