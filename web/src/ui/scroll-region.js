// A box that scrolls a wide table sideways.  While the table is wider than the box (a phone), the box is in
// the tab order as a labelled group (not a region: two labs on one page would repeat the landmark), so a
// keyboard reaches it and scrolls it with the arrow keys, and a hint above it says that it scrolls; while
// everything fits, it is a plain box with no extra tab stop.

import { h } from './dom.js';
import { STRINGS } from './strings.js';
import { pageFrames } from './frame-scheduler.js';

/**
 * @param {string} label what the region holds (read by a screen reader when it takes focus)
 * @param {Node[]} children the table (may be replaced later: the box re-measures when its children change)
 * @returns {{element: HTMLElement, box: HTMLElement}} element: hint and box, to place; box: the table's parent
 */
export function scrollRegion(label, children = []) {
  const hint = h('p', { class: 'hint scroll-hint', text: STRINGS.scrollHint, attrs: { 'aria-hidden': 'true' } });
  hint.hidden = true;
  const box = h('div', { class: 'table-scroll', attrs: { 'data-scrolls': 'false' } }, children);
  const measure = () => {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls === (box.dataset.scrolls === 'true')) return;
    box.dataset.scrolls = String(scrolls);
    hint.hidden = !scrolls;
    if (scrolls) {
      box.setAttribute('tabindex', '0');
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', STRINGS.scrollRegion(label));
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) box.removeAttribute(name);
    }
  };
  if (typeof ResizeObserver === 'function') {
    // Measured in a coming animation frame (the page's frame loop), not in the observer's callback: showing the
    // hint changes the layout, which the observer would see again in the same frame (a "ResizeObserver loop"
    // error on the host's window, e.g. when a phone-width lab.html switches panels).
    const sizes = new ResizeObserver(() => pageFrames.request(measure));
    const watch = () => {
      sizes.disconnect();
      sizes.observe(box);
      for (const child of box.children) sizes.observe(child);
      measure();
    };
    new MutationObserver(watch).observe(box, { childList: true });
    watch();
  }
  return { element: h('div', { class: 'scroll-region' }, [hint, box]), box };
}
