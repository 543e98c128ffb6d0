// The float kernels of gemm_f32x4.hpp, on 4-lane vectors (simd_math.hpp): wasm simd128 in the browser, SSE or
// NEON natively.  Every C(i, j) is summed in the same order on every target (k ascending within a block of kKC,
// blocks added to C in order), with separate multiply and add (-ffp-contract=off), so the results are
// bit-identical natively and in WebAssembly.
//
// Blocking scheme (GotoBLAS-like: B packed per block, A read in place):
//
//   for each block of kNC columns of C                                  (jc)
//     for each block of kKC steps of K                                    (pc)
//       pack B[pc:pc+kc, jc:jc+nc] into panels of kNR columns (kc rows of kNR contiguous floats each,
//       zero-padded past nc); a last remainder of 1..4 columns gets a narrow panel of 4 columns.
//       For gemm_nt this is where B^T is formed, by 4 x 4 shuffle transposes.
//       for each kMR-row tile of C                                          (the A tile stays in L1)
//         for each wide panel: micro-kernel on a kMR x kNR register tile, kc steps of
//             2 loads of the panel row + kMR load32_splat of A + 2 kMR f32x4 mul + 2 kMR f32x4 add
//       if there is a narrow panel, for each kMRNarrow-row tile of C: the same on it (kMRNarrow x 4 tile)
//       then C (+)= tile: v128 loads/stores on full tiles, a scalar copy on the ragged right edge.
//
// Register tiles: 4 x 8 is 8 accumulators + 2 B vectors + 1 splat + 1 product = 12 of the 15 xmm
// registers V8 allocates on x64 (a 6 x 8 tile would need 16 and spill); 8 independent add chains hide
// the add latency.
// A narrow remainder (the vocabulary's N = 12 is 8 + 4) would waste half of an 8-wide tile, so it gets
// an 8 x 4 tile instead: again 8 accumulators, with 1 B vector and 8 splats per step.
// A(i, k) enters the micro-kernel as a broadcast load (vbroadcastss from memory, no shuffle), so A needs
// no packing: gemm_nn / gemm_nt read kMR rows of A[M,K] where they live, gemm_tn reads the kMR
// contiguous values of each k of A stored as [K,M] (with kKC = 64, the tile's 64 rows stay in L1 even
// at lda = 512; packing them measured slower).  Row tails use 3-, 2- and 1-row tiles; a tail of 5 rows
// is done as 3 + 2, not 4 + 1, because a 1-row tile has only 2 add chains and is latency bound (the
// attention products have T = 21 rows).  Larger K or N loop over blocks, so the only scratch is the
// packed block, kKC x kNC floats (16 KiB) on the stack whatever the shape: no allocation, no state.
// Block sizes were chosen by measurement on the training shapes (kKC = 128 was no faster than 64,
// kNC = 32 was slower on the weight-gradient products).
// With few rows (M <= kInPlaceMaxM: the per-head products P V, dS K, P^T dY, dS^T Q, M = T = 21) a packed
// panel would serve only a handful of row tiles, so when B is [K,N] row-major (nn, tn) and N is a multiple
// of kNR the micro-kernels read B where it lives, ldb apart: 10-13 % faster on those products.  Reading in
// place for all M was slower at N = 256 and 512 (B rows far apart).
#include "core/arith/gemm_f32x4.hpp"

#include <algorithm>

#include "core/arith/simd_math.hpp"

namespace sqrtdk {
namespace f32x4 {
namespace {

using simd::F;
using simd::load;
using simd::splat;
using simd::store;
static_assert(simd::kLanes == 4, "the kernels are written for 4-lane vectors");

constexpr int kMR = 4;         // rows of the register tile on wide panels
constexpr int kNR = 8;         // columns of a wide panel (two f32x4)
constexpr int kNRNarrow = 4;   // columns of the narrow panel that holds a remainder of 1..4 columns
constexpr int kMRNarrow = 8;   // rows of the register tile on the narrow panel
constexpr int kKC = 64;        // K steps per packed block
constexpr int kNC = 64;        // columns per packed block (a multiple of kNR)
constexpr int kInPlaceMaxM = 32;  // at most this many rows: B [K,N] is not packed (see gemm)
static_assert(kNC % kNR == 0, "a packed block holds whole panels");
static_assert(kNR == 8 && kNRNarrow == 4, "panels are two or one f32x4 wide");

// Storage of the left operand: A[M,K] row-major (nn, nt) or A stored as [K,M] (tn).
enum class AStore { rows, cols };
// Storage of the right operand: B[K,N] row-major (nn, tn) or B stored as [N,K] (nt).
enum class BStore { rows, cols };

// Columns of a block of nc that go to wide panels; the rest (0..4) go to the narrow panel.
inline int wide_columns(int nc) {
  const int rem = nc % kNR;
  return rem > 0 && rem <= kNRNarrow ? nc - rem : nc;
}

// Transposes the 4 x 4 block r0..r3 and stores its rows `stride` floats apart: dst[q * stride + p] = r_p[q].
inline void store_transposed_4x4(F r0, F r1, F r2, F r3, float* dst, int stride) {
  const F t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);  // r0[0] r1[0] r0[1] r1[1]
  const F t1 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);  // r2[0] r3[0] r2[1] r3[1]
  const F t2 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);  // r0[2] r1[2] r0[3] r1[3]
  const F t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);  // r2[2] r3[2] r2[3] r3[3]
  store(dst, __builtin_shufflevector(t0, t1, 0, 1, 4, 5));
  store(dst + stride, __builtin_shufflevector(t0, t1, 2, 3, 6, 7));
  store(dst + 2 * stride, __builtin_shufflevector(t2, t3, 0, 1, 4, 5));
  store(dst + 3 * stride, __builtin_shufflevector(t2, t3, 2, 3, 6, 7));
}

