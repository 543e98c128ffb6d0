// Timing harness for the simd128 GEMM kernels against Eigen compiled to the same wasm (not part of the
// Catch2 suite).  For every product shape of a training step it prints GFLOP/s of sqrtdk::simd128 and
// of sqrtdk::eigen_ref<float>, and the share of the simd128 peak, both as measured by a probe in the same
// run and as the handbook's 56 GFLOP/s (128-bit asm loops on this CPU).
//
// Build and run (Emscripten 3.1.6, from the repository root):
//   NODE_PATH=/usr/share/nodejs em++ -O3 -msimd128 -std=c++17 -Isrc -I/usr/include/eigen3 -DEIGEN_NO_DEBUG \
//     tests/bench/gemm_kernels_bench.cpp src/core/gemm_eigen.cpp src/core/gemm_simd128.cpp \
//     -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 -o /tmp/gemm_bench.js && node /tmp/gemm_bench.js
//
// Method: every kernel is warmed up first (V8 runs a wasm function in its baseline tier until it has
// been called enough), then timed as kRepeats repeats, each a loop of calls lasting at least
// kMinRepeatSeconds; the table gives the median repeat and, for simd128, also the best one (on a
// machine shared with other jobs the two differ).  The probe runs before and after the table.
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
constexpr double kPrewarmSeconds = 1.0;  // per kernel function, before the table
constexpr double kWarmupChunkSeconds = 0.005;
constexpr double kWarmupMinSeconds = 0.25;
constexpr double kWarmupMaxSeconds = 3.0;
constexpr int kWarmupStableChunks = 5;  // warm-up ends after this many chunks without a 5% gain
constexpr double kHandbookPeak = 56.0;  // GFLOP/s, 128-bit SIMD, one core (HANDBOOK.md section 3)

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
  int calls_per_step;  // calls in one canonical training step (0: not in the canonical step)
};

// Stored extents of the operands: A is [M,K] (nn, nt) or [K,M] (tn); B is [K,N] (nn, tn) or [N,K] (nt).
int a_rows(const Shape& s) { return s.op == Op::tn ? s.k : s.m; }
int a_cols(const Shape& s) { return s.op == Op::tn ? s.m : s.k; }
int b_rows(const Shape& s) { return s.op == Op::nt ? s.n : s.k; }
int b_cols(const Shape& s) { return s.op == Op::nt ? s.k : s.n; }

using GemmFn = void (*)(float*, int, const float*, int, const float*, int, int, int, int, bool);

GemmFn simd_fn(Op op) {
  return op == Op::nn ? sqrtdk::simd128::gemm_nn
                      : op == Op::nt ? sqrtdk::simd128::gemm_nt : sqrtdk::simd128::gemm_tn;
}

