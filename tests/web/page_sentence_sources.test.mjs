// No number without its source: after a run, every number in every sentence the exercise panel writes (the
// answer box, the runs beside the preset's claim, the seeds to inspect, the sentences under the mechanism charts,
// the "why" box, the start note) is a number of the page's own JSON export, written as the page writes it
// (tests/web/helpers/sentence-sources.mjs), or one of the few that follow from it by a named rule.  Run for the
// default exercise, for a preset (SGD), and for 20 seeds of the default.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';
import { sourcesOf, unsourced } from './helpers/sentence-sources.mjs';

// The panel's sentence groups: [name, selector of the elements whose text is read].
const GROUPS = [
  ['answer state', '.answer .answer-state'],
  ['answer sentences', '.answer .answer-sentence'],
  ['answer table', '.answer .answer-table td'],
  ['runs beside the claim', '[data-note="beside-claim"] p'],
  ['seeds to inspect', '[data-note="inspect-seeds"] p, [data-note="inspect-seeds"] button'],
  ['definitions', '.answer-definitions li'],
  ['Jacobian note', '[data-note="jacobian"] p'],
  ['q/k gradient note', '[data-note="qk-grad"] p'],
  ['logit spread note', '[data-note="logit-spread"] p'],
  ['why box', '[data-note="why"] h4, [data-note="why"] p'],
  ['start note', '[data-note="start"]'],
];

// Words that judge beyond a count ("still learns" beside 16 of 20, "a small gradient" for 0.786): the sentences
// say what was counted instead.
const VERDICTS = /\b(still learns?|not never|a small gradient|a large gradient|clearly|always|significantly|dramatically|barely|much (faster|slower|larger|smaller)|fails? to learn entirely)\b/gi;

/** Run the page at `hash` to its final answer (pressing `start`), then read every group against the export. */
async function checkRun(hash, start, expectGroups) {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', hash));
    const l = lab(page);
    await start(l);
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 600000 });
    await waitForRest(page, 0, 120000);
    const data = JSON.parse(await page.evaluate(() => document.querySelector('sqrtdk-lab').exportData('json')));
    const sources = sourcesOf(data);
    const missing = [];
    const verdicts = [];
    const read = new Set();
    for (const [name, selector] of GROUPS) {
      for (const text of await l.locator(selector).allTextContents()) {
        if (!text.trim()) continue;
        read.add(name);
        for (const n of unsourced(text, sources)) missing.push(`${name}: "${n.text}" in «${text.slice(Math.max(0, n.index - 60), n.end + 40)}»`);
        for (const m of text.matchAll(VERDICTS)) verdicts.push(`${name}: "${m[0]}" in «${text.slice(Math.max(0, m.index - 60), m.index + 60)}»`);
      }
    }
    for (const name of expectGroups) assert.ok(read.has(name), `the ${name} was shown and read`);
    assert.deepEqual(missing, [], `numbers without a source in the export:\n${missing.join('\n')}`);
    assert.deepEqual(verdicts, [], `verdict words that no count carries:\n${verdicts.join('\n')}`);
    assert.deepEqual(errors, []);
    await context.close();
    return { data, read };
  } finally {
    await env.close();
  }
}

const MECHANISM = ['Jacobian note', 'q/k gradient note', 'logit spread note', 'why box'];

test('the default exercise: every number of the panel\'s sentences is in the export', async () => {
  const { data } = await checkRun('#panels=train', (l) => l.locator('button', { hasText: 'Start' }).click(),
    ['answer state', 'answer sentences', 'answer table', 'runs beside the claim', 'start note', ...MECHANISM]);
  assert.ok(data.answer.mechanism.readings.variants.length >= 2, 'the mechanism readings are in the export');
  assert.ok(data.start.entropyAtStep1.every(Number.isFinite), 'the start note\'s entropies are in the export');
});

test('the SGD preset: the claim beside the runs and the why box are sourced too', async () => {
  const { data } = await checkRun('#panels=train', async (l) => {
    await l.locator('tr[data-scenario="sgd"] button.scenario-run').click();
  }, ['answer sentences', 'runs beside the claim', ...MECHANISM]);
  assert.equal(data.claim?.id, 'sgd', 'the preset\'s claim is in the export');
  assert.ok(data.claim.counts.length >= 2 && data.claim.counts.every((c) => c.seeds === 20));
});

test('20 seeds of the default exercise: every number of the panel\'s sentences is in the export', async () => {
  const { data } = await checkRun('#panels=train&seeds=20', (l) => l.locator('button', { hasText: 'Start' }).click(),
    ['answer sentences', 'answer table', 'runs beside the claim', ...MECHANISM]);
  assert.equal(data.runs.length, 40);
});
