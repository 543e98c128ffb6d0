// The workers of a page, shared by every <sqrtdk-lab> on it: one pool of training workers (one per core, within
// the page's memory budget) for all elements' runs, so that twelve elements train in two workers on a two-core
// machine rather than thirty-six competing ones.  Each element joins when it connects and leaves when it
// goes; the pool and its worker script end with the last one.  This is page-wide state by design: the
// budget and the cores are the page's, not an element's.

import { createWorkerUrl } from './worker-url.js';
import { WorkerPool } from './worker-pool.js';
import { HelperWorker } from './helper-worker.js';
import { DEFAULT_PAGE_BUDGET_BYTES, isBudget, mebibytes } from './memory-budget.js';
import { STRINGS } from '../ui/strings.js';

const MAX_WORKERS = 8;

const page = { budget: DEFAULT_PAGE_BUDGET_BYTES, members: 0, url: null, pool: null, helper: null, onHelperFailure: new Set(), nextMember: 1 };

const workerUrl = () => {
  page.url ??= createWorkerUrl();
  return page.url;
};

/** The page's memory budget for training workers, in bytes (SqrtdkLabElement.memoryBudget). */
export function pageBudget() { return page.budget; }

/** Set the page's budget; a bad value throws one line and changes nothing. */
export function setPageBudget(bytes) {
  if (!isBudget(bytes)) throw new Error(STRINGS.badMemoryBudget(String(bytes), mebibytes(DEFAULT_PAGE_BUDGET_BYTES)));
  page.budget = bytes;
  if (page.pool) page.pool.budgetChanged();
}

/**
 * Join the page's workers: the training pool, and the helper worker (the explorer's computations, the answer),
 * both held until leave().
 * @param {(message: string, replaced: boolean) => void} onHelperFailure the shared helper failed (told to every element)
 * @returns {{pool: WorkerPool, helper: {latest, dispose}, leave: () => void}}
 */
export function joinPageWorkers(onHelperFailure) {
  if (!page.pool) {
    const cores = Math.min(MAX_WORKERS, Math.max(1, navigator.hardwareConcurrency || 2));
    page.pool = new WorkerPool(workerUrl, cores, pageBudget);
    page.helper = new HelperWorker(workerUrl(), {
      onFailure: (message, replaced) => { for (const listener of [...page.onHelperFailure]) listener(message, replaced); },
    });
  }
  page.members += 1;
  page.onHelperFailure.add(onHelperFailure);
  const { pool } = page;
  const helper = page.helper.scope(`element ${page.nextMember}`);
  page.nextMember += 1;
  let left = false;
  return {
    pool,
    helper,
    leave() {
      if (left) return;
      left = true;
      helper.dispose();
      page.onHelperFailure.delete(onHelperFailure);
      page.members -= 1;
      if (page.members > 0) return;
      pool.terminate();
      page.helper.dispose();
      if (page.url) URL.revokeObjectURL(page.url);
      Object.assign(page, { url: null, pool: null, helper: null });
    },
  };
}
