// Hardening: injection strings in the element's attributes, and a shared link that reproduces a run after a reload.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const INJECTIONS = ['<img src=x onerror=alert(1)>', '"><script>alert(2)</script>', '<svg onload=alert(3)>',
  'javascript:alert(4)', '__proto__', '1e999', '-0x10', '{{7*7}}'];

test('http: injection strings in every kind of attribute are refused with notices and nothing is injected', async () => {
  const { page, context, errors, dialogs } = await newPage(env.browser);
  await page.goto(env.url('http', 'index.html', '#panels=softmax'));
  await waitForDemo(page);
  await page.evaluate((values) => {
    const el = document.createElement('sqrtdk-lab');
    el.setAttribute('panels', `softmax,${values[1]}`);
    el.setAttribute('hide', values.join(','));
    el.setAttribute('dk', values[0]);
    el.setAttribute('keys', values[2]);
    el.setAttribute('alpha', values[5]);
    el.setAttribute('seed', values[6]);
    el.setAttribute('init', values[1]);
    el.setAttribute('variants', values.join(','));
    el.setAttribute('d-model', values[3]);
    document.body.append(el);
  }, INJECTIONS);
  await waitForDemo(page, 1);
  const notices = await lab(page, 1).locator('.notices li').allTextContents();
  assert.ok(notices.length >= 5, notices.join('\n'));
  // Nothing from the attributes became markup: no img or inline script anywhere, no element with an on* handler.
  const injected = await page.evaluate(() => {
    const roots = [document, ...[...document.querySelectorAll('sqrtdk-lab')].map((e) => e.shadowRoot)];
    const all = roots.flatMap((r) => [...r.querySelectorAll('*')]);
    return {
      markup: all.filter((e) => ['IMG', 'SCRIPT'].includes(e.tagName) && !e.src).length,
      handlers: all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
      polluted: ({}).x !== undefined || Object.prototype.x !== undefined,
    };
  });
  assert.deepEqual(injected, { markup: 0, handlers: 0, polluted: false });
  assert.match(await lab(page, 1).locator('.printout-title').textContent(), /d_k = 128/);
  // The positive control for "no dialog": an image of the test's own that fails to decode opens a dialog, by the path an
  // injected onerror handler would take; once it has, an injected one would have had its turn too.
  const control = page.waitForEvent('dialog');
  await page.evaluate(() => { const img = new Image(); img.onerror = () => alert('control'); img.src = 'data:image/png;base64,AAAA'; });
  await control;
  assert.deepEqual(dialogs, ['control']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: a shared link, reloaded in a fresh page, reproduces the same loss curve', async () => {
  const first = await newPage(env.browser);
  await first.page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=30&variants=scaled&trainSeed=11&lr=0.002'));
  const exportLoss = async (page) => {
    // A cap, not a wait: the download comes when the export is written, later on a loaded machine.
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }),
      lab(page).locator('button', { hasText: 'Export JSON' }).click()]);
    return JSON.parse(await readFile(await file.path(), 'utf8')).runs[0].loss;
  };
  const train = async (page) => {
    await lab(page).locator('button', { hasText: 'Start' }).click();
    await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 60000 });
    return exportLoss(page);
  };
  const original = await train(first.page);
  const link = first.page.url();
  assert.match(link, /trainSeed=11/);
  await first.context.close();

  const second = await newPage(env.browser);
  await second.page.goto(link);
  const reloaded = await train(second.page);
  assert.equal(original.length, 30);
  assert.deepEqual(reloaded, original);
  assert.deepEqual([...first.errors, ...second.errors], []);
  await second.context.close();
});
