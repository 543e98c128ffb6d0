// Accessibility in headless chromium.  axe-core audits the lab at a desktop and a phone width, in light and
// dark: the explorer after load, the exercise while training, at its answer and with every fold open, a preset
// applied, the notices of a bad link, and lab.html in an iframe (embed.html); it audits the document, the
// element's open shadow root and same-origin frames, and any violation of any impact fails.  Beyond what axe
// sees: a table wider than a phone works from the keyboard, and live regions do not speak at every tick.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

const AXE = readFileSync(join(REPO, 'node_modules/axe-core/axe.min.js'), 'utf8');

// Rules switched off, rule id -> the reason.  None so far.
const EXCEPTIONS = {};

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

/** axe's violations in a page and its frames, as "state: rule (impact) at target" lines. */
async function audit(page, state) {
  for (const frame of page.frames()) await frame.evaluate(AXE);
  const violations = await page.evaluate(async (exceptions) => {
    const rules = Object.fromEntries(Object.keys(exceptions).map((id) => [id, { enabled: false }]));
    const result = await window.axe.run(document, { rules, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${JSON.stringify(n.target)}`));
  }, EXCEPTIONS);
  return violations.map((v) => `${state}: ${v}`);
}

/** Run a function over the element's shadow root in the page. */
const inShadow = (page, fn) => page.evaluate(`(${fn})(document.querySelector('sqrtdk-lab').shadowRoot)`);

for (const width of [1280, 390]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`no axe violation in any state at ${width} px, ${colorScheme}`, async () => {
      const { page, context, errors } = await newPage(env.browser, { width, colorScheme });
      const found = [];
      const el = lab(page);

      // The lesson page as a learner opens it, with an exercise long enough to audit it while it trains.
      await page.goto(env.url('http', 'index.html', '#seeds=1&steps=3000'));
      await waitForDemo(page);
      await el.locator('[data-chart="sweep-maxWeight"][data-points="20"]').waitFor({ timeout: 60000 });
      found.push(...await audit(page, 'explorer after load'));

      await el.locator('button', { hasText: 'Start' }).click();
      await page.waitForFunction(() => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) > 0, null, { timeout: 60000 });
      assert.equal(await el.locator('[data-panel="train"]').getAttribute('data-running'), 'true');
      found.push(...await audit(page, 'exercise while training'));

      // Reset, then a short exercise from an edited link, trained to its answer.
      await page.evaluate(() => { document.querySelector('sqrtdk-lab').reset(); location.hash = 'seeds=1&steps=60'; });
      await el.locator('[data-panel="train"][data-running="false"]').waitFor();
      await el.locator('.runs[data-steps-done="0"]').waitFor();
      await el.locator('button', { hasText: 'Start' }).click();
      await el.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
      found.push(...await audit(page, 'exercise at its answer'));

      const folds = await inShadow(page, (root) => [...root.querySelectorAll('details')].map((d) => { d.open = true; return d.className; }));
      assert.ok(folds.length >= 2, folds.join());
      found.push(...await audit(page, 'every fold open'));

      await el.locator('.scenario-button').first().click();
      await el.locator('.scenario-button[aria-pressed="true"]').waitFor();
      found.push(...await audit(page, 'a preset applied'));

      await page.evaluate(() => { location.hash = 'steps=oops&dk=99999&variants=nope&seeds=-3'; });
      await el.locator('.notices li').first().waitFor();
      found.push(...await audit(page, 'notices of a bad link'));

      // lab.html in an iframe (the host-page example, whose iframe loads when scrolled to).
      await page.goto(env.url('http', 'embed.html'));
      await page.locator('#frame').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('#frame').contentDocument?.querySelector('sqrtdk-lab')?.shadowRoot
        ?.querySelector('table.top5 td[data-cell="top"]'), null, { timeout: 60000 });
      await waitForDemo(page, 0);
      found.push(...await audit(page, 'lab.html in an iframe'));

      await context.close();
      assert.deepEqual(errors, []);
      assert.deepEqual(found, []);
    });
  }
}

test('a table wider than a phone is reached by Tab, scrolled by the arrow keys and says that it scrolls; on a desktop it is no tab stop', async () => {
  for (const width of [390, 1280]) {
    const { page, context, errors } = await newPage(env.browser, { width });
    await page.goto(env.url('http', 'lab.html', '#panels=softmax'));
    await waitForDemo(page);
    const box = lab(page).locator('.printout .table-scroll');
    const hint = lab(page).locator('.printout .scroll-hint');
    if (width === 390) {
      await lab(page).locator('.printout .table-scroll[tabindex="0"]').waitFor();
      assert.equal(await box.getAttribute('role'), 'group');
      assert.equal(await box.getAttribute('aria-label'), 'Printout table, scrolls sideways');
      assert.ok(await hint.isVisible());
      // Tab from the top of the page until the table has focus.
      await page.evaluate(() => document.activeElement?.blur());
      let focused = '';
      for (let i = 0; i < 60 && focused !== 'table-scroll'; i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.activeElement?.className ?? '');
      }
      assert.equal(focused, 'table-scroll', 'Tab reaches the table');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.printout .table-scroll').scrollLeft > 0);
    } else {
      await lab(page).locator('.printout .table-scroll[data-scrolls="false"]').waitFor();
      assert.equal(await box.getAttribute('tabindex'), null);
      assert.equal(await box.getAttribute('role'), null);
      assert.equal(await hint.isVisible(), false);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('while the runs train, live regions announce each phase and the answer once, not every tick', async () => {
  const { page, context, errors } = await newPage(env.browser);
  // QK-norm and scaled both reach the threshold early: the answer is ready while the runs go on.
  await page.goto(env.url('http', 'lab.html', '#panels=train&variants=scaled,qknorm&seeds=1&steps=300'));
  const start = lab(page).locator('button', { hasText: 'Start' });
  await start.waitFor();
  await page.evaluate(() => {
    window.announced = [];
    const root = document.querySelector('sqrtdk-lab').shadowRoot;
    for (const region of root.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')) {
      let last = region.textContent;
      new MutationObserver(() => {
        if (region.textContent === last) return;
        last = region.textContent;
        window.announced.push({ region: region.dataset.announcer !== undefined ? 'announcer' : region.className, text: last });
      }).observe(region, { subtree: true, childList: true, characterData: true });
    }
  });
  await start.click();
  await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
  await lab(page).locator('[data-announcer]', { hasText: 'Finished' }).or(lab(page).locator('[data-announcer]', { hasText: 'Answer:' })).waitFor();
  const announced = await page.evaluate(() => window.announced);
  for (const region of new Set(announced.map((a) => a.region))) {
    const changes = announced.filter((a) => a.region === region).map((a) => a.text.slice(0, 60));
    assert.ok(changes.length <= 4, `${region} changed ${changes.length} times: ${changes.slice(0, 6).join(' | ')}`);
  }
  const answers = announced.filter((a) => a.text.includes('Answer:'));
  assert.equal(answers.length, 1, JSON.stringify(announced));
  assert.match(answers[0].text, /scaled 1\/√d_k reached smoothed loss 0\.1 at step \d+, (\d+ steps? (earlier|later) than|in the same number of steps as) QK-norm/);
  assert.ok(announced.some((a) => a.region === 'announcer' && /^Finished: 300 steps per run\./.test(a.text)), JSON.stringify(announced));
  assert.deepEqual(errors, []);
  await context.close();
});
