// "Download as notebook" and "Download as Python script": the page's settings as PyTorch, written by the core
// (lab.exportTorch), byte for byte what the native `sqrtdk export-torch` writes for the same settings (one
// generator).  Whether the text is the lab's experiment is tests/torch_export/check.py's question.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';
import { runCli } from './helpers/cli.mjs';

async function download(page, click) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

const sgd = JSON.parse(runCli(['scenarios', '--json'])).find((s) => s.id === 'sgd');
const CASES = [
  { hash: sgd.settings, cli: ['--scenario', 'sgd'] },
  { hash: 'variants=scaled,alpha,qknorm&trainAlpha=0.25&seeds=2&steps=40&lr=0.002&init=gpt&trainSeed=5',
    cli: ['--variants', 'scaled,alpha=0.25,qknorm', '--seeds', '2', '--steps', '40', '--lr', '0.002', '--init', 'gpt', '--seed', '5'] },
];

test('the PyTorch downloads are the CLI\'s export of the settings on screen', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    for (const { hash, cli } of CASES) {
      await page.goto(env.url('http', 'index.html', `#${hash}`));
      await waitForDemo(page);
      const l = lab(page);
      const notebook = await download(page, () => l.locator('button', { hasText: 'Download as notebook' }).click());
      assert.equal(notebook.name, 'sqrtdk-exercise.ipynb');
      assert.equal(notebook.text, runCli(['export-torch', ...cli, '--notebook']), hash);
      assert.equal(JSON.parse(notebook.text).nbformat, 4);
      const script = await download(page, () => l.locator('button', { hasText: 'Download as Python script' }).click());
      assert.equal(script.name, 'sqrtdk-exercise.py');
      assert.equal(script.text, runCli(['export-torch', ...cli]), hash);
    }
    assert.match(runCli(['export-torch', '--scenario', 'sgd']), /preset 'sgd'/);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
