// The lesson's claim and the glossary: the claim is quoted above the panels with its source's link, before any
// text that refers to it; the glossary holds every entry of the core's (the same text as `sqrtdk glossary`); every
// entry is reached from where its term is used (a panel's row of terms or a chart's "?"), which opens the glossary
// at it; its definitions follow the exercise's threshold; and the terms a learner meets on the page are in it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';
import { runCli } from './helpers/cli.mjs';

// Words the page shows that a learner may not know, and the entry that explains each.
const TERMS_MET = {
  '|J|_F': 'jacobian_norm', nats: 'entropy', 'eff. keys': 'effective_keys', 'logit spread': 'logit_spread',
  Xavier: 'init', BOS: 'copy_task', 'QK-norm': 'qk_norm', 'smoothed loss': 'smoothed_loss', saturated: 'saturated',
  'q/k gradient': 'qk_gradient', median: 'median', 'middle half': 'median', momentum: 'sgd', worker: 'worker',
  'N(0, I)': 'normal', 'logit std': 'logit_std', 'α': 'alpha',
};

test('the claim is quoted first, every glossary entry is the core\'s and is reached from where its term is used', async () => {
  const env = await openLab();
  try {
    const { page, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', '#threshold=0.05'));
    const l = lab(page);
    await waitForDemo(page);
    const entries = l.locator('[data-note="glossary"] dd[data-term]');
    await entries.first().waitFor({ state: 'attached' });

    // The quote: above both panels, its link the paper's, its words the CLI's.
    const cli = runCli(['glossary']);
    const quote = l.locator('[data-note="lesson-quote"]');
    assert.equal(await quote.evaluate((q) => {
      const panels = q.getRootNode().querySelectorAll('[data-panel]');
      return [...panels].every((p) => q.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING);
    }), true, 'the quote comes before the panels');
    await quote.locator('summary').click();
    const claim = (await quote.locator('blockquote p').first().textContent()).trim();
    assert.ok(cli.startsWith(`${claim}\n`), claim);
    assert.equal(await quote.locator('a').getAttribute('href'), 'https://arxiv.org/abs/1706.03762');

    // The glossary: the CLI's entries, word for word (the definitions at this page's threshold, 0.05).
    const ids = await entries.evaluateAll((list) => list.map((d) => d.dataset.term));
    const terms = await l.locator('[data-note="glossary"] dt').allTextContents();
    const texts = await entries.allTextContents();
    assert.equal(ids.length, cli.split('\n\n').length - 1, 'one entry per paragraph of sqrtdk glossary');
    ids.forEach((id, i) => {
      const text = `${terms[i]}: ${texts[i]}`;
      if (['steps_to_threshold', 'stall'].includes(id)) assert.match(text, /below 0\.05|above 0\.05/, id);
      // The loss at the page's threshold: e^-0.05 = 0.951 where the CLI's default 0.1 gives e^-0.1 = 0.905.
      else if (id === 'loss') assert.ok(cli.includes(`\n${text.replace('threshold 0.05, 0.951;', 'threshold 0.1, 0.905;')}\n`), text);
      else assert.ok(cli.includes(`\n${text}\n`), text);
    });

    // Every entry is reached from outside the glossary; each way there opens it at the entry, focused.
    const ways = l.locator('a[data-term]');
    const reached = new Set(await ways.evaluateAll((list) => list.map((b) => b.dataset.term)));
    assert.deepEqual(ids.filter((id) => !reached.has(id)), [], 'entries no link leads to');
    for (const id of ['jacobian_norm', 'stall', 'init']) {
      await page.evaluate(() => { document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-note="glossary"]').open = false; });
      const way = ways.and(l.locator(`[data-term="${id}"]`)).first();
      assert.match(await way.getAttribute('aria-label'), /^What is .+\? \(glossary\)$/);
      assert.ok((await way.getAttribute('title')).length > 20, `${id}: the definition on hover`);
      await way.click();
      const entry = l.locator(`dd[data-term="${id}"]`);
      await entry.waitFor();
      assert.equal(await entry.evaluate((d) => d.getRootNode().activeElement === d), true, `${id} is focused`);
      assert.equal(await entry.evaluate((d) => d.classList.contains('shown')), true);
    }
    // A chart's "?" is one of those ways.
    assert.ok(await l.locator('[data-chart="jacobian"] a.term-link[data-term="jacobian_norm"]').count() === 1);

    // The terms a learner meets: each is in a panel (its text, folded parts included), and its entry explains it.
    const shown = await page.evaluate(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('[data-panel]')]
      .map((panel) => panel.textContent).join(' '));
    for (const [word, id] of Object.entries(TERMS_MET)) {
      assert.ok(shown.includes(word), `${word} is not on the page: the list is stale`);
      assert.ok(ids.includes(id), `${word}: no entry ${id}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
