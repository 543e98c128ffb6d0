// The exercise's settings controls and its training buttons.  Each control writes to the store; `set(key,
// state)` shows a changed value without firing.  No training logic here.

import { h } from '../ui/dom.js';
import { button, checkboxGroup, numberControl, rangeControl, selectControl } from '../ui/controls.js';
import { formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';
import { variantLabel } from '../analysis/localize-answer.js';
import { PROPERTY_BY_KEY, VARIANTS, rangeOf } from '../state/properties.js';

const LR_SLIDER_MAX = 1000;
const T = STRINGS.trainControls;

const choiceOptions = (key, text) => PROPERTY_BY_KEY.get(key).choices.map((value) => ({ value, text: text(value) }));

export class TrainControls {
  /**
   * @param {{store, actions: {start, pause, step, reset}, lang: string}} deps  lang: how numbers are written
   */
  constructor({ store, actions, lang = 'en' }) {
    this.lang = lang;
    const s = store.state;
    const update = (partial) => store.update(partial);
    const lr = rangeOf('lr');
    const lrToSlider = (v) => Math.round((LR_SLIDER_MAX * Math.log(v / lr.min)) / Math.log(lr.max / lr.min));
    const sliderToLr = (x) => Number((lr.min * (lr.max / lr.min) ** (x / LR_SLIDER_MAX)).toPrecision(2));
    const c = {};
    c.layers = rangeControl({ key: 'layers', label: T.layers, ...rangeOf('layers'), step: 1, integer: true, value: s.layers, onChange: (layers) => update({ layers }) });
    c.dModel = selectControl({ key: 'dModel', label: T.dModel, options: choiceOptions('dModel', (v) => whole(v, lang)), value: s.dModel, onChange: (dModel) => update({ dModel }) });
    c.heads = selectControl({ key: 'heads', label: T.heads, options: headOptions(s.dModel, lang), value: s.heads, onChange: (heads) => update({ heads }) });
    c.copyLength = rangeControl({ key: 'copyLength', label: T.copyLength, ...rangeOf('copyLength'), step: 1, integer: true, value: s.copyLength, onChange: (copyLength) => update({ copyLength }) });
    c.symbols = rangeControl({ key: 'symbols', label: T.symbols, ...rangeOf('symbols'), step: 1, integer: true, value: s.symbols, onChange: (symbols) => update({ symbols }) });
    c.batch = selectControl({ key: 'batch', label: T.batch, options: choiceOptions('batch', (v) => whole(v, lang)), value: s.batch, onChange: (batch) => update({ batch }) });
    c.lr = rangeControl({ key: 'lr', label: T.lr, ...lr, step: 'any', sliderMin: 0, sliderMax: LR_SLIDER_MAX,
      toSlider: lrToSlider, fromSlider: sliderToLr, value: s.lr, onChange: (v) => update({ lr: v }), hint: T.lrHint(formatValue(lr.min, lang), formatValue(lr.max, lang)) });
    c.optimizer = selectControl({ key: 'optimizer', label: T.optimizer, value: s.optimizer, onChange: (optimizer) => update({ optimizer }),
      options: choiceOptions('optimizer', (v) => (v === 'sgd' ? T.sgd : T.adam)),
      hint: T.optimizerHint });
    c.momentum = rangeControl({ key: 'momentum', label: T.momentum, ...rangeOf('momentum'), step: 0.01, value: s.momentum,
      onChange: (momentum) => update({ momentum }) });
    c.steps = numberControl({ key: 'steps', label: T.steps, ...rangeOf('steps'), integer: true, value: s.steps, onChange: (steps) => update({ steps }) });
    c.init = selectControl({ key: 'init', label: T.init, value: s.init, onChange: (init) => update({ init }),
      options: [{ value: 'xavier', text: T.xavier }, { value: 'torch', text: T.torch }, { value: 'gpt', text: T.gpt }],
      hint: T.predictionPending });
    c.init.hintText = h('span', { text: T.predictionPending });  // the hint's text; a glossary link may follow it
    c.init.hint.replaceChildren(c.init.hintText);
    c.variants = checkboxGroup({ key: 'variants', label: T.variants, values: s.variants, atLeastOne: true, onChange: (variants) => update({ variants }),
      options: VARIANTS.map((v) => ({ value: v, text: variantLabel(v, s.trainAlpha, lang) })) });
    c.trainAlpha = rangeControl({ key: 'trainAlpha', label: T.trainAlpha, ...rangeOf('trainAlpha'), step: 0.05, value: s.trainAlpha, onChange: (trainAlpha) => update({ trainAlpha }) });
    c.seeds = rangeControl({ key: 'seeds', label: T.seeds, ...rangeOf('seeds'), step: 1, integer: true, value: s.seeds, onChange: (seeds) => update({ seeds }) });
    c.trainSeed = numberControl({ key: 'trainSeed', label: T.trainSeed, ...rangeOf('trainSeed'), integer: true, value: s.trainSeed, onChange: (trainSeed) => update({ trainSeed }) });
    c.threshold = numberControl({ key: 'threshold', label: T.threshold, ...rangeOf('threshold'), value: s.threshold, onChange: (threshold) => update({ threshold }) });
    c.evalEvery = numberControl({ key: 'evalEvery', label: T.evalEvery, ...rangeOf('evalEvery'), integer: true, value: s.evalEvery, onChange: (evalEvery) => update({ evalEvery }) });
    this.c = c;

    this.start = button({ text: T.start, class: 'primary', onClick: actions.start });
    this.pause = button({ text: T.pause, onClick: actions.pause });
    this.step = button({ text: T.step, title: T.stepTitle, onClick: actions.step });
    this.reset = button({ text: T.reset, title: T.resetTitle, onClick: actions.reset });
    // What the runs are doing, in words (a first Step or Start loads the model in every worker first).  Not a
    // live region: its step count changes with every tick (the panel announces each change of phase instead).
    this.status = h('p', { class: 'train-status', attrs: { 'data-train-status': '' } });
    this.buttons = h('div', { class: 'buttons', attrs: { role: 'group', 'aria-label': T.training } },
      [this.start, this.pause, this.step, this.reset]);
    const group = (title, items) => h('fieldset', { class: 'control-group' }, [h('legend', { text: title }), ...items.map((x) => x.element)]);
    this.settings = h('details', { class: 'settings', attrs: { open: '' } }, [
      h('summary', { text: T.settings }),
      h('div', { class: 'controls', attrs: { role: 'group', 'aria-label': T.settingsLabel } }, [
        group(T.compare, [c.variants, c.trainAlpha, c.seeds, c.trainSeed]),
        group(T.model, [c.layers, c.dModel, c.heads, c.init]),
        group(T.task, [c.copyLength, c.symbols]),
        group(T.trainingGroup, [c.optimizer, c.lr, c.momentum, c.batch, c.steps, c.threshold, c.evalEvery]),
      ]),
    ]);
    this.bar = h('div', { class: 'train-bar' }, [this.buttons, this.status]);
  }

  /** Show the state's values of the changed keys. */
  show(state, changed) {
    for (const key of changed) if (this.c[key]) this.c[key].set(state[key]);
    if (changed.includes('dModel')) {
      this.c.heads.setOptions(headOptions(state.dModel, this.lang));
      this.c.heads.set(state.heads);
    }
    if (changed.includes('trainAlpha')) this.c.variants.labels.alpha.textContent = variantLabel('alpha', state.trainAlpha, this.lang);
  }

  /** The init control's hint: the predicted logit std at init per variant (from the core). */
  showPrediction(state, values) {
    const parts = state.variants.map((v, i) => T.predictionPart(variantLabel(v, state.trainAlpha, this.lang), formatValue(values[i], this.lang)));
    this.c.init.hintText.textContent = T.prediction(parts);
  }
}

function headOptions(dModel, lang) {
  return PROPERTY_BY_KEY.get('heads').choices.filter((n) => dModel % n === 0)
    .map((value) => ({ value, text: T.headOption(whole(value, lang), whole(dModel / value, lang)) }));
}
