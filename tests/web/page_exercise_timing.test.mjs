// How long the default exercise (scaled vs unscaled, 3 seeds, threshold 0.1) takes to answer when the page
// is opened by double-click (file://) in headless chromium.  Prints the time; checks only that an answer came.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

test('file: the default exercise answers, and how long it takes', async (t) => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('file', 'index.html'));
    await waitForDemo(page);
    const l = lab(page);
    const started = Date.now();
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-ready="true"]').waitFor({ timeout: 240000 });
    const answered = (Date.now() - started) / 1000;
    const sentence = await l.locator('.answer-sentence').first().textContent();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 900000 });
    const finished = (Date.now() - started) / 1000;
    const medians = await l.locator('.answer-table td[data-cell="median"]').allTextContents();
    t.diagnostic(`default exercise (2 variants x 3 seeds, threshold 0.1): answered after ${answered.toFixed(1)} s, `
      + `all 400 steps x 6 runs after ${finished.toFixed(1)} s; medians ${medians.join(' / ')}`);
    t.diagnostic(`answer: ${sentence}`);
    // From the question's side: scaled first, "N steps earlier than unscaled"; or unscaled's miss.
    assert.match(sentence, /^(scaled 1\/√d_k reached smoothed loss 0\.1 at .* than unscaled|unscaled did not reach smoothed loss 0\.1)/);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
