// The runs' progress: one row per run (variant, seed, steps, steps/s, status), an overall progress bar and
// the total steps per second.

import { h, replaceChildren } from '../ui/dom.js';
import { short } from '../ui/format.js';

const STATUS_TEXT = {
  waiting: 'waiting', loading: 'loading wasm…', training: 'training', paused: 'paused', done: 'done',
  diverged: 'diverged', failed: 'failed',
};
const RATE_WINDOW_MS = 2000;

export class RunTable {
  constructor() {
    this.progress = h('progress', { attrs: { max: 1, value: 0, 'aria-label': 'training progress' } });
    this.summary = h('span', { class: 'progress-text', attrs: { role: 'status' } });
    this.body = h('tbody');
    this.history = [];
    this.element = h('div', { class: 'runs' }, [
      h('div', { class: 'progress-row' }, [this.progress, this.summary]),
      h('details', { class: 'run-details' }, [
        h('summary', { text: 'Runs' }),
        h('div', { class: 'table-scroll' }, [h('table', { class: 'run-table' }, [
          h('thead', {}, [h('tr', {}, ['run', 'seed', 'steps', 'steps/s', 'logit std at init', 'status']
            .map((text) => h('th', { attrs: { scope: 'col' }, text })))]),
          this.body])]),
      ]),
    ]);
  }

  /** @param {object[]} slots Exercise.slots  @param {number} steps  @param {(v) => string} labelOf  @param {(v) => string} colourOf */
  render(slots, steps, labelOf, colourOf) {
    const total = slots.length * steps;
    const done = slots.reduce((sum, s) => sum + Math.min(steps, s.record.stepsDone), 0);
    const now = performance.now();
    const stepsDone = slots.reduce((sum, s) => sum + s.record.stepsDone, 0);
    this.history.push({ now, stepsDone });
    while (this.history.length > 2 && now - this.history[0].now > RATE_WINDOW_MS) this.history.shift();
    const first = this.history[0];
    const rate = now > first.now ? (1000 * Math.max(0, stepsDone - first.stepsDone)) / (now - first.now) : 0;
    const training = slots.some((s) => s.status === 'training');
    this.progress.max = Math.max(1, total);
    this.progress.value = done;
    this.summary.textContent = `${done.toLocaleString('en')} / ${total.toLocaleString('en')} steps`
      + (training ? ` · ${short(rate)} steps/s` : '');
    this.element.dataset.stepsDone = String(stepsDone);
    replaceChildren(this.body, slots.map((s) => {
      const r = s.record;
      const swatch = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
      swatch.style.borderTopColor = colourOf(r.variant);
      let status = STATUS_TEXT[s.status];
      if (s.status === 'diverged') status = `diverged at step ${r.divergedStep}`;
      if (s.status === 'failed') status = `failed: ${s.error}`;
      if (s.failures > 0 && s.status !== 'failed') status += ` (worker replaced ${s.failures}×)`;
      return h('tr', { attrs: { 'data-run': r.id, 'data-status': s.status, 'data-steps': r.stepsDone } }, [
        h('th', { attrs: { scope: 'row' } }, [swatch, labelOf(r.variant)]),
        h('td', { text: String(r.seed) }),
        h('td', { text: `${r.stepsDone} / ${steps}` }),
        h('td', { text: r.stepsDone ? short(r.stepsPerSecond) : '–' }),
        h('td', { text: s.info ? short(s.info.measuredLogitStd) : '–' }),
        h('td', { class: `status status-${s.status}`, text: status }),
      ]);
    }));
  }
}
