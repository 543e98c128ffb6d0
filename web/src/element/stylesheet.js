// The shadow root's styles as constructed stylesheets (adoptedStyleSheets): not subject to a host page's
// style-src, unlike an inline <style>.  Falls back to <style> where constructed sheets are missing.

import labCss from '../ui/styles.css';
import uplotCss from 'uplot/dist/uPlot.min.css';

/** @param {ShadowRoot} root */
export function adoptStyles(root) {
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheets = [uplotCss, labCss].map((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      return sheet;
    });
    root.adoptedStyleSheets = sheets;
    return;
  }
  for (const css of [uplotCss, labCss]) {
    const style = document.createElement('style');
    style.textContent = css;
    root.append(style);
  }
}
