// The page's PyTorch export request (web/src/export/torch-export.js): the settings on screen as lab.exportTorch
// takes them.  That the core's text is the CLI's is page_torch_export's and tests/node/export_torch's question.
import test from 'node:test';
import assert from 'node:assert/strict';
import { TORCH_FILES, torchExportRequest } from '../../web/src/export/torch-export.js';
import { defaultState } from '../../web/src/state/properties.js';

test('the request carries the variants, the run settings and the config without the scale', () => {
  const state = { ...defaultState(), variants: ['alpha', 'scaled'], trainAlpha: 0.25, seeds: 7, steps: 90, threshold: 0.05,
    trainSeed: 4, optimizer: 'sgd', lr: 0.1, dModel: 32 };
  const request = torchExportRequest(state, 'notebook');
  assert.deepEqual(request.variants, ['alpha', 'scaled']);
  assert.notEqual(request.variants, state.variants);  // a copy
  assert.equal(request.trainAlpha, 0.25);
  assert.equal(request.seeds, 7);
  assert.equal(request.steps, 90);
  assert.equal(request.threshold, 0.05);
  assert.equal(request.format, 'notebook');
  assert.equal(request.config.seed, 4);
  assert.equal(request.config.optimizer, 'sgd');
  assert.equal(request.config.dModel, 32);
  assert.ok(!('scale' in request.config) && !('alpha' in request.config), 'the variants set the scale');
});

test('a notebook downloads as .ipynb, a script as .py', () => {
  assert.match(TORCH_FILES.notebook.filename, /\.ipynb$/);
  assert.match(TORCH_FILES.script.filename, /\.py$/);
});
