// The exercise on screen as a request for lab.exportTorch: the core writes the PyTorch script or notebook
// (src/core/export/torch_export.hpp), the same text `sqrtdk export-torch` writes.  Pure: no DOM.

import { trainConfig } from '../training/run-plan.js';

/** What each format downloads as. */
export const TORCH_FILES = Object.freeze({
  notebook: { filename: 'sqrtdk-exercise.ipynb', type: 'application/x-ipynb+json' },
  script: { filename: 'sqrtdk-exercise.py', type: 'text/x-python' },
});

/**
 * @param {object} state  the page's settings (store.state)  @param {'notebook'|'script'} format
 * @returns {object} the lab.exportTorch request
 */
export function torchExportRequest(state, format) {
  // The run's config without the scale and alpha, which the variants set.
  const { scale, alpha, ...config } = trainConfig(state, state.variants[0], state.trainSeed);
  return {
    variants: [...state.variants],
    trainAlpha: state.trainAlpha,
    seeds: state.seeds,
    steps: state.steps,
    threshold: state.threshold,
    config,
    format,
  };
}
