// Timing harness for the simd128 GEMM kernels against Eigen compiled to the same wasm (not part of the
// Catch2 suite).  For every product shape of a training step it prints GFLOP/s of sqrtdk::simd128 and
// of sqrtdk::eigen_ref<float>, and the share of the simd128 peak measured by a probe in the same run.
//
// Build and run (Emscripten 3.1.6, from the repository root):
//   NODE_PATH=/usr/share/nodejs em++ -O3 -msimd128 -std=c++17 -Isrc -I/usr/include/eigen3 -DEIGEN_NO_DEBUG \
//     tests/bench/gemm_kernels_bench.cpp src/core/gemm_eigen.cpp src/core/gemm_simd128.cpp \
//     -sALLOW_MEMORY_GROWTH=1 -o /tmp/gemm_bench.js && node /tmp/gemm_bench.js
//
// Method: every kernel is warmed up (V8 keeps a wasm function in its baseline tier until it has been
// called enough), then timed as the median of kRepeats repeats, each a loop of calls lasting at least
// kMinRepeatSeconds.
#if !defined(__wasm_simd128__)
#error "gemm_kernels_bench measures the wasm simd128 kernels: build it with em++ -msimd128"
#endif

#include <wasm_simd128.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "core/gemm.hpp"
#include "core/gemm_simd128.hpp"

namespace {

constexpr int kRepeats = 9;
constexpr double kMinRepeatSeconds = 0.02;
constexpr double kWarmupSeconds = 0.05;
constexpr int kWarmupMinCalls = 20;

// Canonical model: 672 rows (batch 32 x T 21), d_model 64, d_ff 256, vocab 12, one head of 64.
// Wide variant: d_model 128, d_ff 512, 4 heads of 32 (head slices have leading dimension 128).
constexpr int kRows = 32 * 21;
constexpr int kT = 21;

enum class Op { nn, nt, tn };

struct Shape {
  const char* name;
  Op op;
  int m, k, n;
  int lda, ldb, ldc;   // 0 means dense (the natural leading dimension)
  int calls_per_step;  // how often one canonical training step calls it (0: not in the canonical step)
};

// Stored extents of the operands (rows x leading dimension) for each layout.
int a_rows(const Shape& s) { return s.op == Op::tn ? s.k : s.m; }
int a_cols(const Shape& s) { return s.op == Op::tn ? s.m : s.k; }
int b_rows(const Shape& s) { return s.op == Op::nt ? s.n : s.k; }
int b_cols(const Shape& s) { return s.op == Op::nt ? s.k : s.n; }

using GemmFn = void (*)(float*, int, const float*, int, const float*, int, int, int, int, bool);

GemmFn simd_fn(Op op) {
  switch (op) {
    case Op::nn: return sqrtdk::simd128::gemm_nn;
    case Op::nt: return sqrtdk::simd128::gemm_nt;
    default: return sqrtdk::simd128::gemm_tn;
  }
}

GemmFn eigen_fn(Op op) {
  switch (op) {
    case Op::nn: return sqrtdk::eigen_ref::gemm_nn<float>;
    case Op::nt: return sqrtdk::eigen_ref::gemm_nt<float>;
    default: return sqrtdk::eigen_ref::gemm_tn<float>;
  }
}

// Operands of one shape, filled with U(-1, 1).
struct Operands {
  int lda, ldb, ldc;
  std::vector<float> a, b, c;
  Operands(const Shape& s, std::mt19937& rng)
      : lda(s.lda ? s.lda : a_cols(s)), ldb(s.ldb ? s.ldb : b_cols(s)), ldc(s.ldc ? s.ldc : s.n),
        a(std::size_t(a_rows(s)) * lda), b(std::size_t(b_rows(s)) * ldb), c(std::size_t(s.m) * ldc) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float& x : a) x = u(rng);
    for (float& x : b) x = u(rng);
    for (float& x : c) x = u(rng);
  }
};

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds per call of fn on the shape: warm-up, calibration, then the median of kRepeats repeats.
double seconds_per_call(GemmFn fn, const Shape& s, Operands& x) {
  const auto run = [&](int calls) {
    const double t0 = now_seconds();
    for (int i = 0; i < calls; ++i)
      fn(x.c.data(), x.ldc, x.a.data(), x.lda, x.b.data(), x.ldb, s.m, s.k, s.n, false);
    return now_seconds() - t0;
  };
  int calls = 0;
  for (const double t0 = now_seconds(); calls < kWarmupMinCalls || now_seconds() - t0 < kWarmupSeconds;) {
    run(1);
    ++calls;
  }
  int per_repeat = 1;
  while (run(per_repeat) < kMinRepeatSeconds) per_repeat *= 2;
  std::vector<double> t(kRepeats);
  for (double& ti : t) ti = run(per_repeat) / per_repeat;
  return median(t);
}

