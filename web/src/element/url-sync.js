// Keeps a store and the page's URL hash in step (only for an element with the sync-url attribute): the
// state is written with history.replaceState (no history entry per slider move), and a hash edited by hand
// or by the back button is parsed and applied.

import { parseHash, serializeHash } from '../state/url-state.js';

const WRITE_DELAY_MS = 150;

export class UrlSync {
  /**
   * @param {import('../state/store.js').Store} store
   * @param {() => object} baseState what the hash is applied over (defaults and attributes)
   * @param {(notices: string[]) => void} notify
   */
  constructor(store, baseState, notify) {
    this.store = store;
    this.baseState = baseState;
    this.notify = notify;
    this.written = null;
    this.timer = 0;
    this.onHashChange = () => this._read();
    window.addEventListener('hashchange', this.onHashChange);
    this.unsubscribe = store.subscribe(() => this._scheduleWrite());
    this._write();
  }

  /** The shareable link of the current state. */
  link() {
    return `${location.href.split('#')[0]}#${serializeHash(this.store.state)}`;
  }

  destroy() {
    window.removeEventListener('hashchange', this.onHashChange);
    this.unsubscribe();
    clearTimeout(this.timer);
  }

  _scheduleWrite() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this._write(), WRITE_DELAY_MS);
  }

  _write() {
    const hash = serializeHash(this.store.state);
    if (location.hash.replace(/^#/, '') === hash) return;
    this.written = hash;
    try {
      history.replaceState(history.state, '', `#${hash}`);
    } catch {
      location.replace(`#${hash}`);
    }
  }

  _read() {
    const hash = location.hash.replace(/^#/, '');
    if (hash === this.written) return;
    const { state, notices } = parseHash(hash, this.baseState());
    this.notify(notices);
    this.store.replace(state, 'hash');
  }
}
