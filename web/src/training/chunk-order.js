// Which run trains next and by how much: the exercise's scheduling rule, pure.  Open runs (whose outcome the
// answer does not know yet) go before settled ones, so that the answer comes as soon as the slowest run gets
// there; among those, the fewest steps done, so that the curves grow together and the runs sharing a worker take
// turns.  A chunk is about CHUNK_SECONDS of a run's measured speed, so that pause, single step and reset take
// effect within a chunk or two.

const CHUNK_SECONDS = 0.1;
const MAX_CHUNK = 50;
const FIRST_CHUNK = 2;  // steps, before a run's speed is known
/** Chunks queued per worker at most: the next is waiting when one ends, so no worker idles while the page renders. */
export const QUEUE_PER_WORKER = 2;

/** The `concurrency` that keeps `workers` workers busy: QUEUE_PER_WORKER chunks each. */
export const chunksFor = (workers) => workers * QUEUE_PER_WORKER;

/**
 * The run to send a chunk next, or null if none can take one.
 * @param {import('./run-slot.js').RunSlot[]} slots  @param {number} steps the step budget per run
 * @param {(record) => boolean} settled whether the answer already knows a run's outcome
 */
export function nextSlot(slots, steps, settled) {
  let best = null;
  let bestKey = null;
  for (const slot of slots) {
    if (!slot.ready || slot.stepsLeft(steps) <= 0 || slot.inFlight >= QUEUE_PER_WORKER) continue;
    if ((slot.client.hostQueue ?? 0) >= QUEUE_PER_WORKER) continue;  // its worker has enough queued
    const key = [settled(slot.record) ? 1 : 0, slot.record.stepsDone + slot.queuedSteps];
    if (!best || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = slot;
      bestKey = key;
    }
  }
  return best;
}

/** Steps in a slot's next chunk: about CHUNK_SECONDS of its measured speed, 1..MAX_CHUNK, within its budget. */
export function chunkSize(slot, steps) {
  const rate = slot.record.stepsPerSecond;
  const size = rate > 0 ? Math.round(rate * CHUNK_SECONDS) : FIRST_CHUNK;
  return Math.max(1, Math.min(MAX_CHUNK, size, slot.stepsLeft(steps)));
}
