// The standalone page from http and file://: it loads without console errors or network requests beyond its
// own files, and the demo's printout equals the native CLI's for the same draw.
import test from 'node:test';
import assert from 'node:assert/strict';
import { MODES, lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';
import { runCli } from './helpers/cli.mjs';

const DRAWS = [
  { dk: 128, keys: 50, seed: 0, alpha: 0.5 },
  { dk: 512, keys: 20, seed: 7, alpha: 0.5 },
  { dk: 16, keys: 300, seed: 123456789, alpha: 1 },
  { dk: 3, keys: 2, seed: 42, alpha: 0.25 },
];

/** The CLI's JSON for a draw, printed at the page's precision (like the lesson's printout). */
function cliPrintout({ dk, keys, seed, alpha }) {
  const json = JSON.parse(runCli(['softmax', '--dk', String(dk), '--keys', String(keys), '--seed', String(seed), '--alpha', String(alpha), '--json']));
  const side = (s) => ({ top: s[`top${Math.min(5, keys)}`].map((w) => w.toFixed(4)).join(' '), max: s.max.toFixed(4),
    entropy: s.entropy.toFixed(3), effective: `${s.effective_keys.toFixed(2)} / ${keys}` });
  return { raw: side(json.raw), scaled: side(json.scaled), text: runCli(['softmax', '--dk', String(dk), '--keys', String(keys), '--seed', String(seed), '--alpha', String(alpha)]) };
}

async function pagePrintout(page) {
  const row = async (name) => {
    const cell = (c) => lab(page).locator(`table.top5 tr[data-row="${name}"] td[data-cell="${c}"]`).textContent();
    return { top: await cell('top'), max: await cell('max'), entropy: await cell('entropy'), effective: await cell('effective'), jacobian: await cell('jacobian') };
  };
  return { raw: await row('raw'), scaled: await row('scaled') };
}

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

for (const mode of MODES) {
  test(`${mode}: index.html loads with no console errors and no requests beyond its own files`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const external = [];
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(env.server.origin) && !url.startsWith('file:') && !url.startsWith('blob:') && !url.startsWith('data:')) external.push(url);
    });
    const before = env.server.requests.length;
    await page.goto(env.url(mode, 'index.html'));
    await waitForDemo(page);
    await lab(page).locator('[data-chart="sweep-maxWeight"][data-points="20"]').waitFor({ timeout: 90000 });
    assert.deepEqual(external, []);
    if (mode === 'http') {
      assert.deepEqual([...new Set(env.server.requests.slice(before))].sort(), ['/favicon.svg', '/index.html', '/page.css', '/sqrtdk-lab.js']);
    }
    assert.equal(await page.evaluate(() => customElements.get('sqrtdk-lab') !== undefined), true);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${mode}: the demo's printout equals the native CLI's for several draws`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    for (const draw of DRAWS) {
      const hash = `#dk=${draw.dk}&keys=${draw.keys}&seed=${draw.seed}&alpha=${draw.alpha}`;
      await page.goto(env.url(mode, 'index.html', hash));
      await lab(page).locator('.printout-title', { hasText: `seed ${draw.seed};` }).waitFor({ timeout: 90000 });
      await lab(page).locator('.printout-title', { hasText: `in d_k = ${draw.dk},` }).waitFor();
      const shown = await pagePrintout(page);
      const cli = cliPrintout(draw);
      for (const side of ['raw', 'scaled']) {
        assert.equal(shown[side].top, cli[side].top, `${hash} ${side} top`);
        assert.equal(shown[side].max, cli[side].max, `${hash} ${side} max`);
        assert.equal(shown[side].entropy, cli[side].entropy, `${hash} ${side} entropy`);
        assert.equal(shown[side].effective, cli[side].effective, `${hash} ${side} effective keys`);
        // The CLI's text printout (printf %.3g) ends each row with the Jacobian norm.
        const line = cli.text.split("\n").find((l) => new RegExp(`^${side}\\s+\\d`).test(l));
        assert.equal(line.trim().split(/\s+/).at(-1), shown[side].jacobian, `${hash} ${side} |J|`);
        assert.ok(line.includes(shown[side].top), `${hash} ${side}: "${line}" vs "${shown[side].top}"`);
      }
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the embed example: two elements and an iframe, each working on its own', async () => {
  for (const mode of MODES) {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url(mode, 'embed.html'));
    await waitForDemo(page, 0);
    assert.match(await lab(page, 0).locator('.printout-title').textContent(), /d_k = 512/);
    assert.equal(await lab(page, 0).locator('[data-key="seed"]').first().isVisible(), false, 'hide="seed" hides the seed control');
    assert.equal(await lab(page, 1).locator('[data-panel="softmax"]').count(), 0);
    assert.equal(await lab(page, 1).locator('[data-panel="train"]').isVisible(), true);
    await page.locator('#frame').scrollIntoViewIfNeeded();
    const frame = page.frameLocator('#frame');
    await frame.locator('sqrtdk-lab table.top5 tr[data-row="raw"] td[data-cell="top"]').waitFor({ timeout: 90000 });
    assert.match(await frame.locator('sqrtdk-lab .printout-title').textContent(), /d_k = 64/);
    assert.equal(await frame.locator('sqrtdk-lab [data-panel="train"]').count(), 0);
    assert.deepEqual(errors, [], mode);
    await context.close();
  }
});
