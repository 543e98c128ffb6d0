// Everything one <sqrtdk-lab> owns: its settings store, its helper worker, its runs (trained in the page's
// shared worker pool: page-workers.js), its panels, its URL sync and notices, its events and control API
// (web/src/api/).  Created when the element connects, destroyed when it leaves the page (its runs' trainers
// and memory are freed then).

import { h } from '../ui/dom.js';
import { button } from '../ui/controls.js';
import { Notices } from '../ui/notices.js';
import { themeReader } from '../ui/theme.js';
import { Store } from '../state/store.js';
import { defaultState, PANELS, PROPERTY_BY_ATTRIBUTE } from '../state/properties.js';
import { trainConfig } from '../training/run-plan.js';
import { parseAttributes, parseHash } from '../state/url-state.js';
import { joinPageWorkers } from '../worker/page-workers.js';
import { SoftmaxPanel } from '../explorer/softmax-panel.js';
import { Glossary } from '../lesson/glossary.js';
import { DemoHeadline } from '../lesson/demo-headline.js';
import { TrainPanel } from '../exercise/train-panel.js';
import { chunksFor } from '../training/chunk-order.js';
import { adoptStyles } from './stylesheet.js';
import { ELEMENT_ATTRIBUTES } from './element-attributes.js';
import { UrlSync, claimHash, splitHash } from './url-sync.js';
import { STRINGS } from '../ui/strings.js';
import { langOf } from '../ui/locale.js';
import { LabEvents } from '../api/lab-events.js';
import { LabApi } from '../api/lab-api.js';
import { FrameBridge } from '../api/frame-bridge.js';

/** [name, value] of the element's attributes that are settings. */
function settingAttributes(element) {
  return [...element.attributes].filter((a) => PROPERTY_BY_ATTRIBUTE.has(a.name)).map((a) => [a.name, a.value]);
}

export class LabInstance {
  /** @param {HTMLElement} host */
  constructor(host) {
    this.host = host;
    this.root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    // The language numbers and plurals follow: read once, passed down to every panel and chart.
    this.lang = langOf(host);
    this.root.replaceChildren();
    adoptStyles(this.root);
    this.themeReader = themeReader(host);
    this.theme = this.themeReader.read;
    this.notices = new Notices();
    this.panels = new Map();
    const fromAttributes = parseAttributes(settingAttributes(host), defaultState());
    this.attributeState = fromAttributes.state;
    // The page's one hash belongs to the first element with sync-url; a second one gets a notice and leaves it alone.
    const syncUrl = host.hasAttribute(ELEMENT_ATTRIBUTES.syncUrl.name) && claimHash(host);
    const initial = syncUrl ? parseHash(splitHash(location.hash).settings, this.attributeState) : { state: this.attributeState, notices: [] };
    this.store = new Store(initial.state);
    this.events = new LabEvents(host, this.store, this.lang);
    this.api = new LabApi({ store: this.store, events: this.events, trainPanel: () => this.ensurePanels().get('train') ?? null,
      runLimit: () => this.runWorkers.largestRun });
    // The page's workers, shared by every element on it: the training runs' pool (one worker per core, within
    // the page's memory budget) and the helper worker.
    this.pageWorkers = joinPageWorkers((message, replaced) => {
      const text = STRINGS.helperFailed(message, replaced);
      this.notify(text);
      this.events.error('helper', text, { recoverable: replaced });
    });
    this.runWorkers = this.pageWorkers.pool;
    this.helper = this.pageWorkers.helper;
    this.glossary = new Glossary({ store: this.store, helper: this.helper, notify: (t) => this.notify(t), lang: this.lang });
    this.demoHeadline = new DemoHeadline({ lang: this.lang, glossary: this.glossary });
    this._buildFrame();
    this.notify([...fromAttributes.notices, ...initial.notices, ...(host.hasAttribute(ELEMENT_ATTRIBUTES.syncUrl.name) && !syncUrl ? [STRINGS.syncUrlTaken] : [])]);
    if (syncUrl) this.urlSync = new UrlSync(this.store, () => this.attributeState, (n) => this.notify(n), host);
    this.shareButton.hidden = !this.urlSync;
    this.unsubscribe = this.store.subscribe((state, changed) => {
      if (!this.panelsBuilt) return;  // built later from the state of then
      if (changed.includes('panels')) this._showPanels();
      if (changed.includes('hide') || changed.includes('panels')) this._applyHide();
    });
    this.panelsBuilt = false;
    this.connected();
    this.darkQuery = matchMedia('(prefers-color-scheme: dark)');
    this.onSchemeChange = () => {
      this.themeReader.refresh();
      for (const panel of this.panels.values()) panel.refreshTheme();
    };
    this.darkQuery.addEventListener('change', this.onSchemeChange);
    if (host.hasAttribute(ELEMENT_ATTRIBUTES.frameMessaging.name)) this.frameBridge = new FrameBridge(host, { notify: (t) => this.notify(t), events: this.events });
    // Ready once the core has answered a first request (a configuration every build accepts).
    this.events.whenReady(this.helper.latest('ready', { type: 'predictLogitStd', configs: [trainConfig(defaultState(), 'scaled', 0)] }));
  }

