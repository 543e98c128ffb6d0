// What a careful learner reads: the loss chart shows every number the answer quotes (threshold line, each seed's
// steps to threshold as a dot, each variant's median as a line, its level as a tick, the answer's window stated), one Step draws a
// point on the entropy chart, the first screen leads to the experiment (Start in the first desktop viewport and
// the first tab stop after the link button; the answer's definitions folded), the keyboard keeps its place
// (Start -> Pause), sliders speak their values, and the log-scale softmax weights say what they leave out.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForDemo, waitForRest } from './helpers/browser.mjs';

// Pixels of the canvas of chart `name` in colour `rgb` (within a small tolerance).
async function pixelsOf(page, name, rgb) {
  return page.evaluate(([chartName, [r, g, b]]) => {
    const canvas = document.querySelector('sqrtdk-lab').shadowRoot.querySelector(`[data-chart="${chartName}"] canvas`);
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - g) < 8 && Math.abs(data[i + 2] - b) < 8 && data[i + 3] > 200) n += 1;
    }
    return n;
  }, [name, rgb]);
}

const SCALED_RGB = [0x00, 0x72, 0xb2];  // the scaled variant's colour (palette.js, Okabe-Ito blue)

test('the loss chart shows the answer: threshold, each seed\'s steps and each median, with the window stated', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=2&steps=150&evalEvery=50&variants=scaled,unscaled'));
    const l = lab(page);
    const chart = l.locator('[data-chart="loss"]');
    // Before Start: the threshold line only.
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot
      .querySelector('[data-chart="loss"]')?.dataset.guides?.includes('"level"'), null, { timeout: 90000 });
    assert.deepEqual(JSON.parse(await chart.getAttribute('data-guides')).lines, []);
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    await waitForRest(page);
    const guides = JSON.parse(await chart.getAttribute('data-guides'));
    assert.equal(guides.level.value, 0.1);
    // Every number of the answer table's steps column is on the chart: each seed's as a dot, the median as a line.
    for (const variant of ['scaled', 'unscaled']) {
      const row = l.locator(`.answer tr[data-variant="${variant}"]`);
      const seeds = (await row.locator('[data-cell="seeds"]').textContent()).split(' · ');
      const median = await row.locator('[data-cell="median"]').textContent();
      const reached = seeds.filter((s) => /^\d/.test(s)).map(Number);
      const mine = guides.lines.filter((line) => line.label === `median ${median}`);
      if (/^\d/.test(median)) assert.equal(mine.length, 1, `${variant}: a line at its median ${median}`);
      for (const step of reached) assert.ok(guides.dots.some((d) => d.x === step), `${variant}: a dot at ${step}`);
    }
    // The final level (median) of the table is a tick at the right edge, and the median curve ends on it: the
    // readout at rest (the last step) writes the same number.
    const readout = await chart.locator('.chart-readout').textContent();
    for (const variant of ['scaled', 'unscaled']) {
      const row = l.locator(`.answer tr[data-variant="${variant}"]`);
      const [label, level] = [await row.locator('th').textContent(), await row.locator('[data-cell="final"]').textContent()];
      assert.ok(guides.levels.some((mark) => mark.label === `final level (median) ${level}`), `${variant}: ${JSON.stringify(guides.levels)}`);
      assert.ok(readout.includes(`${label} ${level} (`), `${variant}: ${readout} vs ${level}`);
    }
    assert.equal(guides.dots.filter((d) => !d.hollow).length, (await l.locator('.answer [data-cell="seeds"]').allTextContents())
      .flatMap((t) => t.split(' · ')).filter((s) => /^\d/.test(s)).length);
    // The chart reaches the runs' last step (each seed's own curve is shaped in series.js: unit_series checks it).
    assert.equal(await chart.getAttribute('data-points'), '150');
    assert.match(await l.locator('[data-note="loss"]').textContent(), /smoothed loss \(the mean of its last 20 steps’ losses\)/);
    // Another smoothing: the note says the curves no longer cross where the dots are.
    await l.locator('[data-key="smooth"] input.number').fill('1');
    await l.locator('[data-key="smooth"] input.number').press('Enter');
    await l.locator('[data-note="loss"]', { hasText: 'now shows each step unsmoothed' }).waitFor();
    await l.locator('[data-key="smooth"] input.number').fill('5');
    await l.locator('[data-key="smooth"] input.number').press('Enter');
    await l.locator('[data-note="loss"]', { hasText: 'now smooths over 5 steps' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});

