// The typed messages between the page and its workers.  Every request carries an integer `id`; the worker
// answers each request with exactly one reply carrying the same id: the documented reply type, or
// {type: 'error', id, message} (the core's message, e.g. "config: d_model (65) must be divisible by
// n_heads (2)").  A worker that fails outside a request (it throws, or cannot be started) fires the Worker's
// 'error' event instead; the page then reports it and replaces the worker (worker-client.js).
// Typed arrays in replies are transferred, not copied.  Pure: no DOM.
//
// Requests (page -> worker)                                        Reply (worker -> page)
// The training requests (init, step, attention, drop) name a `run` (any value; the worker-pool.js client's key):
// a training worker holds one trainer per run.
//   {type:'init', id, run, config, fastForward}                   {type:'ready', id, config, stepsDone,
//      create the run's trainer (TrainConfig, see wasm-api.js),     measuredLogitStd}
//      then silently run `fastForward` steps (replaying a run        config: the core's full config, its
//      whose worker was replaced; the same seed gives the same curve) defaults filled in
//   {type:'step', id, run, steps, attention}                      {type:'chunk', id, <every per-step metric by
//      run up to `steps` steps (fewer if the run diverges);          its jsKey, as in StepChunk: the core's
//                                                                    metrics table, core-tables.js `metrics`>,
//                                                                    wholeModel: {<jsKey>: (k)} per combined metric,
//      attention: null or {example, layer, head} (0-based) to        evals, stepsDone, diverged,
//      also return that attention map after the steps                divergedStep, elapsedMs, attention}
//                                                                    attention: null or {data, rows, cols, layout, layer, head}
//   {type:'attention', id, run, example, layer, head}             {type:'attention', id, data, rows, cols, layer, head}
//   {type:'drop', id, run}   free the run's trainer                {type:'dropped', id}
//   {type:'estimate', id, config}                                 {type:'estimate', id, bytes}
//      the bytes a trainer for `config` allocates (the page's memory budget counts them)
//   {type:'softmaxDemo', id, options}   (Lab.softmaxDemo options)  {type:'softmaxDemo', id, result}
//   {type:'drawSet', id, options}       (Lab.drawSet options)      {type:'drawSet', id, result}
//   {type:'sweep', id, options}         (Lab.sweep options)        {type:'sweep', id, result}
//   {type:'histogram', id, options}     (Lab.histogram options)    {type:'histogram', id, result}
//   {type:'predictLogitStd', id, configs}                         {type:'predictLogitStd', id, values}
//      predicted std of the attention logits at init, per config
//   {type:'compare', id, request}       (Lab.compare request)      {type:'compare', id, result}
//      the exercise's answer from the runs' loss curves
//   {type:'scenarios', id}                                        {type:'scenarios', id, list}
//      the core's one-click presets [{id, title, caption, settings}]
//   {type:'exportTorch', id, request}   (Lab.exportTorch request)  {type:'exportTorch', id, text}
//      the exercise as a PyTorch script or notebook
//   {type:'glossary', id, request}      (Lab.glossary request)     {type:'glossary', id, result}
//      the lesson's claim quoted and the glossary, as messages

// Before any request is answered, the page sends the WebAssembly core, compiled once per page
// (wasm-binary.js), as {type:'core', module} (a WebAssembly.Module), or {type:'core', error} when it could not be
// compiled; it has no id and no reply: requests wait for it, and fail with that error.

/** Is `message` the core delivery ({type:'core', module} or {type:'core', error})? */
export function isCoreDelivery(message) {
  return message !== null && typeof message === 'object' && message.type === 'core'
    && (message.module instanceof WebAssembly.Module || typeof message.error === 'string');
}

export const REQUEST_REPLY = Object.freeze({
  drop: 'dropped',
  init: 'ready',
  estimate: 'estimate',
  step: 'chunk',
  attention: 'attention',
  softmaxDemo: 'softmaxDemo',
  drawSet: 'drawSet',
  sweep: 'sweep',
  histogram: 'histogram',
  predictLogitStd: 'predictLogitStd',
  compare: 'compare',
  scenarios: 'scenarios',
  exportTorch: 'exportTorch',
  glossary: 'glossary',
});

const REPLY_TYPES = new Set([...Object.values(REQUEST_REPLY), 'error']);

/** Is `message` a well-formed request? */
export function isRequest(message) {
  return message !== null && typeof message === 'object' && Object.hasOwn(REQUEST_REPLY, message.type)
    && Number.isSafeInteger(message.id);
}

/** Is `message` a well-formed reply? */
export function isReply(message) {
  return message !== null && typeof message === 'object' && REPLY_TYPES.has(message.type)
    && Number.isSafeInteger(message.id);
}

/** Typed-array buffers of a reply, for postMessage's transfer list. */
export function transferablesOf(reply) {
  const buffers = [];
  const visit = (value) => {
    if (ArrayBuffer.isView(value)) buffers.push(value.buffer);
    else if (value && typeof value === 'object' && !Array.isArray(value)) Object.values(value).forEach(visit);
  };
  visit(reply);
  return [...new Set(buffers)];
}
