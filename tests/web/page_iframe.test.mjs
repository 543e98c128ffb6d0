// lab.html in an iframe on another origin: it posts its height and the element's events to the parent origin
// named in its hash, obeys start/pause/reset/settings from that parent only, and ignores a third origin and a
// sibling frame of the parent's own origin.  Three servers on 127.0.0.1: host (A), lab (B), intruder (C).
import test from 'node:test';
import assert from 'node:assert/strict';
import { DIST, PAGES, newPage, openLab } from './helpers/browser.mjs';
import { startServer } from './helpers/server.mjs';

let env;
let labServer;
let intruderServer;
test.before(async () => {
  env = await openLab();
  labServer = await startServer({ '/': DIST });
  intruderServer = await startServer({ '/': PAGES });
});
test.after(async () => {
  await labServer.close();
  await intruderServer.close();
  await env.close();
});

const LAB_HASH = 'panels=train&seeds=1&steps=30&variants=scaled,unscaled&evalEvery=10';

async function openHost(browser, { parentOrigin, width } = {}) {
  const { page, context, errors } = await newPage(browser, width ? { width } : {});
  const query = new URLSearchParams({ lab: labServer.origin, intruder: `${intruderServer.origin}/api-frame-intruder.html`, hash: LAB_HASH });
  if (parentOrigin !== undefined) query.set('parentOrigin', parentOrigin);
  await page.goto(`${env.server.origin}/fixtures/api-frame-host.html?${query}`);
  const labFrame = () => page.frame({ name: 'lab' });
  await page.waitForFunction(() => document.querySelector('#lab').contentWindow && window.received !== undefined);
  return { page, context, errors, labFrame };
}

const received = (page, type) => page.evaluate((t) => window.received.filter((m) => !t || m.data.type === t), type);
const waitReceived = (page, test, timeout = 60000) => page.waitForFunction(test, null, { timeout });
const labState = (frame) => frame.evaluate(() => {
  const el = document.querySelector('sqrtdk-lab');
  return { steps: el.settings.steps, stepsDone: Number(el.shadowRoot.querySelector('.runs').dataset.stepsDone), notices: el.shadowRoot.querySelectorAll('.notices li').length };
});

