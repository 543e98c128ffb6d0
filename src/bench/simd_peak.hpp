// The 128-bit SIMD arithmetic peak of one core, measured: the ceiling for WebAssembly simd128 kernels.
#pragma once
#include "bench/timing.hpp"  // Calls

namespace sqrtdk::bench {

// The probe: `run(n)` makes n calls, each of simd128_probe_flop() floating-point operations on 4 x f32
// multiply + add chains (no FMA: wasm simd128 has none).  Compiled to wasm it measures what V8's code
// generator reaches; natively, what the core's 128-bit units do.
Calls simd128_probe();
double simd128_probe_flop();

}  // namespace sqrtdk::bench
