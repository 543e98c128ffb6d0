// Keeps a store and the page's URL hash in step (only for an element with the sync-url attribute, and only the
// first such element on the page: claimHash): the state is written with history.replaceState (no history entry per slider move), and a hash edited by hand
// or by the back button is parsed and applied.

import { parseHash, serializeHash } from '../state/url-state.js';

const WRITE_DELAY_MS = 150;

/** Hash keys that belong to the page around the lab (frame messaging, frame-bridge.js), not to its settings. */
const EMBEDDING_KEYS = ['parentOrigin'];

/**
 * A hash split into the lab's settings and the embedding keys, each as hash text without '#'.
 * @returns {{settings: string, embedding: string}}
 */
export function splitHash(hash) {
  const settings = new URLSearchParams(String(hash ?? '').replace(/^#/, ''));
  const embedding = new URLSearchParams();
  for (const key of EMBEDDING_KEYS) {
    if (settings.has(key)) embedding.set(key, settings.get(key));
    settings.delete(key);
  }
  return { settings: settings.toString(), embedding: embedding.toString() };
}

// The element whose UrlSync keeps the page's hash: the page has one hash, so the first element with sync-url
// holds it until it leaves the page; another element with sync-url meanwhile neither reads nor writes it.
let hashHolder = null;

/** May `host` keep the page's hash? True for the first element asking (or when the holder left the page). */
export function claimHash(host) {
  if (hashHolder && hashHolder !== host) return false;
  hashHolder = host;
  return true;
}

export class UrlSync {
  /**
   * @param {import('../state/store.js').Store} store
   * @param {() => object} baseState what the hash is applied over (defaults and attributes)
   * @param {(notices: string[]) => void} notify
   * @param {HTMLElement} host the element that claimed the hash (claimHash), which destroy() gives it back from
   */
  constructor(store, baseState, notify, host) {
    this.host = host;
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
    if (hashHolder === this.host) hashHolder = null;
    window.removeEventListener('hashchange', this.onHashChange);
    this.unsubscribe();
    clearTimeout(this.timer);
  }

  _scheduleWrite() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this._write(), WRITE_DELAY_MS);
  }

  _write() {
    // The embedding keys stay in the hash (a reloaded frame still knows its parent) but not in shared links.
    const { embedding } = splitHash(location.hash);
    const hash = [serializeHash(this.store.state), embedding].filter(Boolean).join('&');
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
    const { state, notices } = parseHash(splitHash(hash).settings, this.baseState());
    this.notify(notices);
    this.store.replace(state, 'hash');
  }
}
