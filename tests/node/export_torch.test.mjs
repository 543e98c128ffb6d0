// lab.exportTorch: the exercise as a PyTorch script or notebook, written by the core (src/core/export/
// torch_export.hpp) and byte for byte what the native `sqrtdk export-torch` writes for the same settings; bad
// requests come back as one-line errors naming the field, never an abort.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { errorOf, freshLab, runCli } from './helpers.mjs';

let lab;
before(async () => {
  lab = await freshLab();
});

describe('lab.exportTorch', () => {
  test('writes what the CLI writes, script and notebook', () => {
    const cases = [
      [{}, []],
      [{ variants: ['scaled', 'unscaled'], steps: 600, config: { optimizer: 'sgd', lr: 0.1, momentum: 0.9 } }, ['--scenario', 'sgd']],
      [{ variants: ['scaled', 'alpha', 'qknorm'], trainAlpha: 0.25, seeds: 2, steps: 40, threshold: 0.05,
        config: { lr: 0.002, init: 'gpt', seed: 5, dModel: 32, heads: 2, clipNorm: 1.5 } },
      ['--variants', 'scaled,alpha=0.25,qknorm', '--seeds', '2', '--steps', '40', '--threshold', '0.05', '--lr', '0.002',
        '--init', 'gpt', '--seed', '5', '--d-model', '32', '--heads', '2', '--clip-norm', '1.5']],
    ];
    for (const [request, flags] of cases) {
      assert.equal(lab.exportTorch(request), runCli(['export-torch', ...flags]), JSON.stringify(request));
      const notebook = lab.exportTorch({ ...request, format: 'notebook' });
      assert.equal(notebook, runCli(['export-torch', ...flags, '--notebook']));
      assert.equal(JSON.parse(notebook).nbformat, 4);
    }
    assert.match(lab.exportTorch({ variants: ['scaled', 'unscaled'], steps: 600, seeds: 10,
      config: { optimizer: 'sgd', lr: 0.1 } }), /preset 'sgd'/);
  });

  test('refuses a bad request with one line naming the field', () => {
    const cases = [
      [{ variants: ['scaled', 'sqrt'] }, /^request\.variants\[1\]: scale must be one of /],
      [{ variants: [] }, /^request\.variants must have 1 to 8 variants/],
      [{ variants: 'scaled' }, /^request\.variants must be an array/],
      [{ seeds: 0 }, /^request\.seeds must be /],
      [{ steps: 1.5 }, /steps/],
      [{ threshold: -1 }, /^request\.threshold must be /],
      [{ trainAlpha: 3 }, /^request\.trainAlpha must be /],
      [{ format: 'pdf' }, /^request\.format must be 'script' or 'notebook'/],
      [{ config: { dModel: 65, heads: 2 } }, /^request\.config: .*d_model/],
      [{ config: { optimizer: 'rmsprop' } }, /^request\.config: optimizer must be one of adam, sgd/],
      [{ colour: 'red' }, /colour/],
    ];
    for (const [request, message] of cases) {
      const text = errorOf(() => lab.exportTorch(request));
      assert.match(text, message, JSON.stringify(request));
      assert.doesNotMatch(text, /\n/);
    }
    assert.match(lab.exportTorch({}), /^# The sqrtdk lab's exercise in PyTorch/);  // the module still answers
  });
});