test('cross-origin: events and height reach the named parent; only the parent can drive the lab', async () => {
  const { page, context, errors, labFrame } = await openHost(env.browser);
  await waitReceived(page, () => window.received.some((m) => m.data.type === 'sqrtdk-ready'));
  await waitReceived(page, () => window.received.some((m) => m.data.type === 'sqrtdk-height'));
  assert.ok((await received(page)).every((m) => m.origin === labServer.origin && m.data.source === 'sqrtdk-lab'));
  const [ready] = await received(page, 'sqrtdk-ready');
  assert.deepEqual(ready.data.detail.panels, ['train']);
  assert.equal(ready.data.detail.settings.steps, 30);
  assert.equal(new URL(labFrame().url()).origin, labServer.origin);

  // A third origin and a sibling frame of the host's own origin post commands: nothing changes.
  const intruder = page.frame({ name: 'intruder' });
  const neighbour = page.frame({ name: 'neighbour' });
  assert.equal(new URL(intruder.url()).origin, intruderServer.origin);
  assert.equal(new URL(neighbour.url()).origin, env.server.origin);
  const before = await labState(labFrame());
  const countBefore = (await received(page)).length;
  for (const frame of [intruder, neighbour]) {
    for (const message of [{ type: 'settings', settings: { steps: 10 } }, { type: 'start' }, { type: 'reset' }, { type: 'settings', settings: 'steps=oops' }, 'start']) {
      await frame.evaluate((m) => window.attack(m), message);
    }
  }
  // The parent's bad commands are answered with an sqrtdk-error and change nothing.  Sent after the third origin's
  // and the sibling's commands, they are the positive control: once their three errors are back, the earlier
  // commands have been delivered too, and changed nothing and drew no reply.
  await page.evaluate(() => window.send({ type: 'settings', settings: { steps: 'ten' } }));
  await page.evaluate(() => window.send({ type: 'launch' }));
  await page.evaluate(() => window.send(42));
  await waitReceived(page, () => window.received.filter((m) => m.data.type === 'sqrtdk-error').length >= 3);
  assert.deepEqual((await received(page, 'sqrtdk-error')).map((m) => [m.data.detail.kind, m.data.detail.message]), [
    ['message', 'sqrtdk-lab: message ignored: settings.steps: "ten" is not a finite number; nothing was changed.'],
    ['message', 'sqrtdk-lab: message ignored: unknown type "launch" (expected start, pause, reset or settings)'],
    ['message', 'sqrtdk-lab: message ignored: unknown type undefined (expected start, pause, reset or settings)'],
  ]);
  assert.deepEqual(await labState(labFrame()), before, 'settings, steps and notices unchanged');
  assert.deepEqual((await received(page)).slice(countBefore).map((m) => m.data.type).filter((t) => t !== 'sqrtdk-height'),
    ['sqrtdk-error', 'sqrtdk-error', 'sqrtdk-error'], 'the third origin and the sibling got no reply, progress or error');

  // The parent's good commands drive the lab; its events come back.
  await page.evaluate(() => window.send({ type: 'settings', settings: { steps: 40 } }));
  await page.evaluate(() => window.send({ type: 'start' }));
  await waitReceived(page, () => window.received.some((m) => m.data.type === 'sqrtdk-answer' && m.data.detail.final), 120000);
  const [answer] = (await received(page, 'sqrtdk-answer')).filter((m) => m.data.detail.final);
  assert.equal(answer.data.detail.settings.steps, 40);
  assert.deepEqual(answer.data.detail, await labFrame().evaluate(() => document.querySelector('sqrtdk-lab').result));
  await waitReceived(page, () => window.received.some((m) => m.data.type === 'sqrtdk-progress' && m.data.detail.stepsDone === 80 && !m.data.detail.running));
  await page.evaluate(() => window.send({ type: 'reset' }));
  // (height messages may arrive between progress messages: look at the last progress)
  await waitReceived(page, () => window.received.filter((m) => m.data.type === 'sqrtdk-progress').at(-1).data.detail.stepsDone === 0);
  await page.evaluate(() => window.send({ type: 'start' }));
  await page.evaluate(() => window.send({ type: 'pause' }));
  await waitReceived(page, () => window.received.filter((m) => m.data.type === 'sqrtdk-progress').at(-1).data.detail.running === false);

  // The iframe is as tall as the lab's document: no inner scrollbar, no empty space.
  await labFrame().waitForFunction(() => document.documentElement.scrollHeight <= innerHeight, null, { timeout: 90000 });
  const sizes = await labFrame().evaluate(() => ({ content: document.documentElement.scrollHeight, viewport: innerHeight }));
  const [last] = (await received(page, 'sqrtdk-height')).slice(-1);
  assert.equal(sizes.viewport, last.data.height);
  assert.ok(sizes.content <= sizes.viewport, JSON.stringify(sizes));
  assert.ok(last.data.height > 600, `height ${last.data.height}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('cross-origin: a parentOrigin that is not an exact origin, or not the parent\'s, gets nothing', async () => {
  for (const [parentOrigin, notice] of [
    ['*', /parentOrigin "\*" is not an exact origin/],
    [`${'http://127.0.0.1'}/`, /parentOrigin "http:\/\/127\.0\.0\.1\/" is not an exact origin/],
  ]) {
    const { page, context, errors, labFrame } = await openHost(env.browser, { parentOrigin });
    await page.waitForFunction(() => true);
    const frame = labFrame();
    await frame.waitForFunction(() => document.querySelector('sqrtdk-lab')?.shadowRoot?.querySelector('.notices li'), null, { timeout: 90000 });
    assert.match(await frame.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.notices').textContent), notice);
    // The positive control: a listener of the frame's own, added after the lab's, sees the host's start arrive (the
    // lab's listener ran first); any event the element fired is recorded; then the frame posts the host a control
    // message, which arrives after anything the lab had posted before it.
    const delivered = frame.evaluate(() => new Promise((resolve) => {
      window.elementEvents = [];
      for (const name of ['sqrtdk-progress', 'sqrtdk-error', 'sqrtdk-answer']) {
        document.querySelector('sqrtdk-lab').addEventListener(name, () => window.elementEvents.push(name));
      }
      window.addEventListener('message', (e) => resolve(e.data.type), { once: true });
    }));
    await page.evaluate(() => window.send({ type: 'start' }));
    assert.equal(await delivered, 'start');
    await frame.evaluate(() => window.parent.postMessage({ type: 'control' }, '*'));
    await waitReceived(page, () => window.received.length > 0);
    assert.deepEqual((await received(page)).map((m) => m.data.type), ['control'], 'no message of the lab reaches the host');
    assert.deepEqual(await frame.evaluate(() => window.elementEvents), [], 'and the lab takes no command');
    assert.equal((await labState(frame)).stepsDone, 0);
    assert.deepEqual(errors, []);
    await context.close();
  }
  // A valid origin that is not the parent's (another host, or the right host on another port): the browser
  // delivers nothing to the host, and the lab says why.
  for (const parentOrigin of [intruderServer.origin, 'http://evil.example']) {
    const { page, context, labFrame } = await openHost(env.browser, { parentOrigin });
    await labFrame().waitForFunction(() => document.querySelector('sqrtdk-lab')?.shadowRoot?.querySelector('.notices li'), null, { timeout: 90000 });
    assert.equal(await labFrame().evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.notices li').textContent),
      `parentOrigin ${parentOrigin} is not the origin of the page around the lab (${env.server.origin}); that page receives nothing from the lab. Set parentOrigin to the embedding page's origin.`);
    await labFrame().waitForFunction(() => document.querySelector('sqrtdk-lab')?.shadowRoot?.querySelector('.run-table'), null, { timeout: 90000 });
    // The positive control: a message the frame posts the host now arrives after any the lab posted before it.
    await labFrame().evaluate(() => window.parent.postMessage({ type: 'control' }, '*'));
    await waitReceived(page, () => window.received.length > 0);
    assert.deepEqual((await received(page)).map((m) => m.data.type), ['control'], 'the browser delivers nothing of the lab to the host');
    await context.close();
  }
});

