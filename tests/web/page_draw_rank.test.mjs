// The explorer's one draw among many: the rank, median, middle half and saturated share the page writes for a
// draw equal the native CLI's draws of seeds 0-199 (`sqrtdk softmax` per seed), the median-draw button shows that
// draw, and an unsaturated draw whose raw |J|_F beats the scaled one says why.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';
import { runCli } from './helpers/cli.mjs';

const SET = 200;  // the page's fixed set: seeds 0 .. 199 (explorer/draw-rank.js)
const DK = 128;
const KEYS = 50;
const SATURATED = 0.9;  // the core's bar (src/core/lesson/saturation.hpp)

/** The raw top weight and both |J|_F of each seed's draw, from the native CLI. */
function cliDraws() {
  return Array.from({ length: SET }, (_, seed) => {
    const json = JSON.parse(runCli(['softmax', '--dk', String(DK), '--keys', String(KEYS), '--seed', String(seed), '--json']));
    return { seed, top: json.raw.max, rawJ: json.raw.jacobian_norm, scaledJ: json.scaled.jacobian_norm };
  });
}

/** R type 7 quantile of ascending values, written out here independently of the page. */
function quantile(sorted, p) {
  const x = p * (sorted.length - 1);
  const i = Math.floor(x);
  return sorted[i] + (x - i) * ((sorted[Math.min(i + 1, sorted.length - 1)]) - sorted[i]);
}

const g3 = (x) => Number(x.toPrecision(3)).toString();  // the page's %.3g for values in 1e-4..1e3
const s3 = (x) => x.toPrecision(3);  // a value beside another, its trailing zeros kept (0.200 beside 0.0739), in 1e-4..1e3

let env;
let draws;
test.before(async () => { env = await openLab(); draws = cliDraws(); });
test.after(async () => { await env.close(); });

