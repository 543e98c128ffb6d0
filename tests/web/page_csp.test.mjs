// Host pages with a strict Content-Security-Policy (meta tag): no 'unsafe-eval', no 'unsafe-inline', no
// network.  The lab needs only script-src 'self' 'wasm-unsafe-eval' and worker-src blob:; without
// 'wasm-unsafe-eval' it says so instead of failing silently.  Also under enforced Trusted Types.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODES, REPO, lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

async function trainsUnder(page) {
  await waitForDemo(page);
  await lab(page).locator('[data-chart="sweep-entropy"][data-points="20"]').waitFor({ timeout: 90000 });
  await lab(page).locator('button', { hasText: 'Start' }).click();
  await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
}

for (const mode of MODES) {
  test(`${mode}: works under default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src blob:; style-src 'self'`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(env.url(mode, 'fixtures/csp-strict.html'));
    await trainsUnder(page);
    assert.equal(await lab(page).locator('.run-table tr[data-status="done"]').count(), 2);
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('http: works with Trusted Types enforced (trusted-types sqrtdk-lab)', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'fixtures/csp-trusted-types.html'));
  await trainsUnder(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: without wasm-unsafe-eval the lab explains what the policy must allow', async () => {
  const { page, context } = await newPage(env.browser);
  await page.goto(env.url('http', 'fixtures/csp-no-wasm.html'));
  const problem = lab(page).locator('.problem');
  await problem.waitFor({ state: 'visible', timeout: 90000 });
  assert.match(await problem.textContent(), /Content-Security-Policy blocks WebAssembly: its script-src needs 'wasm-unsafe-eval'/);
  assert.match(await lab(page).locator('.notices').textContent(), /softmax demo failed: .*wasm-unsafe-eval/);
  await context.close();
});

for (const mode of MODES) {
  test(`${mode}: lab.html carries the guide's policy and breaks none of it`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.addInitScript(() => {
      window.violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(env.url(mode, 'lab.html', '#panels=softmax'));
    await waitForDemo(page);
    const policy = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content);
    const guide = readFileSync(join(REPO, 'web/README.md'), 'utf8');
    assert.ok(guide.includes(`\n    ${policy}\n`), `lab.html's policy is the guide's: ${policy}`);
    assert.deepEqual(await page.evaluate(() => window.violations), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
