// One exercise in a tab, from Start: index.html with its defaults and a hash (e.g. 'seeds=20'), timed in the
// page from the click by the element's own events (sqrtdk-answer, sqrtdk-progress), not by polling from outside.
import { loadavg } from 'node:os';

const FIRST_NUMBER = 'table.top5 tr[data-row="raw"] td[data-cell="top"]';

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url index.html, with the exercise's hash
 * @returns {Promise<{runs, steps, answerS, finalS, doneS, totalStepsPerS, load: number[]}>}
 *   answerS: the first answer (every run at the threshold or stopped); finalS: the final answer (every run
 *   finished); doneS: the last progress event with every run finished; steps/s over the whole exercise.
 */
export async function exercise(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('sqrtdk-lab').first().locator(FIRST_NUMBER).waitFor({ timeout: 120000 });
  const load = [loadavg()[0]];
  const times = await page.evaluate(() => new Promise((resolve, reject) => {
    const lab = document.querySelector('sqrtdk-lab');
    const out = {};
    let t0 = 0;
    const since = () => (performance.now() - t0) / 1000;
    const finish = () => { if (out.finalS !== undefined && out.doneS !== undefined) resolve(out); };
    lab.addEventListener('sqrtdk-answer', (e) => {
      if (e.detail.ready && out.answerS === undefined) out.answerS = since();
      if (e.detail.final && out.finalS === undefined) { out.finalS = since(); finish(); }
    });
    lab.addEventListener('sqrtdk-progress', (e) => {
      const p = e.detail;
      if (p.runsFinished === p.runs && out.doneS === undefined) {
        Object.assign(out, { doneS: since(), runs: p.runs, steps: p.stepsDone });
        finish();
      }
    });
    lab.addEventListener('sqrtdk-error', (e) => { if (!e.detail.recoverable) reject(new Error(e.detail.message)); });
    const start = [...lab.shadowRoot.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Start');
    if (!start) { reject(new Error('no Start button')); return; }
    t0 = performance.now();
    start.click();
  }));
  load.push(loadavg()[0]);
  await context.close();
  return { ...times, totalStepsPerS: times.steps / times.doneS, load };
}