// The simd128 arithmetic peak: kChains independent f32x4 chains acc = acc * s + t (8 flops a step).
// The chains' latency (mul + add) is hidden when kChains >= latency x issue rate; 12 chains plus s and
// t fit the 15 xmm registers V8 allocates.  s = 1 and t = 0 (read from volatiles, so nothing folds)
// keep the values constant: never denormal, never infinite.
constexpr int kChains = 12;

__attribute__((noinline)) v128_t peak_kernel(int steps, v128_t s, v128_t t) {
  v128_t acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = wasm_f32x4_add(t, wasm_f32x4_splat(float(j)));
  for (int i = 0; i < steps; ++i)
    for (int j = 0; j < kChains; ++j) acc[j] = wasm_f32x4_add(wasm_f32x4_mul(acc[j], s), t);
  v128_t sum = acc[0];
  for (int j = 1; j < kChains; ++j) sum = wasm_f32x4_add(sum, acc[j]);
  return sum;
}

double peak_gflops() {
  constexpr int kSteps = 1 << 16;
  // Volatile: the probe has no side effects, so its calls would otherwise be folded or hoisted.
  volatile float s_in = 1.0f, t_in = 0.0f, sink = 0.0f;
  const auto run = [&](int calls) {
    const double t0 = now_seconds();
    for (int i = 0; i < calls; ++i)
      sink = wasm_f32x4_extract_lane(peak_kernel(kSteps, wasm_f32x4_splat(s_in), wasm_f32x4_splat(t_in)), 0);
    return now_seconds() - t0;
  };
  for (const double t0 = now_seconds(); now_seconds() - t0 < kWarmupSeconds;) run(1);
  int per_repeat = 1;
  while (run(per_repeat) < kMinRepeatSeconds) per_repeat *= 2;
  std::vector<double> t_rep(kRepeats);
  for (double& ti : t_rep) ti = run(per_repeat) / per_repeat;
  return double(kSteps) * kChains * 8 / median(t_rep) * 1e-9;
}

double gflop(const Shape& s) { return 2.0 * s.m * s.k * s.n * 1e-9; }

const char* op_name(Op op) { return op == Op::nn ? "nn" : op == Op::nt ? "nt" : "tn"; }

}  // namespace

