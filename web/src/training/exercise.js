// The exercise's runs and their scheduling.  Every run (variant x seed) has its own trainer, in one of a few
// workers (a pool of one per core: worker-pool.js); the page asks for chunks of steps, at most `concurrency`
// out in all, choosing the run and the chunk's size by chunk-order.js.  No DOM: the panel renders from `runs`
// whenever `onChange` fires.
//
// A run whose worker fails is reported, given a new client (on a live or new worker) and resumed by replaying
// its steps there (same seed, same curve: nothing is lost); its worker is replaced at most MAX_REPLACEMENTS times,
// and the failure after that marks it failed.
// A diverged run stops (its curve so far is kept) while the others go on.
//
// Pause means paused: a chunk already computing when the learner pauses is held (run-slot.js), neither counted
// nor drawn, and appended when training continues (the run's trainer in the worker is already past it).

import { slotsForPlan } from './run-slot.js';
import { chunkSize, nextSlot } from './chunk-order.js';
import { WorkerFailure } from '../worker/worker-failure.js';
import { MemoryRefusal } from '../worker/memory-budget.js';
import { STRINGS } from '../ui/strings.js';

const MAX_REPLACEMENTS = 2;
const ATTENTION_EVERY_MS = 400;

export class Exercise {
  /**
   * @param {{createClient: (onFailure: (message: string) => void, name: string) => import('../worker/worker-client.js').WorkerClient,
   *          concurrency: number, onChange: () => void, onNotice: (text: string) => void,
   *          settled?: (record: import('./run-record.js').RunRecord) => boolean, estimate?: (config: object) => Promise<number>,
   *          onRefused?: (error: Error) => void, onCapacity?: (listener: () => void) => () => void}} options
   *   concurrency: chunks out at once (chunksFor(workers)); settled: whether the answer already knows the
   *   run's outcome (it goes after the open ones); estimate: a run's memory (reserved in the pool before it
   *   starts); onRefused: a run can never fit (training stops, once, without failing each run); onCapacity:
   *   subscribe to "a shared worker can take more work"
   */
  constructor({ createClient, concurrency, onChange, onNotice, settled = () => false, estimate = () => Promise.resolve(0),
    onRefused = () => {}, onCapacity = () => () => {} }) {
    this._createClient = createClient;
    this._estimate = estimate;
    this._onRefused = onRefused;
    this._unsubscribeCapacity = onCapacity(() => {
      this._pump();
      if (this._slots.some((s) => s.initialising)) this._onChange();  // a run waiting for memory moved up the queue
    });
    this._concurrency = Math.max(1, concurrency);
    this._settled = settled;
    this._listeners = new Set();
    this._onChange = () => {
      onChange();
      for (const listener of this._listeners) listener();
    };
    this._onNotice = onNotice;
    this._slots = [];
    this._generation = 0;
    this._inFlight = 0;
    this._pauses = 0;      // chunks sent before the latest pause are held when they land
    this._idleWaiters = [];
    this._steps = 0;
    this._attentionView = { example: 0, layer: 0, head: 0 };
    this.running = false;
    this.planKey = '';
  }

