// The page's main thread draws little: the exercise's charts draw in the page's animation frames (one frame
// loop for every element, at most one drawing callback per frame), nothing while the element is off screen or its
// tab hidden, and catch up when it comes back.  Every wait is for a state or an event.
import test from 'node:test';
import assert from 'node:assert/strict';
import { newPage, openLab, waitForRest } from './helpers/browser.mjs';

const SETTINGS = { panels: 'train', seeds: '1', steps: '40', variants: 'scaled,unscaled', 'eval-every': '20' };

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

/**
 * Put before the page's scripts: records, for every canvas drawing call, the animation-frame callback it belongs to
 * (a callback's frame lasts until a timer queued from it runs, which covers the microtasks uPlot draws in).
 * window.drawing: {outside: calls outside any frame, callbacks: {frame time: [ids of callbacks that drew]}}.
 */
function recordDrawing() {
  const raf = window.requestAnimationFrame.bind(window);
  const drawing = { outside: 0, calls: 0, callbacks: {} };
  window.drawing = drawing;
  let current = null;
  let next = 0;
  window.requestAnimationFrame = (callback) => raf((time) => {
    next += 1;
    const me = { time, id: next };
    current = me;
    setTimeout(() => { if (current === me) current = null; }, 0);
    return callback(time);
  });
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['clearRect', 'fillRect', 'fill', 'stroke', 'fillText', 'drawImage', 'putImageData']) {
    const original = proto[name];
    proto[name] = function draw(...args) {
      drawing.calls += 1;
      if (!current) {
        drawing.outside += 1;
      } else {
        const ids = (drawing.callbacks[current.time] ??= []);
        if (!ids.includes(current.id)) ids.push(current.id);
      }
      return original.apply(this, args);
    };
  }
}

/** Add a lab with SETTINGS after `spacer` px of empty page; resolves when it is ready. */
async function addLab(page, spacer = 0) {
  await page.evaluate(([settings, height]) => new Promise((resolve) => {
    const gap = document.createElement('div');
    gap.style.height = `${height}px`;
    const el = document.createElement('sqrtdk-lab');
    for (const [name, value] of Object.entries(settings)) el.setAttribute(name, value);
    el.addEventListener('sqrtdk-ready', () => resolve(), { once: true });
    document.querySelector('#labs').append(gap, el);
  }), [SETTINGS, spacer]);
}

/** Start lab `index` and resolve with its final answer (the answer follows the runs whether or not it is drawn). */
function trainToAnswer(page, index) {
  return page.evaluate((i) => new Promise((resolve) => {
    const el = document.querySelectorAll('sqrtdk-lab')[i];
    el.addEventListener('sqrtdk-answer', (event) => { if (event.detail.final) resolve(event.detail.sentences); });
    el.start();
  }), index);
}

/** Wait until lab `index` stopped with every step of its runs counted (the run table follows the answer). */
function waitForStop(page, index) {
  return page.waitForFunction((i) => {
    const root = document.querySelectorAll('sqrtdk-lab')[i].shadowRoot;
    return root.querySelector('[data-panel="train"]').dataset.running === 'false' && root.querySelector('.runs').dataset.stepsDone === '80';
  }, index, { timeout: 60000 });
}

/** What the charts of lab `index` show: the loss chart's points, and the steps the panel says it drew. */
function drawnState(page, index) {
  return page.evaluate((i) => {
    const root = document.querySelectorAll('sqrtdk-lab')[i].shadowRoot;
    return { points: root.querySelector('[data-chart="loss"]').dataset.points ?? null,
      drawnSteps: root.querySelector('[data-panel="train"]').dataset.drawnSteps ?? null,
      stepsDone: root.querySelector('.runs').dataset.stepsDone };
  }, index);
}

test('an element off screen draws nothing while it trains, and draws its runs once scrolled in', async () => {
  const { page, context, errors } = await newPage(env.browser, { width: 1280, height: 800 });
  await page.goto(env.url('http', 'fixtures/many-labs.html'));
  await addLab(page, 20000);
  const sentences = await trainToAnswer(page, 0);
  assert.ok(sentences.length > 0);
  await waitForStop(page, 0);
  const hidden = await drawnState(page, 0);
  assert.equal(hidden.points, null, 'the loss chart got no data off screen');
  assert.ok(hidden.drawnSteps === null || hidden.drawnSteps === '0', `drawn steps off screen: ${hidden.drawnSteps}`);
  await page.evaluate(() => document.querySelector('sqrtdk-lab').scrollIntoView());
  await waitForRest(page, 0);
  const shown = await drawnState(page, 0);
  assert.equal(shown.drawnSteps, '80');
  assert.equal(shown.points, '40');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a hidden tab draws nothing while its element trains, and catches up when shown', async () => {
  const { page, context, errors } = await newPage(env.browser, { width: 1280, height: 800 });
  await page.addInitScript(recordDrawing);
  await page.goto(env.url('http', 'fixtures/many-labs.html'));
  await addLab(page);
  await waitForRest(page, 0);
  // The tab goes to the background as the browser tells it: visibilityState and the visibilitychange event.
  const before = await drawnState(page, 0);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    window.drawing.callsWhenHidden = window.drawing.calls;
  });
  await trainToAnswer(page, 0);
  await waitForStop(page, 0);
  const hidden = await drawnState(page, 0);
  assert.deepEqual([hidden.points, hidden.drawnSteps], [before.points, before.drawnSteps], 'the charts did not change while hidden');
  assert.equal(await page.evaluate(() => window.drawing.calls - window.drawing.callsWhenHidden), 0, 'no canvas call while hidden');
  await page.evaluate(() => {
    delete document.visibilityState;  // the prototype's getter again: 'visible'
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await waitForRest(page, 0);
  assert.equal((await drawnState(page, 0)).points, '40');
  assert.deepEqual(errors, []);
  await context.close();
});

test('three elements on screen draw only in animation frames, one drawing callback per frame for the page', async () => {
  const { page, context, errors } = await newPage(env.browser, { width: 1280, height: 12000 });
  await page.addInitScript(recordDrawing);
  await page.goto(env.url('http', 'fixtures/many-labs.html'));
  for (let i = 0; i < 3; i += 1) await addLab(page);
  await Promise.all([0, 1, 2].map((i) => trainToAnswer(page, i)));
  for (let i = 0; i < 3; i += 1) await waitForRest(page, i);
  const drawing = await page.evaluate(() => window.drawing);
  const frames = Object.values(drawing.callbacks);
  assert.ok(frames.length > 0, 'the charts drew');
  assert.equal(drawing.outside, 0, 'canvas calls outside animation frames');
  const crowded = frames.filter((ids) => ids.length > 1);
  assert.deepEqual(crowded, [], 'frames in which more than one callback drew');
  for (let i = 0; i < 3; i += 1) assert.equal((await drawnState(page, i)).points, '40');
  assert.deepEqual(errors, []);
  await context.close();
});
