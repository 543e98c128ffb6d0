// The scenarios: one-click presets from the core's table (src/core/claims/scenarios.cpp, via lab.scenarios()).
// Each preset is a settings fragment in the page's URL keys, applied through the same parser as a link, so
// it is validated like one and the page's link (Copy link) shares it.  Every preset names every training setting,
// so it is a whole state: its button is pressed only while the settings equal it.  A preset's button sets it (a
// change that would discard progress asks first, as a control does); its Run button sets it and starts.
// A caption is the core's messages in the element's language: one headline sentence (the counts), then the
// details folded under it (what to look at, every claim counted).

import { h, replaceChildren } from '../ui/dom.js';
import { scrollRegion } from '../ui/scroll-region.js';
import { whole } from '../ui/format.js';
import { button } from '../ui/controls.js';
import { parseHash } from '../state/url-state.js';
import { STRINGS } from '../ui/strings.js';
import { renderMessage } from '../analysis/render-message.js';

const T = STRINGS.scenarios;

/** Are `state`'s settings the preset's (but for the keys in `except`)? */
function sameSettings(scenario, state, except = []) {
  const preset = { ...parseHash(scenario.settings, state).state };
  for (const key of except) preset[key] = state[key];
  return JSON.stringify(preset) === JSON.stringify(state);
}

export class ScenariosView {
  /**
   * @param {{store, notify: (texts: string|string[]) => void, run: () => void, lang?: string}} deps  run: start the
   *   settings now set; lang: the element's language
   */
  constructor({ store, notify, run, lang = 'en' }) {
    this.store = store;
    this.lang = lang;
    this.notify = notify;
    this.run = run;
    this.list = [];
    this.body = h('tbody');
    this.element = h('section', { class: 'scenarios', attrs: { 'aria-labelledby': 'lab-scenarios-title', 'data-scenarios': '' } }, [
      h('h3', { attrs: { id: 'lab-scenarios-title' }, text: T.title }),
      h('p', { class: 'hint', text: T.hint }),
      scrollRegion(T.table, [h('table', { class: 'scenario-table' }, [
        h('thead', {}, [h('tr', {}, [h('th', { attrs: { scope: 'col' }, text: T.preset }), h('th', { attrs: { scope: 'col' }, text: T.lookAt })])]),
        this.body])]).element,
    ]);
    this.element.hidden = true;
  }

  /** @param {{id: string, title: string, headline: string, details: string, settings: string, messages: object}[]} list */
  setScenarios(list) {
    this.list = list;
    this.element.hidden = list.length === 0;
    const say = (message) => renderMessage(message, STRINGS.answer, this.lang);
    replaceChildren(this.body, list.map((s) => {
      const title = say(s.messages.title);
      return h('tr', { attrs: { 'data-scenario': s.id } }, [
        h('th', { attrs: { scope: 'row' } }, [button({ text: title, class: 'scenario-button', title: s.settings.replace(/&/g, ' '),
          onClick: () => this.apply(s) }), ' ', button({ text: T.run, class: 'chip scenario-run', ariaLabel: T.runLabel(title),
          key: `run-${s.id}`, onClick: () => { this.apply(s); this.run(); } })]),
        h('td', {}, [
          ...(s.messages.headline ? [h('p', { class: 'scenario-headline', attrs: { 'data-headline': '' }, text: say(s.messages.headline) })] : []),
          h('p', { class: 'hint', attrs: { 'data-runs': '' }, text: this._runsText(s) }),
          h('details', { class: 'scenario-details' }, [h('summary', { text: T.more }),
            ...s.messages.details.map((m) => h('p', { text: say(m) }))]),
        ]),
      ]);
    }));
    this.show(this.store.state);
  }

  /** What the preset's Run trains, beside the claim's 20 seeds: its seeds, variants and steps. */
  _runsText(scenario) {
    const { state } = parseHash(scenario.settings, this.store.state);
    const w = (x) => whole(x, this.lang);
    const first = state.trainSeed;
    const last = first + state.seeds - 1;
    const claimSeeds = scenario.messages.headline?.args?.seeds;  // the seeds the claim counts, as it writes them
    return T.runs(first === last ? w(first) : T.seedRange(w(first), w(last)), w(state.variants.length), w(state.steps),
      claimSeeds ? renderMessage(claimSeeds, STRINGS.answer, this.lang) : null);
  }

  /** Apply a preset over the current settings, as a link would (origin 'preset': asks before discarding runs). */
  apply(scenario) {
    const { state, notices } = parseHash(scenario.settings, this.store.state);
    if (notices.length) this.notify(notices);
    this.store.replace(state, 'preset');
  }

  /** Mark the preset whose settings are the current ones. */
  show(state) {
    for (const s of this.list) {
      const row = this.body.querySelector(`tr[data-scenario="${s.id}"]`);
      row?.querySelector('button').setAttribute('aria-pressed', String(sameSettings(s, state)));
    }
  }

  /**
   * The preset whose claim speaks of runs of these settings: every setting the preset's, but for how many seeds
   * and from which seed (its claim counts seeds 0-19), or null.
   */
  claimFor(state) {
    return this.list.find((s) => s.messages.headline && sameSettings(s, state, ['seeds', 'trainSeed'])) ?? null;
  }
}