// Packs one panel: B(k, j), k < kc, j < nr (b points at B(0, 0) of the panel) into bp[k * width + j],
// zeros for nr <= j < width.
template <BStore BS>
void pack_panel(float* bp, int width, const float* b, int ldb, int kc, int nr) {
  if constexpr (BS == BStore::rows) {
    if (nr == width) {
      for (int k = 0; k < kc; ++k)
        for (int j = 0; j < width; j += 4) store(bp + k * width + j, load(b + k * ldb + j));
    } else {  // a full-width load could run past the end of B
      for (int k = 0; k < kc; ++k)
        for (int j = 0; j < width; ++j) bp[k * width + j] = j < nr ? b[k * ldb + j] : 0.0f;
    }
  } else {
    // Panel column j is row j of the stored [N,K] array: 4 x 4 transposes, absent rows as zeros.
    const F zero = splat(0.0f);
    const auto row4 = [&](int j, int k) { return j < nr ? load(b + j * ldb + k) : zero; };
    int k = 0;
    for (; k + 4 <= kc; k += 4)
      for (int h = 0; h < width; h += 4)
        store_transposed_4x4(row4(h, k), row4(h + 1, k), row4(h + 2, k), row4(h + 3, k), bp + k * width + h,
                             width);
    for (; k < kc; ++k)
      for (int j = 0; j < width; ++j) bp[k * width + j] = j < nr ? b[j * ldb + k] : 0.0f;
  }
}

// Packs the block B(k, j), k < kc, j < nc (b points at B(0, 0) of the block): wide panels of kNR
// columns, kc * kNR floats each, then the narrow panel if wide_columns(nc) < nc.
template <BStore BS>
void pack_b(float* bp, const float* b, int ldb, int kc, int nc) {
  const int nw = wide_columns(nc);
  const auto at = [&](int j) { return BS == BStore::rows ? b + j : b + j * ldb; };  // B(0, j)
  for (int j0 = 0; j0 < nw; j0 += kNR, bp += kc * kNR)
    pack_panel<BS>(bp, kNR, at(j0), ldb, kc, std::min(kNR, nw - j0));
  if (nw < nc) pack_panel<BS>(bp, kNRNarrow, at(nw), ldb, kc, nc - nw);
}

// C[0:MR, 0:nr] (+)= the register tile of NV f32x4 per row (nr <= 4 NV columns are valid).
template <int MR, int NV>
[[gnu::always_inline]] inline void store_tile(const F (&acc)[MR][NV], float* c, int ldc, int nr,
                                              bool add_to_c) {
  if (nr == 4 * NV) {
    for (int r = 0; r < MR; ++r) {
      for (int v = 0; v < NV; ++v) {
        float* cv = c + r * ldc + 4 * v;
        store(cv, add_to_c ? load(cv) + acc[r][v] : acc[r][v]);
      }
    }
    return;
  }
  float tile[MR][4 * NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) store(tile[r] + 4 * v, acc[r][v]);
  for (int r = 0; r < MR; ++r) {
    float* cr = c + r * ldc;
    for (int j = 0; j < nr; ++j) cr[j] = add_to_c ? cr[j] + tile[r][j] : tile[r][j];
  }
}

// The micro-kernel: C[0:MR, 0:nr] (+)= A(0:MR, 0:kc) * panel (NV f32x4 wide, its rows b_stride apart), A(r, k)
// at a[r * row_stride + k * k_stride].  Forced inline so that every caller gets a copy specialised to its
// strides: with one of them 1, the MR broadcasts of a step are constant offsets from one pointer.
template <int MR, int NV>
[[gnu::always_inline]] inline void micro_tile(const float* a, int row_stride, int k_stride, const float* panel,
                                              int b_stride, int kc, float* c, int ldc, int nr, bool add_to_c) {
  F acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = splat(0.0f);
  for (int p = 0; p < kc; ++p, panel += b_stride, a += k_stride) {
    F b[NV];
    for (int v = 0; v < NV; ++v) b[v] = load(panel + 4 * v);
    for (int r = 0; r < MR; ++r) {
      const F ar = splat(*(a + r * row_stride));
      for (int v = 0; v < NV; ++v) acc[r][v] = acc[r][v] + ar * b[v];
    }
  }
  store_tile<MR, NV>(acc, c, ldc, nr, add_to_c);
}