test('the draw\'s rank among seeds 0-199, their median, middle half and saturated share match the CLI\'s draws', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const ranked = [...draws].sort((a, b) => a.top - b.top || a.seed - b.seed);
  const rankOf = (seed) => ranked.findIndex((d) => d.seed === seed) + 1;
  const tops = ranked.map((d) => d.top);
  const median = ranked[Math.floor((SET - 1) / 2)];
  const saturated = draws.filter((d) => d.top >= SATURATED).length;
  const more = draws.filter((d) => d.rawJ > d.scaledJ);

  await page.goto(env.url('http', 'index.html', `#dk=${DK}&keys=${KEYS}&seed=0&alpha=0.5`));
  const rank = lab(page).locator('[data-note="draw-rank"]');
  await rank.filter({ hasText: 'Seed 0 ' }).waitFor({ timeout: 90000 });
  assert.match(await rank.textContent(), new RegExp(`it has rank ${rankOf(0)} of ${SET} \\(${rankOf(0) - 1} of ${SET} are flatter\\)`));
  const spread = await lab(page).locator('[data-note="draw-set"]').textContent();
  assert.ok(spread.includes(`median of ${g3(quantile(tops, 0.5))} and a middle half of ${g3(quantile(tops, 0.25))}–${g3(quantile(tops, 0.75))}`), spread);
  assert.ok(spread.includes(`${saturated} of ${SET} (${g3((100 * saturated) / SET)} %) are saturated`), spread);
  // The count and why it can happen, with the saturated ones among them counted (the reason holds for the measured set).
  const passesMore = await lab(page).locator('[data-note="draw-jacobian"]').textContent();
  assert.ok(passesMore.startsWith(`Raw |J|_F is larger than scaled on ${more.length} of the ${SET} draws, `
    + `${more.filter((d) => d.top >= SATURATED).length} of those ${more.length} saturated. `), passesMore);
  assert.match(passesMore, /a raw row that is not saturated can pass more gradient than the flatter scaled row/);
  // Seed 0 is not saturated and its raw |J|_F beats the scaled one: the page says so and why.
  const seed0 = draws[0];
  assert.ok(seed0.top < SATURATED && seed0.rawJ > seed0.scaledJ, 'the fixture: seed 0 is an unsaturated draw');
  const reading = await lab(page).locator('[data-note="draw-reading"]').textContent();
  assert.match(reading, /not saturated \(top weight 0\.605, below 0\.9\).*passes more gradient.*the lesson is about saturated rows/);

  // The median draw is one click away, and says that it is the median.
  await rank.getByRole('button', { name: `show the median draw (seed ${median.seed})` }).click();
  await rank.filter({ hasText: `Seed ${median.seed} is the median draw` }).waitFor();
  assert.match(await rank.textContent(), new RegExp(`rank ${rankOf(median.seed)} of ${SET}`));
  assert.equal(await rank.getByRole('button').isHidden(), true);
  assert.match(await lab(page).locator('[data-note="draw-reading"]').textContent(),
    median.top >= SATURATED ? /raw softmax is saturated: its top key takes/ : /not saturated/);
  // Resampling ranks every draw.
  await lab(page).getByRole('button', { name: 'Resample' }).click();
  await rank.filter({ hasText: `Seed ${median.seed + 1} ` }).waitFor();
  assert.match(await rank.textContent(), new RegExp(`rank ${rankOf(median.seed + 1)} of ${SET}`));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the first screen: the demo in one line (its draw, rank and numbers, the CLI\'s) above the exercise\'s Start', async () => {
  const ranked = [...draws].sort((a, b) => a.top - b.top || a.seed - b.seed);
  const median = ranked[Math.floor((SET - 1) / 2)];
  const cli = JSON.parse(runCli(['softmax', '--dk', String(DK), '--keys', String(KEYS), '--seed', String(median.seed), '--json']));
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { page, context, errors } = await newPage(env.browser, { width, height });
    await page.goto(env.url('http', 'index.html', ''));
    const headline = lab(page).locator('[data-note="demo-headline"]:not([hidden])');
    await headline.waitFor({ timeout: 90000 });
    // Its text (the glossary's "?" for |J|_F, a link, aside).
    const text = () => headline.evaluate((p) => [...p.childNodes].filter((n) => n.nodeName !== 'A').map((n) => n.textContent).join(''));
    assert.equal(await text(), `The demo in one line: one query and ${KEYS} random keys in d_k = ${DK}, seed ${median.seed} `
      + `(a middle draw of ${SET}: rank ${Math.floor((SET - 1) / 2) + 1} of ${SET} by raw top weight). Raw softmax: top weight ${s3(cli.raw.max)} `
      + `(${cli.raw.max >= SATURATED ? `saturated: at least ${SATURATED}` : `not saturated: below ${SATURATED}`}); scaled by 1/√d_k: `
      + `${s3(cli.scaled.max)}. Gradient through the softmax (|J|_F): ${s3(cli.raw.jacobian_norm)} raw vs ${s3(cli.scaled.jacobian_norm)} scaled.  `
      + 'The demo itself is below the exercise.');
    assert.equal(await headline.locator('a[data-term="jacobian_norm"]').count(), 1);
    // Desktop: the headline and Start both in the first screen; phone: the headline first, Start within two screens.
    const [line, start] = [await headline.boundingBox(), await lab(page).locator('button', { hasText: 'Start' }).boundingBox()];
    assert.ok(line.y + line.height <= start.y, `${width}: the headline above Start`);
    assert.ok(start.y + start.height <= (width > 600 ? height : 2 * height), `${width}: Start's bottom at ${start.y + start.height} px`);
    // A draw the learner picks is headlined with its own rank; without the explorer there is no headline.
    await page.goto(env.url('http', 'index.html', '#seed=0'));
    await lab(page).locator('[data-note="demo-headline"]', { hasText: `seed 0 (rank ${ranked.findIndex((d) => d.seed === 0) + 1} of ${SET} draws` }).waitFor();
    await page.goto(env.url('http', 'index.html', '#panels=train'));
    await lab(page).locator('[data-panel="softmax"]').waitFor({ state: 'hidden' });
    await lab(page).locator('[data-note="demo-headline"]').waitFor({ state: 'hidden' });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
