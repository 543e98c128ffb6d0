// The per-instance helper worker: the softmax explorer's computations, the predicted logit std and the
// exercise's answer (lab.compare), off the main thread.  Requests of one kind (a name the caller chooses) are "latest wins": while one is computing,
// newer ones replace the waiting one (dragging a slider queues at most one request per kind), and a
// superseded request resolves to null.
// A worker that fails is reported and replaced (up to MAX_REPLACEMENTS times); the latest requests are re-sent.
// One helper serves every element of a page: scope() gives each element its own kinds and its own dispose().

import { WorkerClient } from './worker-client.js';
import { WorkerFailure } from './worker-failure.js';

const MAX_REPLACEMENTS = 3;

export class HelperWorker {
  /** @param {string} url  @param {{onFailure: (message: string, replaced: boolean) => void}} options */
  constructor(url, { onFailure }) {
    this._url = url;
    this._onFailure = onFailure;
    this._replacements = 0;
    this._kinds = new Map();
    this._disposed = false;
    this._client = this._spawn();
  }

  /**
   * @param {string} kindName requests with the same kind replace each other while waiting
   * @param {object} request a protocol request without id
   * @returns {Promise<object|null>} the reply, or null when a newer request of the same kind replaced it
   */
  latest(kindName, request) {
    const kind = this._kindOf(kindName);
    return new Promise((resolve, reject) => {
      if (kind.waiting) kind.waiting.resolve(null);
      kind.waiting = { request, resolve, reject };
      if (!kind.busy) this._sendNext(kindName);
    });
  }

  /**
   * A view for one element: its kinds do not replace another element's; dispose() drops only its own waiting
   * requests (they resolve to null).  @param {string} name unique on the page
   * @returns {{latest: (kind: string, request: object) => Promise<object|null>, dispose: () => void}}
   */
  scope(name) {
    const prefix = `${name}\u0000`;
    let disposed = false;
    return {
      latest: (kind, request) => (disposed ? Promise.resolve(null) : this.latest(prefix + kind, request).then((reply) => (disposed ? null : reply))),
      dispose: () => {
        disposed = true;
        for (const [kind, state] of this._kinds) {
          if (!kind.startsWith(prefix)) continue;
          if (state.waiting) state.waiting.resolve(null);
          state.waiting = null;
          if (!state.busy) this._kinds.delete(kind);
        }
      },
    };
  }

  dispose() {
    this._disposed = true;
    if (this._client) this._client.terminate();
    this._client = null;
    for (const kind of this._kinds.values()) if (kind.waiting) kind.waiting.resolve(null);
  }

  _kindOf(name) {
    if (!this._kinds.has(name)) this._kinds.set(name, { busy: false, waiting: null });
    return this._kinds.get(name);
  }

  _spawn() {
    return new WorkerClient(this._url, { name: 'sqrtdk-helper', onFailure: (message) => this._failed(message) });
  }

  _sendNext(name) {
    const kind = this._kinds.get(name);
    if (!kind || !kind.waiting || !this._client) return;
    const job = kind.waiting;
    kind.waiting = null;
    kind.busy = true;
    this._client.request(job.request).then(
      (reply) => job.resolve(reply),
      (error) => {
        if (error instanceof WorkerFailure && this._disposed) {
          job.resolve(null);  // the element left the page: nobody waits for the answer
        } else if (error instanceof WorkerFailure) {
          if (!kind.waiting) kind.waiting = job;
          else job.resolve(null);
        } else {
          job.reject(error);
        }
      },
    ).finally(() => {
      kind.busy = false;
      this._sendNext(name);
    });
  }

  _failed(message) {
    const replace = this._replacements < MAX_REPLACEMENTS;
    this._onFailure(message, replace);
    if (!replace) {
      this._client = null;
      for (const kind of this._kinds.values()) if (kind.waiting) kind.waiting.reject(new Error(message));
      return;
    }
    this._replacements += 1;
    this._client = this._spawn();
  }
}
