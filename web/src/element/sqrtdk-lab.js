// <sqrtdk-lab>: the custom element.  Attributes: panels="train,softmax", hide="lr,seed,...", any setting in
// kebab-case (d-model="64", seeds="3", ...), sync-url (read and write the page's URL hash) and
// frame-messaging (lab.html: talk to the parent page named by #parentOrigin=...).  The element forwards its
// lifecycle to a LabInstance and its control API (start, pause, reset, settings, result, exportData) to the
// instance's LabApi.  Events and types: web/src/api/lab-events.js, web/types/sqrtdk-lab.d.ts.

import { LabInstance } from './lab-instance.js';
import { missingFeature } from './browser-support.js';
import { adoptStyles } from './stylesheet.js';
import { h } from '../ui/dom.js';
import { PROPERTIES, PROPERTY_BY_ATTRIBUTE, defaultState } from '../state/properties.js';
import { parseAttributes } from '../state/url-state.js';
import { strictSettings, settingsCopy } from '../api/settings.js';
import { STRINGS } from '../ui/strings.js';
import { pageBudget, setPageBudget } from '../worker/page-workers.js';
import { largestRun } from '../worker/memory-budget.js';

export class SqrtdkLabElement extends HTMLElement {
  static get observedAttributes() { return PROPERTIES.map((p) => p.attribute); }

  /** Bytes the training workers of every element on the page may hold together (memory-budget.js has the default). */
  static get memoryBudget() { return pageBudget(); }

  /** @param {number} bytes a whole number of bytes; a bad value throws one line and changes nothing */
  static set memoryBudget(bytes) { setPageBudget(bytes); }

  // Lifecycle callbacks never throw (the host page would get an uncaught error and a blank element): a bad
  // value assigned before the element was defined becomes a notice in the element, which is built anyway.
  connectedCallback() {
    // A value assigned before this class was defined sits on the instance and hides the setter: re-assign it.
    let refused = null;
    if (Object.hasOwn(this, 'settings')) {
      const value = this.settings;
      delete this.settings;
      try {
        this.settings = value;
      } catch (error) {
        refused = error.message;
      }
    }
    if (this.instance) {
      this.instance.connected();
      if (refused) this.instance.notify(refused);
      return;
    }
    this.unsupported = missingFeature();
    if (this.unsupported) {
      this._showUnsupported();
      return;
    }
    this.instance = new LabInstance(this);
    if (refused) this.instance.notify(refused);
    for (const pending of this.pendingSettings ?? []) {
      try {
        this.instance.api.settings = pending;
      } catch (error) {
        this.instance.notify(error.message);
      }
    }
    this.pendingSettings = null;
  }

  disconnectedCallback() {
    // A move within the page disconnects and reconnects at once: keep the instance in that case.
    queueMicrotask(() => {
      if (this.isConnected || !this.instance) return;
      this.instance.destroy();
      this.instance = null;
    });
  }

  attributeChangedCallback(name, previous, value) {
    if (this.instance && previous !== value) this.instance.attributeChanged(name, value);
  }

  /** Start (or continue) training every run. */
  start() { this._api('start()').start(); }

  /** Pause training at once; start() continues.  @returns {Promise<void>} resolves once the workers are idle */
  pause() { return this._api('pause()').pause(); }

  /** Clear the curves; the runs start again from their seeds. */
  reset() { this._api('reset()').reset(); }

  /** Every setting, as a fresh plain object. */
  get settings() {
    if (this.instance) return this.instance.api.settings;
    return settingsCopy(this._unconnectedState());
  }

  /**
   * Some settings ({dk: 256} or "dk=256&seeds=1"), checked like the URL hash; a bad value throws and changes
   * nothing.  Before the element is in the document, they are checked now and applied when it connects.
   */
  set settings(input) {
    if (this.instance) {
      this.instance.api.settings = input;
      return;
    }
    strictSettings(input, this._unconnectedState(), largestRun(pageBudget()));
    this.pendingSettings = [...(this.pendingSettings ?? []), typeof input === 'object' ? { ...input } : input];
  }

  /** The last answer (the sqrtdk-answer detail), or null before one is ready or after a reset. */
  get result() { return this.instance ? this.instance.api.result : null; }

  /** @param {'csv'|'json'} format  @returns {string} the exercise's curves, as the Export buttons save them */
  exportData(format) { return this._api('exportData()').exportData(format); }

  /** A browser that lacks what the lab needs: the one line saying so, in the element and as sqrtdk-error. */
  _showUnsupported() {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    root.replaceChildren();
    adoptStyles(root);
    root.append(h('p', { class: 'problem', attrs: { role: 'alert' }, text: this.unsupported }));
    this.dispatchEvent(new CustomEvent('sqrtdk-error', { detail: { kind: 'wasm', message: this.unsupported, recoverable: false },
      bubbles: true, composed: true }));
  }

  _api(member) {
    if (this.unsupported) throw new Error(this.unsupported);
    if (!this.instance) throw new Error(STRINGS.notConnected(member));
    return this.instance.api;
  }

  /** Defaults, the attributes, and any settings assigned while unconnected. */
  _unconnectedState() {
    const attributes = [...this.attributes].filter((a) => PROPERTY_BY_ATTRIBUTE.has(a.name)).map((a) => [a.name, a.value]);
    return (this.pendingSettings ?? []).reduce((state, input) => strictSettings(input, state), parseAttributes(attributes, defaultState()).state);
  }
}
