#include "bench/simd_peak.hpp"

namespace sqrtdk::bench {
namespace {

// GCC/Clang vector extension: 128-bit SSE natively, f32x4 in wasm, from the same source.
typedef float f32x4 __attribute__((vector_size(16)));

// Each chain is acc = acc * s + t, a multiply and an add that depend on each other, so the chains'
// latency is hidden only when enough run side by side: 12 do here, and with s and t they still fit the
// 15 xmm registers V8 allocates (more would spill to the stack and measure loads instead).  The chains
// are named variables, not an array, so that both compilers keep each one in a register.
#define SQRTDK_FOR_EACH_CHAIN(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
constexpr int kChains = 12;
constexpr int kStepsPerCall = 1 << 14;

// An empty asm that claims to change v, natively: it keeps GCC from fusing the multiply and the add
// into an FMA (wasm simd128 has none) and from merging chains into 256/512-bit vectors.
inline void opaque(f32x4& v) {
#if defined(__x86_64__)
  asm("" : "+x"(v));
#else
  (void)v;
#endif
}

__attribute__((noinline)) f32x4 chains(f32x4 s, f32x4 t) {
#define SQRTDK_INIT(j) f32x4 acc##j = t + static_cast<float>(j);
#define SQRTDK_STEP(j)         \
  {                            \
    f32x4 product = acc##j * s; \
    opaque(product);           \
    acc##j = product + t;      \
  }
#define SQRTDK_SUM(j) sum += acc##j;
  SQRTDK_FOR_EACH_CHAIN(SQRTDK_INIT)
  for (int i = 0; i < kStepsPerCall; ++i) {
    SQRTDK_FOR_EACH_CHAIN(SQRTDK_STEP)
  }
  f32x4 sum = t;
  SQRTDK_FOR_EACH_CHAIN(SQRTDK_SUM)
  return sum;
#undef SQRTDK_INIT
#undef SQRTDK_STEP
#undef SQRTDK_SUM
}

}  // namespace

Calls simd128_probe() {
  return [](long calls) {
    // s = 1 and t = 0 keep every value finite and normal; read through volatiles so that nothing folds away.
    volatile float s_in = 1.0f, t_in = 0.0f, sink = 0.0f;
    for (long i = 0; i < calls; ++i) {
      const f32x4 s = {s_in, s_in, s_in, s_in}, t = {t_in, t_in, t_in, t_in};
      sink = chains(s, t)[0];
    }
    static_cast<void>(sink);
  };
}

double simd128_probe_flop() { return double(kStepsPerCall) * kChains * 4 * 2; }

}  // namespace sqrtdk::bench