int main() {
  const int R = kRows, T = kT;
  // Canonical model, per layer: Q K V O projections, MLP 64 -> 256 -> 64, 32 attention blocks; one head.
  // calls_per_step counts both layers (and the head once).
  const std::vector<Shape> shapes = {
      // forward
      {"fwd  x W_qkvo      (672x64)(64x64)", Op::nn, R, 64, 64, 0, 0, 0, 8},
      {"fwd  x W1          (672x64)(64x256)", Op::nn, R, 64, 256, 0, 0, 0, 2},
      {"fwd  h W2          (672x256)(256x64)", Op::nn, R, 256, 64, 0, 0, 0, 2},
      {"fwd  x W_head      (672x64)(64x12)", Op::nn, R, 64, 12, 0, 0, 0, 1},
      {"fwd  Q K^T         (21x64)(21x64)^T", Op::nt, T, 64, T, 64, 64, 0, 64},
      {"fwd  Q K^T ld 192  (21x64)(21x64)^T", Op::nt, T, 64, T, 192, 192, 0, 0},
      {"fwd  P V           (21x21)(21x64)", Op::nn, T, T, 64, 0, 64, 64, 64},
      // backward, data gradients: dX = dY W^T
      {"bwd  dY W_qkvo^T   (672x64)(64x64)^T", Op::nt, R, 64, 64, 0, 0, 0, 8},
      {"bwd  dY W2^T       (672x64)(256x64)^T", Op::nt, R, 64, 256, 0, 0, 0, 2},
      {"bwd  dH W1^T       (672x256)(64x256)^T", Op::nt, R, 256, 64, 0, 0, 0, 2},
      {"bwd  dY W_head^T   (672x12)(64x12)^T", Op::nt, R, 12, 64, 0, 0, 0, 1},
      // backward, weight gradients: dW = X^T dY
      {"bwd  X^T dY qkvo   (64x672)(672x64)", Op::tn, 64, R, 64, 0, 0, 0, 8},
      {"bwd  X^T dH W1     (64x672)(672x256)", Op::tn, 64, R, 256, 0, 0, 0, 2},
      {"bwd  H^T dY W2     (256x672)(672x64)", Op::tn, 256, R, 64, 0, 0, 0, 2},
      {"bwd  X^T dY head   (64x672)(672x12)", Op::tn, 64, R, 12, 0, 0, 0, 1},
      // backward, attention per (batch, head): dP = dO V^T, dV = P^T dO, dQ = dS K, dK = dS^T Q
      {"bwd  dO V^T        (21x64)(21x64)^T", Op::nt, T, 64, T, 64, 64, 0, 64},
      {"bwd  P^T dO        (21x21)^T(21x64)", Op::tn, T, T, 64, 0, 64, 64, 128},
      {"bwd  dS K          (21x21)(21x64)", Op::nn, T, T, 64, 0, 64, 64, 64},
      // wide variant: d_model 128, d_ff 512, 4 heads of 32 sliced from (672x128) buffers
      {"w128 x W           (672x128)(128x128)", Op::nn, R, 128, 128, 0, 0, 0, 0},
      {"w128 x W1          (672x128)(128x512)", Op::nn, R, 128, 512, 0, 0, 0, 0},
      {"w128 h W2          (672x512)(512x128)", Op::nn, R, 512, 128, 0, 0, 0, 0},
      {"w128 dY W^T        (672x128)(128x128)^T", Op::nt, R, 128, 128, 0, 0, 0, 0},
      {"w128 dY W2^T       (672x128)(512x128)^T", Op::nt, R, 128, 512, 0, 0, 0, 0},
      {"w128 dH W1^T       (672x512)(128x512)^T", Op::nt, R, 512, 128, 0, 0, 0, 0},
      {"w128 X^T dY        (128x672)(672x128)", Op::tn, 128, R, 128, 0, 0, 0, 0},
      {"w128 X^T dH        (128x672)(672x512)", Op::tn, 128, R, 512, 0, 0, 0, 0},
      {"w128 H^T dY        (512x672)(672x128)", Op::tn, 512, R, 128, 0, 0, 0, 0},
      {"w128 Q K^T ld 128  (21x32)(21x32)^T", Op::nt, T, 32, T, 128, 128, 0, 0},
      {"w128 P V ld 128    (21x21)(21x32)", Op::nn, T, T, 32, 0, 128, 128, 0},
      {"w128 P^T dO ld 128 (21x21)^T(21x32)", Op::tn, T, T, 32, 0, 128, 128, 0},
  };

  std::mt19937 rng(12345);
  const double peak = peak_gflops();
  std::printf("simd128 peak probe (%d f32x4 mul+add chains): %.1f GFLOP/s\n\n", kChains, peak);
  std::printf("%-42s %2s %5s %5s %5s | %8s %6s | %8s | %6s\n", "shape", "op", "M", "K", "N", "simd128",
              "%peak", "eigen", "speedup");

  double step_gflop = 0.0, step_simd_s = 0.0, step_eigen_s = 0.0;
  for (const Shape& s : shapes) {
    Operands x(s, rng);
    const double ts = seconds_per_call(simd_fn(s.op), s, x);
    const double te = seconds_per_call(eigen_fn(s.op), s, x);
    const double gs = gflop(s) / ts, ge = gflop(s) / te;
    std::printf("%-42s %2s %5d %5d %5d | %8.1f %5.0f%% | %8.1f | %5.1fx\n", s.name, op_name(s.op), s.m, s.k, s.n,
                gs, 100.0 * gs / peak, ge, te / ts);
    step_gflop += s.calls_per_step * gflop(s);
    step_simd_s += s.calls_per_step * ts;
    step_eigen_s += s.calls_per_step * te;
  }
  const double gs = step_gflop / step_simd_s, ge = step_gflop / step_eigen_s;
  std::printf("%-42s %2s %5s %5s %5s | %8.1f %5.0f%% | %8.1f | %5.1fx\n", "canonical training step (weighted)", "",
              "", "", "", gs, 100.0 * gs / peak, ge, step_eigen_s / step_simd_s);
  std::printf("\none canonical step: %.1f MFLOP of products, %.2f ms simd128, %.2f ms eigen\n", step_gflop * 1e3,
              step_simd_s * 1e3, step_eigen_s * 1e3);
  return 0;
}
