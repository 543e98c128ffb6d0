// Labelled, keyboard-usable form controls.  Each returns {element, set(value)}: `element` is a row carrying
// data-key (so hide="key" can hide it) and `set` shows a value without firing the change callback.

import { h } from './dom.js';
import { STRINGS } from './strings.js';

/** The control's id: unique because each key has one control per lab, and ids are scoped to its shadow root. */
function uid(key) {
  return `lab-${key}`;
}

/**
 * A slider with a number box beside it.  The slider may be non-linear (log) through toSlider/fromSlider.
 * @param {{key: string, label: string, min: number, max: number, step?: number, value: number,
 *          sliderMin?: number, sliderMax?: number, toSlider?: (v) => number, fromSlider?: (s) => number,
 *          hint?: string, onChange: (v) => void}} o
 */
export function rangeControl(o) {
  const id = uid(o.key);
  const toSlider = o.toSlider ?? ((v) => v);
  const fromSlider = o.fromSlider ?? ((s) => s);
  const slider = h('input', { attrs: { id, type: 'range', min: o.sliderMin ?? o.min, max: o.sliderMax ?? o.max,
    step: o.sliderStep ?? o.step ?? 1 } });
  const box = h('input', { class: 'number', attrs: { type: 'number', min: o.min, max: o.max, step: o.step ?? 'any',
    'aria-label': STRINGS.exactValue(o.label), inputmode: 'decimal' } });
  // A screen reader reads the setting's value, not the slider's position (a log slider's position is an exponent).
  const speak = (value) => slider.setAttribute('aria-valuetext', String(value));
  const set = (value) => {
    slider.value = String(toSlider(value));
    box.value = String(value);
    speak(value);
  };
  slider.addEventListener('input', () => {
    const value = fromSlider(Number(slider.value));
    box.value = String(value);
    speak(value);
    o.onChange(value);
  });
  box.addEventListener('change', () => {
    const n = Number(box.value);
    if (box.value.trim() === '' || !Number.isFinite(n)) {
      box.value = String(fromSlider(Number(slider.value)));
      return;
    }
    const value = Math.min(o.max, Math.max(o.min, o.integer ? Math.round(n) : n));
    set(value);
    o.onChange(value);
  });
  set(o.value);
  const element = h('div', { class: 'control', attrs: { 'data-key': o.key } }, [
    h('label', { attrs: { for: id }, text: o.label }),
    h('div', { class: 'control-input' }, [slider, box]),
    o.hint ? h('div', { class: 'hint', text: o.hint }) : null,
  ]);
  return { element, set, slider, box };
}

/** @param {{key, label, options: {value, text}[], value, onChange, hint?}} o  setOptions(options) replaces the choices */
export function selectControl(o) {
  const id = uid(o.key);
  let options = o.options;
  const select = h('select', { attrs: { id } });
  const set = (value) => { select.value = String(value); };
  const setOptions = (next) => {
    options = next;
    select.replaceChildren(...options.map((opt) => h('option', { attrs: { value: String(opt.value) }, text: opt.text })));
  };
  select.addEventListener('change', () => {
    const opt = options.find((x) => String(x.value) === select.value);
    if (opt) o.onChange(opt.value);
  });
  setOptions(options);
  set(o.value);
  const hint = o.hint ? h('div', { class: 'hint', text: o.hint }) : null;
  const element = h('div', { class: 'control', attrs: { 'data-key': o.key } }, [
    h('label', { attrs: { for: id }, text: o.label }), h('div', { class: 'control-input' }, [select]), hint]);
  return { element, set, setOptions, select, hint };
}

/** @param {{key, label, min, max, value, onChange, integer?: boolean}} o */
export function numberControl(o) {
  const id = uid(o.key);
  const input = h('input', { class: 'number wide', attrs: { id, type: 'number', min: o.min, max: o.max, step: o.integer ? 1 : 'any' } });
  const set = (value) => { input.value = String(value); };
  input.addEventListener('change', () => {
    const n = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(n)) return;
    const value = Math.min(o.max, Math.max(o.min, o.integer ? Math.round(n) : n));
    set(value);
    o.onChange(value);
  });
  set(o.value);
  const extra = o.extra ?? [];
  const element = h('div', { class: 'control', attrs: { 'data-key': o.key } }, [
    h('label', { attrs: { for: id }, text: o.label }), h('div', { class: 'control-input' }, [input, ...extra])]);
  return { element, set, input };
}

/** A checkbox. @param {{key, label, value: boolean, onChange}} o */
export function toggleControl(o) {
  const id = uid(o.key);
  const input = h('input', { attrs: { id, type: 'checkbox' } });
  const set = (value) => { input.checked = Boolean(value); };
  input.addEventListener('change', () => o.onChange(input.checked));
  set(o.value);
  const element = h('div', { class: 'control toggle', attrs: { 'data-key': o.key } }, [
    input, h('label', { attrs: { for: id }, text: o.label })]);
  return { element, set, input };
}

/**
 * Checkboxes for a subset, in a fieldset.  At least one stays checked when `atLeastOne`.
 * @param {{key, label, options: {value, text}[], values: string[], onChange, atLeastOne?: boolean}} o
 */
export function checkboxGroup(o) {
  const inputs = o.options.map((opt) => {
    const id = uid(`${o.key}-${opt.value}`);
    const input = h('input', { attrs: { id, type: 'checkbox', value: opt.value } });
    const text = h('label', { attrs: { for: id }, text: opt.text });
    return { opt, input, text, row: h('span', { class: 'check' }, [input, text]) };
  });
  const set = (values) => { for (const { opt, input } of inputs) input.checked = values.includes(opt.value); };
  for (const { input } of inputs) {
    input.addEventListener('change', () => {
      const values = inputs.filter((x) => x.input.checked).map((x) => x.opt.value);
      if (o.atLeastOne && values.length === 0) {
        input.checked = true;
        return;
      }
      o.onChange(values);
    });
  }
  set(o.values);
  const element = h('fieldset', { class: 'control', attrs: { 'data-key': o.key } }, [
    h('legend', { text: o.label }), h('div', { class: 'checks' }, inputs.map((x) => x.row))]);
  return { element, set, labels: Object.fromEntries(inputs.map((x) => [x.opt.value, x.text])) };
}

/** @param {{text, onClick, class?, title?, key?}} o */
export function button(o) {
  return h('button', { class: o.class ?? 'secondary', text: o.text,
    attrs: { type: 'button', title: o.title, 'data-key': o.key, 'aria-label': o.ariaLabel }, on: { click: o.onClick } });
}
