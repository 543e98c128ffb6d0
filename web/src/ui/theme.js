// The colours canvases need, read from the element's CSS custom properties (light or dark through
// prefers-color-scheme), so charts and CSS agree.  Read once and cached: getComputedStyle during a redraw
// would force a style recalculation of the page; call refresh() when the colour scheme changes.

/**
 * @param {HTMLElement} host the custom element
 * @returns {{read: () => {dark: boolean, text: string, muted: string, grid: string, surface: string, font: string},
 *            refresh: () => void}}
 */
export function themeReader(host) {
  const cache = { value: null };
  const load = () => {
    const style = getComputedStyle(host);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return Object.freeze({
      dark: read('--lab-scheme', 'light') === 'dark',
      text: read('--lab-text', '#1d2330'),
      muted: read('--lab-muted', '#5b6474'),
      grid: read('--lab-grid', '#e3e6ec'),
      surface: read('--lab-surface', '#ffffff'),
      font: read('--lab-font', 'system-ui, sans-serif'),
    });
  };
  return {
    read: () => {
      if (!cache.value) cache.value = load();
      return cache.value;
    },
    refresh: () => { cache.value = null; },
  };
}
