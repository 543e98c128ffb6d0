// The WebAssembly core as the page ships it: gzip-compressed, base64 text inside the bundle (web/build.mjs),
// about 40 % of the raw module's size.  The page inflates and compiles it once; every worker then instantiates
// that compiled module (worker-main.js), so N workers cost one download, one inflate and one compilation.

import compressedBase64 from 'sqrtdk:wasm';

let compiled = null;  // the one compilation per page: a promise of a WebAssembly.Module

/** base64 -> bytes, without atob's intermediate binary string per chunk being kept. */
function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function inflate(bytes) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser has no DecompressionStream (needed to unpack the lab\'s WebAssembly core): use Chrome 80+, Firefox 113+ or Safari 16.4+');
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The compiled core, shared by every worker of every <sqrtdk-lab> on the page. Rejects with the reason. */
export function compiledCore() {
  if (!compiled) {
    compiled = inflate(decodeBase64(compressedBase64)).then((bytes) => WebAssembly.compile(bytes));
    // A failure (e.g. a policy without 'wasm-unsafe-eval') is reported by each worker that needed it; a later
    // page visit of the same document tries again rather than keep a rejected promise.
    compiled.catch(() => { compiled = null; });
  }
  return compiled;
}
