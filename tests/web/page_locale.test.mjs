// An invalid language tag never stops the element: with each of BAD_TAGS as the browser's language
// (navigator.language, set before any script runs), as the document's lang and as the element's lang, the
// element is defined, the explorer shows its numbers as English writes them (the same text as lang="en") and no
// error is raised.  A valid 100-character tag keeps its language (German marks).  The lab reads no language from
// the URL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';
import { BAD_TAGS, LONG_GERMAN } from './helpers/language-tags.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const attr = (tag) => tag.replace(/[&"<]/g, (c) => `&#${c.charCodeAt(0)};`);
/** A page with two explorers: one taking the document's lang, one with its own; served at /locale.html. */
const pageWith = (documentLang, elementLang) => `<!doctype html><html lang="${attr(documentLang)}"><head><meta charset="utf-8">
<script src="/sqrtdk-lab.js"></script></head><body>
<sqrtdk-lab panels="softmax" keys="50"></sqrtdk-lab><sqrtdk-lab lang="${attr(elementLang)}" panels="softmax" keys="50"></sqrtdk-lab>
</body></html>`;

/** The two explorers' printouts, with the browser's language `browserLang`. */
async function printouts(browserLang, documentLang, elementLang) {
  const { page, context, errors } = await newPage(env.browser);
  if (browserLang !== null) {
    await page.addInitScript((tag) => {
      Object.defineProperty(Navigator.prototype, 'language', { get: () => tag, configurable: true });
      Object.defineProperty(Navigator.prototype, 'languages', { get: () => [tag], configurable: true });
    }, browserLang);
  }
  await page.route('**/locale.html', (route) => route.fulfill({ contentType: 'text/html', body: pageWith(documentLang, elementLang) }));
  await page.goto(`${env.server.origin}/locale.html`);
  assert.equal(await page.evaluate(() => navigator.language), browserLang ?? await page.evaluate(() => navigator.language));
  const texts = [];
  for (const index of [0, 1]) {
    await waitForDemo(page, index);
    texts.push(await lab(page, index).locator('table.top5').textContent());
  }
  await context.close();
  return { texts, errors };
}

test('invalid tags from the browser, the document and the element fall back to English', async () => {
  const english = await printouts(null, 'en', 'en');
  assert.deepEqual(english.errors, []);
  assert.match(english.texts[0], /0\.\d/);
  for (const tag of BAD_TAGS) {
    const { texts, errors } = await printouts(tag, tag, tag);
    assert.deepEqual(errors, [], JSON.stringify(tag));
    assert.deepEqual(texts, english.texts, JSON.stringify(tag));
  }
});

test('a valid 100-character tag keeps its language', async () => {
  const { texts, errors } = await printouts(LONG_GERMAN, 'en', LONG_GERMAN);
  assert.deepEqual(errors, []);
  assert.match(texts[1], /0,\d/);
  assert.doesNotMatch(texts[1], /0\.\d/);
});
