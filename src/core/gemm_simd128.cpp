// simd128 kernels of gemm_simd128.hpp.
//
// Blocking scheme (GotoBLAS-like, B packed per block, A read in place or per row tile):
//
//   for each block of kNC columns of C                                  (jc)
//     for each block of kKC steps of K                                    (pc)
//       pack B[pc:pc+kc, jc:jc+nc] into panels of kNR columns: kc rows of kNR contiguous floats each,
//       zero-padded past nc (for gemm_nt this is where B^T is formed, by 4 x 4 shuffle transposes)
//       for each kMR-row tile of C                                          (the A tile stays in L1)
//         for each panel: micro-kernel on a kMR x kNR register tile, kc steps of
//             2 loads of the panel row + kMR load32_splat of A + 2 kMR f32x4 mul + 2 kMR f32x4 add
//         then C (+)= tile, v128 loads/stores on full tiles, a scalar copy on the ragged right edge.
//
// The register tile is 4 x 8: 8 accumulators + 2 B vectors + 1 splat + 1 product = 12 of the 15 xmm
// registers V8 allocates on x64 (a 6 x 8 tile spills); 8 independent add chains hide the add latency.
// A(i, k) enters the micro-kernel as a broadcast load (vbroadcastss from memory, no shuffle), so A
// needs no reordering: for gemm_nn / gemm_nt it is read where it lives (kMR rows, each contiguous in
// k); for gemm_tn a row tile, whose successive k are a whole row of the [K,M] array apart, is first
// copied to a contiguous kc x kMR block (one v128 per k) so that a large M does not map every k to
// the same few L1 sets.  K is unrolled by kUnroll so every load in the loop is a pointer plus a
// constant offset.  Row tails use 3-, 2- and 1-row tiles; a tail of 5 rows is done as 3 + 2, not 4 + 1,
// because a 1-row tile has only 2 add chains and is latency bound (the attention products have
// T = 21 rows).  Larger K or N loop over blocks, so the scratch is a fixed kKC x (kNC + kMR) floats
// (34 KiB) on the stack whatever the shape: no allocation, no state between calls.
#include "core/gemm_simd128.hpp"

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

#include <algorithm>

