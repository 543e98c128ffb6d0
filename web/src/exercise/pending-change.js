// A change of the model or task settings that would discard the runs' progress, held until Start (or "Apply
// now"): meanwhile the runs, curves and answer shown stay the previous settings'.

import { h, setText } from '../ui/dom.js';
import { button } from '../ui/controls.js';
import { runPlan } from '../training/run-plan.js';
import { STRINGS } from '../ui/strings.js';
import { count, whole } from '../ui/format.js';

const T = STRINGS.train;
// Changes a learner made by hand: when they would discard progress, the page asks before applying them.
const ASKING_ORIGINS = new Set(['control', 'preset']);

export class PendingChange {
  /**
   * @param {{exercise: import('../training/exercise.js').Exercise, lang: string, apply: (state) => void,
   *          onApplyNow: () => void}} deps  apply: plan the runs of these settings; onApplyNow: the notice's button
   */
  constructor({ exercise, lang, apply, onApplyNow }) {
    this.exercise = exercise;
    this.lang = lang;
    this.apply = apply;
    /** Whether a change is held. */
    this.active = false;
    this.text = h('span');
    this.element = h('p', { class: 'pending-change', attrs: { role: 'status', 'data-pending': '' } }, [this.text, ' ',
      button({ text: T.applyNow, class: 'chip', onClick: onApplyNow })]);
    this.element.hidden = true;
  }

  /**
   * New model/task settings: apply them now, or, when a learner changed a control in a way that would discard
   * progress, pause the runs and hold the change.  A change that keeps every run (more seeds) applies at once,
   * and so do changes from a link, an attribute or the API (a learner's control or preset asks; a host's call
   * does not).
   */
  change(state, origin) {
    const plan = runPlan(state);
    if (JSON.stringify(plan) === this.exercise.planKey) {
      this._clear();
      return;
    }
    const progress = this.exercise.progressLostBy(plan);
    if (progress === 0 || !ASKING_ORIGINS.has(origin)) {
      this._clear();
      this.apply(state);
      return;
    }
    this.exercise.pause();
    this.active = true;
    setText(this.text, T.pending(whole(this.exercise.runs.length, this.lang), count(progress, this.lang)));
    this.element.hidden = false;
  }

  /** Apply the held change (to `state`, the store's current settings). */
  applyNow(state) {
    this._clear();
    this.apply(state);
  }

  /** The settings the current runs were planned with (the fields the charts read), over `state`. */
  shownState(state) {
    if (!this.active) return state;
    const runs = this.exercise.runs;
    const first = runs[0]?.config ?? {};
    return { ...state, variants: [...new Set(runs.map((r) => r.variant))], layers: first.layers, heads: first.heads,
      copyLength: first.copyLength, trainAlpha: runs.find((r) => r.variant === 'alpha')?.config.alpha ?? state.trainAlpha };
  }

  _clear() {
    this.active = false;
    this.element.hidden = true;
  }
}
