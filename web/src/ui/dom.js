// Building DOM without HTML strings: every text goes in through textContent, attributes through
// setAttribute with a refusal of event-handler and style attributes (they would break a strict CSP and are
// the usual injection route).  No innerHTML anywhere in the lab.

const FORBIDDEN_ATTRIBUTE = /^(on|style$|srcdoc$)/i;

/**
 * h('button', {class: 'primary', text: 'Start', attrs: {type: 'button'}, on: {click}}, [children])
 * @param {string} tag
 * @param {{class?: string, text?: string, attrs?: object, on?: object, props?: object}} options
 * @param {(Node|string|null|false)[]} children strings become text nodes
 */
export function h(tag, options = {}, children = []) {
  const element = document.createElement(tag);
  if (options.class) element.className = options.class;
  if (options.text !== undefined) element.textContent = String(options.text);
  for (const [name, value] of Object.entries(options.attrs ?? {})) {
    if (FORBIDDEN_ATTRIBUTE.test(name)) throw new Error(`refusing attribute ${name}`);
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [name, value] of Object.entries(options.props ?? {})) element[name] = value;
  for (const [event, listener] of Object.entries(options.on ?? {})) element.addEventListener(event, listener);
  for (const child of children) {
    if (child === null || child === false || child === undefined) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/**
 * Set an element's text only if it differs: a write of the same text still invalidates layout, and a live
 * region would announce it again.
 */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/**
 * Show sentences as one paragraph each (a long reading splits where its sentences do); unchanged sentences
 * leave the element as it is.
 */
export function setParagraphs(element, sentences) {
  const current = [...element.children].map((p) => p.textContent);
  if (current.length === sentences.length && current.every((text, i) => text === sentences[i])) return;
  element.replaceChildren(...sentences.map((text) => h('p', { text })));
}

/** Replace an element's children. */
export function replaceChildren(element, children) {
  element.replaceChildren(...children.filter((c) => c !== null && c !== false && c !== undefined));
}
