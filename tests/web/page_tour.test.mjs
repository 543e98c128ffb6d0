// A scripted tour of every control of both panels (each slider, number box, chip, checkbox, select, button and
// legend toggle), by keyboard where a learner would use it, in light and dark at desktop and phone width: no
// page error and no console error anywhere.  Runs stay tiny (20 steps, one seed) and are paused at once.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForDemo, waitForRest } from './helpers/browser.mjs';

const HASH = '#steps=20&seeds=1&evalEvery=10&variants=scaled,unscaled';
const CONTROLS = 'input, select, button, summary';

/** Use one control the way a learner would; returns what was done (for the diagnostic). */
async function use(page, control) {
  const info = await control.evaluate((e) => ({ tag: e.tagName.toLowerCase(), type: e.type ?? '', text: (e.textContent || e.getAttribute('aria-label') || e.id || '').trim().slice(0, 40),
    disabled: e.disabled === true, visible: e.offsetParent !== null || e.getClientRects().length > 0 }));
  if (info.disabled || !info.visible) return null;
  if (info.tag === 'input' && info.type === 'range') {
    await control.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
  } else if (info.tag === 'input' && info.type === 'number') {
    const value = await control.inputValue();
    await control.fill(await control.evaluate((e) => String(e.max !== '' && Number(e.max) < 1e6 ? Number(e.max) : Number(e.value) + 1)));
    await control.press('Enter');
    await control.fill(value);
    await control.press('Enter');
  } else if (info.tag === 'input' && info.type === 'checkbox') {
    await control.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
  } else if (info.tag === 'input') {
    return null; // read-only text (the share link fallback)
  } else if (info.tag === 'select') {
    const values = await control.evaluate((s) => [...s.options].map((o) => o.value));
    const before = await control.inputValue();
    await control.selectOption(values.find((v) => v !== before) ?? before);
    await control.selectOption(before);
  } else {
    await control.focus();
    await page.keyboard.press('Enter');
  }
  return `${info.tag}${info.tag === 'input' ? `[${info.type}]` : ''} ${info.text}`;
}

test('tour of every control in both panels: no page or console error', async (outer) => {
  const env = await openLab();
  try {
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [1280, 390]) {
        await outer.test(`${colorScheme}, ${width} px`, async (t) => {
          const { page, context, errors, dialogs } = await newPage(env.browser, { width, height: 900, colorScheme, permissions: ['clipboard-read', 'clipboard-write'] });
          page.on('download', (d) => d.cancel().catch(() => {}));
          await page.goto(env.url('http', 'index.html', HASH));
          await waitForDemo(page);
          await lab(page).locator('[data-scenarios] tr[data-scenario]').first().waitFor({ timeout: 90000 });
          // Folded settings (phone) open first so that their controls are reachable.
          const folded = lab(page).locator('details:not([open]) > summary');
          for (let n = 0; n < 5 && await folded.count() > 0; n += 1) await folded.first().click();
          page.setDefaultTimeout(3000);
          const controls = lab(page).locator(CONTROLS);
          const used = [];
          const kinds = new Set();
          for (let i = 0; i < await controls.count(); i += 1) {
            // A control can vanish while the tour runs (e.g. a rebuilt legend): it is skipped, not failed.
            const done = await use(page, controls.nth(i)).catch((error) => (/Timeout/.test(error.message) ? null : Promise.reject(error)));
            if (!done) continue;
            used.push(done);
            kinds.add(done.split(' ')[0]);
            // Anything that started training is paused again at once, so that the tour stays short.
            if (done.startsWith('button')) await lab(page).locator('button', { hasText: /^Pause$/ }).evaluate((b) => { if (!b.disabled) b.click(); });
          }
          // Everything the tour set off has finished (runs at rest, the sweep computed) before the errors are read.
          await waitForRest(page);
          await lab(page).locator('[data-sweep-status]:empty').waitFor({ state: 'attached', timeout: 90000 });
          t.diagnostic(`${used.length} controls used; kinds: ${[...kinds].join(', ')}`);
          for (const kind of ['input[range]', 'input[number]', 'input[checkbox]', 'select', 'button']) assert.ok(kinds.has(kind), `no ${kind} in the tour`);
          assert.ok(used.some((u) => u.startsWith('button') && /scaled 1\/√d_k/.test(u)), 'legend toggles were used');
          assert.ok(used.some((u) => /Adam \(the default\)/.test(u)), 'scenario presets were used');
          assert.ok(used.length >= 60, `only ${used.length} controls`);
          assert.deepEqual(errors, []);
          assert.deepEqual(dialogs, []);
          await context.close();
        });
      }
    }
  } finally {
    await env.close();
  }
});
