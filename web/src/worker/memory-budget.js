// The page's memory budget for training: what a run worker costs, what one may hold, and what every element on
// a page may hold together.  Pure: no DOM.
//
// A run worker is one wasm instance: it starts at the glue's initial memory and grows by what its trainers
// allocate (the core's estimate of a run, lab.estimatedBytes: the allocation itself), up to the wasm maximum;
// wasm memory never shrinks, so a worker costs the most its trainers ever held at once.

import { RUN_CAP_BYTES } from '../memory-table.js';

const MIB = 1024 * 1024;

/** A run worker's memory before any trainer: -sINITIAL_MEMORY in wasm_build/wasm.cmake. */
export const WORKER_BASE_BYTES = 32 * MIB;

/** The most one run worker can hold: -sMAXIMUM_MEMORY in wasm_build/wasm.cmake. */
export const WORKER_LIMIT_BYTES = 2048 * MIB;

/** The default page budget (SqrtdkLabElement.memoryBudget): run workers of all elements together. */
export const DEFAULT_PAGE_BUDGET_BYTES = 1024 * MIB;

/** @param {number} bytes  @returns {number} whole MiB, rounded up */
export const mebibytes = (bytes) => Math.ceil(bytes / MIB);

/** Is `value` a budget a host may set (a whole number of bytes, at least one worker's base and a little)? */
export function isBudget(value) {
  return Number.isSafeInteger(value) && value >= WORKER_BASE_BYTES + MIB;
}

/**
 * The most a single run may need: what fits in one worker and in the page budget, and no more than the core's cap
 * on one run (it refuses a larger configuration).
 * @param {number} pageBudget  @returns {number} bytes
 */
export function largestRun(pageBudget) {
  return Math.min(Math.min(WORKER_LIMIT_BYTES, pageBudget) - WORKER_BASE_BYTES, RUN_CAP_BYTES);
}

/** A run that needs more than a worker or the page budget can ever give it. */
export class MemoryRefusal extends Error {
  /** @param {number} bytes what the run needs  @param {number} largest the most a run may have */
  constructor(bytes, largest) {
    super(`a run needs ${bytes} bytes; at most ${largest} fit`);
    this.bytes = bytes;
    this.largest = largest;
  }
}
