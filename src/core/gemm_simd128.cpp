// simd128 kernels of gemm_simd128.hpp.
//
// Blocking scheme (GotoBLAS-like: B packed, A read in place):
//
//   for each block of kNC columns of C                       (jc)
//     for each block of kKC steps of K                         (pc)
//       pack B[pc:pc+kc, jc:jc+nc] into column panels of kNR floats, each panel kc rows of kNR contiguous
//       floats, zero-padded past nc (for gemm_nt this is where B^T is formed, by 4x4 shuffle transposes)
//       for each kMR-row tile of C                               (the A tile, kMR x kc, stays in L1)
//         for each panel: micro-kernel on a kMR x kNR register tile, kc steps of
//             2 loads of the packed B row + kMR load32_splat of A + 2 kMR f32x4 mul + 2 kMR f32x4 add
//         then C (+)= tile, with v128 loads/stores on full tiles and a scalar copy on the ragged edge.
//
// The register tile is 4 x 8: 8 accumulators + 2 B vectors + 1 splat + 1 product = 12 of the 15 xmm
// registers V8 allocates on x64 (a 6 x 8 tile spills); 8 independent add chains hide the add latency.
// A is never packed: A(i, k) is a broadcast load from wherever it lives, so gemm_nn / gemm_nt (A rows
// contiguous in k) and gemm_tn (A^T: the kMR values of one k contiguous) run the same kernel with a
// different address formula.  Row tails are handled by 3-, 2- and 1-row tiles (a tail of 5 rows is
// done as 3 + 2 rather than 4 + 1, because a 1-row tile has only 2 add chains and is latency bound:
// the attention products have T = 21 rows).  kc > kKC or nc > kNC loop over blocks, so the packed
// block is a fixed kKC x kNC floats on the stack whatever the shape.
#include "core/gemm_simd128.hpp"

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

#include <algorithm>

namespace sqrtdk {
namespace simd128 {
namespace {

constexpr int kMR = 4;     // rows of the register tile
constexpr int kNR = 8;     // columns of the register tile (two f32x4) = width of a packed panel
constexpr int kKC = 128;   // K steps per packed block
constexpr int kNC = 64;    // columns per packed block (a multiple of kNR)
static_assert(kNC % kNR == 0, "a packed block holds whole panels");
static_assert(kNR == 8, "the micro-kernel holds a row of the tile in two f32x4");

// Where element (i, k) of the left operand lives: A[M,K] row-major (nn, nt) or A stored as [K,M] (tn).
enum class AOrder { ik, ki };
// Where element (k, j) of the right operand lives: B[K,N] row-major (nn, tn) or B stored as [N,K] (nt).
enum class BOrder { kj, jk };

// Packs B(k, j), k < kc, j < nc (b points at B(0, 0) of the block) into panels of kNR columns:
// panel p, row k is bp[(p * kc + k) * kNR + 0 .. kNR), columns at or past nc are zero.
template <BOrder BO>
void pack_b(float* bp, const float* b, int ldb, int kc, int nc) {
  for (int j0 = 0; j0 < nc; j0 += kNR, bp += kc * kNR) {
    const int nr = std::min(kNR, nc - j0);
    if (BO == BOrder::kj) {
      const float* src = b + j0;
      if (nr == kNR) {
        for (int k = 0; k < kc; ++k) {
          wasm_v128_store(bp + k * kNR, wasm_v128_load(src + k * ldb));
          wasm_v128_store(bp + k * kNR + 4, wasm_v128_load(src + k * ldb + 4));
        }
      } else {
        for (int k = 0; k < kc; ++k)
          for (int j = 0; j < kNR; ++j) bp[k * kNR + j] = j < nr ? src[k * ldb + j] : 0.0f;
      }
    } else {
      const float* src = b + j0 * ldb;  // row j0 of the stored [N,K] array, from column 0 of the block
      int k = 0;
      if (nr == kNR) {
        // 4 x 4 transposes: rows j0+4h .. j0+4h+3 of the stored array, columns k .. k+3.
        for (; k + 4 <= kc; k += 4) {
          for (int h = 0; h < 2; ++h) {
            const float* s = src + 4 * h * ldb + k;
            const v128_t r0 = wasm_v128_load(s);
            const v128_t r1 = wasm_v128_load(s + ldb);
            const v128_t r2 = wasm_v128_load(s + 2 * ldb);
            const v128_t r3 = wasm_v128_load(s + 3 * ldb);
            const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);  // r0[0] r1[0] r0[1] r1[1]
            const v128_t t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);  // r2[0] r3[0] r2[1] r3[1]
            const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);  // r0[2] r1[2] r0[3] r1[3]
            const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);  // r2[2] r3[2] r2[3] r3[3]
            float* d = bp + k * kNR + 4 * h;
            wasm_v128_store(d, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
            wasm_v128_store(d + kNR, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
            wasm_v128_store(d + 2 * kNR, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
            wasm_v128_store(d + 3 * kNR, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
          }
        }
      }
      for (; k < kc; ++k)
        for (int j = 0; j < kNR; ++j) bp[k * kNR + j] = j < nr ? src[j * ldb + k] : 0.0f;
    }
  }
}

// C[0:MR, 0:nr] (+)= the register tile (nr <= kNR columns are valid).
template <int MR>
inline void store_tile(const v128_t (&acc)[MR][2], float* c, int ldc, int nr, bool add_to_c) {
  if (nr == kNR) {
    for (int r = 0; r < MR; ++r) {
      float* cr = c + r * ldc;
      v128_t lo = acc[r][0];
      v128_t hi = acc[r][1];
      if (add_to_c) {
        lo = wasm_f32x4_add(wasm_v128_load(cr), lo);
        hi = wasm_f32x4_add(wasm_v128_load(cr + 4), hi);
      }
      wasm_v128_store(cr, lo);
      wasm_v128_store(cr + 4, hi);
    }
    return;
  }
  float tile[MR][kNR];
  for (int r = 0; r < MR; ++r) {
    wasm_v128_store(tile[r], acc[r][0]);
    wasm_v128_store(tile[r] + 4, acc[r][1]);
  }
  for (int r = 0; r < MR; ++r) {
    float* cr = c + r * ldc;
    for (int j = 0; j < nr; ++j) cr[j] = add_to_c ? cr[j] + tile[r][j] : tile[r][j];
  }
}

// The micro-kernel: C[0:MR, 0:nr] (+)= A(0:MR, 0:kc) * panel, a points at A(0, 0) of the tile.
template <int MR, AOrder AO>
inline void micro_tile(const float* a, int lda, const float* panel, int kc, float* c, int ldc, int nr,
                       bool add_to_c) {
  v128_t acc[MR][2];
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = wasm_f32x4_splat(0.0f);
  for (int k = 0; k < kc; ++k, panel += kNR) {
    const v128_t b0 = wasm_v128_load(panel);
    const v128_t b1 = wasm_v128_load(panel + 4);
    for (int r = 0; r < MR; ++r) {
      const v128_t ar = wasm_v128_load32_splat(AO == AOrder::ik ? a + r * lda + k : a + k * lda + r);
      acc[r][0] = wasm_f32x4_add(acc[r][0], wasm_f32x4_mul(ar, b0));
      acc[r][1] = wasm_f32x4_add(acc[r][1], wasm_f32x4_mul(ar, b1));
    }
  }
  store_tile<MR>(acc, c, ldc, nr, add_to_c);
}

// C[0:MR, 0:nc] (+)= A(0:MR, 0:kc) * packed block: one micro-kernel per panel, the A tile reused.
template <int MR, AOrder AO>
void row_tile(const float* a, int lda, const float* bp, int kc, float* c, int ldc, int nc, bool add_to_c) {
  for (int j0 = 0; j0 < nc; j0 += kNR, bp += kc * kNR)
    micro_tile<MR, AO>(a, lda, bp, kc, c + j0, ldc, std::min(kNR, nc - j0), add_to_c);
}

template <AOrder AO, BOrder BO>
void gemm(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
          bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate)
      for (int i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
    return;
  }
  // Rows done by full kMR tiles; the rest (1 to 5 rows) by the tail tiles below.
  const int m_rem = m % kMR;
  const int m_full = (m_rem == 1 && m > kMR) ? m - kMR - 1 : m - m_rem;

