// Notices shown at the top of the lab: settings that were clamped or dropped, workers that failed and were
// replaced, runs that diverged.  Text only (textContent).

import { h, replaceChildren } from './dom.js';
import { STRINGS } from './strings.js';

const MAX_KEPT = 12;

export class Notices {
  constructor() {
    this.items = [];
    this.list = h('ul');
    this.box = h('div', { class: 'notices', attrs: { role: 'status', 'aria-live': 'polite' } }, [
      this.list,
      h('button', { class: 'chip', text: STRINGS.dismiss, attrs: { type: 'button', 'aria-label': STRINGS.dismissNotices }, on: { click: () => this.clear() } }),
    ]);
    this.box.hidden = true;
    this.element = h('div', { attrs: { 'data-key': 'notices' } }, [this.box]);
  }

  /** @param {string|string[]} texts */
  add(texts) {
    const list = Array.isArray(texts) ? texts : [texts];
    if (list.length === 0) return;
    this.items = this.items.concat(list).slice(-MAX_KEPT);
    replaceChildren(this.list, this.items.map((text) => h('li', { text })));
    this.box.hidden = false;
  }

  clear() {
    this.items = [];
    replaceChildren(this.list, []);
    this.box.hidden = true;
  }
}
