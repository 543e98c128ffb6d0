// Which runs an exercise trains: one per (variant, seed), each with the TrainConfig fields the page sets
// (wasm-api.js).  Fields the page does not set (d_ff, alpha of the other variants, ...) are left out so that
// the core's defaults apply.  Pure: no DOM.

/** @returns {{id: string, variant: string, seed: number, config: object}[]} */
export function runPlan(state) {
  const runs = [];
  for (const variant of state.variants) {
    for (let i = 0; i < state.seeds; i += 1) {
      const seed = state.trainSeed + i;
      runs.push({ id: `${variant}-${seed}`, variant, seed, config: trainConfig(state, variant, seed) });
    }
  }
  return runs;
}

/** The TrainConfig of one run. */
export function trainConfig(state, variant, seed) {
  return {
    layers: state.layers,
    dModel: state.dModel,
    heads: state.heads,
    scale: variant,
    ...(variant === 'alpha' ? { alpha: state.trainAlpha } : {}),
    init: state.init,
    copyLength: state.copyLength,
    symbols: state.symbols,
    batch: state.batch,
    optimizer: state.optimizer,
    lr: state.lr,
    momentum: state.momentum,
    seed,
    evalEvery: state.evalEvery,
  };
}
