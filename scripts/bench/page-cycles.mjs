// What a host's framework costs the page when it creates a <sqrtdk-lab>, appends it and removes it again in one
// task (a list re-rendered, a route left at once): `cycles` such cycles in one task, timed in the page from the
// first createElement until the next task starts (so the microtasks the cycles queued, e.g. each element's
// teardown, are counted), divided by `cycles`; `tasks` such tasks, one after the other, on a page whose own lab
// has its first numbers on screen.
import { loadavg } from 'node:os';

const FIRST_NUMBER = 'table.top5 tr[data-row="raw"] td[data-cell="top"]';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// In the page: each task's ms per cycle, in all and for its synchronous part alone.
function timeCycles([tasks, cycles]) {
  // A message, not a timer: it comes as the next task, with no clamping.
  const nextTask = () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(null);
  });
  return (async () => {
    const samples = [];
    for (let t = 0; t < tasks; t += 1) {
      await nextTask();
      const t0 = performance.now();
      for (let i = 0; i < cycles; i += 1) {
        const el = document.createElement('sqrtdk-lab');
        document.body.append(el);
        el.remove();
      }
      const sync = performance.now() - t0;
      await nextTask();
      samples.push({ ms: (performance.now() - t0) / cycles, syncMs: sync / cycles });
    }
    return { samples, left: document.querySelectorAll('sqrtdk-lab').length };
  })();
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url index.html
 * @param {{tasks: number, cycles: number}} plan
 * @returns {Promise<{cycles, tasks, perCycleMs, syncPerCycleMs, samples: {ms, syncMs}[], load: number[]}>}
 *   perCycleMs: the median over the tasks of a task's ms per cycle
 */
export async function createRemove(browser, url, { tasks, cycles }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.locator('sqrtdk-lab').first().locator(FIRST_NUMBER).waitFor({ timeout: 120000 });
    const load = [loadavg()[0]];
    const { samples, left } = await page.evaluate(timeCycles, [tasks, cycles]);
    load.push(loadavg()[0]);
    if (left !== 1) throw new Error(`${left} elements on the page after the cycles, not the page's own one`);
    return { cycles, tasks, perCycleMs: median(samples.map((s) => s.ms)), syncPerCycleMs: median(samples.map((s) => s.syncMs)),
      samples, load };
  } finally {
    await context.close();
  }
}
