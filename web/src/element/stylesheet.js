// The shadow root's styles as constructed stylesheets (adoptedStyleSheets): not subject to a host page's
// style-src, unlike an inline <style>.  Falls back to <style> where constructed sheets are missing.  The sheets
// are parsed once per page and shared by every element's shadow root (a sheet may be adopted by many roots of
// one document), so a new element costs no CSS parse.

import labCss from '../ui/styles.css';
import uplotCss from 'uplot/dist/uPlot.min.css';

const CSS = [uplotCss, labCss];
/** @type {CSSStyleSheet[]|null} the page's parsed sheets, made by the first element that needs them */
let shared = null;

/** @param {ShadowRoot} root */
export function adoptStyles(root) {
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    shared ??= CSS.map((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      return sheet;
    });
    root.adoptedStyleSheets = shared;
    return;
  }
  for (const css of CSS) {
    const style = document.createElement('style');
    style.textContent = css;
    root.append(style);
  }
}