  /** Also call `listener` whenever `onChange` fires (the element's events). @returns {() => void} unsubscribe */
  subscribe(listener) {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /** The runs' records, in plan order. */
  get runs() { return this._slots.map((s) => s.record); }

  /** @returns {RunView[]} in plan order */
  get slots() { return this._slots.map((s) => s.view(this._steps, this.running)); }

  get steps() { return this._steps; }

  /** Is there anything left to train? */
  get canAdvance() { return this._slots.some((s) => this._canStep(s)); }

  /**
   * Set the runs.  A run the new plan keeps unchanged (same variant, seed and config: e.g. when seeds are added)
   * keeps its curve and its worker; every other run starts from step 0 on a reused worker, reconfigured.
   * @param {{id, variant, seed, config}[]} plan  @param {number} steps per run
   */
  setPlan(plan, steps) {
    this._steps = steps;
    const key = JSON.stringify(plan);
    if (key === this.planKey) {
      this._pump();
      this._onChange();
      return;
    }
    this.planKey = key;
    const { slots, keeps } = slotsForPlan(this._slots, plan);
    this._slots = slots;
    if (!keeps) {
      this.running = false;
      this._generation += 1;  // replies to the old plan's requests are ignored
    }
    if (keeps) this._pump();
    this._onChange();
  }

  /** Steps done by the runs that `plan` would not keep (0: the plan only adds runs, e.g. more seeds). */
  progressLostBy(plan) {
    const wanted = new Set(plan.map((run) => JSON.stringify(run)));
    return this._slots.filter((slot) => !wanted.has(slot.runKey)).reduce((sum, slot) => sum + slot.record.stepsDone, 0);
  }

  /** Change the step budget without clearing (more steps continue the runs). */
  setSteps(steps) {
    if (steps === this._steps) return;
    this._steps = steps;
    this._onChange();
  }

  start() {
    this._refusedGeneration = -1;
    for (const slot of this._slots) slot.stepWhenHeld = false;
    this._releaseHeld();
    if (!this.canAdvance) return;
    this.running = true;
    for (const slot of this._slots) if (this._canStep(slot)) this._ensureReady(slot);
    this._pump();
    this._onChange();
  }

  /**
   * Stop at once: from now on nothing is counted or drawn until start() (chunks still computing are held).
   * @returns {Promise<void>} resolves once no chunk of this exercise is computing
   */
  pause() {
    this.running = false;
    this._pauses += 1;
    this._onChange();
    return this._idle();
  }

  /** One step of every run that can take one (pauses first); a run with a held chunk shows its next step. */
  stepOnce() {
    if (this.running) this.pause();
    for (const slot of this._slots) {
      if (slot.held.length > 0) {
        this._noticeDivergence(slot, slot.releaseOneHeld());
        continue;
      }
      if (slot.inFlight > slot.singleSteps) {
        slot.stepWhenHeld = true;  // a chunk from before the pause is computing: its first step is this one
        continue;
      }
      if (!this._canStep(slot) || slot.inFlight > 0) continue;
      this._ensureReady(slot).then((ok) => {
        if (ok && !this.running && slot.inFlight === 0 && this._canStep(slot)) this._sendStep(slot, 1, false);
      });
    }
    this._onChange();
  }

  /** Clear every curve and start the runs again from their seeds (workers kept). */
  reset() {
    this.running = false;
    this._generation += 1;
    for (const slot of this._slots) slot.restart();
    this._onChange();
  }

  _idle() {
    if (this._inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this._idleWaiters.push(resolve));
  }

  _releaseHeld() {
    for (const slot of this._slots) {
      for (const chunk of slot.releaseHeld()) this._noticeDivergence(slot, chunk);
    }
  }

  _noticeDivergence(slot, chunk) {
    if (chunk.diverged) this._onNotice(STRINGS.exercise.diverged(STRINGS.runName(slot.record.variant, slot.record.seed), chunk.divergedStep));
  }

  /**
   * Which attention map the heatmaps show: 0-based layer and head, of each variant's run of `seed` (its first run
   * when it has none, or for -1).
   */
  setAttentionView(layer, head, seed = -1) {
    this._attentionView = { example: 0, layer, head };
    const generation = this._generation;
    for (const slot of this._slots) {
      const mine = this._slots.filter((s) => s.record.variant === slot.record.variant);
      slot.heatmap = (mine.find((s) => s.record.seed === seed) ?? mine[0]) === slot;
      if (!slot.heatmap) continue;
      slot.lastAttentionAt = 0;
      if (slot.ready && slot.inFlight === 0 && slot.record.stepsDone > 0 && slot.client?.alive) {
        slot.client.request({ type: 'attention', ...this._attentionView }).then((reply) => {
          if (generation !== this._generation || slot.retired) return;
          slot.showAttention(reply, slot.record.stepsDone);
          this._onChange();
        }, () => {});
      }
    }
  }

  dispose() {
    this._unsubscribeCapacity();
    this.running = false;
    this._generation += 1;
    this._pauses += 1;
    for (const slot of this._slots) if (slot.client) slot.client.terminate();
    this._slots = [];
  }

  _canStep(slot) { return slot.canStep(this._steps); }

  _spawn(slot) {
    const label = `${slot.record.variant} seed ${slot.record.seed}`;
    const client = this._createClient((message) => {
      const owner = this._slots.find((s) => s.client === client);
      if (owner) this._workerFailed(owner, message);
    }, `sqrtdk-run ${label}`);
    slot.client = client;
  }

  /** @returns {Promise<boolean>} whether the slot's trainer is configured (in this generation) */
  _ensureReady(slot) {
    if (slot.ready) return Promise.resolve(true);
    if (slot.initPromise && slot.initGeneration === this._generation) return slot.initPromise;
    if (!slot.client || !slot.client.alive) this._spawn(slot);
    const generation = this._generation;
    const { client } = slot;
    const stale = () => generation !== this._generation || slot.retired || client !== slot.client;
    // The run's memory first (it may wait for other runs of the page to finish), then its trainer.
    const promise = this._reserve(slot, client)
      .then(() => (stale() ? null : client.request({ type: 'init', config: slot.record.config, fastForward: slot.record.stepsDone })))
      .then((reply) => {
        if (!reply || stale()) return false;
        slot.configured(reply);
        return true;
      }, (error) => {
        if (stale()) return false;
        if (error instanceof MemoryRefusal || error.refusedBeforeStart) this._refuse(error);
        else if (!(error instanceof WorkerFailure)) slot.failed(error.message);
        return false;
      })
      .finally(() => {
        slot.endInit(promise);
        this._onChange();
        this._pump();
      });
    slot.beginInit(promise, generation);
    return promise;
  }

  /** Reserve the run's memory in the pool (a client without a pool, in the unit tests, needs none). */
  _reserve(slot, client) {
    if (!client.reserve) return Promise.resolve();
    client.setIdle(false);
    client.onEvict = () => {
      if (slot.client === client) slot.ready = false;  // its trainer was given to a waiting run: re-made if needed
    };
    return this._estimate(slot.record.config).then((bytes) => client.reserve(bytes), (error) => {
      if (!(error instanceof WorkerFailure)) error.refusedBeforeStart = true;  // the core refused the configuration
      throw error;
    });
  }

  /** A run can never fit: stop (once), without failing each run. */
  _refuse(error) {
    if (!this.running && this._refusedGeneration === this._generation) return;
    this._refusedGeneration = this._generation;
    this.running = false;
    this._onRefused(error);
    this._onChange();
  }

  _pump() {
    if (!this.running) return;
    for (const slot of this._slots) if (!slot.ready && slot.inFlight === 0 && this._canStep(slot)) this._ensureReady(slot);
    const next = () => (this._inFlight < this._concurrency ? nextSlot(this._slots, this._steps, this._settled) : null);
    for (let slot = next(); slot; slot = next()) this._sendStep(slot, chunkSize(slot, this._steps), true);
    const busy = this._slots.some((s) => s.inFlight > 0 || s.initialising);
    if (!busy && !this.canAdvance) {
      this.running = false;
      this._onChange();
    }
  }

  _sendStep(slot, steps, pumpAfter) {
    const generation = this._generation;
    const pauses = this._pauses;
    const now = performance.now();
    const lastChunk = slot.record.stepsDone + slot.queuedSteps + steps >= this._steps;
    const wantsAttention = slot.heatmap && (lastChunk || now - slot.lastAttentionAt > ATTENTION_EVERY_MS || !pumpAfter);
    if (wantsAttention) slot.lastAttentionAt = now;
    slot.inFlight += 1;
    slot.queuedSteps += steps;
    if (!pumpAfter) slot.singleSteps += 1;
    this._inFlight += 1;
    slot.client.request({ type: 'step', steps, attention: wantsAttention ? this._attentionView : null })
      .then((reply) => {
        if (generation !== this._generation || slot.retired || slot.record.diverged) return;
        if ((!this.running && pauses !== this._pauses) || slot.held.length > 0) {
          slot.hold(reply);
          if (slot.stepWhenHeld) this._noticeDivergence(slot, slot.releaseOneHeld());
          slot.stepWhenHeld = false;
          return;
        }
        slot.received(reply);
        this._noticeDivergence(slot, reply);
        if (!this._canStep(slot)) slot.client?.setIdle?.(true);  // finished: its memory may go to a waiting run
      }, (error) => {
        if (generation !== this._generation || slot.retired) return;
        if (!(error instanceof WorkerFailure)) slot.failed(error.message);
      })
      .finally(() => {
        slot.inFlight -= 1;
        slot.queuedSteps -= steps;
        if (!pumpAfter) slot.singleSteps -= 1;
        this._inFlight -= 1;
        if (this._inFlight === 0) for (const resolve of this._idleWaiters.splice(0)) resolve();
        this._onChange();
        if (pumpAfter || this.running) this._pump();
      });
  }

  _workerFailed(slot, message) {
    if (slot.retired) return;
    const label = STRINGS.runName(slot.record.variant, slot.record.seed);
    if (!slot.workerLost(message, MAX_REPLACEMENTS)) {
      this._onNotice(STRINGS.exercise.workerFailedAgain(label, message));
    } else {
      this._onNotice(STRINGS.exercise.workerReplaced(label, message, slot.record.stepsDone));
    }
    this._onChange();
  }
}
