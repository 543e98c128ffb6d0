// embed.html, the host-page example: the explorer "fixed at d_k = 512" has no d_k control, the sections are
// numbered from 1, the guide's "exercise done" example is the code the page runs and it works, and the iframe
// takes its height from the lab's messages (from file:// it keeps its CSS height).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

/** The fenced block after the marker comment in web/README.md. */
function readmeExample() {
  const readme = readFileSync(join(REPO, 'web/README.md'), 'utf8');
  const after = readme.slice(readme.indexOf('<!-- the example: embed.js runs these lines'));
  return after.slice(after.indexOf('```js\n') + 6, after.indexOf('\n```', 6)).trim();
}

test('the guide\'s example is the code embed.html shows and embed.js runs', () => {
  const example = readmeExample();
  assert.ok(example.split('\n').length <= 10, 'ten lines at most');
  assert.ok(readFileSync(join(REPO, 'web/pages/embed.js'), 'utf8').includes(example));
  const shown = readFileSync(join(REPO, 'web/pages/embed.html'), 'utf8').replaceAll('&gt;', '>').replaceAll('&lt;', '<');
  assert.ok(shown.includes(example));
});

test('http: embed.html — fixed explorer, numbered sections, exercise marked done, self-sizing iframe', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'embed.html'));
  await waitForDemo(page, 0);
  const explorer = lab(page, 0);
  assert.match(await explorer.locator('.printout-title').textContent(), /d_k = 512/);
  assert.equal(await explorer.locator('[data-key="dk"]').count() > 0, true);
  assert.equal(await explorer.locator('[data-key="dk"]').first().isVisible(), false, 'no d_k control: the explorer is fixed at 512');
  const headings = await page.locator('.lesson h2').allTextContents();
  assert.deepEqual(headings.map((t) => t.slice(0, 3)), ['1. ', '2. ', '3. ']);

  // The example: Start, and the page marks the exercise done with the answer's sentence.
  const status = page.locator('#exercise-status');
  assert.equal(await status.getAttribute('data-done'), 'false');
  await lab(page, 1).locator('button', { hasText: 'Start' }).click();
  await page.waitForFunction(() => document.querySelector('#exercise-status').dataset.done === 'true', null, { timeout: 120000 });
  const sentence = await page.evaluate(() => document.querySelector('#exercise').result.sentence);
  assert.ok(sentence.length > 20);
  assert.equal(await status.textContent(), `Exercise done. ${sentence}`);

  // The iframe (lazy) sizes itself to the lab's content.
  await page.locator('#frame').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#frame').style.height !== '', null, { timeout: 90000 });
  const frame = page.frame({ url: /lab\.html/ });
  // The lab renders in steps (printout, charts, sweep), each posting a new height: wait for the last.
  await frame.waitForFunction(() => innerHeight === document.documentElement.scrollHeight
    && document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-chart="sweep-jacobianNorm"][data-points="20"]'), null, { timeout: 90000 });
  const inner = await frame.evaluate(() => ({ content: document.documentElement.scrollHeight, viewport: innerHeight }));
  assert.equal(inner.viewport, inner.content, `iframe viewport ${inner.viewport} px for ${inner.content} px of content`);
  assert.notEqual(inner.viewport, 900 - 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('file: embed.html works without an origin; the iframe keeps its CSS height', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('file', 'embed.html'));
  await waitForDemo(page, 0);
  await page.locator('#frame').scrollIntoViewIfNeeded();
  const frame = await page.waitForFunction(() => document.querySelector('#frame').src.includes('lab.html')).then(() => page.frame({ url: /lab\.html/ }));
  assert.doesNotMatch(frame.url(), /parentOrigin/);
  assert.equal(await page.evaluate(() => document.querySelector('#frame').getBoundingClientRect().height), 900);
  assert.deepEqual(errors, []);
  await context.close();
});
