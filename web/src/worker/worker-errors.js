// Worker error messages as a learner can act on them.

/** Adds the fix when the page's Content-Security-Policy blocked WebAssembly. */
export function explainWorkerError(message) {
  const text = String(message);
  if (/WebAssembly/i.test(text) && /(unsafe-eval|Content Security Policy|Refused)/i.test(text)) {
    return `This page's Content-Security-Policy blocks WebAssembly: its script-src needs 'wasm-unsafe-eval' (and worker-src blob:). (${text})`;
  }
  return text;
}