// Panels of B: packed (row_stride = panel width, step = kc * width) or B [K,N] itself (row_stride = ldb,
// step = width: see gemm).
struct Panels {
  const float* first;
  int row_stride;  // floats between the panel's rows k and k + 1
  int step;        // floats between a panel and the next
};

// C[0:MR, 0:nc] (+)= A(0:MR, 0:kc) * the panels of 4 NV columns, a at A(0, 0) of the tile in the caller's
// storage of A: one micro-kernel per panel, the A tile reused from L1.
template <int MR, int NV, AStore AS>
void row_tile(const float* a, int lda, const Panels& panels, int kc, float* c, int ldc, int nc, bool add_to_c) {
  constexpr int width = 4 * NV;
  const int row_stride = AS == AStore::rows ? lda : 1;
  const int k_stride = AS == AStore::rows ? 1 : lda;
  const float* bp = panels.first;
  for (int j0 = 0; j0 < nc; j0 += width, bp += panels.step)
    micro_tile<MR, NV>(a, row_stride, k_stride, bp, panels.row_stride, kc, c + j0, ldc, std::min(width, nc - j0),
                       add_to_c);
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
  // Rows done by full kMR tiles on the wide panels; the rest (0 to 5 rows) by the tail tiles below.
  const int m_rem = m % kMR;
  const int m_wide = (m_rem == 1 && m > kMR) ? m - kMR - 1 : m - m_rem;

  alignas(16) float bp[kKC * kNC];
  for (int jc = 0; jc < n; jc += kNC) {
    const int nc = std::min(kNC, n - jc);
    const int nw = wide_columns(nc);
    for (int pc = 0; pc < k; pc += kKC) {
      const int kc = std::min(kKC, k - pc);
      // With few row tiles to reuse a packed panel and only whole 8-column panels, B [K,N] is read in place.
      const bool in_place = BS == BStore::rows && m <= kInPlaceMaxM && n % kNR == 0;
      const Panels wide = in_place ? Panels{b + pc * ldb + jc, ldb, kNR} : Panels{bp, kNR, kc * kNR};
      if (!in_place) pack_b<BS>(bp, BS == BStore::rows ? b + pc * ldb + jc : b + jc * ldb + pc, ldb, kc, nc);
      const bool add_to_c = accumulate || pc > 0;
      // The tile of rows i.. of this block: A(i, pc) and C(i, jc).
      const auto a_at = [&](int i) { return AS == AStore::rows ? a + i * lda + pc : a + pc * lda + i; };
      const auto c_at = [&](int i) { return c + i * ldc + jc; };

      if (nw > 0) {
        int i = 0;
        for (; i < m_wide; i += kMR) row_tile<kMR, 2, AS>(a_at(i), lda, wide, kc, c_at(i), ldc, nw, add_to_c);
        switch (m - i) {
          case 5:
            row_tile<3, 2, AS>(a_at(i), lda, wide, kc, c_at(i), ldc, nw, add_to_c);
            row_tile<2, 2, AS>(a_at(i + 3), lda, wide, kc, c_at(i + 3), ldc, nw, add_to_c);
            break;
          case 3: row_tile<3, 2, AS>(a_at(i), lda, wide, kc, c_at(i), ldc, nw, add_to_c); break;
          case 2: row_tile<2, 2, AS>(a_at(i), lda, wide, kc, c_at(i), ldc, nw, add_to_c); break;
          case 1: row_tile<1, 2, AS>(a_at(i), lda, wide, kc, c_at(i), ldc, nw, add_to_c); break;
          default: break;
        }
      }
      if (nw < nc) {
        const Panels narrow{bp + (nw / kNR) * kc * kNR, kNRNarrow, kc * kNRNarrow};
        const int nr = nc - nw;
        const auto c_narrow = [&](int i) { return c_at(i) + nw; };
        int i = 0;
        for (; i + kMRNarrow <= m; i += kMRNarrow)
          row_tile<kMRNarrow, 1, AS>(a_at(i), lda, narrow, kc, c_narrow(i), ldc, nr, add_to_c);
        if (m - i >= 4) {
          row_tile<4, 1, AS>(a_at(i), lda, narrow, kc, c_narrow(i), ldc, nr, add_to_c);
          i += 4;
        }
        switch (m - i) {
          case 3: row_tile<3, 1, AS>(a_at(i), lda, narrow, kc, c_narrow(i), ldc, nr, add_to_c); break;
          case 2: row_tile<2, 1, AS>(a_at(i), lda, narrow, kc, c_narrow(i), ldc, nr, add_to_c); break;
          case 1: row_tile<1, 1, AS>(a_at(i), lda, narrow, kc, c_narrow(i), ldc, nr, add_to_c); break;
          default: break;
        }
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

}  // namespace f32x4
}  // namespace sqrtdk
