// lab.html inside an iframe: talks to the page around it, and only to the origin that page names in the
// frame's URL hash (#...&parentOrigin=https://lessons.example.org).
//
// lab -> parent (postMessage to exactly that origin):
//   {source: 'sqrtdk-lab', type: 'sqrtdk-height', height}     the document's height in CSS pixels, on every change
//   {source: 'sqrtdk-lab', type: <event name>, detail}        each event of the element (lab-events.js)
// parent -> lab (accepted only from window.parent at that origin; everything else is ignored):
//   {type: 'start'} | {type: 'pause'} | {type: 'reset'} | {type: 'settings', settings: {...} or "dk=256&..."}
//   A bad command from the parent is answered with an sqrtdk-error event (kind 'message') and changes nothing.

import { EVENT_NAMES } from './lab-events.js';
import { splitHash } from '../element/url-sync.js';
import { STRINGS } from '../ui/strings.js';
import { watchSize } from '../ui/size-watch.js';

export const MESSAGE_SOURCE = 'sqrtdk-lab';
const COMMANDS = new Set(['start', 'pause', 'reset', 'settings']);

/** `text` if it is exactly an http(s) origin ("https://host[:port]", nothing more), else null. */
export function exactOrigin(text) {
  if (typeof text !== 'string' || text === '*') return null;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text ? text : null;
  } catch {
    return null;
  }
}

/**
 * The origin of the page around this frame, where the browser tells it: location.ancestorOrigins (Chromium,
 * Safari), else the referrer (the page that loaded the frame, unless its referrer policy hides it); null if unknown.
 */
export function embeddingOrigin() {
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

/** One-line description of a value in an error message. */
const describe = (value) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value === null ? null : typeof value));

export class FrameBridge {
  /**
   * @param {HTMLElement} host the <sqrtdk-lab> (its events are forwarded, its methods called)
   * @param {{notify: (text: string) => void, events: import('./lab-events.js').LabEvents}} deps
   */
  constructor(host, { notify, events }) {
    this.host = host;
    this.events = events;
    this.origin = null;
    this.stops = [];
    const named = new URLSearchParams(splitHash(location.hash).embedding).get('parentOrigin');
    if (named === null) return;
    if (!exactOrigin(named)) {
      notify(STRINGS.badParentOrigin(describe(named)));
      return;
    }
    if (window.parent === window) {
      notify(STRINGS.noParentFrame);
      return;
    }
    // A well-formed origin that is not the parent's: the browser would drop every message without a word.
    const actual = embeddingOrigin();
    if (actual !== null && actual !== named) notify(STRINGS.parentOriginMismatch(named, actual));
    this.origin = named;
    this._forwardEvents();
    this._postHeight();
    this._listen();
  }

  destroy() {
    for (const stop of this.stops) stop();
    this.stops = [];
  }

  _post(message) {
    window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, this.origin);
  }

  _forwardEvents() {
    for (const name of EVENT_NAMES) {
      const forward = (event) => { if (event.target === this.host) this._post({ type: name, detail: event.detail }); };
      this.host.addEventListener(name, forward);
      this.stops.push(() => this.host.removeEventListener(name, forward));
    }
  }

  _postHeight() {
    let last = -1;
    const measure = () => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      this._post({ type: 'sqrtdk-height', height });
    };
    const watcher = watchSize(document.documentElement, measure);
    this.stops.push(() => watcher.disconnect());
    measure();
  }

  _listen() {
    const receive = (event) => {
      if (event.source !== window.parent || event.origin !== this.origin) return;
      try {
        this._command(event.data);
      } catch (error) {
        this.events.error('message', STRINGS.badMessage(error.message.replace(/^sqrtdk-lab: /, '')));
      }
    };
    window.addEventListener('message', receive);
    this.stops.push(() => window.removeEventListener('message', receive));
  }

  _command(data) {
    const type = data !== null && typeof data === 'object' ? data.type : undefined;
    if (!COMMANDS.has(type)) throw new Error(STRINGS.unknownCommand(describe(type)));
    if (type === 'settings') this.host.settings = data.settings;
    else this.host[type]();
  }
}
