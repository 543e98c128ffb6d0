// Settings in the URL: a round trip through the hash and the share link, and a hostile hash neutralised.
import test from 'node:test';
import assert from 'node:assert/strict';
import { MODES, lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const HOSTILE = '#lr=<img src=x onerror=alert(1)>&seed=1e999&scale=__proto__&init="><script>alert(2)</script>&dk=99999&__proto__[x]=1&variants=unscaled,<svg onload=alert(3)>';

/** Values of the controls a learner sees. */
async function controls(page) {
  const value = (key) => lab(page).locator(`[data-key="${key}"] input[type="number"], [data-key="${key}"] select`).first().inputValue();
  const checked = (v) => lab(page).locator(`#lab-variants-${v}`).isChecked();
  return { dk: await value('dk'), keys: await value('keys'), alpha: await value('alpha'), seed: await value('seed'),
    lr: await value('lr'), layers: await value('layers'), dModel: await value('dModel'), heads: await value('heads'),
    init: await value('init'), steps: await value('steps'), seeds: await value('seeds'), trainSeed: await value('trainSeed'),
    qknorm: await checked('qknorm'), unscaled: await checked('unscaled') };
}

for (const mode of MODES) {
  test(`${mode}: every setting round-trips through the URL hash`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url(mode, 'index.html'));
    await waitForDemo(page);
    const l = lab(page);
    const setNumber = async (key, value) => {
      const box = l.locator(`[data-key="${key}"] input[type="number"]`).first();
      await box.fill(String(value));
      await box.press('Enter');
      await box.blur();
    };
    await setNumber('dk', 300);
    await setNumber('keys', 77);
    await setNumber('alpha', 0.35);
    await setNumber('lr', 0.003);
    await setNumber('steps', 900);
    await setNumber('trainSeed', 12345678901);
    await l.locator('[data-key="seed"] button', { hasText: 'Resample' }).click();
    await l.locator('[data-key="dModel"] select').selectOption('128');
    await l.locator('[data-key="heads"] select').selectOption('4');
    await l.locator('[data-key="init"] select').selectOption('torch');
    await l.locator('#lab-variants-qknorm').check();
    await l.locator('#lab-variants-unscaled').uncheck();
    await l.locator('[data-key="layers"] input[type="range"]').fill('4');
    await page.waitForFunction(() => location.hash.includes('dk=300') && location.hash.includes('layers=4'));
    const shown = await controls(page);
    assert.deepEqual(shown, { dk: '300', keys: '77', alpha: '0.35', seed: '143', lr: '0.003', layers: '4', dModel: '128', heads: '4',
      init: 'torch', steps: '900', seeds: '3', trainSeed: '12345678901', qknorm: true, unscaled: false });
    const url = await page.evaluate(() => location.href);
    const printout = await l.locator('table.top5').innerText();

    const reopened = await newPage(env.browser);
    await reopened.page.goto(url);
    await waitForDemo(reopened.page);
    await lab(reopened.page).locator('.printout-title', { hasText: 'd_k = 300' }).waitFor();
    assert.deepEqual(await controls(reopened.page), shown);
    assert.equal(await lab(reopened.page).locator('table.top5').innerText(), printout, 'same seed, same draw');
    assert.equal(await reopened.page.evaluate(() => location.href), url);
    assert.equal(await lab(reopened.page).locator('.notices li').count(), 0);
    assert.deepEqual(errors.concat(reopened.errors), []);
    await reopened.context.close();
    await context.close();
  });

  test(`${mode}: a hostile hash is neutralised with visible notices and nothing injected`, async () => {
    const { page, context, errors, dialogs } = await newPage(env.browser);
    await page.goto(env.url(mode, 'index.html', HOSTILE));
    await waitForDemo(page);
    const l = lab(page);
    const notices = await l.locator('.notices li').allTextContents();
    assert.ok(notices.length >= 6, notices.join('\n'));
    assert.ok(notices.some((n) => n.includes('"<img src=x onerror=alert(1)>" is not a finite number')), notices.join('\n'));
    assert.ok(notices.some((n) => n.includes('"scale" is not a setting')));
    assert.ok(notices.some((n) => n.includes('99999 is outside 1..1024; using 1024')));
    const injected = await page.evaluate(() => {
      const all = [document, ...[...document.querySelectorAll('sqrtdk-lab')].map((e) => e.shadowRoot)];
      return {
        img: all.reduce((n, r) => n + r.querySelectorAll('img, svg, script:not([src])').length, 0),
        polluted: ({}).x !== undefined || Object.prototype.x !== undefined,
      };
    });
    assert.deepEqual(injected, { img: 0, polluted: false });
    // The positive control for "no dialog": an image of the test's own that fails to decode opens a dialog, by the path an
    // injected onerror handler would take; once it has, an injected one would have had its turn too.
    const control = page.waitForEvent('dialog');
    await page.evaluate(() => { const img = new Image(); img.onerror = () => alert('control'); img.src = 'data:image/png;base64,AAAA'; });
    await control;
    assert.deepEqual(dialogs, ['control']);
    const c = await controls(page);
    assert.equal(c.lr, '0.001');
    assert.equal(c.seed, '142');  // refused: the default, the median draw
    assert.equal(c.dk, '1024');
    assert.equal(c.init, 'xavier');
    assert.equal(c.unscaled, true);
    await page.waitForFunction(() => !location.hash.includes('img') && location.hash.includes('dk=1024'));
    await l.locator('.notices button', { hasText: 'Dismiss' }).click();
    assert.equal(await l.locator('.notices').isVisible(), false);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('http: the share button copies a link that restores the same settings', async () => {
  const { page, context, errors } = await newPage(env.browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(env.url('http', 'index.html', '#dk=64&seeds=2&variants=scaled,alpha&trainAlpha=0.25'));
  await waitForDemo(page);
  await lab(page).locator('button', { hasText: 'Copy link' }).click();
  await lab(page).locator('.share-status', { hasText: 'Link copied.' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.evaluate(() => location.href));
  assert.match(copied, /dk=64.*variants=scaled,alpha.*trainAlpha=0.25/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('attributes set initial values and hide controls; hide and panels also work from the hash', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'index.html', '#panels=train&hide=lr,seeds,share'));
  await lab(page).locator('[data-panel="train"]').waitFor();
  assert.equal(await lab(page).locator('[data-panel="softmax"]').count(), 0);
  assert.equal(await lab(page).locator('[data-key="lr"]').isVisible(), false);
  assert.equal(await lab(page).locator('[data-key="seeds"]').isVisible(), false);
  assert.equal(await lab(page).locator('button', { hasText: 'Copy link' }).isVisible(), false);
  assert.equal(await lab(page).locator('[data-key="layers"]').isVisible(), true);
  await page.evaluate(() => {
    const el = document.createElement('sqrtdk-lab');
    el.setAttribute('panels', 'softmax');
    el.setAttribute('dk', '1e999');
    el.setAttribute('keys', '12');
    document.body.append(el);
  });
  await waitForDemo(page, 1);
  assert.match(await lab(page, 1).locator('.printout-title').textContent(), /12 keys ~ N\(0, I\) in d_k = 128/);
  assert.match(await lab(page, 1).locator('.notices').textContent(), /Attribute dk: "1e999" is not a finite number/);
  await page.evaluate(() => document.querySelectorAll('sqrtdk-lab')[1].setAttribute('dk', '32'));
  await lab(page, 1).locator('.printout-title', { hasText: 'd_k = 32' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a second element with sync-url gets a notice and leaves the hash to the first; the first keeps it', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'index.html', '#dk=300'));
  await waitForDemo(page);
  await page.evaluate(() => {
    const el = document.createElement('sqrtdk-lab');
    el.setAttribute('sync-url', '');
    el.setAttribute('panels', 'softmax');
    el.setAttribute('dk', '16');
    document.body.append(el);
  });
  await waitForDemo(page, 1);
  const second = lab(page, 1);
  // It did not read the first's hash (dk=300) and says why it leaves the hash alone.
  assert.match(await second.locator('.printout-title').textContent(), /d_k = 16/);
  assert.match(await second.locator('.notices').textContent(), /Another lab on this page already keeps the page's link up to date \(sync-url\)/);
  assert.equal(await second.locator('button', { hasText: 'Copy link' }).isVisible(), false);
  assert.equal(await lab(page, 0).locator('.notices li').count(), 0);
  // The second's change, then the first's: once the hash has the first's, the second's (scheduled earlier) would be there too.
  await page.evaluate(() => { document.querySelectorAll('sqrtdk-lab')[1].settings = { keys: 33 }; });
  await page.evaluate(() => { document.querySelectorAll('sqrtdk-lab')[0].settings = { keys: 44 }; });
  await page.waitForFunction(() => location.hash.includes('keys=44'));
  assert.ok(!(await page.evaluate(() => location.hash)).includes('keys=33'));
  assert.match(await page.evaluate(() => location.hash), /dk=300/);
  // A hash edited by hand reaches the first only.
  await page.evaluate(() => { location.hash = 'dk=64'; });
  await lab(page, 0).locator('.printout-title', { hasText: 'd_k = 64' }).waitFor();
  assert.match(await second.locator('.printout-title').textContent(), /d_k = 16/);
  // When the first leaves the page, an element with sync-url added later keeps the hash.
  await page.evaluate(() => { document.querySelectorAll('sqrtdk-lab')[0].remove(); });
  await page.evaluate(() => {
    const el = document.createElement('sqrtdk-lab');
    el.setAttribute('sync-url', '');
    el.setAttribute('panels', 'softmax');
    document.body.append(el);
  });
  await waitForDemo(page, 1);
  await lab(page, 1).locator('.printout-title', { hasText: 'd_k = 64' }).waitFor();
  assert.equal(await lab(page, 1).locator('.notices li').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
