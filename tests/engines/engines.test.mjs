// The lab in every engine a learner uses: chromium (Chrome, Edge), Firefox ESR and WebKit (Safari's engine,
// as on school iPads), each driven through tests/engines/drivers.mjs.  Per engine: index.html from http and from
// file:// (the explorer's numbers), a one-seed exercise through the control API whose answer (`result`) and CSV
// (`exportData('csv')`) are chromium's byte for byte (one float arithmetic in every engine's wasm), the
// lab's events, the control API refusing a bad setting, a short exercise from file:// too, the strict-CSP page
// training, lab.html in a cross-origin iframe driven by messages, and no window error, console error or CSP
// violation anywhere (the lab's frame included).  Where a browser lacks a feature the lab needs (WebAssembly SIMD,
// missing before Safari 16.4), the element says so in one line: each engine is shown such a page.
// Chromium runs first: its numbers are what the other engines must equal.  Screenshots per engine in
// artifacts/screenshots/engine-<engine>-<page>.png.  tests/engines/run.sh runs this file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ensureScreenshotDir } from '../web/helpers/browser.mjs';
import { ENGINES, launch } from './drivers.mjs';
import { openSite } from './site.mjs';
import { STRINGS } from '../../web/src/ui/strings.js';

const EXERCISE = 'seeds=1&steps=150&evalEvery=50&variants=scaled,unscaled';
const SHORT_EXERCISE = 'seeds=1&steps=20&evalEvery=10&variants=scaled,unscaled';
const FRAME_HASH = `panels=train&${SHORT_EXERCISE}`;
const TRAINING_MS = 240000;
const SCREENSHOTS = ensureScreenshotDir();

// In the page (each function is sent as its source: self-contained, JSON in and out).
const explorerNumbers = () => {
  const table = document.querySelector('sqrtdk-lab')?.shadowRoot?.querySelector('table.top5');
  return table?.querySelector('tr[data-row="raw"] td[data-cell="top"]') ? table.textContent : null;
};
const ready = () => window.engineProbe.events.some((e) => e.type === 'sqrtdk-ready');
const pageErrors = () => window.engineProbe.errors;
const startExercise = (settings) => {
  const lab = document.querySelector('sqrtdk-lab');
  if (settings) lab.settings = settings;
  lab.start();
  return true;
};
const finalAnswer = () => {
  const lab = document.querySelector('sqrtdk-lab');
  return lab.result?.final ? { result: JSON.stringify(lab.result), csv: lab.exportData('csv') } : null;
};
// The lab's events once the last sqrtdk-progress says the runs stopped (progress comes at most every 250 ms, and
// last: it may follow the final answer), else null.
const eventsAtRest = () => {
  const lab = document.querySelector('sqrtdk-lab');
  const of = (type) => window.engineProbe.events.filter((e) => e.type === type).map((e) => e.detail);
  if (of('sqrtdk-progress').at(-1)?.running !== false) return null;
  const answers = of('sqrtdk-answer');
  return { ready: of('sqrtdk-ready').length, progress: of('sqrtdk-progress'), finals: answers.filter((a) => a.final).length,
    lastAnswerIsResult: JSON.stringify(answers.at(-1)) === JSON.stringify(lab.result), bad: [...of('sqrtdk-error'), ...of('sqrtdk-diverged')] };
};
const controlApi = () => {
  const lab = document.querySelector('sqrtdk-lab');
  let refusal = null;
  try {
    lab.settings = { dk: 5000 };
  } catch (error) {
    refusal = error.message;
  }
  const dk = lab.settings.dk;
  lab.reset();
  return { refusal, dk, resultAfterReset: lab.result };
};
// The element of a browser that lacks a feature: its whole text, once it shows one, and what start() throws.
const unsupported = () => {
  const lab = document.querySelector('sqrtdk-lab');
  const text = lab.shadowRoot?.textContent;
  if (!text) return null;
  let thrown = null;
  try {
    lab.start();
  } catch (error) {
    thrown = error.message;
  }
  return { text, alert: lab.shadowRoot.querySelector('[role="alert"]')?.textContent ?? null, thrown,
    errorEvents: window.engineProbe.events.filter((e) => e.type === 'sqrtdk-error').map((e) => e.detail) };
};
// What the host page got from the lab's frame: the details of one type, or null while there is none.
const received = (type) => {
  const details = (window.received ?? []).filter((m) => m.data?.type === type).map((m) => m.data.detail ?? m.data);
  return details.length ? details : null;
};

let site;
before(async () => { site = await openSite(); });
after(async () => { await site.close(); });

const chromium = {};  // what chromium showed: the reference of the other engines

