// The scenarios table: the core's presets (lab.scenarios()), each applied in one click through the link
// parser, marked as the current one, and shareable: its link restores it in a new page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';
import { PROPERTY_BY_KEY } from '../../web/src/state/properties.js';

const IDS = ['adam', 'sgd', 'adam-high-lr', 'gpt-init', 'large-dk', 'qknorm'];

test('scenarios: six presets with captions; one click sets them; the link shares them', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', '#panels=train'));
    const l = lab(page);
    const rows = l.locator('[data-scenarios] tr[data-scenario]');
    await rows.first().waitFor({ timeout: 90000 });
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.scenario)), IDS);
    for (const text of await rows.locator('td').allTextContents()) assert.ok(text.length > 60, `caption: ${text}`);

    for (const id of ['gpt-init', 'large-dk', 'qknorm']) {
      const row = l.locator(`tr[data-scenario="${id}"]`);
      const settings = (await row.locator('button').getAttribute('title')).split(' ');
      await row.locator('button').click();
      await page.waitForFunction((expected) => expected.every((kv) => location.hash.includes(kv)),
        settings.filter((kv) => PROPERTY_BY_KEY.has(kv.split('=')[0])));
      assert.equal(await row.locator('button').getAttribute('aria-pressed'), 'true');
      assert.equal(await l.locator('tr[data-scenario] button[aria-pressed="true"]').count(), 1);
      // The controls show the preset.
      const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
      assert.equal(await l.locator('#lab-dModel').inputValue(), hash.get('dModel'));
      assert.equal(await l.locator('input[aria-label="steps per run (exact value)"], #lab-steps').first().inputValue(), hash.get('steps'));
      const variants = hash.get('variants').split(',');
      for (const v of ['scaled', 'unscaled', 'qknorm']) {
        assert.equal(await l.locator(`[data-key="variants"] input[value="${v}"]`).isChecked(), variants.includes(v), `${id}: ${v}`);
      }
    }

    // Shareable: the link of the current preset restores it in a new page.
    const link = page.url();
    const other = await newPage(env.browser, { width: 1280 });
    await other.page.goto(link);
    await lab(other.page).locator('tr[data-scenario="qknorm"] button[aria-pressed="true"]').waitFor({ timeout: 90000 });
    assert.deepEqual(other.errors, []);
    await other.context.close();
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
