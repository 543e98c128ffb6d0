// The answer in the element's language, in headless chromium: <sqrtdk-lab lang="de"> trains a short exercise;
// the answer box, the Runs list and the sqrtdk-answer event write the core's numbers as German does (0,1), the
// words from STRINGS.answer (English until strings.js is translated).  The texts themselves are checked against
// the core's in tests/node/phrasebook.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';
import { eventsOf, recordEvents } from './helpers/api-events.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

test('lang="de": the answer\'s numbers in German form, in the box, the Runs list and the event', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'fixtures/answer-lang.html'));
  const train = lab(page);
  await train.locator('button[data-key="start"], button', { hasText: 'Start' }).first().click();
  await train.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
  const answer = train.locator('.answer');
  const sentences = await answer.locator('.answer-sentence').allTextContents();
  const texts = [...sentences, ...await answer.locator('.answer-definitions li').allTextContents(),
    ...await answer.locator('.answer-table td[data-cell]').allTextContents(),
    ...await train.locator('.run-table td[data-cell]').allTextContents()];
  assert.ok(sentences.some((s) => s.includes('0,1')), sentences.join('\n'));
  assert.deepEqual(texts.filter((t) => /\d\.\d/.test(t)), [], 'no English decimal point');
  const [event] = (await eventsOf(page, 'sqrtdk-answer')).filter((e) => e.detail.final);
  assert.equal(event.detail.sentence, sentences.join(' '));
  assert.equal(Object.hasOwn(event.detail, 'messages'), false);
  await context.close();
  assert.deepEqual(errors, []);
});