test('first screen and keyboard: Start in view and first, focus kept after Start, one Step draws the entropy, sliders speak values', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280, height: 800 });
    await page.goto(env.url('http', 'index.html', '#seeds=1&steps=60&variants=scaled'));
    const l = lab(page);
    await waitForDemo(page);
    // The host page's lesson text, then the exercise: Start is in the first 1280x800 screen.
    const start = await l.locator('button', { hasText: 'Start' }).boundingBox();
    assert.ok(start.y + start.height <= 800, `Start's bottom at ${start.y + start.height} px`);
    // The element's tab stops: Copy link, the lesson's claim (folded), the demo headline's "?" for |J|_F, the
    // lede's glossary links (one per word the exercise uses first), then Start.
    await l.locator('button', { hasText: 'Copy link' }).focus();
    const focusedText = () => page.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.activeElement?.textContent ?? 'body');
    await page.keyboard.press('Tab');
    assert.match(await focusedText(), /^The lesson’s claim/);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.activeElement?.dataset.term), 'jacobian_norm');
    const ledeTerms = await l.locator('[data-panel="train"] .lede a.term').allTextContents();
    assert.ok(ledeTerms.length >= 1, 'the lede links its first words to the glossary');
    for (const term of ledeTerms) {
      await page.keyboard.press('Tab');
      assert.equal(await focusedText(), term);
    }
    await page.keyboard.press('Tab');
    assert.equal(await focusedText(), 'Start');
    // The scaling is written one way on the page and in the element: d_k, 1/√d_k (no sqrt(), ^0.5, ÷ or <sub>).
    const words = await page.evaluate(() => document.body.innerText + document.querySelector('sqrtdk-lab').shadowRoot.textContent
      + document.body.innerHTML.replace(/<sqrtdk-lab[\s\S]*<\/sqrtdk-lab>/, ''));
    assert.doesNotMatch(words, /sqrt\(|\^0\.5|÷|<sub>|\bdk\b/);
    assert.match(words, /1\/√d_k/);
    // How the answer's numbers are measured is folded under it.
    assert.equal(await l.locator('details.answer-definitions-box').getAttribute('open'), null);
    await l.locator('.answer-definitions li').first().waitFor({ state: 'attached' });
    assert.equal(await l.locator('.answer-definitions li').first().isVisible(), false);
    // Enter on Start: the runs go, Start is disabled and the focus moves to Pause (not to the page's body).
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.activeElement?.textContent === 'Pause', null, { timeout: 90000 });
    // Back to step 0 through the control API: on a slow machine Pause can land before the first step (then
    // there is nothing to reset and the Reset button is rightly disabled), on a fast one after the last.
    await page.evaluate(() => document.querySelector('sqrtdk-lab').pause());
    await waitForRest(page);
    await page.evaluate(() => document.querySelector('sqrtdk-lab').reset());
    await l.locator('.runs[data-steps-done="0"]').waitFor();
    // One Step: the entropy chart has one point and draws it.
    await l.locator('button', { hasText: 'Step' }).click();
    await l.locator('[data-chart="entropy"][data-points="1"]').waitFor({ timeout: 90000 });
    await waitForRest(page);
    assert.ok(await pixelsOf(page, 'entropy', SCALED_RGB) > 0, 'the one point is drawn');
    // The heatmap after one Step: its colour scale from 0 to 1, its guide and BOS/SEP from the core's layout.
    const heatmap = l.locator('[data-chart="attention-scaled"][data-colour-scale="0..1"]');
    await heatmap.waitFor();
    assert.ok(await heatmap.getAttribute('data-guide'));
    // The d_k slider (a log slider) speaks d_k, not its position.
    const slider = l.locator('[data-key="dk"] input[type="range"]');
    assert.equal(await slider.getAttribute('aria-valuetext'), '128');
    await l.locator('[data-key="dk"] input.number').fill('1024');
    await l.locator('[data-key="dk"] input.number').press('Enter');
    assert.equal(await slider.getAttribute('aria-valuetext'), '1024');
    // Log-scale weights: what falls below the axis' floor is said, not drawn at the floor.
    await l.locator('[data-key="weightsLogY"] input').check();
    await l.locator('[data-note="weights"]', { hasText: /left out \(raw: \d+ of 50/ }).waitFor();
    assert.doesNotMatch(await l.locator('[data-chart="weights"] .chart-readout').textContent(), /1\.00e-12/);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});

test('live regions speak only when their words change: a run of 60 steps announces each phase and the answer once', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', '#seeds=1&steps=60&variants=scaled,unscaled&evalEvery=20'));
    const l = lab(page);
    await waitForDemo(page);
    // Every write into a live region (role=status or aria-live), as [region, its text after the write].
    await page.evaluate(() => {
      const root = document.querySelector('sqrtdk-lab').shadowRoot;
      const regions = [...root.querySelectorAll('[role="status"], [aria-live]')];
      window.liveWrites = [];
      // One record per region per batch of mutations: an update that writes two parts of one region in the same
      // task (a rank and its button) is one change of its words, not two.
      const observer = new MutationObserver((mutations) => {
        const touched = new Set();
        for (const m of mutations) {
          const node = m.target.nodeType === Node.ELEMENT_NODE ? m.target : m.target.parentElement;
          const region = regions.find((r) => r.contains(node));
          if (region) touched.add(region);
        }
        for (const region of touched) window.liveWrites.push([regions.indexOf(region), region.textContent]);
      });
      for (const r of regions) observer.observe(r, { childList: true, characterData: true, subtree: true });
    });
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    await waitForRest(page);
    const writes = await page.evaluate(() => window.liveWrites);
    const last = new Map();
    for (const [region, text] of writes) {
      assert.notEqual(last.get(region), text, `region ${region} rewritten with the same words: ${text}`);
      last.set(region, text);
    }
    const announcer = await page.evaluate(() => {
      const root = document.querySelector('sqrtdk-lab').shadowRoot;
      return [...root.querySelectorAll('[role="status"], [aria-live]')].indexOf(root.querySelector('[data-announcer]'));
    });
    const announced = writes.filter(([region]) => region === announcer).map(([, text]) => text);
    assert.ok(announced.length >= 2 && announced.length <= 6, JSON.stringify(announced));
    assert.equal(announced.filter((text) => text.includes('Answer:')).length, 1, JSON.stringify(announced));
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
