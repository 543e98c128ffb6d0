// The optimizer is a control of the exercise: choosing SGD moves the learning rate to SGD's default (the core's
// table), shows in the link, and the runs train with it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';

test('http: choosing SGD sets its default learning rate and the runs train with SGD', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=10&variants=scaled&evalEvery=10'));
    const l = lab(page);
    const settings = () => page.evaluate(() => document.querySelector('sqrtdk-lab').settings);
    assert.equal((await settings()).lr, 0.001);
    await l.getByLabel('optimizer').selectOption('sgd');
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').settings.optimizer === 'sgd');
    assert.equal((await settings()).lr, 0.1, 'SGD\'s default rate');
    assert.equal(await l.locator('input[type="number"][data-key="lr"], [data-key="lr"] input[type="number"]').first().inputValue(), '0.1');
    await page.waitForFunction(() => /optimizer=sgd&lr=0\.1&/.test(location.hash), null, { timeout: 5000 });
    await l.getByLabel('momentum (SGD)').first().fill('0.5');
    await l.getByLabel('momentum (SGD)').first().press('Enter');
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').settings.momentum === 0.5);
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 60000 });
    const json = JSON.parse(await page.evaluate(() => document.querySelector('sqrtdk-lab').exportData('json')));
    const config = json.runs[0].config;
    assert.equal(config.optimizer, 'sgd');
    assert.equal(config.lr, 0.1);
    assert.equal(config.momentum, 0.5);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
