// A fixed-width float vector for the float kernels (the matrix products of gemm_f32x4.cpp and the layers around
// them), and the functions they need on it (exp, reductions).
//
// GNU vector extensions of 4 lanes: one source that clang compiles to wasm simd128 and GCC or clang to SSE
// (x86-64, any -march) or NEON natively.  The width is fixed at 4 on every target, never 8 or 16 where AVX is
// on, and every reduction runs lane-wise and then across lanes in a fixed order, so natively and in
// WebAssembly the same inputs give the same bits (built with -ffp-contract=off: no fused multiply-add).
// Plain loops over floats do not vectorise where they reduce (a float sum is not associative), and libm's expf
// is a scalar call in wasm whose last bit differs between C libraries; these helpers do both explicitly.
//
// Loops over a length that is not a multiple of kLanes use for_chunks(): full vectors, then one partial vector
// whose missing lanes are filled by load_n()'s `fill` and never stored (store_n).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <immintrin.h>
#endif

namespace sqrtdk::simd {

inline constexpr int kLanes = 4;

typedef float F __attribute__((vector_size(4 * kLanes)));
typedef int32_t I __attribute__((vector_size(4 * kLanes)));   // lane masks: -1 true, 0 false
typedef uint32_t U __attribute__((vector_size(4 * kLanes)));  // bit patterns
typedef double F64 __attribute__((vector_size(4 * kLanes)));  // half the lanes, widened (same register width)

inline F splat(float x) { return F{x, x, x, x}; }

inline F load(const float* p) {
  F v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, F v) { __builtin_memcpy(p, &v, sizeof v); }

// The first n (1..kLanes) lanes from p, the others `fill`.  Lanes by constant index (a variable one goes
// through memory, which stalls).
inline F load_n(const float* p, int n, float fill) {
  if (n == kLanes) return load(p);
  F v = splat(fill);
  switch (n) {
    case 3: v[2] = p[2]; [[fallthrough]];
    case 2: v[1] = p[1]; [[fallthrough]];
    default: v[0] = p[0];
  }
  return v;
}
inline void store_n(float* p, F v, int n) {
  if (n == kLanes) return store(p, v);
  switch (n) {
    case 3: p[2] = v[2]; [[fallthrough]];
    case 2: p[1] = v[1]; [[fallthrough]];
    default: p[0] = v[0];
  }
}

// f(i, n) for i = 0, kLanes, 2 kLanes, ... with n = min(kLanes, len - i) lanes (inlined: n is a constant in the
// loop over full vectors).
template <class Fn>
inline void for_chunks(int len, Fn&& f) {
  int i = 0;
  for (; i + kLanes <= len; i += kLanes) f(i, kLanes);
  if (i < len) f(i, len - i);
}

// Lanes below n (a mask).
inline I lanes_below(int n) {
  const I index = {0, 1, 2, 3};
  return index < n;
}

// A NaN in `a` comes through (as std::min / std::max do for their first argument).
inline F min(F a, F b) { return b < a ? b : a; }
inline F max(F a, F b) { return a < b ? b : a; }

// Sum and maximum across lanes, halving by shuffles (a fixed order; lane-by-lane code is slow in V8).
inline F fold(F v, F (*op)(F, F)) {
  v = op(v, __builtin_shufflevector(v, v, 2, 3, 0, 1));
  return op(v, __builtin_shufflevector(v, v, 1, 0, 3, 2));
}
inline float hsum(F v) {
  return fold(v, [](F a, F b) { return a + b; })[0];
}
inline float hmax(F v) {
  return fold(v, [](F a, F b) { return a < b ? b : a; })[0];
}

// Squares of v's lanes, widened to double, added into two half-width accumulators.
inline void add_squares(F64& lo, F64& hi, F v) {
  const F64 a = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1), F64);
  const F64 b = __builtin_convertvector(__builtin_shufflevector(v, v, 2, 3), F64);
  lo += a * a;
  hi += b * b;
}
inline double sum_lanes(F64 lo, F64 hi) {
  lo += hi;
  double s = 0;
  for (int l = 0; l < kLanes / 2; ++l) s += lo[l];
  return s;
}

// sqrt per lane (the compilers do not vectorise std::sqrt natively: it may set errno).
inline F sqrt(F x) {
#if defined(__wasm_simd128__)
  return (F)wasm_f32x4_sqrt((v128_t)x);
#elif defined(__SSE2__)
  return (F)_mm_sqrt_ps((__m128)x);
#else
  for (int i = 0; i < kLanes; ++i) x[i] = std::sqrt(x[i]);
  return x;
#endif
}

// sum_i x_i^2 over n floats, in double.
inline double sum_squares(const float* x, std::size_t n) {
  F64 lo = F64{} + 0.0, hi = lo;
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) add_squares(lo, hi, load(x + i));
  double s = sum_lanes(lo, hi);
  for (; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
  return s;
}

// exp(x) per lane, within 2 ulp of the exact value (Cephes' expf: x = n ln2 + r with |r| <= ln2/2, a degree-7
// polynomial for e^r, times 2^n built from exponent bits, in two halves so that results below 2^-126 come out
// subnormal as libm's do: Adam divides tiny gradients by their own size, so exact zeros there would change the
// updates).  Exactly 1 at 0 (the softmax's top weight relies on it), 0 below -104, finite up to 88.3, NaN for NaN.
inline F exp(F x) {
  x = min(max(x, splat(-104.0f)), splat(88.3762626647949f));  // NaN stays NaN
  // n = round(x / ln2) by the 1.5 * 2^23 trick: adding it rounds to an integer in the low mantissa bits
  const F shifter = splat(12582912.0f);
  const F t = x * splat(1.44269504088896341f) + shifter;
  const F n = t - shifter;
  F r = x - n * splat(0.693359375f);  // ln2 in two parts: the first exact in n * part
  r = r - n * splat(-2.12194440e-4f);
  F p = splat(1.9875691500e-4f);
  p = p * r + splat(1.3981999507e-3f);
  p = p * r + splat(8.3334519073e-3f);
  p = p * r + splat(4.1665795894e-2f);
  p = p * r + splat(1.6666665459e-1f);
  p = p * r + splat(5.0000001201e-1f);
  p = p * (r * r) + r + splat(1.0f);
  // 2^n = 2^(n/2) 2^(n - n/2), each a normal float for n in [-150, 128]; the last product rounds once
  const I k = (I)((U)t - (U)shifter);  // n as an integer
  const I k1 = k >> 1, k2 = k - k1;
  return p * (F)((U)(k1 + 127) << 23) * (F)((U)(k2 + 127) << 23);
}

}  // namespace sqrtdk::simd
