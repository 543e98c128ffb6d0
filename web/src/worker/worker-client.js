// One Web Worker seen from the page: request(message) returns a promise of the reply (protocol.js).
// If the worker fails (an uncaught error, a message that cannot be read, or it cannot start), every pending
// request is rejected with a WorkerFailure, the worker is terminated and `onFailure` is called once; the
// owner decides how to replace it.

import { isReply, REQUEST_REPLY } from './protocol.js';
import { explainWorkerError } from './worker-errors.js';
import { WorkerFailure } from './worker-failure.js';
import { workerScriptUrl } from './worker-url.js';
import { compiledCore } from './wasm-binary.js';

export class WorkerClient {
  /**
   * @param {string} url the worker script (worker-url.js)
   * @param {{onFailure?: (message: string) => void, name?: string}} options
   */
  constructor(url, { onFailure = () => {}, name = 'sqrtdk' } = {}) {
    this._pending = new Map();
    this._nextId = 1;
    this._onFailure = onFailure;
    this.alive = true;
    this._worker = new Worker(workerScriptUrl(url), { name });
    this._worker.addEventListener('message', (event) => this._receive(event.data));
    this._worker.addEventListener('error', (event) => {
      event.preventDefault();
      this._fail(explainWorkerError(event.message || 'the worker stopped with an error'));
    });
    this._worker.addEventListener('messageerror', () => this._fail('a message from the worker could not be read'));
    // The core first (protocol.js): requests posted meanwhile wait for it inside the worker.
    compiledCore().then(
      (module) => { if (this.alive) this._worker.postMessage({ type: 'core', module }); },
      (error) => { if (this.alive) this._worker.postMessage({ type: 'core', error: String(error?.message ?? error) }); });
  }

  /**
   * Send a request; resolves with the reply, rejects with Error(message) on an error reply or with a
   * WorkerFailure if the worker dies first.
   * @param {object} request without id (one is assigned)  @param {Transferable[]} transfer
   */
  request(request, transfer = []) {
    if (!this.alive) return Promise.reject(new WorkerFailure('the worker is not running'));
    if (!Object.hasOwn(REQUEST_REPLY, request.type)) return Promise.reject(new Error(`unknown request ${request.type}`));
    const id = this._nextId;
    this._nextId += 1;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject, expected: REQUEST_REPLY[request.type] });
      this._worker.postMessage({ ...request, id }, transfer);
    });
  }

  terminate() {
    if (!this.alive) return;
    this.alive = false;
    this._worker.terminate();
    for (const { reject } of this._pending.values()) reject(new WorkerFailure('the worker was stopped'));
    this._pending.clear();
  }

  _receive(reply) {
    if (!isReply(reply) || !this._pending.has(reply.id)) return;
    const { resolve, reject, expected } = this._pending.get(reply.id);
    this._pending.delete(reply.id);
    if (reply.type === 'error') reject(new Error(explainWorkerError(reply.message)));
    else if (reply.type !== expected) reject(new Error(`expected a ${expected} reply, got ${reply.type}`));
    else resolve(reply);
  }

  _fail(message) {
    if (!this.alive) return;
    this.alive = false;
    this._worker.terminate();
    const failure = new WorkerFailure(message);
    for (const { reject } of this._pending.values()) reject(failure);
    this._pending.clear();
    this._onFailure(message);
  }
}
