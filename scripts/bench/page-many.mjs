// Twelve <sqrtdk-lab> elements on one page, all started: how busy the page's main thread is while they train,
// next to an idle control page (no lab, the same probe) open at the same time in the same browser, so that load
// from other processes shows up in both.  The page is the browser test's (tests/web/pages/many-labs.html).
//
// Busy share: the main thread's task time from the DevTools protocol (Performance.getMetrics TaskDuration) over
// the window; longest task: PerformanceObserver 'longtask' (it reports tasks over 50 ms only, so none means
// none over 50 ms); timer lateness: how late each tick of a 10 ms setInterval comes after the previous one.
import { loadavg } from 'node:os';

export const ELEMENTS = 12;
// Two runs each (scaled, unscaled; one seed) of 400 steps: 24 runs, enough to train through the whole window.
const SETTINGS = { panels: 'train', seeds: '1', variants: 'scaled,unscaled' };
const TIMER_MS = 10;

// Installed in both pages: the 10 ms timer and the long-task observer, read back by readProbe().
function installProbe(timerMs) {
  const probe = { lateness: [], longTasks: [] };
  window.benchProbe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  let expected = performance.now() + timerMs;
  probe.timer = setInterval(() => {
    const now = performance.now();
    probe.lateness.push(Math.max(0, now - expected));
    expected = now + timerMs;
  }, timerMs);
}

function readProbe() {
  const p = window.benchProbe;
  clearInterval(p.timer);
  const steps = [...document.querySelectorAll('sqrtdk-lab')]
    .reduce((sum, el) => sum + Number(el.shadowRoot?.querySelector('.runs')?.dataset.stepsDone ?? 0), 0);
  return { lateness: p.lateness, longTasks: p.longTasks, steps };
}

/** Add the elements, wait until each is ready, then start them all in one task. */
function addAndStart([n, settings]) {
  return new Promise((resolve) => {
    let ready = 0;
    const labs = Array.from({ length: n }, () => {
      const el = document.createElement('sqrtdk-lab');
      for (const [name, value] of Object.entries(settings)) el.setAttribute(name, value);
      el.addEventListener('sqrtdk-ready', () => {
        ready += 1;
        if (ready === n) {
          for (const lab of labs) lab.start();
          resolve();
        }
      }, { once: true });
      return el;
    });
    document.querySelector('#labs').append(...labs);
  });
}

const taskSeconds = async (cdp) => (await cdp.send('Performance.getMetrics')).metrics
  .find((m) => m.name === 'TaskDuration').value;

/** A page in its own context, with a DevTools session for its task time. */
async function probedPage(browser, open) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await open(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

export const percentile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(q * (s.length - 1))] : NaN;
};

function summary(raw, busySeconds, wallSeconds) {
  return {
    busyPercent: (100 * busySeconds) / wallSeconds,
    longTasks: raw.longTasks.length,
    longestTaskMs: raw.longTasks.length ? Math.max(...raw.longTasks) : 0,
    timerTicks: raw.lateness.length,
    timerP95Ms: percentile(raw.lateness, 0.95),
    timerMaxMs: raw.lateness.length ? Math.max(...raw.lateness) : NaN,
  };
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the many-labs page
 * @param {number} seconds how long to measure after all are started (from the start call, so their start-up counts)
 */
export async function manyElements(browser, url, seconds) {
  const control = await probedPage(browser, (page) => page.setContent('<title>control</title><p>an idle page</p>'));
  const labs = await probedPage(browser, (page) => page.goto(url));
  const load = [loadavg()[0]];
  try {
    await control.page.evaluate(installProbe, TIMER_MS);
    await labs.page.evaluate(installProbe, TIMER_MS);
    await labs.page.evaluate(addAndStart, [ELEMENTS, SETTINGS]);
    const t0 = performance.now();
    const [busy0, controlStart] = await Promise.all([taskSeconds(labs.cdp), taskSeconds(control.cdp)]);
    await new Promise((resolve) => { setTimeout(resolve, seconds * 1000); });
    const [busy1, controlEnd] = await Promise.all([taskSeconds(labs.cdp), taskSeconds(control.cdp)]);
    const wall = (performance.now() - t0) / 1000;
    const raw = await labs.page.evaluate(readProbe);
    const controlRaw = await control.page.evaluate(readProbe);
    const controlBusy = controlEnd - controlStart;
    load.push(loadavg()[0]);
    return {
      elements: ELEMENTS, settings: SETTINGS, seconds: wall, load, stepsPerS: raw.steps / wall,
      labs: summary(raw, busy1 - busy0, wall),
      control: summary(controlRaw, controlBusy, wall),
    };
  } finally {
    await labs.context.close();
    await control.context.close();
  }
}
