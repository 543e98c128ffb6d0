// What the browser must have for the lab to run, checked when the element connects, so that a browser that lacks
// it gets one line saying so (and nothing else) instead of a compiler's error in every panel.  The core's matrix
// kernels use WebAssembly's 128-bit SIMD (wasm_build/wasm.cmake: -msimd128): Chrome 91, Firefox 89, Safari 16.4.

import { STRINGS } from '../ui/strings.js';

// The smallest module using SIMD: (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15,
  253, 98, 11]);

/** The line saying which feature the lab needs and this browser lacks, or '' when it has them all. */
export function missingFeature() {
  if (typeof WebAssembly !== 'object') return STRINGS.browserLacks('WebAssembly');
  if (!WebAssembly.validate(SIMD_PROBE)) return STRINGS.browserLacks('WebAssembly SIMD');
  return '';
}
