// The training workers of one exercise: a pool of at most `size` workers (one per core), each holding the
// trainers of several runs, so that memory stays bounded whatever the number of runs (each worker is one wasm
// instance; each run adds one trainer, ~25 MB at the canonical size).
//
// client() gives a run its own client with WorkerClient's shape (request, terminate, alive), placed on the
// worker with the fewest runs.  A worker that fails fails every run it held: each run's onFailure is called,
// and the exercise replaces the run (a new client, on a live or new worker) and replays its steps.

import { WorkerClient } from './worker-client.js';
import { WorkerFailure } from './worker-failure.js';

class PooledClient {
  constructor(host, run, onFailure) {
    this._host = host;
    this._run = run;
    this._onFailure = onFailure;
    this.alive = true;
  }

  /** Like WorkerClient.request, for this run's trainer. */
  request(request, transfer = []) {
    if (!this.alive) return Promise.reject(new WorkerFailure('the worker is not running'));
    const host = this._host;
    host.pending += 1;
    return host.client.request({ ...request, run: this._run }, transfer).finally(() => { host.pending -= 1; });
  }

  /** How many requests the run's worker has queued (its own runs' and the others'): the exercise keeps it small. */
  get hostQueue() { return this._host.pending; }

  /** The run is over: its trainer is freed; the worker ends with its last run. */
  terminate() {
    if (!this.alive) return;
    this.alive = false;
    const host = this._host;
    host.runs.delete(this);
    if (host.runs.size === 0) host.retire();
    else if (host.client.alive) host.client.request({ type: 'drop', run: this._run }).catch(() => {});
  }

  _fail(message) {
    if (!this.alive) return;
    this.alive = false;
    this._onFailure(message);
  }
}

export class WorkerPool {
  /** @param {string} url the worker script (worker-url.js)  @param {number} size at most this many workers */
  constructor(url, size) {
    this._url = url;
    this._size = Math.max(1, size);
    this._hosts = [];
    this._nextRun = 1;
    this._nextWorker = 1;
  }

  /** How many workers are running now. */
  get workers() { return this._hosts.length; }

  /** At most this many workers. */
  get size() { return this._size; }

  /**
   * A client for one run.
   * @param {(message: string) => void} onFailure called once if the run's worker fails
   */
  client(onFailure) {
    const host = this._hosts.length < this._size ? this._newHost()
      : this._hosts.reduce((a, b) => (b.runs.size < a.runs.size ? b : a));
    const client = new PooledClient(host, this._nextRun, onFailure);
    this._nextRun += 1;
    host.runs.add(client);
    return client;
  }

  terminate() {
    for (const host of [...this._hosts]) host.retire();
  }

  _newHost() {
    const host = { runs: new Set(), pending: 0, client: null, retire: null };
    host.retire = () => {
      this._hosts = this._hosts.filter((h) => h !== host);
      host.client.terminate();
    };
    host.client = new WorkerClient(this._url, {
      name: `sqrtdk-run ${this._nextWorker}`,
      onFailure: (message) => {
        this._hosts = this._hosts.filter((h) => h !== host);
        for (const run of [...host.runs]) run._fail(message);
      },
    });
    this._nextWorker += 1;
    this._hosts.push(host);
    return host;
  }
}
