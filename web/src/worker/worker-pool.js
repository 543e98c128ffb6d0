// The training workers of a page: at most `size` workers (one per core), shared by every element's runs, each
// worker holding the trainers of several runs, within a memory budget (memory-budget.js).
//
// client() gives a run its own client with WorkerClient's shape (request, terminate, alive).  Before its first
// request the run reserves its memory (reserve(bytes), the core's estimate): it is placed on a worker where the
// bytes fit without passing the worker's limit or the page budget, or waits its turn (first come, first served)
// until runs finish and free theirs.  A run marked idle (finished) gives its trainer back when another waits.
// A run that can never fit is refused (MemoryRefusal).  A worker that fails fails every run it held: each
// run's onFailure is called, and its owner replaces the run (a new client) and replays its steps.
// Listeners of onCapacity are told when a worker's queue shortens, in turns, so every element gets its share, and
// when the queue of runs waiting for memory moves (client.waitingAhead: how many runs wait ahead of a run).

import { WorkerClient } from './worker-client.js';
import { WorkerFailure } from './worker-failure.js';
import { WORKER_BASE_BYTES, WORKER_LIMIT_BYTES, DEFAULT_PAGE_BUDGET_BYTES, MemoryRefusal, largestRun } from './memory-budget.js';

class PooledClient {
  constructor(pool, run, onFailure) {
    this._pool = pool;
    this._run = run;
    this._onFailure = onFailure;
    this.host = null;
    this.bytes = 0;
    this.idle = false;
    this.onEvict = () => {};
    this.alive = true;
  }

  /**
   * Hold `bytes` on a worker (again, after an eviction or with another size).
   * @returns {Promise<void>} resolves once placed; rejects with MemoryRefusal if it can never fit
   */
  reserve(bytes) {
    if (!this.alive) return Promise.reject(new WorkerFailure('the worker is not running'));
    if (this.host && this.bytes === bytes) return Promise.resolve();
    this._pool._forget(this);  // an earlier reservation still waiting is replaced by this one
    this._pool._unplace(this);
    return this._pool._wait(this, bytes);
  }

  /** Like WorkerClient.request, for this run's trainer (reserve first). */
  request(request, transfer = []) {
    if (!this.alive || !this.host) return Promise.reject(new WorkerFailure('the worker is not running'));
    const host = this.host;
    host.pending += 1;
    return host.client.request({ ...request, run: this._run }, transfer).finally(() => {
      host.pending -= 1;
      this._pool._capacityFreed();
    });
  }

  /** Runs of the page (any element's) ahead of this one in the queue for memory; null when it is not waiting. */
  get waitingAhead() {
    const at = this._pool._waiting.findIndex((w) => w.client === this);
    return at < 0 ? null : at;
  }

  /** How many requests the run's worker has queued (every element's): the exercise keeps it small. */
  get hostQueue() { return this.host ? this.host.pending : 0; }

  /** The run finished (idle: its trainer may be given back when another run waits) or goes on. */
  setIdle(idle) {
    this.idle = idle;
    if (idle) this._pool._admit();
  }

  /** The run is over: its trainer and memory are freed; a worker ends with its last run. */
  terminate() {
    if (!this.alive) return;
    this.alive = false;
    this._pool._unplace(this);
    this._pool._forget(this);
  }

  _fail(message) {
    if (!this.alive) return;
    this.alive = false;
    this._pool._forget(this);
    this._onFailure(message);
  }
}

export class WorkerPool {
  /**
   * @param {() => string} url the worker script (worker-url.js), made when the first worker starts
   * @param {number} size at most this many workers  @param {() => number} budget the page budget in bytes, read at each placement
   */
  constructor(url, size, budget = () => DEFAULT_PAGE_BUDGET_BYTES) {
    this._url = url;
    this._size = Math.max(1, size);
    this._budget = budget;
    this._hosts = [];
    this._waiting = [];      // {client, bytes, resolve, reject}, first come first served
    this._capacity = [];     // listeners, called in turns
    this._nextRun = 1;
    this._nextWorker = 1;
    this._admitting = false;
    this._budgetListeners = new Set();
  }

  /** How many workers are running now. */
  get workers() { return this._hosts.length; }

  /** At most this many workers. */
  get size() { return this._size; }

  /** Bytes the page's run workers hold now (each its base and the most its trainers held at once). */
  get committedBytes() { return this._hosts.reduce((sum, h) => sum + WORKER_BASE_BYTES + h.peak, 0); }

  /** The most one run may need under the current budget. */
  get largestRun() { return largestRun(this._budget()); }

  /** @param {(message: string) => void} onFailure called once if the run's worker fails */
  client(onFailure) {
    const client = new PooledClient(this, this._nextRun, onFailure);
    this._nextRun += 1;
    return client;
  }

  /** Call `listener` whenever a worker can take more work. @returns {() => void} unsubscribe */
  onCapacity(listener) {
    this._capacity.push(listener);
    return () => { this._capacity = this._capacity.filter((l) => l !== listener); };
  }

