// Translation: every text the page shows comes from web/src/ui/strings.js, and numbers follow the element's lang.
//
// 1. A pseudo-locale bundle (strings.js replaced by the real STRINGS with every text wrapped in ⟦ ⟧) is driven
//    through both panels: a short training run, a settings change, chart hovers, folded parts opened, notices.  Then every
//    text node and every aria-label, title and placeholder in the element's shadow root, and every text drawn on
//    a canvas, must have no letter outside ⟦ ⟧ (numbers, units and punctuation may stand outside).
// 2. lang="de" writes a softmax weight, a chart readout and a sample count with German marks; lang="en" and no
//    lang (default 'en') with English ones.
import test from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { lab, newPage, openLab, waitForDemo, waitForRest } from './helpers/browser.mjs';
import { startServer } from './helpers/server.mjs';
import { PSEUDO_STRINGS, variantDist } from './helpers/variant-bundle.mjs';

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
// Two bad settings, for the notices: a seed that is not whole, a key that is not a setting.
const HASH = '#steps=30&seeds=1&evalEvery=10&variants=scaled,unscaled&seed=1.5&nonsense=1';

// Core text, not the page's: shown as the wasm core wrote it until the core's phrasebook reaches strings.js
// (its `answer` section).  The answer's sentences, definitions and cells; the run table's cells from the answer
// and its row names (the core's display names once an answer is there); the scenarios' titles, captions and
// settings (src/core/claims/scenarios.cpp).
const CORE_TEXT = ['.answer-sentences', '.answer-definitions', '.answer-table td', '.answer-table tbody th',
  '.run-table td[data-cell]', '.run-table tbody th', '[data-scenarios] tbody'];

/**
 * What is left of a text once every ⟦...⟧ (nested too) and every number is taken out: '' when the text is
 * translated.  Letters left over are an English word that did not come from strings.js.
 */
function untranslated(text) {
  let rest = text;
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  rest = rest.replace(/[-−+]?\d[\d.,\u202f\u00a0]*(×10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?/g, ' ');
  return /[\p{L}⟦⟧]/u.test(rest) ? rest.trim() : '';
}

test('the checker: English words outside ⟦ ⟧ are found, numbers and wrapped texts pass', () => {
  for (const ok of ['⟦Start⟧', '0,9942', '2,03×10⁻⁵', '⟦⟦scaled⟧ seed 3⟧', '⟦loss⟧ 0.5 (0.4–0.6)', '12 %', '–', '3.2×', '1,234 / 2,000'])
    assert.equal(untranslated(ok), '', ok);
  for (const bad of ['Start', '⟦scaled⟧ seed 3', 'step ⟦3⟧', '⟦a⟧ b', 'B', '⟦open'])
    assert.notEqual(untranslated(bad), '', bad);
});

/** Every text in the lab's shadow root: [where, text] for text nodes and aria-label/title/placeholder. */
function shadowTexts(allow) {
  const root = document.querySelector('sqrtdk-lab').shadowRoot;
  const allowed = (node) => allow.some((selector) => node.closest?.(selector));
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.data.trim() || parent?.tagName === 'STYLE' || allowed(parent)) continue;
    out.push([`${parent.tagName.toLowerCase()}.${parent.className}`, node.data]);
  }
  for (const element of root.querySelectorAll('*')) {
    if (allowed(element)) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = element.getAttribute(name);
      if (value) out.push([`${element.tagName.toLowerCase()}[${name}]`, value]);
    }
  }
  return out;
}

