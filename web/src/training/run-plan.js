// Which runs an exercise trains: one per (variant, seed), each with its full TrainConfig (wasm-api.js).
// Pure: no DOM.

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
    dFf: 4 * state.dModel,
    scale: variant,
    alpha: variant === 'alpha' ? state.trainAlpha : 0.5,
    init: state.init,
    copyLength: state.copyLength,
    symbols: state.symbols,
    batch: state.batch,
    lr: state.lr,
    seed,
    evalEvery: state.evalEvery,
  };
}
