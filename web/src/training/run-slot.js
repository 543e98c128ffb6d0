// One run of the exercise as the scheduler (exercise.js) sees it: its record (the curves), its worker client,
// what it has asked for, and the chunks held while paused (they landed after a pause: the trainer in the worker
// is already past them, so they are shown when training continues, or one step at a time by Step).

import { RunRecord, splitChunk } from './run-record.js';
import { STRINGS } from '../ui/strings.js';

/**
 * One run's place in the exercise: its record (the curves), its worker and where that worker is.  Every change
 * of a slot goes through one of its methods.
 * @typedef {{record: RunRecord, status: 'waiting'|'memory'|'loading'|'training'|'paused'|'done'|'diverged'|'failed',
 *            error: string, info: object|null, attention: object|null, heatmap: boolean, failures: number,
 *            ahead: number|null}} RunView
 *   what the page reads (info: the worker's init reply; attention: the last map, with its step; memory: waiting in
 *   the page's queue for memory, with `ahead` runs of the page before it)
 */
export class RunSlot {
  /** @param {{id, variant, seed, config}} run  @param {object|null} client a reused worker  @param {boolean} heatmap */
  constructor(run, client, heatmap) {
    this.record = new RunRecord(run);
    this.client = client;
    this.heatmap = heatmap;   // the first run of its variant: its attention map is shown
    this.retired = false;     // replaced by a new plan: late replies are ignored
    this.inFlight = 0;        // step requests sent and not yet answered
    this.queuedSteps = 0;     // the steps they ask for
    this.singleSteps = 0;     // of those, the Step button's (they count while paused)
    this.initPromise = null;
    this.initGeneration = -1;
    this.restart();
  }

  /** Back to step 0 (the worker is kept but must be configured again). */
  restart() {
    this.record.clear();
    this.held = [];           // chunks that landed after a pause: appended when training continues
    this.stepWhenHeld = false; // Step was pressed while such a chunk was computing
    this.ready = false;
    this.initialising = false;
    this.error = '';
    this.info = null;
    this.attention = null;
    this.lastAttentionAt = 0;
    this.failures = 0;
  }

  /** The run it trains, as the plan writes it: the same string means the same run (variant, seed, config). */
  get runKey() {
    const { id, variant, seed, config } = this.record;
    return JSON.stringify({ id, variant, seed, config });
  }

  canStep(steps) { return !this.error && !this.record.diverged && this.record.stepsDone < steps; }

  /** Steps that may still be asked for: the budget less what is done, held and on its way. */
  stepsLeft(steps) { return this.canStep(steps) ? steps - this.record.stepsDone - this.heldSteps - this.queuedSteps : 0; }

  get heldSteps() { return this.held.reduce((sum, chunk) => sum + chunk.loss.length, 0); }

  statusAt(steps, running) {
    if (this.error) return 'failed';
    if (this.record.diverged) return 'diverged';
    if (this.record.stepsDone >= steps) return 'done';
    if (this.initialising) return typeof this.client?.waitingAhead === 'number' ? 'memory' : 'loading';
    if (this.singleSteps || (running && (this.inFlight || this.ready))) return 'training';
    return this.record.stepsDone > 0 ? 'paused' : 'waiting';
  }

  /** @returns {RunView} */
  view(steps, running) {
    const status = this.statusAt(steps, running);
    return { record: this.record, status, error: this.error, info: this.info,
      attention: this.attention, heatmap: this.heatmap, failures: this.failures, ahead: status === 'memory' ? this.client.waitingAhead : null };
  }

  beginInit(promise, generation) {
    this.initialising = true;
    this.initGeneration = generation;
    this.initPromise = promise;
  }

  endInit(promise) {
    if (this.initPromise !== promise) return;
    this.initPromise = null;
    this.initialising = false;
  }

  configured(info) {
    this.info = info;
    this.record.coreConfig = info.config;
    this.ready = true;
  }

  received(chunk) {
    this.record.append(chunk);
    if (chunk.attention) this.showAttention(chunk.attention, chunk.stepsDone);
  }

  hold(chunk) { this.held.push(chunk); }

  /** Append the first held step (Step while a chunk is held: the trainer is already past it). */
  releaseOneHeld() {
    const [chunk] = this.held;
    if (chunk.loss.length <= 1) {
      this.held.shift();
      this.received(chunk);
      return chunk;
    }
    const [first, rest] = splitChunk(chunk, 1, this.record.layers, this.record.heads);
    this.held[0] = rest;
    this.received(first);
    return first;
  }

  /** @returns {object[]} the held chunks, now appended */
  releaseHeld() {
    const chunks = this.held;
    this.held = [];
    for (const chunk of chunks) this.received(chunk);
    return chunks;
  }

  showAttention(map, step) { this.attention = { ...map, step }; }

  /** A request failed with the core's message: the run stops. */
  failed(message) { this.error = message; }

  /** Its worker died: @returns {boolean} whether the run may resume in a new one */
  workerLost(message, maxReplacements) {
    this.failures += 1;
    this.held = [];  // the new worker replays from the recorded steps
    this.ready = false;
    this.client = null;
    if (this.failures > maxReplacements) this.error = STRINGS.exercise.workerFailedTimes(this.failures, message);
    return this.failures <= maxReplacements;
  }
}

/**
 * The slots of a new plan, from the old plan's: a run the new plan keeps unchanged (same variant, seed and
 * config: e.g. when seeds are added) keeps its slot, curve and worker; every other run gets a new slot, on the
 * worker of a slot the plan drops when there is one (reconfigured there).  Dropped slots are retired; the
 * workers no new slot took are terminated.  A reused worker may still be computing a chunk of the old plan: its
 * reply is ignored (its slot is retired), and the new run's init waits behind it in the worker's queue.
 * @param {RunSlot[]} old  @param {{id, variant, seed, config}[]} plan
 * @returns {{slots: RunSlot[], keeps: boolean}} keeps: whether any old run goes on
 */
export function slotsForPlan(old, plan) {
  const kept = new Map(old.map((slot) => [slot.runKey, slot]));
  const wanted = new Set(plan.map((run) => JSON.stringify(run)));
  const spare = old.filter((slot) => !wanted.has(slot.runKey));
  const slots = plan.map((run, i) => {
    const heatmap = plan.findIndex((r) => r.variant === run.variant) === i;  // the first run of its variant
    const same = kept.get(JSON.stringify(run));
    if (same) {
      same.heatmap = heatmap;
      return same;
    }
    const donor = spare.shift();
    if (donor) donor.retired = true;
    return new RunSlot(run, donor?.client ?? null, heatmap);
  });
  for (const slot of spare) {
    slot.retired = true;
    if (slot.client) slot.client.terminate();
  }
  return { slots, keeps: plan.some((run) => kept.has(JSON.stringify(run))) };
}
