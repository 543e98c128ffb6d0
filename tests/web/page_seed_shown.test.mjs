// The seed shown by the attention charts and maps: the median over seeds by default, one seed's own runs when the
// learner picks it (in the select above the charts, or with a seed's button in the run table), kept in the link
// only while chosen.  At a phone's width the choice and the run table's seed buttons fit the screen.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';

test('a seed picked in the run table or the select is what the attention charts, their legends and the maps show', async () => {
  const env = await openLab();
  try {
    for (const width of [1280, 390]) {
      const { page, context, errors } = await newPage(env.browser, { width, height: 844 });
      await page.goto(env.url('http', 'index.html', '#seeds=2&steps=40&evalEvery=20&variants=scaled,unscaled&panels=train'));
      const l = lab(page);
      const select = l.getByLabel('The attention charts and maps below show');
      const entropy = l.locator('[data-chart="entropy"]');
      const jacobian = l.locator('[data-chart="jacobian"]');
      const caption = l.locator('[data-chart^="attention-"] .chart-readout');
      await l.locator('button', { hasText: 'Start' }).click();
      await l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
      await waitForRest(page);
      // The median over the two seeds: titled so, legends by variant and layer, each map of its variant's first seed.
      assert.equal(await select.inputValue(), '-1');
      assert.match(await entropy.locator('.chart-title').textContent(), /median over seeds\)$/);
      assert.deepEqual(await l.locator('[data-chart="qk-grad"] .legend-item').allTextContents(), ['scaled 1/√d_k', 'unscaled']);
      await caption.filter({ hasText: /· seed 0$/ }).nth(1).waitFor();
      assert.doesNotMatch(page.url(), /seedShown/);

      // Seed 1's button in the run table (under "Runs"): the select takes the focus and says seed 1, and every
      // chart follows.
      await l.locator('details.run-details summary').click();
      await l.locator('tr[data-run] button', { hasText: /^1$/ }).first().click();
      await page.waitForFunction(() => /seedShown=1/.test(location.hash));
      assert.equal(await select.inputValue(), '1');
      assert.ok(await select.evaluate((el) => el.getRootNode().activeElement === el), 'the select has the focus');
      await entropy.locator('.chart-title', { hasText: /seed 1\)$/ }).waitFor();
      assert.match(await jacobian.locator('.chart-title').textContent(), /seed 1\)$/);
      await l.locator('[data-chart="qk-grad"] .legend-item', { hasText: 'scaled 1/√d_k · seed 1' }).waitFor();
      assert.deepEqual(await jacobian.locator('.legend-item').allTextContents(), ['scaled 1/√d_k · seed 1 · layer 1',
        'scaled 1/√d_k · seed 1 · layer 2', 'unscaled · seed 1 · layer 1', 'unscaled · seed 1 · layer 2']);
      await caption.filter({ hasText: /· seed 1$/ }).nth(1).waitFor();

      // The page fits a phone's width with the choice and the seed buttons.
      if (width < 600) {
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= width, `the page is ${wide} px wide at ${width}`);
      }

      // Back to the median: the link forgets the choice.
      await select.selectOption('-1');
      await entropy.locator('.chart-title', { hasText: /median over seeds\)$/ }).waitFor();
      await page.waitForFunction(() => !/seedShown/.test(location.hash));
      await caption.filter({ hasText: /· seed 0$/ }).nth(1).waitFor();

      // The answer names the seeds whose runs did not reach 0.1 (none does in 40 steps), with their run table
      // cells, and each is a button to that seed.
      const named = l.locator('[data-note="inspect-seeds"] button');
      assert.deepEqual(await named.allTextContents(), [0, 1].map((s) =>
        `seed ${s}: scaled 1/√d_k never (in 40 steps); unscaled never (in 40 steps)`));
      await named.nth(1).click();
      await page.waitForFunction(() => /seedShown=1/.test(location.hash));
      assert.equal(await select.inputValue(), '1');

      // A link with a seed that has no run shows the median; a seed that has one opens on it.
      for (const [shown, value] of [[5, '-1'], [1, '1']]) {
        await page.goto(env.url('http', 'index.html', `#seeds=2&steps=40&variants=scaled,unscaled&panels=train&seedShown=${shown}`));
        await page.reload();
        const chosen = lab(page).getByLabel('The attention charts and maps below show');
        await page.waitForFunction(([s]) => document.querySelector('sqrtdk-lab').shadowRoot
          .querySelector('[data-chart="entropy"] .chart-title')?.textContent.endsWith(s), [value === '-1' ? 'median over seeds)' : `seed ${value})`]);
        assert.equal(await chosen.inputValue(), value, `seedShown=${shown}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await env.close();
  }
});
