// The lesson's claim, quoted with its source, and the glossary of every term the lab uses: the core's messages
// (lab.glossary, src/core/answer/glossary.hpp) rendered in the learner's language.  Other parts of the page reach an
// entry by its id: termButtons(ids) is a row of links to the terms a panel uses, link(id) a small "?" beside a
// chart's title; either shows the definition on hover and opens the glossary at it on click.  The definitions among the
// entries (smoothed loss, steps to threshold, stall) follow the exercise's threshold and steps.

import { h, setText, replaceChildren } from '../ui/dom.js';
import { renderMessage } from '../analysis/render-message.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.glossary;

export class Glossary {
  /**
   * @param {{store: import('../state/store.js').Store, helper: import('../worker/helper-worker.js').HelperWorker,
   *          notify: (text: string) => void, lang: string}} deps
   */
  constructor({ store, helper, notify, lang = 'en' }) {
    this.store = store;
    this.helper = helper;
    this.notify = notify;
    this.lang = lang;
    this.terms = new Map();     // id -> the entry's term
    this.texts = new Map();     // id -> what it is
    this.buttons = [];          // every link that leads to an entry: [id, link, kind]
    this.entries = new Map();   // id -> its <dd>
    this.claim = h('p');
    this.footnote = h('p', { class: 'hint' });
    this.source = h('a', { attrs: { target: '_blank', rel: 'noopener' } });
    this.quote = h('details', { class: 'lesson-quote', attrs: { 'data-note': 'lesson-quote' } }, [
      h('summary', { text: T.quoteSummary }),
      h('blockquote', {}, [this.claim, this.footnote]),
      h('p', { class: 'hint' }, [T.source, ' ', this.source]),
    ]);
    this.list = h('dl');
    this.summary = h('summary', { text: T.title(null) });
    this.element = h('details', { class: 'glossary', attrs: { 'data-note': 'glossary' } }, [this.summary, this.list]);
    this.unsubscribe = store.subscribe((state, changed) => {
      if (changed.includes('threshold') || changed.includes('steps')) this._request(state);
    });
    this._request(store.state);
  }

  destroy() { this.unsubscribe(); }

  /** A row of links, one per term of `ids`, each named by its term; for the end of a panel. */
  termButtons(ids) {
    return h('p', { class: 'terms hint', attrs: { 'data-note': 'terms' } }, [T.termsUsed, ' ',
      ...ids.map((id) => this._button(id, 'term'))]);
  }

  /** The same links inline, for right after the text that first uses the terms (a panel's lede). */
  firstTerms(ids) {
    return h('span', { class: 'terms-first' }, [' ', T.termsFirst, ' ',
      ...ids.flatMap((id, i) => [i ? ' · ' : '', this._button(id, 'term')])]);
  }

  /** A small "?" that leads to the entry `id`; for beside a chart's title. */
  link(id) { return this._button(id, 'link'); }

  /** A "?" beside a control's label (ui/controls.js), where the learner meets the term; the label stays the control's name. */
  labelLink(control, id) {
    const label = control.element.querySelector(':scope > label, :scope > legend');
    const head = h('span', { class: 'control-head' });
    label.replaceWith(head);
    head.append(label, ' ', this.link(id));
  }

  /** Opens the glossary at the entry `id` and moves the focus there. */
  show(id) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.element.open = true;
    for (const other of this.entries.values()) other.classList.toggle('shown', other === entry);
    entry.scrollIntoView({ block: 'center' });
    entry.focus({ preventScroll: true });
  }

  // A link (to the glossary, in this document) rather than a button: it goes somewhere, and the panels' own
  // buttons (Start, Step ...) stay the only buttons their names find.
  _button(id, kind) {
    const b = h('a', { class: kind === 'term' ? 'term' : 'term-link', text: kind === 'term' ? id : '?',
      attrs: { href: '#', 'data-term': id }, on: { click: (event) => { event.preventDefault(); this.show(id); } } });
    this.buttons.push([id, b, kind]);
    this._label(id, b, kind);
    return b;
  }

  _label(id, b, kind) {
    const term = this.terms.get(id) ?? id;
    if (kind === 'term') setText(b, term);
    b.title = this.texts.get(id) ?? '';
    b.setAttribute('aria-label', T.whatIs(term));
  }

  _request({ threshold, steps }) {
    this.helper.latest('glossary', { type: 'glossary', request: { threshold, steps } }).then((reply) => {
      if (reply) this._render(reply.result);
    }, (error) => this.notify(T.failed(error.message)));
  }

  _render({ quote, entries }) {
    const text = (message) => renderMessage(message, STRINGS.answer, this.lang);
    setText(this.claim, text(quote.claim));
    setText(this.footnote, text(quote.footnote));
    setText(this.source, text(quote.source));
    this.source.href = quote.link;
    this.terms = new Map(entries.map((e) => [e.id, text(e.term)]));
    this.texts = new Map(entries.map((e) => [e.id, text(e.text)]));
    this.entries.clear();
    replaceChildren(this.list, entries.flatMap(({ id }) => {
      const dd = h('dd', { text: this.texts.get(id), attrs: { 'data-term': id, tabindex: '-1' } });
      this.entries.set(id, dd);
      return [h('dt', { text: this.terms.get(id) }), dd];
    }));
    setText(this.summary, T.title(entries.length, this.lang));
    for (const [id, b, kind] of this.buttons) this._label(id, b, kind);
  }
}
