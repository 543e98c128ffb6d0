// The workers' script as a Blob URL: the Emscripten glue (single file, wasm embedded as base64) followed by
// the worker bundle.  Both arrive as text through esbuild (web/build.mjs), so no file is fetched: this is the
// one worker recipe that works from file:// as well as from http (a worker cannot fetch from file://).

import glueSource from 'sqrtdk:glue';
import workerSource from 'sqrtdk:worker';

// On a host that enforces Trusted Types (require-trusted-types-for 'script'), new Worker() needs a
// TrustedScriptURL: this policy (allow it with "trusted-types sqrtdk-lab") passes only blob: URLs.
const TRUSTED_URLS = (() => {
  try {
    return globalThis.trustedTypes?.createPolicy('sqrtdk-lab', {
      createScriptURL: (url) => {
        if (!url.startsWith('blob:')) throw new TypeError('sqrtdk-lab starts workers only from its own blob: URLs');
        return url;
      },
    }) ?? null;
  } catch {
    return null;
  }
})();

/** A new Blob URL of the worker script; the caller revokes it (URL.revokeObjectURL) when done. */
export function createWorkerUrl() {
  const blob = new Blob([glueSource, '\n;\n', workerSource], { type: 'text/javascript' });
  return URL.createObjectURL(blob);
}

/** What new Worker() accepts for that URL (a TrustedScriptURL when Trusted Types are available). */
export function workerScriptUrl(url) {
  return TRUSTED_URLS ? TRUSTED_URLS.createScriptURL(url) : url;
}
