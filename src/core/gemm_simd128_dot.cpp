// gemm_nt of gemm_simd128.hpp for small M and N: C = A B^T as dot products along K, no packing.
//
// In gemm_nt both A[M,K] and B[N,K] have K contiguous, so C(i, j) is the dot product of row i of A and
// row j of B.  The per-head attention products (scores Q K^T, dP = dY V^T: M = N = T = 21, K = d_k)
// are this case.  The packed kernels of gemm_simd128.cpp would transpose B into panels of 8 columns on
// every call and compute 24 columns for 21; here nothing is packed and a tile covers only real columns.
//
// Register tile R x CC (R * CC <= 8): R rows of A by CC rows of B, one f32x4 accumulator per pair over
// K in steps of 4:  each step loads R + CC vectors and does R * CC mul + add, so the 2 x 4 tile runs
// 8 independent add chains on 6 loads, like the packed 4 x 8 tile.  At the end each group of 4
// accumulators is summed across lanes by a 4 x 4 transpose-add (6 shuffles, 3 adds for 4 results).
// The K % 4 last steps are one more step on vectors filled with zeros.  Column tails of 1..3 use taller
// tiles (8 x 1, 4 x 2, 2 x 3) so that they keep 6-8 chains; row tails halve the tile height down to 1.
// Unrolling the K loop by two was slower (V8 then spills).
#include "core/gemm_simd128.hpp"

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

namespace sqrtdk {
namespace simd128 {
namespace {

// [sum a, sum b, sum c, sum d]: the lane sums of four vectors.
inline v128_t lane_sums(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  const v128_t cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

// A(r, p .. p + 3) for the last k % 4 steps: the missing lanes are zeros (a full load could run past the end).
inline v128_t tail_vector(const float* x, int n) {
  return wasm_f32x4_make(x[0], n > 1 ? x[1] : 0.0f, n > 2 ? x[2] : 0.0f, 0.0f);
}

// C[0:R, 0:CC] (+)= A[0:R, 0:k] B[0:CC, 0:k]^T, a and b at the tile's first rows.
template <int R, int CC>
[[gnu::always_inline]] inline void dot_tile(const float* a, int lda, const float* b, int ldb, int k, float* c,
                                            int ldc, bool add_to_c) {
  static_assert(R * CC <= 8, "at most 8 accumulators: more would spill on x64");
  constexpr int kGroups = (R * CC + 3) / 4;
  v128_t acc[kGroups * 4];
  for (v128_t& x : acc) x = wasm_f32x4_splat(0.0f);
  const auto step = [&](auto load) {  // one step of 4 along K
    v128_t av[R];
    for (int r = 0; r < R; ++r) av[r] = load(a + r * lda);
    for (int j = 0; j < CC; ++j) {
      const v128_t bv = load(b + j * ldb);
      for (int r = 0; r < R; ++r) acc[r * CC + j] = wasm_f32x4_add(acc[r * CC + j], wasm_f32x4_mul(av[r], bv));
    }
  };
  const int k4 = k & ~3;
  for (int p = 0; p < k4; p += 4) {
    step([p](const float* x) { return wasm_v128_load(x + p); });
  }
  if (k4 < k) {
    step([k4, k](const float* x) { return tail_vector(x + k4, k - k4); });
  }
  if constexpr (CC == 4) {  // group r is row r of the tile: one vector store
    for (int r = 0; r < R; ++r) {
      const v128_t sum = lane_sums(acc[4 * r], acc[4 * r + 1], acc[4 * r + 2], acc[4 * r + 3]);
      float* cr = c + r * ldc;
      wasm_v128_store(cr, add_to_c ? wasm_f32x4_add(wasm_v128_load(cr), sum) : sum);
    }
    return;
  }
  alignas(16) float sums[kGroups * 4];
  for (int g = 0; g < kGroups; ++g)
    wasm_v128_store(sums + 4 * g, lane_sums(acc[4 * g], acc[4 * g + 1], acc[4 * g + 2], acc[4 * g + 3]));
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < CC; ++j) {
      float& out = c[r * ldc + j];
      out = add_to_c ? out + sums[r * CC + j] : sums[r * CC + j];
    }
}

// C[0:m, 0:CC] (+)= A[0:m, 0:k] B[0:CC, 0:k]^T: tiles of R rows, then the rest with R / 2, ... down to 1.
template <int R, int CC>
[[gnu::always_inline]] inline void dot_rows(const float* a, int lda, const float* b, int ldb, int m, int k,
                                            float* c, int ldc, bool add_to_c) {
  int i = 0;
  for (; i + R <= m; i += R) dot_tile<R, CC>(a + i * lda, lda, b, ldb, k, c + i * ldc, ldc, add_to_c);
  if constexpr (R > 1) {
    if (i < m) dot_rows<R / 2, CC>(a + i * lda, lda, b, ldb, m - i, k, c + i * ldc, ldc, add_to_c);
  }
}

using ColumnKernel = void (*)(const float*, int, const float*, int, int, int, float*, int, bool);

template <int R, int CC>
void dot_columns(const float* a, int lda, const float* b, int ldb, int m, int k, float* c, int ldc,
                 bool add_to_c) {
  dot_rows<R, CC>(a, lda, b, ldb, m, k, c, ldc, add_to_c);
}

// The kernel for a block of 1..4 columns, by width: tiles of 2 x 4, and for the column tail taller tiles
// (8 x 1, 4 x 2, 2 x 3) that keep 6-8 add chains.  Called through this table on purpose: Binaryen inlines a
// function with a single call site into its caller, and V8 compiled the resulting large gemm_nt (packed and
// dot paths together) about 1.5-2x slower; functions in a table stay separate, small wasm functions.
constexpr ColumnKernel kColumnKernels[5] = {nullptr, dot_columns<8, 1>, dot_columns<4, 2>, dot_columns<2, 3>,
                                            dot_columns<2, 4>};

}  // namespace

void gemm_nt_dot(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
                 bool accumulate) {
  for (int j = 0; j < n; j += 4)
    kColumnKernels[n - j < 4 ? n - j : 4](a, lda, b + j * ldb, ldb, m, k, c + j, ldc, accumulate);
}

}  // namespace simd128
}  // namespace sqrtdk

#endif  // __wasm_simd128__