test('pseudo-locale: every text of both panels comes from strings.js', async (t) => {
  const variant = await variantDist(PSEUDO_STRINGS);
  const server = await startServer({ '/': variant.dir });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
  try {
    const { page, errors } = await newPage(browser, { width: 1280, height: 900 });
    // Text drawn on canvases (uPlot's axes, the histogram, the heatmaps), recorded as it is drawn.
    await page.addInitScript(() => {
      window.canvasTexts = new Set();
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function record(text, ...rest) {
        window.canvasTexts.add(String(text));
        return fillText.call(this, text, ...rest);
      };
    });
    page.on('download', (d) => d.cancel().catch(() => {}));
    await page.goto(`${server.origin}/index.html${HASH}`);
    await waitForDemo(page);
    const root = lab(page);
    await root.locator('[data-scenarios] tr[data-scenario]').first().waitFor({ timeout: 90000 });
    await root.locator('[data-chart="sweep-jacobianNorm"][data-points]').waitFor({ timeout: 90000 });
    // The explorer: a preset chip, the log scale, a new draw; the exercise: train to the end.
    await root.locator('[data-key="alpha"] .chips button').first().click();
    await root.locator('[data-key="weightsLogY"] input').check();
    await root.locator('button.secondary[data-key="seed"]').click();  // Resample (the median chip shares the key)
    await root.locator('button.primary').click();
    await root.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
    // A settings change after training that would discard the runs (another first seed): the pending notice and
    // "Start (new settings)".  (More seeds keep the finished runs, so they apply without a notice.)
    await root.locator('[data-key="trainSeed"] input.number').fill('5');
    await root.locator('[data-key="trainSeed"] input.number').press('Enter');
    await root.locator('[data-pending]:not([hidden])').waitFor();
    // Open every folded part (the locator re-matches after each click: the opened one leaves it).
    const folded = root.locator('details:not([open]) > summary');
    while (await folded.count() > 0) await folded.first().click();
    // Hover readouts of a training chart and of a sweep chart.
    await waitForRest(page);
    for (const name of ['loss', 'sweep-entropy']) {
      const readout = root.locator(`[data-chart="${name}"] .chart-readout .readout-x`);
      const resting = await readout.textContent();
      const plot = root.locator(`[data-chart="${name}"] .u-over`);
      await plot.scrollIntoViewIfNeeded();
      const box = await plot.boundingBox();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
      await readout.filter({ hasNotText: resting }).waitFor();
    }
    assert.equal(await root.locator('.notices li').count(), 2, 'the two notices');
    const texts = await page.evaluate(shadowTexts, CORE_TEXT);
    const canvas = await page.evaluate(() => [...window.canvasTexts]);
    const wrapped = texts.filter(([, text]) => text.includes('⟦')).length;
    t.diagnostic(`${texts.length} texts and attributes (${wrapped} translated), ${canvas.length} canvas texts`);
    assert.ok(wrapped > 150, `only ${wrapped} translated texts: did the pseudo-locale bundle load?`);
    assert.ok(canvas.some((c) => c.includes('⟦')), 'no translated canvas text (axis labels)');
    const left = texts.filter(([, text]) => untranslated(text)).map(([where, text]) => `${where}: ${text}`);
    const canvasLeft = canvas.filter((text) => untranslated(text));
    assert.deepEqual({ texts: left, canvas: canvasLeft }, { texts: [], canvas: [] }, 'texts not from strings.js');
    assert.deepEqual(errors, []);
    if (process.env.SQRTDK_I18N_SHOT) await page.screenshot({ path: process.env.SQRTDK_I18N_SHOT, fullPage: true });
  } finally {
    await browser.close();
    await server.close();
    variant.close();
  }
});

test('lang: de writes decimal commas, en and the default decimal points', async () => {
  const env = await openLab();
  try {
    const { page, errors } = await newPage(env.browser, { width: 1280, height: 900 });
    await page.goto(env.url('http', 'fixtures/lang-labs.html'));
    const expect = { de: { mark: ',', group: '.' }, en: { mark: '.', group: ',' }, none: { mark: '.', group: ',' } };
    for (const [index, id] of ['de', 'en', 'none'].entries()) {
      await waitForDemo(page, index);
      const one = lab(page, index);
      assert.equal(await one.getAttribute('id'), id);
      const { mark, group } = expect[id];
      const weight = await one.locator('table.top5 tr[data-row="scaled"] td[data-cell="max"]').textContent();
      assert.match(weight, new RegExp(`^0\\${mark}\\d{4}$`), `${id}: softmax weight ${weight}`);
      const chart = one.locator('[data-chart="weights"]');
      await chart.locator('.readout-item').first().waitFor();
      const readout = await chart.locator('.readout-item').first().textContent();
      assert.match(readout, new RegExp(`\\d\\${mark}\\d`), `${id}: weights readout ${readout}`);
      const caption = one.locator('[data-chart="dots-raw"] .chart-readout');
      await caption.filter({ hasText: 'samples' }).waitFor();
      assert.match(await caption.textContent(), new RegExp(`bars: 20\\${group}000 samples`), `${id}: histogram caption`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
