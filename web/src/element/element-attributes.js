// The element's attributes that are not settings (a setting's attribute is its key in kebab-case: properties.js).
// The one place each is named and described: the element reads them by these names, and web/README.md's
// attribute table and the .d.ts's SqrtdkLabAttributes are written from this table (web/settings-docs.mjs).

/** @typedef {{name: string, flag: boolean, example: string, doc: string}} ElementAttribute */

/** @type {Readonly<Record<string, ElementAttribute>>} */
export const ELEMENT_ATTRIBUTES = Object.freeze({
  syncUrl: {
    name: 'sync-url', flag: true, example: 'sync-url',
    doc: 'read the settings from the page\'s URL hash and keep the hash up to date (`history.replaceState`); shows '
      + 'the *Copy link* button. The page has one hash: the first element with `sync-url` keeps it; another one gets '
      + 'a notice and neither reads nor writes the hash (nor shows *Copy link*), and an element connected after the '
      + 'first has left the page keeps it.',
  },
  frameMessaging: {
    name: 'frame-messaging', flag: true, example: 'frame-messaging',
    doc: '(lab.html) talk to the page around the iframe named by `#parentOrigin=...` (web/README.md, *The iframe\'s messages*)',
  },
  lang: {
    name: 'lang', flag: false, example: 'lang="de"',
    doc: 'how numbers and plurals are written (decimal marks, grouping); read once when the element connects, from '
      + 'the element or the nearest ancestor with `lang`, else `en`; a tag that is invalid (`C`, `en_US`, empty) or '
      + 'that the browser\'s Intl lacks is `en`. The browser\'s own language is never used, so an invalid '
      + '`navigator.language` (`C` under a POSIX locale in WebKit) changes nothing. The words stay English unless '
      + 'the bundle is built from a translated `strings.js` (web/README.md, *Translating the lab*).',
  },
});
