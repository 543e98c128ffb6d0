// The WebAssembly core as the page ships it: LZMA-compressed, base64 text inside the bundle (web/build.mjs),
// about a third of the raw module's size.  The page unpacks and compiles it once; every worker then instantiates
// that compiled module (worker-main.js), so N workers cost one download, one unpacking and one compilation.

import compressedBase64 from 'sqrtdk:wasm';
import { lzmaDecode } from './lzma-decode.js';

let compiled = null;  // the one compilation per page: a promise of a WebAssembly.Module

/** base64 -> bytes, without atob's intermediate binary string per chunk being kept. */
function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The compiled core, shared by every worker of every <sqrtdk-lab> on the page. Rejects with the reason. */
export function compiledCore() {
  if (!compiled) {
    compiled = Promise.resolve().then(() => WebAssembly.compile(lzmaDecode(decodeBase64(compressedBase64))));
    // A failure (e.g. a policy without 'wasm-unsafe-eval') is reported by each worker that needed it; a later
    // page visit of the same document tries again rather than keep a rejected promise.
    compiled.catch(() => { compiled = null; });
  }
  return compiled;
}
