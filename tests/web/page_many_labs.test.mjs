// Twelve exercises on one page, started at once, share the page's workers: the main thread stays responsive
// (a 50 ms timer is never held up for long) and each reaches the same answer as one element alone.
// An idle control page runs the same timer at the same time: what delays every page's timers (other processes,
// the workers' use of the cores) delays the control too, so the lab may exceed the control's p95 by at most 200 ms
// (on a quiet machine the control's p95 is a few ms, so the bound is ~200 ms).
import test from 'node:test';
import assert from 'node:assert/strict';
import { newPage, openLab } from './helpers/browser.mjs';

const ELEMENTS = 12;
const SETTINGS = { panels: 'train', seeds: '1', steps: '60', variants: 'scaled,unscaled', 'eval-every': '20', threshold: '1' };

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

/** Add `count` elements with SETTINGS, start them all at once, and return each one's final answer sentences. */
async function trainAll(page, count) {
  return page.evaluate(([n, settings]) => new Promise((resolve) => {
    const labs = Array.from({ length: n }, () => {
      const el = document.createElement('sqrtdk-lab');
      for (const [name, value] of Object.entries(settings)) el.setAttribute(name, value);
      document.querySelector('#labs').append(el);
      return el;
    });
    let ready = 0;
    const answers = new Array(n).fill(null);
    labs.forEach((el, i) => {
      el.addEventListener('sqrtdk-ready', () => {
        ready += 1;
        if (ready === n) {
          // Every element is ready: start them all in one task, and time a 50 ms timer from now on.
          window.timerDelays = [];
          let expected = performance.now() + 50;
          window.timer = setInterval(() => {
            const now = performance.now();
            window.timerDelays.push(Math.max(0, now - expected));
            expected = now + 50;
          }, 50);
          for (const lab of labs) lab.start();
        }
      }, { once: true });
      el.addEventListener('sqrtdk-answer', (event) => {
        if (!event.detail.final) return;
        answers[i] = event.detail.sentences;
        if (answers.every(Boolean)) {
          clearInterval(window.timer);
          resolve(answers);
        }
      });
    });
  }), [count, SETTINGS]);
}

test(`http: ${ELEMENTS} elements started at once keep the page responsive and reach the answer of one alone`, async () => {
  const alone = await newPage(env.browser);
  await alone.page.goto(env.url('http', 'fixtures/many-labs.html'));
  const [reference] = await trainAll(alone.page, 1);
  await alone.context.close();

  const control = await newPage(env.browser);
  await control.page.setContent('<title>control</title><p>an idle page: the timer\'s control</p>');
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'fixtures/many-labs.html'));
  await control.page.evaluate(() => {
    window.timerDelays = [];
    let expected = performance.now() + 50;
    setInterval(() => {
      const now = performance.now();
      window.timerDelays.push(Math.max(0, now - expected));
      expected = now + 50;
    }, 50);
  });
  const answers = await trainAll(page, ELEMENTS);
  const p95Of = (list) => list.sort((a, b) => a - b)[Math.floor(0.95 * (list.length - 1))];
  const delays = await page.evaluate(() => window.timerDelays);
  const p95 = p95Of(delays);
  const max = delays.at(-1);
  const controlP95 = p95Of(await control.page.evaluate(() => window.timerDelays));
  await control.context.close();
  const workers = (await Promise.all(page.workers().map((w) => w.evaluate(() => self.name).catch(() => '')))).filter((n) => n.startsWith('sqrtdk-run'));
  console.log(`# ${ELEMENTS} elements: ${delays.length} timer ticks, delay p95 ${p95.toFixed(0)} ms, max ${max.toFixed(0)} ms; `
    + `idle control page p95 ${controlP95.toFixed(0)} ms; ${workers.length} run workers`);
  for (const sentences of answers) assert.deepEqual(sentences, reference, 'the same answer as one element alone');
  assert.ok(p95 < controlP95 + 200, `timer delay p95 ${p95.toFixed(0)} ms (the idle control's: ${controlP95.toFixed(0)} ms)`);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.ok(workers.length <= Math.min(cores, 8), `${workers.length} run workers for ${cores} cores`);
  assert.deepEqual(errors, []);
  await context.close();
});