  /**
   * The element is on the page: build its panels after the current task's script (a microtask).  The panels are
   * most of an element's cost (controls, tables, charts, the theme read), so an element created and removed in one
   * task (a host's framework re-rendering) builds none; a control API call that needs them builds them at once.
   */
  connected() {
    queueMicrotask(() => {
      if (this.host.isConnected && !this.destroyed) this.ensurePanels();
    });
  }

  /** Build the panels now if they are not yet.  @returns {Map<string, object>} the panels by name */
  ensurePanels() {
    if (!this.panelsBuilt && !this.destroyed) {
      this.panelsBuilt = true;
      this._showPanels();
      this._applyHide();
    }
    return this.panels;
  }

  /** An attribute that names a setting changed: apply it over the current state. */
  attributeChanged(name, value) {
    const { state, notices } = parseAttributes(value === null ? [] : [[name, value]], this.store.state);
    this.attributeState = parseAttributes(settingAttributes(this.host), defaultState()).state;
    this.notify(notices);
    this.store.replace(state, 'attribute');
  }

  /** @param {string|string[]} texts */
  notify(texts) { this.notices.add(texts); }

  destroy() {
    this.destroyed = true;
    this.events.destroy();
    if (this.frameBridge) this.frameBridge.destroy();
    this.unsubscribe();
    if (this.urlSync) this.urlSync.destroy();
    this.darkQuery.removeEventListener('change', this.onSchemeChange);
    for (const panel of this.panels.values()) panel.destroy();
    this.panels.clear();
    this.glossary.destroy();
    this.pageWorkers.leave();
    this.root.replaceChildren();
  }

  _buildFrame() {
    this.shareStatus = h('span', { class: 'share-status', attrs: { role: 'status' } });
    this.shareButton = button({ text: STRINGS.copyLink, key: 'share', title: STRINGS.copyLinkTitle, onClick: () => this._share() });
    this.shareFallback = h('input', { class: 'share-fallback', attrs: { type: 'text', readonly: true, 'aria-label': STRINGS.linkLabel } });
    this.shareFallback.hidden = true;
    this.panelBox = h('div', { class: 'lab' });
    this.root.append(h('div', { class: 'lab' }, [
      h('div', { class: 'lab-bar' }, [h('span', { class: 'brand', text: STRINGS.brand }), h('span', { class: 'spacer' }),
        this.shareStatus, this.shareButton, this.shareFallback]),
      this.notices.element,
      this.glossary.quote,
      this.demoHeadline.element,
      this.panelBox,
      this.glossary.element,
    ]));
  }

  _share() {
    const link = this.urlSync.link();
    const fallback = () => {
      this.shareFallback.value = link;
      this.shareFallback.hidden = false;
      this.shareFallback.select();
      this.shareStatus.textContent = STRINGS.copyThisLink;
    };
    if (!navigator.clipboard?.writeText) {
      fallback();
      return;
    }
    navigator.clipboard.writeText(link).then(() => {
      this.shareFallback.hidden = true;
      this.shareStatus.textContent = STRINGS.linkCopied;
    }, fallback);
  }

  _showPanels() {
    const wanted = this.store.state.panels;
    for (const name of wanted) {
      if (this.panels.has(name)) continue;
      const deps = { store: this.store, helper: this.helper, theme: this.theme, notify: (t) => this.notify(t), lang: this.lang,
        glossary: this.glossary, headline: this.demoHeadline };
      const panel = name === 'softmax' ? new SoftmaxPanel(deps) : new TrainPanel({
        ...deps,
        concurrency: chunksFor(this.runWorkers.size),
        pool: this.runWorkers,
        createClient: (onFailure) => this.runWorkers.client(onFailure),
      });
      this.panels.set(name, panel);
      if (panel.exercise) this.events.watch(panel.exercise, panel.answerClient);
    }
    const order = PANELS.filter((n) => this.panels.has(n));
    this.panelBox.replaceChildren(...order.map((n) => this.panels.get(n).element));
    for (const [name, panel] of this.panels) panel.element.hidden = !wanted.includes(name);
    this.demoHeadline.setWanted(wanted.includes('softmax'));
  }

  _applyHide() {
    const hidden = new Set(this.store.state.hide);
    for (const element of this.root.querySelectorAll('[data-key]')) element.hidden = hidden.has(element.dataset.key);
    if (!this.urlSync) this.shareButton.hidden = true;
  }
}
