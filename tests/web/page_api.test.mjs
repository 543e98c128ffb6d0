// The element's API in chromium, as a lesson page uses it: the events of a whole exercise (ready, progress,
// answer), each detail against its TypeScript declaration, and the control API (start, pause, reset,
// settings, result, exportData), including the calls that must throw and change nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, newPage, openLab, stepsDone } from './helpers/browser.mjs';
import { eventsOf, matchesDeclaration, recordEvents, waitForEvents } from './helpers/api-events.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

async function download(page, click) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync(await file.path(), 'utf8');
}

/** Call a member of the first <sqrtdk-lab>; returns {value} or {error: message}. */
function call(page, code) {
  return page.evaluate((source) => {
    const el = document.querySelector('sqrtdk-lab');
    try {
      return { value: new Function('el', `return ${source}`)(el) };
    } catch (error) {
      return { error: error.message };
    }
  }, code);
}

test('http: a whole exercise through the events and the control API', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=60&threshold=2&evalEvery=20&variants=scaled,unscaled'));
  const l = lab(page);

  const [ready] = await waitForEvents(page, 'sqrtdk-ready');
  assert.deepEqual(ready.detail.panels, ['train']);
  assert.deepEqual(ready.detail.settings, (await call(page, 'el.settings')).value);
  assert.ok(matchesDeclaration(ready.detail, 'SqrtdkReadyDetail'));
  assert.ok(ready.bubbles && ready.composed);
  assert.equal((await call(page, 'el.result')).value, null);

  await call(page, 'el.start()');
  const answers = await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-answer' && e.detail.final), null, { timeout: 90000 })
    .then(() => eventsOf(page, 'sqrtdk-answer'));
  await l.locator('.answer[data-final="true"]').waitFor();
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-progress' && !e.detail.running && e.detail.runsFinished === 2));

  // Progress: throttled, growing, and a last event with everything done.
  const progress = await eventsOf(page, 'sqrtdk-progress');
  assert.ok(progress.length >= 2, `${progress.length} progress events`);
  for (let i = 1; i < progress.length; i += 1) {
    assert.ok(progress[i].t - progress[i - 1].t >= 240, `progress ${i} came ${progress[i].t - progress[i - 1].t} ms after the previous one`);
    assert.ok(progress[i].detail.stepsDone >= progress[i - 1].detail.stepsDone);
  }
  assert.deepEqual(progress.at(-1).detail, { stepsDone: 120, stepsPlanned: 120, runs: 2, runsFinished: 2, running: false });
  assert.ok(progress.every((e) => matchesDeclaration(e.detail, 'SqrtdkProgressDetail')));

  // The answer: once when ready, once more when final (one event if both happen at once); what the box shows.
  assert.ok(answers.length === 1 || answers.length === 2, `${answers.length} answers`);
  assert.ok(answers.every((a) => a.detail.ready));
  const answer = answers.at(-1).detail;
  assert.equal(answer.final, true);
  assert.ok(matchesDeclaration(answer, 'SqrtdkAnswerDetail'));
  for (const v of answer.variants) {
    assert.ok(matchesDeclaration(v, 'SqrtdkVariantResult'), JSON.stringify(v));
    for (const r of v.runs) assert.ok(matchesDeclaration(r, 'SqrtdkRunResult'), JSON.stringify(r));
    const median = await l.locator(`.answer-table tr[data-variant="${v.name}"] td[data-cell="median"]`).textContent();
    assert.equal(median, v.medianStepsToThreshold === null ? 'never (in 60 steps)' : String(v.medianStepsToThreshold));
  }
  for (const c of answer.comparisons) assert.ok(matchesDeclaration(c, 'SqrtdkComparison'));
  assert.deepEqual(answer.variants.map((v) => v.name), ['scaled', 'unscaled']);
  assert.equal(answer.reference, 'scaled');
  assert.deepEqual(answer.sentences, await l.locator('.answer-sentence').allTextContents());
  assert.equal(answer.sentence, answer.sentences.join(' '));
  assert.equal(answer.settings.steps, 60);
  assert.equal(answer.threshold, 2);
  assert.deepEqual((await call(page, 'el.result')).value, answer);

  // exportData gives exactly what the Export buttons save.
  const csv = await download(page, () => l.locator('button', { hasText: 'Export CSV' }).click());
  assert.equal((await call(page, "el.exportData('csv')")).value, csv);
  assert.equal(csv.trim().split('\n').length, 1 + 120);
  const json = await download(page, () => l.locator('button', { hasText: 'Export JSON' }).click());
  assert.deepEqual(JSON.parse((await call(page, "el.exportData('json')")).value), JSON.parse(json));
  assert.deepEqual(await call(page, "el.exportData('xml')"), { error: "sqrtdk-lab: exportData(format): format must be 'csv' or 'json', not \"xml\"." });

  // A setting the answer depends on: result is null at once, then the recomputed answer (a new event), as the box.
  const answersThen = (await eventsOf(page, 'sqrtdk-answer')).length;
  assert.deepEqual(await call(page, '(el.settings = { threshold: 1.5 }, el.result)'), { value: null });
  await page.waitForFunction((n) => window.sqrtdkEvents.filter((e) => e.name === 'sqrtdk-answer').length > n, answersThen);
  const rethresholded = (await eventsOf(page, 'sqrtdk-answer')).at(-1).detail;
  assert.equal(rethresholded.threshold, 1.5);
  assert.equal(rethresholded.final, true);
  assert.notDeepEqual(rethresholded.sentences, answer.sentences);
  await page.waitForFunction((sentences) => JSON.stringify([...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.answer-sentence')]
    .map((e) => e.textContent)) === JSON.stringify(sentences), rethresholded.sentences);
  assert.deepEqual((await call(page, 'el.result')).value, rethresholded);

  // reset() clears the runs and the result at once; start() and pause() drive the same buttons.
  assert.deepEqual(await call(page, '(el.reset(), el.result)'), { value: null });
  await page.waitForFunction(() => window.sqrtdkEvents.at(-1).name === 'sqrtdk-progress' && window.sqrtdkEvents.at(-1).detail.stepsDone === 0);
  await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone === '0');
  assert.equal((await call(page, 'el.result')).value, null);
  assert.equal(await l.locator('button', { hasText: 'Start' }).isEnabled(), true);
  const answersBefore = (await eventsOf(page, 'sqrtdk-answer')).length;
  await call(page, 'el.start()');
  await page.waitForFunction(() => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) >= 10);
  // pause() acts at once: what the progress event says when it returns is final, also once the workers are idle.
  await page.evaluate(() => document.querySelector('sqrtdk-lab').pause());
  await page.waitForFunction(() => window.sqrtdkEvents.at(-1).name === 'sqrtdk-progress' && window.sqrtdkEvents.at(-1).detail.running === false);
  const frozen = await page.evaluate(() => window.sqrtdkEvents.at(-1).detail.stepsDone);
  await page.waitForFunction((n) => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) === n, frozen);
  // The positive control for "nothing happens after pause()": one Step goes through each run's worker behind
  // anything still queued there, so once it is counted, the total has grown by exactly one step per run.
  const runs = await l.locator('.run-table tbody tr').count();
  await l.locator('button', { hasText: /^Step$/ }).click();
  await page.waitForFunction((n) => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) > n, frozen);
  await page.waitForFunction(() => window.sqrtdkEvents.at(-1).name === 'sqrtdk-progress' && window.sqrtdkEvents.at(-1).detail.running === false);
  assert.equal(await stepsDone(page), frozen + runs, 'pause() stops training: one Step adds one step per run, nothing more');
  assert.ok(frozen < 120);
  assert.equal(await l.locator('button', { hasText: 'Continue' }).isEnabled(), true);
  assert.equal((await eventsOf(page, 'sqrtdk-answer')).length, answersBefore, 'no answer while the new runs are unfinished');

  // settings: read, set, and bad values that throw and change nothing.
  assert.deepEqual(await call(page, "(el.settings = { steps: 80, variants: ['unscaled', 'scaled'] }, [el.settings.steps, el.settings.variants])"),
    { value: [80, ['scaled', 'unscaled']] });
  assert.equal(await l.locator('[data-key="steps"] input').inputValue(), '80');
  await call(page, "el.settings = 'dk=256&seeds=2'");
  assert.deepEqual((await call(page, '[el.settings.dk, el.settings.seeds]')).value, [256, 2]);
  const before = (await call(page, 'el.settings')).value;
  const noticesBefore = await l.locator('.notices li').count();
  for (const [code, message] of [
    ['el.settings = { dk: 5000 }', 'sqrtdk-lab: settings.dk: 5000 is outside 1..1024; nothing was changed.'],
    ["el.settings = { seeds: 2, variants: ['fast'] }", 'sqrtdk-lab: settings.variants: ignored "fast" (not one of scaled, unscaled, alpha, qknorm); nothing was changed.'],
    ['el.settings = { lr: true }', 'sqrtdk-lab: settings.lr must be a number, not boolean; nothing was changed.'],
    ['el.settings = { turbo: 1 }', 'sqrtdk-lab: settings."turbo" is not a setting of this lab; nothing was changed.'],
    ["el.settings = 'steps=ten'", 'sqrtdk-lab: settings.steps: "ten" is not a finite number; nothing was changed.'],
    ['el.settings = null', 'sqrtdk-lab: settings must be an object such as {dk: 256} or a hash such as "dk=256", not null.'],
  ]) {
    assert.deepEqual(await call(page, code), { error: message }, code);
  }
  assert.deepEqual((await call(page, 'el.settings')).value, before, 'a refused value changes nothing');
  assert.equal(await l.locator('.notices li').count(), noticesBefore, 'and adds no notice: the caller gets the error');
  const copy = await call(page, '(() => { const s = el.settings; s.dk = 1; s.variants.push("alpha"); return [el.settings.dk, el.settings.variants]; })()');
  assert.deepEqual(copy.value, [256, ['scaled', 'unscaled']], 'the getter hands out a copy');

  // seeds=2 through the API applied at once: 4 runs, the added seeds from step 0 (seed 0's runs are kept).
  assert.equal(await l.locator('.run-table tbody tr').count(), 4);
  assert.deepEqual(await l.locator('.run-table tbody tr[data-run$="-1"]').evaluateAll((rows) => rows.map((r) => r.dataset.steps)), ['0', '0']);
  // A control changed after progress waits for Start; start() is that Start button (it applies the change).
  await call(page, 'el.start()');
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-progress' && e.detail.runs === 4 && e.detail.stepsDone > 0));
  await call(page, 'el.pause()');
  const box = l.locator('input[aria-label="layers (exact value)"]');
  await box.fill('1');
  await box.press('Enter');
  await l.locator('[data-pending]').waitFor({ state: 'visible' });
  await call(page, 'el.start()');
  await l.locator('[data-pending]').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-progress' && e.detail.runs === 4 && e.detail.stepsDone > 0
) && document.querySelector('sqrtdk-lab').settings.layers === 1);
  await call(page, 'el.pause()');
  assert.equal((await call(page, 'el.exportData("json")').then((r) => JSON.parse(r.value))).runs[0].config.layers, 1, 'the new runs have 1 layer');
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: without the train panel, or out of the document, the methods throw one line and change nothing', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'index.html', '#panels=softmax'));
  await waitForEvents(page, 'sqrtdk-ready');
  for (const member of ['start()', 'pause()', 'reset()']) {
    assert.deepEqual(await call(page, `el.${member}`), { error: `sqrtdk-lab: ${member} needs the exercise panel (panels includes "train").` });
  }
  assert.deepEqual(await call(page, "el.exportData('csv')"), { error: 'sqrtdk-lab: exportData() needs the exercise panel (panels includes "train").' });
  // Switching the panel on through the settings makes them work.
  await call(page, "el.settings = { panels: ['softmax', 'train'], seeds: 1, steps: 20 }");
  await call(page, 'el.start()');
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-progress' && e.detail.stepsDone === 40), null, { timeout: 60000 });

  // An element not (yet) in the document: settings are checked now and applied when it connects.
  const detached = await page.evaluate(() => {
    const el = document.createElement('sqrtdk-lab');
    el.setAttribute('panels', 'train');
    el.setAttribute('seeds', '2');
    const out = { seeds: el.settings.seeds };
    el.settings = { steps: 33 };
    try { el.settings = { steps: -1 }; } catch (e) { out.bad = e.message; }
    try { el.start(); } catch (e) { out.start = e.message; }
    out.result = el.result;
    el.id = 'late';
    document.body.append(el);
    out.after = [el.settings.steps, el.settings.seeds];
    return out;
  });
  assert.deepEqual(detached, { seeds: 2, bad: 'sqrtdk-lab: settings.steps: -1 is outside 10..20000; nothing was changed.',
    start: 'sqrtdk-lab: start() needs the element to be in the document.', result: null, after: [33, 2] });
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-ready' && e.target === 'late'));

  // Composed: an element inside another component's shadow root still reaches the document.
  await page.evaluate(() => {
    const outer = document.createElement('div');
    outer.id = 'outer';
    outer.attachShadow({ mode: 'open' }).append(Object.assign(document.createElement('sqrtdk-lab'), { id: 'inner' }));
    outer.shadowRoot.firstChild.setAttribute('panels', 'softmax');
    document.body.append(outer);
  });
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-ready' && e.target === 'outer'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: a value assigned before the script defines the element is applied when it upgrades', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'fixtures/api-upgrade.html'));
  await page.waitForFunction(() => customElements.get('sqrtdk-lab') && document.querySelector('sqrtdk-lab').shadowRoot);
  assert.deepEqual(await page.evaluate(() => [document.querySelector('sqrtdk-lab').settings.dk, Object.hasOwn(document.querySelector('sqrtdk-lab'), 'settings')]),
    [32, false]);
  // The printout is computed in the helper worker: wait for it rather than read whatever is shown first.
  await lab(page).locator('.printout-title', { hasText: 'in d_k = 32,' }).waitFor({ timeout: 90000 });
  // The bad one: built, with the refusal as a notice and its defaults.
  await lab(page, 1).locator('.printout-title', { hasText: 'in d_k = 128,' }).waitFor({ timeout: 90000 });
  assert.match(await lab(page, 1).locator('.notices li').first().textContent(), /^sqrtdk-lab: settings\.dk: 5000 is outside 1\.\.1024/);
  assert.deepEqual(errors, []);
  await context.close();
});