namespace sqrtdk {
namespace simd128 {
namespace {

constexpr int kMR = 4;      // rows of the register tile
constexpr int kNR = 8;      // columns of the register tile (two f32x4) = width of a packed B panel
constexpr int kKC = 128;    // K steps per packed block
constexpr int kNC = 64;     // columns per packed block (a multiple of kNR)
constexpr int kUnroll = 4;  // K steps per iteration of the micro-kernel loop
static_assert(kNC % kNR == 0, "a packed block holds whole panels");
static_assert(kNR == 8 && kMR == 4, "the micro-kernel and the packing are written for a 4 x 8 tile");

// Storage of the left operand: A[M,K] row-major (nn, nt) or A stored as [K,M] (tn).
enum class AStore { rows, cols };
// Storage of the right operand: B[K,N] row-major (nn, tn) or B stored as [N,K] (nt).
enum class BStore { rows, cols };

// Transposes the 4 x 4 block r0..r3 and stores its rows kNR floats apart: dst[q * kNR + p] = r_p[q].
inline void store_transposed_4x4(v128_t r0, v128_t r1, v128_t r2, v128_t r3, float* dst) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);  // r0[0] r1[0] r0[1] r1[1]
  const v128_t t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);  // r2[0] r3[0] r2[1] r3[1]
  const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);  // r0[2] r1[2] r0[3] r1[3]
  const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);  // r2[2] r3[2] r2[3] r3[3]
  wasm_v128_store(dst, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
  wasm_v128_store(dst + kNR, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
  wasm_v128_store(dst + 2 * kNR, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
  wasm_v128_store(dst + 3 * kNR, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
}

// Packs B(k, j), k < kc, j < nc (b points at B(0, 0) of the block) into panels of kNR columns:
// panel p, row k is bp[(p * kc + k) * kNR + 0 .. kNR), columns at or past nc are zero.
template <BStore BS>
void pack_b(float* bp, const float* b, int ldb, int kc, int nc) {
  for (int j0 = 0; j0 < nc; j0 += kNR, bp += kc * kNR) {
    const int nr = std::min(kNR, nc - j0);
    if constexpr (BS == BStore::rows) {
      const float* src = b + j0;
      if (nr == kNR) {
        for (int k = 0; k < kc; ++k) {
          wasm_v128_store(bp + k * kNR, wasm_v128_load(src + k * ldb));
          wasm_v128_store(bp + k * kNR + 4, wasm_v128_load(src + k * ldb + 4));
        }
      } else {  // a full-width load could run past the end of B
        for (int k = 0; k < kc; ++k)
          for (int j = 0; j < kNR; ++j) bp[k * kNR + j] = j < nr ? src[k * ldb + j] : 0.0f;
      }
    } else {
      // Panel column j is row j0 + j of the stored [N,K] array: 4 x 4 transposes, absent rows as zeros.
      const float* src = b + j0 * ldb;
      const v128_t zero = wasm_f32x4_splat(0.0f);
      const auto row4 = [&](int j, int k) { return j < nr ? wasm_v128_load(src + j * ldb + k) : zero; };
      int k = 0;
      for (; k + 4 <= kc; k += 4)
        for (int h = 0; h < kNR; h += 4)
          store_transposed_4x4(row4(h, k), row4(h + 1, k), row4(h + 2, k), row4(h + 3, k), bp + k * kNR + h);
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

// One K step: acc(r, :) += A(r, k) * panel row k, A(r, k) at a[r][offset].
template <int MR>
inline void tile_step(v128_t (&acc)[MR][2], const float* const (&a)[MR], int offset, const float* panel_row) {
  const v128_t b0 = wasm_v128_load(panel_row);
  const v128_t b1 = wasm_v128_load(panel_row + 4);
  for (int r = 0; r < MR; ++r) {
    const v128_t ar = wasm_v128_load32_splat(a[r] + offset);
    acc[r][0] = wasm_f32x4_add(acc[r][0], wasm_f32x4_mul(ar, b0));
    acc[r][1] = wasm_f32x4_add(acc[r][1], wasm_f32x4_mul(ar, b1));
  }
}

// The micro-kernel: C[0:MR, 0:nr] (+)= A(0:MR, 0:kc) * panel, A(r, k) at a[r * row_stride + k * kStep].
template <int MR, int kStep>
inline void micro_tile(const float* a, int row_stride, const float* panel, int kc, float* c, int ldc, int nr,
                       bool add_to_c) {
  const float* ar[MR];
  for (int r = 0; r < MR; ++r) ar[r] = a + r * row_stride;
  v128_t acc[MR][2];
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = wasm_f32x4_splat(0.0f);
  int k = 0;
  for (; k + kUnroll <= kc; k += kUnroll, panel += kUnroll * kNR) {
    for (int u = 0; u < kUnroll; ++u) tile_step<MR>(acc, ar, u * kStep, panel + u * kNR);
    for (int r = 0; r < MR; ++r) ar[r] += kUnroll * kStep;
  }
  for (; k < kc; ++k, panel += kNR) {
    tile_step<MR>(acc, ar, 0, panel);
    for (int r = 0; r < MR; ++r) ar[r] += kStep;
  }
  store_tile<MR>(acc, c, ldc, nr, add_to_c);
}

// C[0:MR, 0:nc] (+)= A(0:MR, 0:kc) * packed block, a at A(0, 0) of the tile: one micro-kernel per panel.
template <int MR, AStore AS>
void row_tile(const float* a, int lda, const float* bp, int kc, float* c, int ldc, int nc, bool add_to_c) {
  if constexpr (AS == AStore::rows) {
    for (int j0 = 0; j0 < nc; j0 += kNR, bp += kc * kNR)
      micro_tile<MR, 1>(a, lda, bp, kc, c + j0, ldc, std::min(kNR, nc - j0), add_to_c);
  } else {
    alignas(16) float ap[kKC * kMR];  // A(r, k) at ap[k * kMR + r]
    for (int k = 0; k < kc; ++k) {
      if (MR == kMR) {
        wasm_v128_store(ap + k * kMR, wasm_v128_load(a + k * lda));
      } else {
        for (int r = 0; r < MR; ++r) ap[k * kMR + r] = a[k * lda + r];
      }
    }
    for (int j0 = 0; j0 < nc; j0 += kNR, bp += kc * kNR)
      micro_tile<MR, kMR>(ap, 1, bp, kc, c + j0, ldc, std::min(kNR, nc - j0), add_to_c);
  }
}

template <AStore AS, BStore BS>
void gemm(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
          bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate)
      for (int i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
    return;
  }
  // Rows done by full kMR tiles; the rest (0 to 5 rows) by the tail tiles below.
  const int m_rem = m % kMR;
  const int m_full = (m_rem == 1 && m > kMR) ? m - kMR - 1 : m - m_rem;

  alignas(16) float bp[kKC * kNC];
  for (int jc = 0; jc < n; jc += kNC) {
    const int nc = std::min(kNC, n - jc);
    for (int pc = 0; pc < k; pc += kKC) {
      const int kc = std::min(kKC, k - pc);
      pack_b<BS>(bp, BS == BStore::rows ? b + pc * ldb + jc : b + jc * ldb + pc, ldb, kc, nc);
      const bool add_to_c = accumulate || pc > 0;
      // The tile of rows i.. of this block: A(i, pc) and C(i, jc).
      const auto a_at = [&](int i) { return AS == AStore::rows ? a + i * lda + pc : a + pc * lda + i; };
      const auto c_at = [&](int i) { return c + i * ldc + jc; };
      int i = 0;
      for (; i < m_full; i += kMR) row_tile<kMR, AS>(a_at(i), lda, bp, kc, c_at(i), ldc, nc, add_to_c);
      switch (m - i) {
        case 5:
          row_tile<3, AS>(a_at(i), lda, bp, kc, c_at(i), ldc, nc, add_to_c);
          row_tile<2, AS>(a_at(i + 3), lda, bp, kc, c_at(i + 3), ldc, nc, add_to_c);
          break;
        case 3: row_tile<3, AS>(a_at(i), lda, bp, kc, c_at(i), ldc, nc, add_to_c); break;
        case 2: row_tile<2, AS>(a_at(i), lda, bp, kc, c_at(i), ldc, nc, add_to_c); break;
        case 1: row_tile<1, AS>(a_at(i), lda, bp, kc, c_at(i), ldc, nc, add_to_c); break;
        default: break;
      }
    }
  }
}

}  // namespace

void gemm_nn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate) {
  gemm<AStore::rows, BStore::rows>(c, ldc, a, lda, b, ldb, m, k, n, accumulate);
}

void gemm_nt(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate) {
  gemm<AStore::rows, BStore::cols>(c, ldc, a, lda, b, ldb, m, k, n, accumulate);
}

void gemm_tn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate) {
  gemm<AStore::cols, BStore::rows>(c, ldc, a, lda, b, ldb, m, k, n, accumulate);
}

}  // namespace simd128
}  // namespace sqrtdk

#endif  // __wasm_simd128__