test('phone width: panel switches by message raise no window error in the frame (no ResizeObserver loop), and the height follows each', async () => {
  const { page, context, errors, labFrame } = await openHost(env.browser, { width: 390 });
  // Window errors of the frame, as a host's error reporting sees them (a ResizeObserver loop is one, and no pageerror).
  await context.addInitScript(() => {
    window.windowErrors = [];
    addEventListener('error', (event) => window.windowErrors.push(String(event.message)));
  });
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#lab').contentWindow && window.received !== undefined);
  await waitReceived(page, () => window.received.some((m) => m.data.type === 'sqrtdk-ready'));
  const frame = labFrame();
  const heights = [];
  for (const panels of ['softmax', 'train,softmax', 'train', 'softmax', 'train', 'train,softmax']) {
    const shown = panels.split(',');
    await page.evaluate((p) => window.send({ type: 'settings', settings: { panels: p } }), panels);
    // The panels are switched and the height posted for them, and the frame has drawn two frames since.
    await frame.waitForFunction((want) => {
      const root = document.querySelector('sqrtdk-lab').shadowRoot;
      return ['train', 'softmax'].every((name) => {
        const panel = root.querySelector(`[data-panel="${name}"]`);
        return want.includes(name) ? panel && !panel.closest('[hidden]') && !panel.hidden : !panel || panel.hidden;
      });
    }, shown);
    const height = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    await waitReceived(page, () => window.received.some((m) => m.data.type === 'sqrtdk-height'), 60000);
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)))));
    heights.push(height);
  }
  assert.deepEqual(await frame.evaluate(() => window.windowErrors), []);
  assert.ok(new Set(heights).size >= 2, `heights ${heights}`);
  assert.deepEqual(errors, []);
  await context.close();
});
