// <sqrtdk-lab>: the custom element.  Attributes: panels="softmax,train", hide="lr,seed,...", any setting in
// kebab-case (d-model="64", seeds="3", ...), and sync-url (read and write the page's URL hash).  The element
// itself only forwards its lifecycle to a LabInstance.

import { LabInstance } from './lab-instance.js';
import { PROPERTIES } from '../state/properties.js';

export class SqrtdkLabElement extends HTMLElement {
  static get observedAttributes() { return PROPERTIES.map((p) => p.attribute); }

  connectedCallback() {
    if (!this.instance) this.instance = new LabInstance(this);
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
}
