// The scenarios table: the core's presets (lab.scenarios()), each applied in one click through the link
// parser, marked as the current one, and shareable: its link restores it in a new page.  A preset is a whole
// state (pressed only while every setting equals it); set mid-run it asks before discarding the runs, as a control
// does; its Run button sets it and starts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';
import { PROPERTY_BY_KEY } from '../../web/src/state/properties.js';
import { scenarios as lab_scenarios } from '../../web/src/core-tables.js';

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
    // Each preset leads with one sentence of at most 25 words (the counts); the rest folds, closed until asked.
    const core = new Map(lab_scenarios.map((s) => [s.id, s]));
    for (const id of IDS) {
      const row = l.locator(`tr[data-scenario="${id}"]`);
      const headline = await row.locator('[data-headline]').textContent();
      assert.ok(headline.split(/\s+/).length <= 25, `${id}: ${headline.split(/\s+/).length} words: ${headline}`);
      assert.equal(headline, core.get(id).headline);
      assert.match(headline, /^[^.]*(\.\d[^.]*)*\.$/, `${id}: one sentence`);
      // What Run trains, from the preset's settings, beside the seeds the claim counts.
      const settings = new URLSearchParams(core.get(id).settings);
      const last = Number(settings.get('trainSeed')) + Number(settings.get('seeds')) - 1;
      assert.equal(await row.locator('[data-runs]').textContent(), `Run trains seeds ${settings.get('trainSeed')}–${last} of each of its `
        + `${settings.get('variants').split(',').length} variants for ${Number(settings.get('steps'))} steps; the claim above counts seeds 0–19.`);
      assert.equal(await row.locator('details').getAttribute('open'), null);
      assert.equal(await row.locator('details p').first().isVisible(), false);
      await row.locator('details summary').click();
      assert.equal(await row.locator('details p').first().isVisible(), true);
      assert.equal((await row.locator('details p').allTextContents()).join(' '), core.get(id).details);
    }

    for (const id of ['gpt-init', 'large-dk', 'qknorm']) {
      const row = l.locator(`tr[data-scenario="${id}"]`);
      const settings = (await row.locator('button.scenario-button').getAttribute('title')).split(' ');
      await row.locator('button.scenario-button').click();
      await page.waitForFunction((expected) => expected.every((kv) => location.hash.includes(kv)),
        settings.filter((kv) => PROPERTY_BY_KEY.has(kv.split('=')[0])));
      assert.equal(await row.locator('button.scenario-button').getAttribute('aria-pressed'), 'true');
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

    // A whole state: any setting changed by hand (here batch) un-presses it.
    await l.locator('#lab-batch').selectOption('8');
    await l.locator('tr[data-scenario="qknorm"] button.scenario-button[aria-pressed="false"]').waitFor();
    await l.locator('tr[data-scenario="qknorm"] button.scenario-button').click();
    await l.locator('tr[data-scenario="qknorm"] button.scenario-button[aria-pressed="true"]').waitFor();

    // Run: sets the preset and starts it.  A preset clicked mid-run asks (the pending notice) and keeps the runs.
    await l.locator('button[data-key="run-adam"]').click();
    await l.locator('tr[data-scenario="adam"] button.scenario-button[aria-pressed="true"]').waitFor();
    await l.locator('.runs[data-steps-done]:not([data-steps-done="0"])').waitFor({ timeout: 90000 });
    await l.locator('tr[data-scenario="sgd"] button.scenario-button').click();
    await l.locator('[data-pending]:not([hidden])').waitFor();
    assert.match(await l.locator('[data-pending]').textContent(), /clears the 6 runs shown/);
    const done = Number(await l.locator('.runs').getAttribute('data-steps-done'));
    assert.ok(done > 0, 'the runs are kept while the change is pending');
    await l.locator('button[data-key="run-adam"]').click();  // back to the runs' preset: nothing pending
    await l.locator('[data-pending][hidden]').waitFor({ state: 'attached' });

    // Shareable: the link of the current preset restores it in a new page.
    await page.waitForFunction(() => location.hash.includes('optimizer=adam'));
    const link = page.url();
    const other = await newPage(env.browser, { width: 1280 });
    await other.page.goto(link);
    await lab(other.page).locator('tr[data-scenario="adam"] button.scenario-button[aria-pressed="true"]').waitFor({ timeout: 90000 });
    assert.deepEqual(other.errors, []);
    await other.context.close();
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});

// Run is an explicit request: after runs of other settings (here finished ones), a preset's Run clears them and
// trains the preset's runs for the preset's steps; nothing is held, and the finished runs are not extended.
test('a preset\'s Run after finished runs of other settings starts the preset\'s runs', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=30'));
    const l = lab(page);
    await l.locator('button[data-key="run-sgd"]').waitFor({ timeout: 90000 });
    await l.locator('button', { hasText: 'Start' }).first().click();
    await l.locator('[data-final="true"]').waitFor({ state: 'attached', timeout: 90000 });
    await l.locator('button[data-key="run-sgd"]').click();
    const preset = new URLSearchParams(lab_scenarios.find((s) => s.id === 'sgd').settings);
    const runs = Number(preset.get('seeds')) * preset.get('variants').split(',').length;
    await l.locator(`.run-table tbody tr:nth-child(${runs})`).waitFor({ state: 'attached', timeout: 90000 });
    await l.locator('[data-panel="train"][data-running="true"]').waitFor({ timeout: 90000 });
    assert.equal(await l.locator('[data-pending]').isHidden(), true, 'nothing is held');
    assert.equal(await l.locator('.run-table tbody tr').count(), runs, 'only the preset\'s runs are shown');
    // The preset's steps, for each of its runs (awaited: while some runs still load, the status says so instead).
    await l.locator('[data-panel="train"] .train-status', { hasText: `of ${(runs * Number(preset.get('steps'))).toLocaleString('en')} steps` })
      .first().waitFor({ timeout: 90000 });
    await l.locator('button', { hasText: 'Pause' }).click();
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