for (const engine of ENGINES) {
  describe(engine, () => {
    let driver;
    let started;
    before(async () => {
      started = Date.now();
      driver = await launch(engine);
    });
    after(async () => {
      await driver?.close();
      console.log(`# ${engine} (${driver?.version}): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });
    const shot = (page) => driver.screenshot(join(SCREENSHOTS, `engine-${engine}-${page}.png`));
    const noErrors = async () => assert.deepEqual(await driver.evaluate(pageErrors), []);
    const sameAsChromium = (key, value) => {
      if (engine === 'chromium') chromium[key] = value;
      else assert.equal(value, chromium[key], `${key}: ${engine} differs from chromium`);
    };

    test('http: index.html defines the element and shows the explorer\'s numbers', async () => {
      await driver.goto(site.url('http', 'index.html'));
      // WebKit runs under LANG=C.UTF-8 (drivers.mjs): its navigator.language is "C", which Intl rejects.
      if (engine === 'webkit') assert.equal(await driver.evaluate(() => navigator.language), 'C');
      sameAsChromium('explorer', await driver.waitFor(explorerNumbers, null, 90000));
      await noErrors();
    });

    test('http: a one-seed exercise through the control API: its answer and CSV are chromium\'s; events; refusals', async () => {
      await driver.waitFor(ready, null, 90000);
      await driver.evaluate(startExercise, EXERCISE);
      const { result, csv } = await driver.waitFor(finalAnswer, null, TRAINING_MS);
      assert.match(csv, /^variant,seed,step,loss,/);
      assert.equal(JSON.parse(result).variants.length, 2);
      sameAsChromium('answer', result);
      sameAsChromium('csv', csv);
      const seen = await driver.waitFor(eventsAtRest, null, 30000);
      assert.equal(seen.ready, 1);
      assert.equal(seen.progress.at(-1).stepsDone, 300);
      assert.equal(seen.finals, 1);
      assert.ok(seen.lastAnswerIsResult, 'the last sqrtdk-answer is `result`');
      assert.deepEqual(seen.bad, []);
      await shot('index');
      assert.deepEqual(await driver.evaluate(controlApi), {
        refusal: 'sqrtdk-lab: settings.dk: 5000 is outside 1..1024; nothing was changed.', dk: 128, resultAfterReset: null });
      await noErrors();
    });

    test('file://: index.html shows the same numbers and trains a short exercise to chromium\'s answer', async () => {
      await driver.goto(site.url('file', 'index.html'));
      assert.equal(await driver.waitFor(explorerNumbers, null, 90000), chromium.explorer);
      await driver.waitFor(ready, null, 90000);
      await driver.evaluate(startExercise, SHORT_EXERCISE);
      const { result, csv } = await driver.waitFor(finalAnswer, null, TRAINING_MS);
      sameAsChromium('fileAnswer', result);
      sameAsChromium('fileCsv', csv);
      await shot('file');
      await noErrors();
    });

    test('http: under a strict Content-Security-Policy the exercise trains to the same answer', async () => {
      await driver.goto(site.url('http', 'fixtures/csp-strict.html'));
      await driver.waitFor(ready, null, 90000);
      await driver.evaluate(startExercise, null);
      sameAsChromium('cspAnswer', (await driver.waitFor(finalAnswer, null, TRAINING_MS)).result);
      await shot('csp');
      await noErrors();
    });

    test('http: lab.html in a cross-origin iframe obeys its parent\'s messages and posts its events', async () => {
      const query = new URLSearchParams({ lab: site.labOrigin, intruder: 'about:blank', hash: FRAME_HASH });
      await driver.goto(`${site.url('http', 'fixtures/api-frame-host.html')}?${query}`);
      await driver.waitFor(received, 'sqrtdk-ready', 90000);
      await driver.waitFor(received, 'sqrtdk-height', 30000);
      await driver.evaluate(() => window.send({ type: 'start' }));
      const answer = await driver.waitFor(() => (window.received ?? []).find((m) => m.data?.type === 'sqrtdk-answer' && m.data.detail.final)?.data.detail,
        null, TRAINING_MS);
      assert.equal(answer.steps, 20);
      sameAsChromium('frameAnswer', JSON.stringify(answer));
      await driver.evaluate(() => window.send({ type: 'launch' }));
      const [refusal] = await driver.waitFor(received, 'sqrtdk-error', 30000);
      assert.equal(refusal.message, 'sqrtdk-lab: message ignored: unknown type "launch" (expected start, pause, reset or settings)');
      assert.equal(await driver.evaluate(received, 'engine-probe-error'), null, 'an error inside the lab\'s frame');
      await shot('iframe');
      await noErrors();
    });

    test('http: a browser without WebAssembly SIMD gets one line saying so, and nothing else', async () => {
      const line = STRINGS.browserLacks('WebAssembly SIMD');
      await driver.goto(site.url('http', 'engines/no-simd.html'));
      assert.deepEqual(await driver.waitFor(unsupported, null, 30000),
        { text: line, alert: line, thrown: line, errorEvents: [{ kind: 'wasm', message: line, recoverable: false }] });
      await shot('no-simd');
      await noErrors();
    });
  });
}
