// The demo in one line, above the exercise: the explorer's draw (raw vs scaled top weight and |J|_F) and where it
// stands among the fixed set of draws, so that the first screen shows what the lesson claims before the exercise
// measures what it does to training.  The explorer (explorer/softmax-panel.js) hands it each draw once its rank
// is known; it shows nothing while the explorer is not on the page.

import { h, setText } from '../ui/dom.js';
import { formatSignificant, formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';
import { renderMessage } from '../analysis/render-message.js';
import { curveDefinitions } from '../core-tables.js';

const T = STRINGS.headline;
// What "saturated" means everywhere the lab says it (src/core/lesson/saturation.hpp): a top weight of at least this.
const SATURATED = curveDefinitions.saturatedTopWeight;

export class DemoHeadline {
  /** @param {{lang?: string, glossary?: import('./glossary.js').Glossary|null}} [deps] glossary: where |J|_F links */
  constructor({ lang = 'en', glossary = null } = {}) {
    this.lang = lang;
    this.text = h('span');
    this.element = h('p', { class: 'demo-headline', attrs: { 'data-note': 'demo-headline' } },
      [this.text, glossary ? ' ' : null, glossary ? glossary.link('jacobian_norm') : null, T.below]);
    this.element.hidden = true;
    this.wanted = true;   // the explorer is on the page
    this.written = false; // a draw's line is written
  }

  /**
   * @param {object} demo lab.softmaxDemo's result  @param {ReturnType<import('../explorer/draw-rank.js').drawStanding>} standing
   */
  show(demo, standing) {
    const w = (x) => whole(x, this.lang);
    const g = (x) => formatValue(x, this.lang);
    const beside = (x) => formatSignificant(x, this.lang);  // raw beside scaled: the same digits
    const size = w(standing.size);
    const where = !standing.inSet ? T.outside(size)
      : standing.median.seed === demo.seed ? T.middle(w(standing.rank), size) : T.rank(w(standing.rank), size);
    // The verdict in the core's words, as the mechanism sentences give it (mech.top.*).
    const verdict = renderMessage({ key: demo.raw.max >= SATURATED ? 'mech.top.saturated' : 'mech.top.not_saturated',
      args: { bar: { value: SATURATED } } }, STRINGS.answer, this.lang);
    setText(this.text, T.text({ keys: w(demo.keys), dk: w(demo.dk), seed: w(demo.seed), where,
      rawTop: beside(demo.raw.max), scaledTop: beside(demo.scaled.max), rawJ: beside(demo.raw.jacobianNorm),
      scaledJ: beside(demo.scaled.jacobianNorm),
      verdict, scale: T.scale(demo.alpha === 0.5, g(demo.alpha)) }));
    this.written = true;
    this.element.hidden = !this.wanted;
  }

  /**
   * Whether the explorer is on the page.  A draw's line may arrive after the explorer was taken off (its answer
   * was on its way), so the line is shown only while it is wanted, and again when the explorer comes back.
   */
  setWanted(wanted) {
    this.wanted = wanted;
    this.element.hidden = !(wanted && this.written);
  }
}
