// Screenshots for people to look at (artifacts/screenshots/): after a short exercise, at desktop (1280 px)
// and phone (390 px) width, light and dark.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ensureScreenshotDir, lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

const HASH = '#seeds=2&steps=150&evalEvery=25&variants=scaled,unscaled';

test('screenshots at phone and desktop width, light and dark, after training', async (t) => {
  const dir = ensureScreenshotDir();
  const env = await openLab();
  try {
    for (const colorScheme of ['light', 'dark']) {
      const { page, context, errors } = await newPage(env.browser, { width: 1280, height: 900, colorScheme });
      await page.goto(env.url('file', 'index.html', HASH));
      await waitForDemo(page);
      await lab(page).locator('[data-chart="sweep-jacobianNorm"][data-points="20"]').waitFor({ timeout: 90000 });
      await lab(page).locator('button', { hasText: 'Start' }).click();
      await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
      await lab(page).locator('[data-chart="entropy"][data-points="150"]').waitFor();
      await lab(page).locator('[data-chart="attention-unscaled"] .chart-readout', { hasText: 'step 150 ·' }).waitFor();
      await lab(page).locator('.run-details summary').click();
      await lab(page).locator('.run-details[open] .run-table').waitFor();
      const files = [];
      const desktop = join(dir, `desktop-1280-${colorScheme}.png`);
      await page.screenshot({ path: desktop, fullPage: true });
      files.push(desktop);
      await page.setViewportSize({ width: 390, height: 844 });
      // The charts follow their boxes' new width (ResizeObserver): wait until every canvas fits the phone.
      await page.waitForFunction(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('canvas')]
        .every((c) => c.getBoundingClientRect().right <= innerWidth), null, { timeout: 90000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 390 px`);
      const phone = join(dir, `phone-390-${colorScheme}.png`);
      await page.screenshot({ path: phone, fullPage: true });
      files.push(phone);
      t.diagnostic(`saved ${files.join(', ')}`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await env.close();
  }
});
