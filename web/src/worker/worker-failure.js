// The error a request gets when its worker died: distinct from an error reply, after which the worker is
// still usable.

export class WorkerFailure extends Error {
  constructor(message) {
    super(message);
    this.name = 'WorkerFailure';
  }
}
