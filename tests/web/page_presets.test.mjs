// Every preset run to its answer, as a learner would (its Run button): the answer is final, the loss chart shows
// each seed's steps to threshold and each median the answer quotes, every mechanism chart carries the core's
// sentence, and the "why" box is there exactly when the reference learned.  Screenshots of each preset at its
// answer, desktop and phone, light and dark, go to artifacts/screenshots/presets/; the sentences the page showed
// go to artifacts/presets.json.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';

const IDS = ['adam', 'sgd', 'adam-high-lr', 'gpt-init', 'large-dk', 'qknorm'];

test('every preset at its answer: the charts show the answer\'s numbers and the core\'s sentences; screenshots', async (t) => {
  const dir = join(SCREENSHOTS, 'presets');
  mkdirSync(dir, { recursive: true });
  const shown = {};
  const env = await openLab();
  try {
    for (const id of IDS) {
      const { page, context, errors } = await newPage(env.browser, { width: 1280, height: 900 });
      await page.goto(env.url('http', 'index.html', ''));
      const l = lab(page);
      await l.locator(`button[data-key="run-${id}"]`).click();
      await l.locator(`tr[data-scenario="${id}"] button.scenario-button[aria-pressed="true"]`).waitFor({ timeout: 90000 });
      await l.locator('.answer[data-final="true"]').waitFor({ timeout: 900000 });
      await waitForRest(page, 0, 120000);

      const guides = JSON.parse(await l.locator('[data-chart="loss"]').getAttribute('data-guides'));
      const seedSteps = (await l.locator('.answer [data-cell="seeds"]').allTextContents())
        .flatMap((text) => text.split(' · ')).filter((s) => /^\d/.test(s)).map(Number);
      const byStep = (a, b) => a - b;
      assert.deepEqual(guides.dots.filter((d) => !d.hollow).map((d) => d.x).sort(byStep), seedSteps.sort(byStep), `${id}: a dot per seed`);
      // A hollow dot per seed that touched the threshold and ended above it, at the step the seeds to inspect name.
      const inspect = await l.locator('[data-note="inspect-seeds"]').allTextContents();
      const touched = inspect.flatMap((t) => [...t.matchAll(/touched it at step (\d+)/g)].map((m) => Number(m[1])));
      assert.deepEqual(guides.dots.filter((d) => d.hollow).map((d) => d.x).sort(byStep), touched.sort(byStep), `${id}: a hollow dot per seed that fell back`);
      for (const median of await l.locator('.answer [data-cell="median"]').allTextContents()) {
        if (/^\d/.test(median)) assert.ok(guides.lines.some((line) => line.label === `median ${median}`), `${id}: median ${median}`);
      }
      // The runs beside the preset's claim, in its form: k of n per variant as the table counts them.
      const beside = l.locator('[data-note="beside-claim"]');
      const runsLine = await beside.locator('[data-line="runs"]').textContent();
      const headline = await l.locator(`tr[data-scenario="${id}"] [data-headline]`).textContent();
      assert.equal(await beside.locator('[data-line="claim"]').textContent(), `The preset's claim: ${headline}`, id);
      assert.match(await beside.textContent(), /a median is over the seeds that learned/);
      for (const row of await l.locator('.answer tr[data-variant]').all()) {
        const label = await row.locator('th').textContent();
        const cells = (await row.locator('[data-cell="seeds"]').textContent()).split(' · ');
        const counted = /on (\d+) of (\d+)/.exec(runsLine.slice(runsLine.indexOf(label)));
        assert.deepEqual([Number(counted[1]), Number(counted[2])], [cells.filter((c) => /^\d/.test(c)).length, cells.length], `${id} ${label}`);
      }
      const note = async (name) => (await l.locator(`[data-note="${name}"] p`).allTextContents()).join(' ');
      const record = { answer: (await l.locator('.answer .answer-sentence').allTextContents()).join(' '),
        jacobian: await note('jacobian'), qk: await note('qk-grad'), spread: await note('logit-spread') };
      for (const name of ['jacobian', 'qk', 'spread']) assert.ok(record[name].length > 40, `${id}: ${name} sentence`);
      const why = l.locator('[data-note="why"]');
      if (await why.isVisible()) record.why = { title: await why.locator('h4').textContent(), text: (await why.locator('p').allTextContents()).join(' ') };
      const referenceLearned = /^\d/.test(await l.locator('.answer tr[data-variant="scaled"] [data-cell="median"]').textContent());
      assert.equal(Boolean(record.why), referenceLearned, `${id}: the why box shows exactly when the reference learned`);
      shown[id] = record;

      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: join(dir, `${id}-desktop-${colorScheme}.png`), fullPage: true });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.waitForFunction(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('canvas')]
          .every((c) => c.getBoundingClientRect().right <= innerWidth), null, { timeout: 90000 });
        await page.screenshot({ path: join(dir, `${id}-phone-${colorScheme}.png`), fullPage: true });
      }
      assert.deepEqual(errors, [], id);
      await context.close();
      t.diagnostic(`${id}: ${record.qk}`);
    }
  } finally {
    writeFileSync(join(SCREENSHOTS, '..', 'presets.json'), `${JSON.stringify(shown, null, 2)}\n`);
    await env.close();
  }
});
