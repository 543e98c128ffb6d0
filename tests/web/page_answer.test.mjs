// The answer a learner reads after a short exercise in headless chromium: stalls instead of "plateau", the
// final level, "never (in N steps)", one seed, each seed's steps, clear or within the spread, N steps and the
// ratio, the table's display names in the sentences, a GPT-init wording that cannot read as a contradiction, and
// an answer that comes while the runs still train.
// Every number and word comes from the core (lab.compare); these check what reaches the page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const LABELS = { scaled: 'scaled 1/√d_k', unscaled: 'unscaled', alpha: '1/d_k^α, α=1', qknorm: 'QK-norm' };

/** Train the exercise of `hash` to the end; returns the answer's sentences, table rows and definitions. */
async function finishedAnswer(hash) {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'lab.html', `#panels=train&evalEvery=50&${hash}`));
  const train = lab(page);
  await train.locator('button', { hasText: 'Start' }).click();
  await train.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
  // The Runs list renders in its own throttled task: at rest, with the final answer drawn, it has caught up.
  await waitForRest(page);
  await page.waitForFunction(() => ![...document.querySelector('sqrtdk-lab').shadowRoot
    .querySelectorAll('.run-table td[data-cell="threshold"]')].some((td) => td.textContent === 'not yet'));
  const answer = train.locator('.answer');
  const sentences = await answer.locator('.answer-sentence').allTextContents();
  const rows = await answer.locator('.answer-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    variant: tr.dataset.variant,
    outcome: tr.dataset.outcome,
    label: tr.querySelector('th').textContent,
    ...Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.cell, td.textContent])),
  })));
  const runs = await train.locator('.run-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    run: tr.dataset.run,
    ...Object.fromEntries([...tr.querySelectorAll('td[data-cell]')].map((td) => [td.dataset.cell, td.textContent])),
  })));
  const definitions = await answer.locator('.answer-definitions li').allTextContents();
  const text = await answer.innerText();
  const outcome = await answer.getAttribute('data-outcome');
  await context.close();
  assert.deepEqual(errors, []);
  return { sentences, rows, runs, definitions, text, outcome };
}

test('Adam lr 0.01, one seed: unscaled stalls and never gets there, and the answer says so', async () => {
  // Seed 2: `sqrtdk compare --lr 0.01 --steps 150 --seeds 1 --seed 2` has scaled reaching 0.1 at step 43 and
  // unscaled stalled from step 18 to the end; the arithmetic is the same in every browser, so this seed's outcome
  // is the same everywhere.
  const a = await finishedAnswer('variants=scaled,unscaled&seeds=1&trainSeed=2&steps=150&lr=0.01');
  assert.equal(a.outcome, 'never');
  assert.match(a.sentences[0], /^unscaled did not reach smoothed loss 0\.1 and stay below it in 150 steps; scaled 1\/√d_k reached it at step \d+\. One seed: no spread to judge whether the difference is clear\.$/);
  const [scaled, unscaled] = a.rows;
  assert.equal(unscaled.median, 'never (in 150 steps)');
  assert.equal(unscaled.relation, 'never (in 150 steps)');
  assert.equal(unscaled.seeds, 'never');
  assert.match(unscaled.stall, /^from step \d+ to the end \(\d+ steps\) at \d/);
  assert.equal(scaled.stall, 'none');
  assert.match(scaled.seeds, /^\d+$/);
  assert.match(unscaled.final, /^\d/);
  assert.match(a.sentences.find((s) => s.startsWith('Stalls')), /unscaled from step \d+ to the end/);
  assert.match(a.sentences.at(-1), /^Final smoothed loss: scaled 1\/√d_k [\d.e-]+, unscaled [\d.]+\.$/);
  // Every run's steps to threshold, stall and level in the Runs list too.
  assert.deepEqual(a.runs.map((r) => [r.run, r.threshold]), [['scaled-2', scaled.seeds], ['unscaled-2', 'never (in 150 steps)']]);
  assert.equal(a.runs[1].stall, unscaled.stall);
  // The definitions under the table; no "plateau" anywhere.
  assert.deepEqual(a.definitions.map((d) => d.split(':')[0]), ['Smoothed loss', 'Steps to threshold', 'Stall', 'Final level', 'Clear difference']);
  assert.match(a.definitions[2], /^Stall: at least 50 steps in which the smoothed loss stays above 0\.1 and within 25 %/);
  assert.doesNotMatch(a.text, /plateau|cannot compare/i);
});

/** "scaled … N steps earlier than X …; X took R× as many steps as scaled": the slower one is named, R ≥ 1. */
function assertRatioSide(earlierOrLater, slower, ratio, sentence) {
  if (!earlierOrLater) return assert.equal(slower, undefined, sentence);  // the same number of steps: no ratio
  assert.ok(Number(ratio) >= 1, sentence);
  assert.equal(slower === 'scaled 1/√d_k', earlierOrLater === 'later', sentence);
}

