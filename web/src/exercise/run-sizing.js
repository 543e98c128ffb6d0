// Whether the exercise's runs can start, known before Start: the plan's largest run must fit in what one run may
// use on the page (the pool's budget and the core's cap; the estimate is the core's, evaluated at once by
// run-memory.js), and the core must accept the settings (asked in the helper worker, once per configuration).
// The answer is one line (or ''), which the panel shows, disables Start with, and throws from start().

import { memoryRefusalLine, memoryShortfall, runBytes } from '../training/run-memory.js';
import { MemoryRefusal } from '../worker/memory-budget.js';
import { WorkerFailure } from '../worker/worker-failure.js';
import { STRINGS } from '../ui/strings.js';

const MAX_CACHED = 64;

export class RunSizing {
  /**
   * @param {{helper: {latest: Function}, pool: import('../worker/worker-pool.js').WorkerPool|null,
   *          planKey: () => string, onChange: () => void}} deps  planKey: the exercise's current plan
   */
  constructor({ helper, pool, planKey, onChange }) {
    this.helper = helper;
    this.pool = pool;
    this.planKey = planKey;
    this.onChange = onChange;
    this.estimates = new Map();  // JSON config -> Promise<bytes>
    this.largest = null;         // {planKey, bytes, config} or {planKey, error}: the plan's largest run
    this.refusedLine = '';       // why the runs stopped (a run could not fit after all), until the plan changes
  }

  /** A run's memory in bytes, the core's estimate (run-memory.js), for the pool's reservation. */
  estimate(config) { return Promise.resolve(runBytes(config)); }

  /** The core's estimate from the helper worker: rejects with the core's message when it refuses the settings. */
  _coreCheck(config) {
    const key = JSON.stringify(config);
    if (!this.estimates.has(key)) {
      if (this.estimates.size > MAX_CACHED) this.estimates.clear();
      this.estimates.set(key, this.helper.latest(`estimate ${key}`, { type: 'estimate', config }).then((reply) => {
        if (!reply) throw new WorkerFailure('the helper worker stopped');
        return reply.bytes;
      }));
    }
    return this.estimates.get(key);
  }

  /** A new plan: size its largest run (onChange once known). */
  check(plan) {
    const planKey = JSON.stringify(plan);
    this.plan = { planKey, runs: plan };
    this.refusedLine = '';
    Promise.all(plan.map((run) => this._coreCheck(run.config).then((bytes) => ({ bytes, config: run.config }))))
      .then((sized) => sized.reduce((a, b) => (b.bytes > a.bytes ? b : a), { bytes: 0, config: plan[0]?.config ?? {} }),
        (error) => (error instanceof WorkerFailure ? null : { error: error.message }))
      .then((largest) => {
        if (!largest || planKey !== this.planKey()) return;
        this.largest = { planKey, ...largest };
        this.onChange();
      });
  }

  /** The exercise met a run that cannot start: it cannot fit (the budget was lowered), or the core refused it. */
  refused(error) {
    // A run too large for the page's budget: refusal() says so while the budget stays as it is (it reads the pool).
    if (!(error instanceof MemoryRefusal)) this.refusedLine = STRINGS.configRefused(error.message);
  }

  /** Why the current plan's runs cannot start, as one line; '' when they can (or it is not known yet). */
  refusal() {
    if (this.refusedLine) return this.refusedLine;
    // Memory first, known at once (run-memory.js: the core's estimate), in the lab's settings.
    if (this.plan && this.plan.planKey === this.planKey() && this.pool) {
      const shortfall = memoryShortfall(this.plan.runs, this.pool.largestRun);
      if (shortfall) return memoryRefusalLine(shortfall);
    }
    const largest = this.largest;
    if (!largest || largest.planKey !== this.planKey()) return '';
    return largest.error ? STRINGS.configRefused(largest.error) : '';
  }
}
