// The workers' script as a Blob URL: the Emscripten glue (single file, wasm embedded as base64) followed by
// the worker bundle.  Both arrive as text through esbuild (web/build.mjs), so no file is fetched: this is the
// one worker recipe that works from file:// as well as from http (HANDBOOK section 2).

import glueSource from 'sqrtdk:glue';
import workerSource from 'sqrtdk:worker';

/** A new Blob URL of the worker script; the caller revokes it (URL.revokeObjectURL) when done. */
export function createWorkerUrl() {
  const blob = new Blob([glueSource, '\n;\n', workerSource], { type: 'text/javascript' });
  return URL.createObjectURL(blob);
}
