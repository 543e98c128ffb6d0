// The workers of a page, shared by every <sqrtdk-lab> on it: one pool of training workers (one per core, within
// the page's memory budget) for all elements' runs, so that twelve elements train in two workers on a two-core
// machine rather than thirty-six competing ones.  Each element joins when it connects and leaves when it
// goes; the pool and its worker script end with the last one.  This is page-wide state by design: the
// budget and the cores are the page's, not an element's.

import { createWorkerUrl } from './worker-url.js';
import { WorkerPool } from './worker-pool.js';
import { DEFAULT_PAGE_BUDGET_BYTES, isBudget, mebibytes } from './memory-budget.js';
import { STRINGS } from '../ui/strings.js';

const MAX_WORKERS = 8;

const page = { budget: DEFAULT_PAGE_BUDGET_BYTES, members: 0, url: null, pool: null };

/** The page's memory budget for training workers, in bytes (SqrtdkLabElement.memoryBudget). */
export function pageBudget() { return page.budget; }

/** Set the page's budget; a bad value throws one line and changes nothing. */
export function setPageBudget(bytes) {
  if (!isBudget(bytes)) throw new Error(STRINGS.badMemoryBudget(String(bytes), mebibytes(DEFAULT_PAGE_BUDGET_BYTES)));
  page.budget = bytes;
  if (page.pool) page.pool.budgetChanged();
}

/** @returns {{pool: WorkerPool, leave: () => void}} the page's training pool, held until leave() */
export function joinPageWorkers() {
  if (!page.pool) {
    const cores = Math.min(MAX_WORKERS, Math.max(1, navigator.hardwareConcurrency || 2));
    page.pool = new WorkerPool(() => {
      page.url ??= createWorkerUrl();
      return page.url;
    }, cores, pageBudget);
  }
  page.members += 1;
  const pool = page.pool;
  let left = false;
  return {
    pool,
    leave() {
      if (left) return;
      left = true;
      page.members -= 1;
      if (page.members > 0) return;
      pool.terminate();
      if (page.url) URL.revokeObjectURL(page.url);
      page.url = null;
      page.pool = null;
    },
  };
}
