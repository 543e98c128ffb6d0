// The lesson's demo printout: for one draw of q and the keys, the top weights, the largest weight, the entropy,
// the effective number of keys and |J|_F of the softmax, raw and scaled, with a one-line reading under it.

import { h, replaceChildren, setText } from '../ui/dom.js';
import { scrollRegion } from '../ui/scroll-region.js';
import { fixed, formatSignificant, formatValue, whole } from '../ui/format.js';
import { formatNumber } from '../ui/locale.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.softmax;

/** The scale exponent as the explorer writes it (0.5, 1, 0.25). */
export const alphaText = (alpha, lang) => formatNumber(alpha, lang, { maximumFractionDigits: 2 });

export class SoftmaxPrintout {
  /** @param {string} lang how numbers are written */
  constructor(lang) {
    this.lang = lang;
    this.title = h('p', { class: 'printout-title' });
    this.body = h('tbody');
    this.note = h('p', { class: 'hint' });
    this.readout = h('p', { class: 'takeaway', attrs: { 'aria-live': 'polite' } });
    const headers = T.columns.map((text, i) => h('th', { text, attrs: { scope: 'col', title: T.columnTitles[i] || null } }));
    this.topHeader = headers[1];
    this.headers = headers;
    this.element = h('div', { class: 'printout' }, [
      this.title,
      scrollRegion(T.printoutTable, [h('table', { class: 'top5', attrs: { 'data-table': 'top5' } }, [
        h('thead', {}, [h('tr', {}, headers)]), this.body])]).element,
      this.note,
      this.readout,
    ]);
  }

  /** @param {object} demo lab.softmaxDemo's result (wasm-api.js) */
  render(demo) {
    const { lang } = this;
    const f = (x, digits) => fixed(x, digits, lang);
    const g = (x) => formatValue(x, lang);
    const beside = (x) => formatSignificant(x, lang);  // a column, raw beside scaled: the same digits (sqrtdk softmax)
    const keys = whole(demo.keys, lang);
    this.title.textContent = T.printoutTitle(keys, whole(demo.dk, lang), whole(demo.seed, lang), alphaText(demo.alpha, lang));
    const row = (name, label, side) => h('tr', { attrs: { 'data-row': name } }, [
      h('th', { attrs: { scope: 'row' }, text: label }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'top' }, text: Array.from(side.top, (w) => f(w, 4)).join(' ') }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'max' }, text: f(side.max, 4) }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'entropy' }, text: f(side.entropy, 3) }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'effective' }, text: T.effectiveKeys(f(side.effectiveKeys, 2), keys) }),
      h('td', { class: 'mono', attrs: { 'data-cell': 'jacobian' }, text: beside(side.jacobianNorm) }),
    ]);
    replaceChildren(this.body, [row('raw', T.raw, demo.raw), row('scaled', T.scaled, demo.scaled)]);
    this.topHeader.textContent = T.topWeights(whole(demo.raw.top.length, lang));
    this.note.textContent = T.printoutNote(keys, f(Math.log(demo.keys), 3));
    const ratio = demo.scaled.jacobianNorm / Math.max(demo.raw.jacobianNorm, 1e-300);
    setText(this.readout, T.readout({ rawTop: beside(demo.raw.max), rawKeys: f(demo.raw.effectiveKeys, 1),
      scaledTop: beside(demo.scaled.max), scaledKeys: f(demo.scaled.effectiveKeys, 1), rawJ: beside(demo.raw.jacobianNorm),
      scaledJ: beside(demo.scaled.jacobianNorm), more: ratio > 1.05 ? g(ratio) : null }));
  }
}