test('four variants, one seed: the sentences use the table\'s display names and the × sign', async () => {
  const a = await finishedAnswer('variants=scaled,unscaled,alpha,qknorm&trainAlpha=1&seeds=1&steps=80');
  assert.deepEqual(a.rows.map((r) => r.label), Object.values(LABELS));
  assert.deepEqual(a.rows.map((r) => r.variant), Object.keys(LABELS));
  assert.equal(a.sentences.length >= 5, true, a.sentences.join('\n'));
  for (const [i, v] of ['unscaled', 'alpha', 'qknorm'].entries()) {
    // From the reference's side ("scaled 1/√d_k reached ..., N steps earlier than unscaled, ..."), or the
    // variant's when it did not reach the threshold ("unscaled did not reach ...").
    const label = LABELS[v].replace(/[/^.()]/g, '\\$&');
    const gap = new RegExp(`^scaled 1/√d_k reached smoothed loss 0\\.1 at step \\d+, (\\d+ steps? (earlier|later) than|in the same number of steps as) ${label}, which reached it at step \\d+(; (${label}|scaled 1/√d_k) took ([\\d.]+)× as many steps as (${label}|scaled 1/√d_k))?\\.`);
    const m = gap.exec(a.sentences[i]);
    assert.ok(m || a.sentences[i].startsWith(`${LABELS[v]} did not reach`), a.sentences[i]);
    // The ratio names the variant that took more steps: never below 1, and absent when both took the same.
    if (m) assertRatioSide(m[2], m[4], m[5], a.sentences[i]);
    assert.match(a.sentences[i], /One seed: no spread to judge whether the difference is clear\.$/);
  }
  assert.doesNotMatch(a.text, /\b(alpha|qknorm)\b|\dx /);
});

test('GPT init, two seeds: each seed\'s steps, N steps and the ratio, and a verdict that cannot contradict itself', async () => {
  const a = await finishedAnswer('variants=scaled,unscaled&seeds=2&steps=130&init=gpt');
  const [scaled, unscaled] = a.rows;
  assert.match(scaled.seeds, /^\d+ · \d+$/);
  assert.match(unscaled.seeds, /^\d+ · \d+$/);
  const sentence = a.sentences[0];
  // From the question's side: the reference (scaled) first, then how many steps earlier (or later) than unscaled.
  assert.match(sentence, /^scaled 1\/√d_k reached smoothed loss 0\.1 at a median of [\d.]+ steps, /);
  const m = /([\d.]+ steps? (later|earlier) than|in the same number of steps as) unscaled, which reached it at a median of [\d.]+ steps[^;.]*(; (unscaled|scaled 1\/√d_k) took ([\d.]+)× as many steps as (unscaled|scaled 1\/√d_k))?\./.exec(sentence);
  assert.ok(m, sentence);
  assertRatioSide(m[2], m[4], m[5], sentence);
  assert.match(sentence, /Counted over 2 seeds each, |Within the spread of the seeds \(over /);
  assert.doesNotMatch(sentence, /A clear difference|Small but consistent|equally fast/);  // counts, not verdicts
  assert.doesNotMatch(sentence, /no clear difference \(ratio|seed ranges apart/);
  assert.ok(['clear', 'within-spread', 'small'].includes(a.outcome), a.outcome);
  assert.match(unscaled.relation, /^([\d.]+ steps? (later|earlier)|in the same number of steps) \([\d.]+×\), in (only )?\d of 4 pairs of seeds$/);
});

test('the answer comes while the runs still train, and gains the final levels when they finish', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'lab.html', '#panels=train&evalEvery=50&variants=scaled,qknorm&seeds=1&steps=300'));
  const train = lab(page);
  await train.locator('button', { hasText: 'Start' }).click();
  const live = train.locator('.answer[data-ready="true"][data-final="false"]');
  await live.waitFor({ timeout: 120000 });
  const sentences = await live.locator('.answer-sentence').allTextContents();
  assert.match(sentences[0], /^scaled 1\/√d_k reached smoothed loss 0\.1 at step \d+, (\d+ steps? (earlier|later) than|in the same number of steps as) QK-norm, which reached it at step \d+/);
  assert.ok(!sentences.some((s) => s.startsWith('Final smoothed loss')), sentences.join('\n'));
  assert.match(await live.locator('.answer-state').textContent(), /go on to their 300 steps/);
  assert.match(await live.locator('th', { hasText: 'level now' }).textContent(), /level now \(median\)/);
  await train.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
  assert.match((await train.locator('.answer-sentence').allTextContents()).at(-1), /^Final smoothed loss: scaled 1\/√d_k /);
  assert.deepEqual(errors, []);
  await context.close();
});
