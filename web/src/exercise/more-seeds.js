// The offer under a finished answer to run more seeds: the finished runs stay, only the new seeds train, and the
// verdict (the share of (seed, seed) pairs in which one variant got there first: src/core/answer/analysis.hpp) rests on
// more pairs.  Offers 10 seeds, then the most the page allows.
import { h } from '../ui/dom.js';
import { button } from '../ui/controls.js';
import { whole } from '../ui/format.js';
import { PROPERTY_BY_KEY } from '../state/properties.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.moreSeeds;
const FIRST_OFFER = 10;

export class MoreSeeds {
  /** @param {{onRun: (seeds: number) => void, lang: string}} options onRun: set the seeds to this and start */
  constructor({ onRun, lang }) {
    this.lang = lang;
    this.target = 0;
    this.button = button({ text: '', class: 'chip', key: 'more-seeds', onClick: () => onRun(this.target) });
    this.element = h('p', { class: 'hint more-seeds', attrs: { 'data-more-seeds': '' } }, [T.why, ' ', this.button]);
    this.element.hidden = true;
  }

  /** @param {object|null} answer the shown answer  @param {number} seeds the seeds per variant now */
  render(answer, seeds) {
    const max = PROPERTY_BY_KEY.get('seeds').max;
    this.target = seeds < FIRST_OFFER ? Math.min(FIRST_OFFER, max) : max;
    const show = Boolean(answer?.final) && this.target > seeds;
    const text = show ? T.run(whole(this.target - seeds, this.lang), whole(this.target, this.lang)) : '';
    if (this.button.textContent !== text) this.button.textContent = text;
    if (this.element.hidden === show) this.element.hidden = !show;
  }
}