GemmFn eigen_fn(Op op) {
  return op == Op::nn ? sqrtdk::eigen_ref::gemm_nn<float>
                      : op == Op::nt ? sqrtdk::eigen_ref::gemm_nt<float> : sqrtdk::eigen_ref::gemm_tn<float>;
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

struct Timing {
  double median;  // seconds per call, median repeat
  double best;    // seconds per call, fastest repeat
};

// Times call(): warm-up, calibration of the calls per repeat, then kRepeats repeats.  The warm-up runs
// until the speed stops improving: V8 compiles the optimised tier in a background thread, which can
// take long on a busy machine, and the calls keep running the baseline tier meanwhile (the kernels are
// also pre-warmed for kPrewarmSeconds each before the first shape).
template <typename Call>
Timing time_calls(Call call) {
  const auto run = [&](int calls) {
    const double t0 = now_seconds();
    for (int i = 0; i < calls; ++i) call();
    return now_seconds() - t0;
  };
  int per_chunk = 1;
  while (run(per_chunk) < kWarmupChunkSeconds) per_chunk *= 2;
  double best_chunk = run(per_chunk);
  int stable = 0;
  for (const double t0 = now_seconds(); now_seconds() - t0 < kWarmupMaxSeconds;) {
    const double t = run(per_chunk);
    stable = t < 0.95 * best_chunk ? 0 : stable + 1;
    best_chunk = std::min(best_chunk, t);
    if (stable >= kWarmupStableChunks && now_seconds() - t0 >= kWarmupMinSeconds) break;
  }
  int per_repeat = 1;
  while (run(per_repeat) < kMinRepeatSeconds) per_repeat *= 2;
  std::vector<double> t(kRepeats);
  for (double& ti : t) ti = run(per_repeat) / per_repeat;
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

Timing time_gemm(GemmFn fn, const Shape& s, Operands& x) {
  return time_calls([&] { fn(x.c.data(), x.ldc, x.a.data(), x.lda, x.b.data(), x.ldb, s.m, s.k, s.n, false); });
}

// Calls fn on the shape for kPrewarmSeconds, so that V8 has optimised it before anything is timed.
void prewarm(GemmFn fn, const Shape& s, Operands& x) {
  for (const double t0 = now_seconds(); now_seconds() - t0 < kPrewarmSeconds;)
    fn(x.c.data(), x.ldc, x.a.data(), x.lda, x.b.data(), x.ldb, s.m, s.k, s.n, false);
}

// The simd128 arithmetic peak: kChains independent f32x4 chains acc = acc * s + t (8 flops a step).
// The chains' latency (mul + add) is hidden when kChains >= latency x issue rate; 12 chains plus s and
// t fit the 15 xmm registers V8 allocates on x64.  s = 1 and t = 0 (read from volatiles, so nothing
// folds) keep the values constant: never denormal, never infinite.
constexpr int kChains = 12;
constexpr int kProbeSteps = 1 << 14;

__attribute__((noinline)) v128_t peak_kernel(int steps, v128_t s, v128_t t) {
  v128_t acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = wasm_f32x4_add(t, wasm_f32x4_splat(float(j)));
  for (int i = 0; i < steps; ++i)
    for (int j = 0; j < kChains; ++j) acc[j] = wasm_f32x4_add(wasm_f32x4_mul(acc[j], s), t);
  v128_t sum = acc[0];
  for (int j = 1; j < kChains; ++j) sum = wasm_f32x4_add(sum, acc[j]);
  return sum;
}

// GFLOP/s of the probe, median repeat.
double probe_gflops() {
  // Volatile: the probe has no side effects, so its calls would otherwise be folded or hoisted.
  volatile float s_in = 1.0f, t_in = 0.0f, sink = 0.0f;
  const Timing t = time_calls([&] {
    sink = wasm_f32x4_extract_lane(peak_kernel(kProbeSteps, wasm_f32x4_splat(s_in), wasm_f32x4_splat(t_in)), 0);
  });
  return double(kProbeSteps) * kChains * 8 / t.median * 1e-9;
}

double gflop(const Shape& s) { return 2.0 * s.m * s.k * s.n * 1e-9; }

const char* op_name(Op op) { return op == Op::nn ? "nn" : op == Op::nt ? "nt" : "tn"; }

}  // namespace

int main() {
  const int R = kRows, T = kT;
  // Canonical model, per layer: Q K V O projections, MLP 64 -> 256 -> 64, 32 attention blocks of one
  // head; calls_per_step counts both layers and the vocabulary head once.
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
  for (Op op : {Op::nn, Op::nt, Op::tn}) {  // on the first shape of each kind
    const Shape& s = *std::find_if(shapes.begin(), shapes.end(), [op](const Shape& t) { return t.op == op; });
    Operands x(s, rng);
    prewarm(simd_fn(op), s, x);
    prewarm(eigen_fn(op), s, x);
  }
  const double probe_before = probe_gflops();
  std::printf("simd128 peak probe (%d f32x4 mul+add chains): %.1f GFLOP/s; handbook peak %.0f GFLOP/s\n\n",
              kChains, probe_before, kHandbookPeak);
  std::printf("%-40s %2s %4s %4s %4s | %7s %6s %6s %5s | %6s | %7s\n", "shape", "op", "M", "K", "N", "simd128",
              "(best)", "%probe", "%56", "eigen", "speedup");

  struct Row {
    const Shape* shape;
    Timing simd, eigen;
  };
  std::vector<Row> rows;
  for (const Shape& s : shapes) {
    Operands x(s, rng);
    rows.push_back({&s, time_gemm(simd_fn(s.op), s, x), time_gemm(eigen_fn(s.op), s, x)});
  }
  const double probe_after = probe_gflops();
  const double probe = std::max(probe_before, probe_after);

  double step_gflop = 0.0, step_simd = 0.0, step_simd_best = 0.0, step_eigen = 0.0;
  const auto print = [&](const char* name, const char* op, const char* m, const char* k, const char* n, double gf,
                         double simd, double simd_best, double eigen) {
    const double gs = gf / simd;
    std::printf("%-40s %2s %4s %4s %4s | %7.1f %6.1f %5.0f%% %4.0f%% | %6.1f | %6.1fx\n", name, op, m, k, n, gs,
                gf / simd_best, 100.0 * gs / probe, 100.0 * gs / kHandbookPeak, gf / eigen, eigen / simd);
  };
  for (const Row& r : rows) {
    const Shape& s = *r.shape;
    char m[16], k[16], n[16];
    std::snprintf(m, sizeof m, "%d", s.m);
    std::snprintf(k, sizeof k, "%d", s.k);
    std::snprintf(n, sizeof n, "%d", s.n);
    print(s.name, op_name(s.op), m, k, n, gflop(s), r.simd.median, r.simd.best, r.eigen.median);
    step_gflop += s.calls_per_step * gflop(s);
    step_simd += s.calls_per_step * r.simd.median;
    step_simd_best += s.calls_per_step * r.simd.best;
    step_eigen += s.calls_per_step * r.eigen.median;
  }
  print("canonical training step (weighted)", "", "", "", "", step_gflop, step_simd, step_simd_best, step_eigen);
  std::printf("\nprobe before %.1f, after %.1f GFLOP/s (%%probe uses the higher)\n", probe_before, probe_after);
  std::printf("one canonical step: %.1f MFLOP of products, %.2f ms simd128 (best %.2f), %.2f ms eigen\n",
              step_gflop * 1e3, step_simd * 1e3, step_simd_best * 1e3, step_eigen * 1e3);
  return 0;
}