  alignas(16) float bp[kKC * kNC];
  for (int jc = 0; jc < n; jc += kNC) {
    const int nc = std::min(kNC, n - jc);
    for (int pc = 0; pc < k; pc += kKC) {
      const int kc = std::min(kKC, k - pc);
      pack_b<BO>(bp, BO == BOrder::kj ? b + pc * ldb + jc : b + jc * ldb + pc, ldb, kc, nc);
      const bool add_to_c = accumulate || pc > 0;
      const float* a_pc = AO == AOrder::ik ? a + pc : a + pc * lda;  // A(0, pc)
      const auto a_row = [&](int i) { return AO == AOrder::ik ? a_pc + i * lda : a_pc + i; };
      float* c_jc = c + jc;

      int i = 0;
      for (; i < m_full; i += kMR) row_tile<kMR, AO>(a_row(i), lda, bp, kc, c_jc + i * ldc, ldc, nc, add_to_c);
      switch (m - i) {
        case 5:
          row_tile<3, AO>(a_row(i), lda, bp, kc, c_jc + i * ldc, ldc, nc, add_to_c);
          row_tile<2, AO>(a_row(i + 3), lda, bp, kc, c_jc + (i + 3) * ldc, ldc, nc, add_to_c);
          break;
        case 3: row_tile<3, AO>(a_row(i), lda, bp, kc, c_jc + i * ldc, ldc, nc, add_to_c); break;
        case 2: row_tile<2, AO>(a_row(i), lda, bp, kc, c_jc + i * ldc, ldc, nc, add_to_c); break;
        case 1: row_tile<1, AO>(a_row(i), lda, bp, kc, c_jc + i * ldc, ldc, nc, add_to_c); break;
        default: break;
      }
    }
  }
}

}  // namespace

void gemm_nn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate) {
  gemm<AOrder::ik, BOrder::kj>(c, ldc, a, lda, b, ldb, m, k, n, accumulate);
}

void gemm_nt(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate) {
  gemm<AOrder::ik, BOrder::jk>(c, ldc, a, lda, b, ldb, m, k, n, accumulate);
}

void gemm_tn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate) {
  gemm<AOrder::ki, BOrder::kj>(c, ldc, a, lda, b, ldb, m, k, n, accumulate);
}

}  // namespace simd128
}  // namespace sqrtdk

#endif  // __wasm_simd128__
