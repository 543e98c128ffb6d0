// The colours canvases need, read from the element's CSS custom properties (light or dark through
// prefers-color-scheme), so charts and CSS agree.

/**
 * @param {HTMLElement} host the custom element
 * @returns {() => {dark: boolean, text: string, muted: string, grid: string, surface: string, font: string}}
 */
export function themeReader(host) {
  return () => {
    const style = getComputedStyle(host);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return {
      dark: read('--lab-scheme', 'light') === 'dark',
      text: read('--lab-text', '#1d2330'),
      muted: read('--lab-muted', '#5b6474'),
      grid: read('--lab-grid', '#e3e6ec'),
      surface: read('--lab-surface', '#ffffff'),
      font: read('--lab-font', 'system-ui, sans-serif'),
    };
  };
}
