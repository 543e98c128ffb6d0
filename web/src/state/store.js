// One lab instance's settings: the current state, updates that keep it valid, and listeners told which keys
// changed.  No DOM; each <sqrtdk-lab> owns one store.

import { changedKeys, followOptimizerLr, normalizeState } from './url-state.js';
import { PROPERTY_BY_KEY } from './properties.js';

export class Store {
  /** @param {object} initial a full, valid state */
  constructor(initial) {
    this._state = initial;
    this._listeners = new Set();
  }

  get state() { return this._state; }

  /** @param {(state, changed: string[], origin: string) => void} listener  @returns {() => void} unsubscribe */
  subscribe(listener) {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /**
   * Set some keys (already typed values, e.g. from a control) and normalise.
   * @param {object} partial  @param {string} origin who changed it ('control', 'hash', 'attribute')
   * @returns {string[]} notices from normalisation
   */
  update(partial, origin = 'control') {
    const next = { ...this._state };
    for (const [key, value] of Object.entries(partial)) {
      if (PROPERTY_BY_KEY.has(key)) next[key] = value;
    }
    return this.replace(followOptimizerLr(this._state, next, Object.hasOwn(partial, 'lr')), origin);
  }

  /** Replace the whole state (e.g. from a parsed hash). @returns {string[]} notices */
  replace(full, origin = 'hash') {
    const { state, notices } = normalizeState(full);
    const changed = changedKeys(this._state, state);
    this._state = state;
    if (changed.length) for (const listener of this._listeners) listener(state, changed, origin);
    return notices;
  }
}