  terminate() {
    for (const host of [...this._hosts]) this._retire(host);
    for (const w of this._waiting.splice(0)) w.reject(new WorkerFailure('the worker was stopped'));
  }

  _capacityFreed() {
    // In turns: the first listener now goes last next time, so no element keeps the freed place for itself.
    const listeners = this._capacity;
    if (listeners.length > 1) listeners.push(listeners.shift());
    for (const listener of [...listeners]) listener();
  }

  _wait(client, bytes) {
    if (bytes > this.largestRun) return Promise.reject(new MemoryRefusal(bytes, this.largestRun));
    return new Promise((resolve, reject) => {
      this._waiting.push({ client, bytes, resolve, reject });
      this._admit();
    });
  }

  /** Place waiting runs, in order, while they fit (giving back idle runs' trainers if that makes room). */
  _admit() {
    if (this._admitting) return;  // an eviction below frees memory: the loop itself goes on
    this._admitting = true;
    try {
      this._admitWaiting();
    } finally {
      this._admitting = false;
    }
  }

  /**
   * The budget changed: runs waiting may fit now, or never (those are refused: MemoryRefusal), and each element
   * re-checks its runs.  Runs already placed keep their memory (a worker's wasm memory cannot shrink): they train
   * on, and the runs still waiting are placed once the workers hold less than the new budget.
   */
  budgetChanged() {
    const largest = this.largestRun;
    this._waiting = this._waiting.filter((w) => {
      if (w.bytes <= largest) return true;
      w.reject(new MemoryRefusal(w.bytes, largest));
      return false;
    });
    this._admit();
    for (const listener of [...this._budgetListeners]) listener();
  }

  /** Call `listener` when the budget changes. @returns {() => void} unsubscribe */
  onBudget(listener) {
    this._budgetListeners.add(listener);
    return () => this._budgetListeners.delete(listener);
  }

  _admitWaiting() {
    const queued = this._waiting.length;
    try {
      this._placeWaiting();
    } finally {
      // The queue moved: the runs still waiting are nearer its head (their elements show how near).
      if (this._waiting.length !== queued && this._waiting.length > 0) queueMicrotask(() => this._capacityFreed());
    }
  }

  _placeWaiting() {
    while (this._waiting.length > 0) {
      const next = this._waiting[0];
      if (!next.client.alive) {
        this._waiting.shift();
        continue;
      }
      const host = this._placeFor(next.bytes) ?? this._evictFor(next.bytes);
      if (!host) return;
      this._waiting.shift();
      next.client.host = host;
      next.client.bytes = next.bytes;
      host.runs.add(next.client);
      host.live += next.bytes;
      host.peak = Math.max(host.peak, host.live);
      next.resolve();
    }
  }

  /** A worker where `bytes` fit now: a new one while there are fewer than `size`, else the least loaded. */
  _placeFor(bytes) {
    const budget = this._budget();
    const committed = this.committedBytes;
    if (this._hosts.length < this._size && committed + WORKER_BASE_BYTES + bytes <= budget) return this._newHost();
    const fits = (h) => {
      const peak = Math.max(h.peak, h.live + bytes);
      return WORKER_BASE_BYTES + peak <= WORKER_LIMIT_BYTES && committed - h.peak + peak <= budget;
    };
    const candidates = this._hosts.filter(fits);
    if (candidates.length === 0) return null;
    return candidates.reduce((a, b) => ((b.runs.size < a.runs.size) ? b : a));
  }

  /** Give back idle runs' trainers, one at a time, until `bytes` fit; null if they never would. */
  _evictFor(bytes) {
    for (const host of this._hosts) {
      for (const client of [...host.runs]) {
        if (!client.idle) continue;
        this._unplace(client);
        client.onEvict();
        const placed = this._placeFor(bytes);
        if (placed) return placed;
      }
    }
    return null;
  }

  /** Free the client's trainer and bytes (its worker stays, and ends with its last run). */
  _unplace(client) {
    const host = client.host;
    if (!host) return;
    client.host = null;
    host.runs.delete(client);
    host.live -= client.bytes;
    client.bytes = 0;
    if (host.runs.size === 0) this._retire(host);
    else if (host.client.alive) host.client.request({ type: 'drop', run: client._run }).catch(() => {});
    this._admit();
  }

  _forget(client) {
    this._waiting = this._waiting.filter((w) => {
      if (w.client !== client) return true;
      w.reject(new WorkerFailure('the run was stopped'));
      return false;
    });
  }

  _retire(host) {
    this._hosts = this._hosts.filter((h) => h !== host);
    host.client.terminate();
  }

  _newHost() {
    const host = { runs: new Set(), pending: 0, live: 0, peak: 0, client: null };
    host.client = new WorkerClient(this._url(), {
      name: `sqrtdk-run ${this._nextWorker}`,
      onFailure: (message) => {
        this._hosts = this._hosts.filter((h) => h !== host);
        for (const run of [...host.runs]) {
          run.host = null;
          run._fail(message);
        }
        this._admit();
      },
    });
    this._nextWorker += 1;
    this._hosts.push(host);
    return host;
  }
}
