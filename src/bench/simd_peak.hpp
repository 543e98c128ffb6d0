// The 128-bit SIMD arithmetic peak of one core, measured: the ceiling for WebAssembly simd128 kernels.
#pragma once
#include "bench/timing.hpp"

namespace sqrtdk::bench {

// GFLOP/s of 4 x f32 multiply + add on independent chains (no FMA: wasm simd128 has none).
// Compiled to wasm it measures what V8's code generator reaches; natively, what the core's 128-bit units do.
double simd128_peak_gflops(const Protocol& protocol);

}  // namespace sqrtdk::bench
