// Causal multi-head attention (layers.hpp): per (batch, head) the products go to gemm.hpp, the softmax and its
// statistics row by row here.  Float rows run on simd_math.hpp's vectors in every build;
// the scalar rows run for double only: the gradient checks' type and the kernels' reference.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/arith/gemm.hpp"
#include "core/arith/det_math.hpp"
#include "core/nn/layers.hpp"
#include "core/arith/simd_math.hpp"

namespace sqrtdk {

namespace {

template <typename T>
constexpr bool kVector = std::is_same_v<T, float>;

// What one softmax row adds to the layer's statistics.
template <typename T>
struct RowStats {
  T max_logit, top, entropy, spread, jacobian;
};

// |J|_F^2 = sum_jk (p_j d_jk - p_j p_k)^2 = sum p^2 - 2 sum p^3 + (sum p^2)^2
template <typename T>
T jacobian_norm(T p2, T p3) {
  return std::sqrt(std::max(T(0), p2 - 2 * p3 + p2 * p2));
}

// Row i: s (T) holds q.k, scaled in place over columns 0..i; p (T) = softmax over them, 0 after column i.
template <typename T>
RowStats<T> softmax_row(T* p, T* s, T scale, int i, int TT) {
  T row_max = -std::numeric_limits<T>::infinity(), row_sum = 0;
  for (int j = 0; j <= i; ++j) {
    s[j] *= scale;
    row_max = std::max(row_max, s[j]);
    row_sum += s[j];
  }
  T sum = 0;
  for (int j = 0; j <= i; ++j) {
    p[j] = std::exp(s[j] - row_max);
    sum += p[j];
  }
  const T inv = T(1) / sum;
  T top = 0, entropy = 0, p2 = 0, p3 = 0;
  for (int j = 0; j <= i; ++j) {
    p[j] *= inv;
    top = std::max(top, p[j]);
    if (p[j] > T(0)) entropy -= p[j] * std::log(p[j]);
    p2 += p[j] * p[j];
    p3 += p[j] * p[j] * p[j];
  }
  for (int j = i + 1; j < TT; ++j) p[j] = 0;
  return {row_max, top, entropy, row_max - row_sum / static_cast<T>(i + 1), jacobian_norm(p2, p3)};
}

// The same row on vectors.  With e_j = exp(s_j - max) and Z = sum e_j: p_j = e_j / Z, the top weight is 1 / Z
// (exp(0) = 1 exactly), and the entropy needs one log per row:
//   -sum p_j ln p_j = -sum p_j ((s_j - max) - ln Z) = ln Z - (1/Z) sum e_j (s_j - max)
// (two non-negative terms, no cancellation).
RowStats<float> softmax_row_vec(float* p, float* s, float scale, int i, int TT) {
  using namespace simd;
  const int n = i + 1;
  F mx = splat(-INFINITY), sum = splat(0);
  for_chunks(n, [&](int j, int k) {
    const F v = load_n(s + j, k, 0) * scale;  // missing lanes: 0, left out of the max
    store_n(s + j, v, k);
    mx = max(mx, k == kLanes ? v : (lanes_below(k) ? v : splat(-INFINITY)));
    sum += v;
  });
  const float m = hmax(mx);
  F e1 = splat(0), ed = splat(0);
  for_chunks(n, [&](int j, int k) {
    const F d = load_n(s + j, k, m) - m;  // missing lanes: 0, and their e is dropped
    const F e = k == kLanes ? exp(d) : (lanes_below(k) ? exp(d) : splat(0));
    e1 += e;
    ed += e * d;
    store_n(p + j, e, k);
  });
  const float z = hsum(e1), inv = 1.0f / z;
  F p2v = splat(0), p3v = splat(0);  // from the rounded weights, as the scalar row (the Jacobian's sum cancels)
  for_chunks(n, [&](int j, int k) {
    const F w = load_n(p + j, k, 0) * inv;
    p2v += w * w;
    p3v += w * w * w;
    store_n(p + j, w, k);
  });
  for (int j = n; j < TT; ++j) p[j] = 0;
  const float p2 = hsum(p2v), p3 = hsum(p3v);
  return {m, inv, static_cast<float>(det::log(z)) - hsum(ed) * inv, m - hsum(sum) / static_cast<float>(n), jacobian_norm(p2, p3)};
}

// Row i of dP (T) becomes scale * dS with dS = P .* (dP - rowsum(P .* dP)) (0 after column i); returns
// sum_j dS_ij qk_ij when qk (T) is not null.
template <typename T>
T softmax_backward_row(T* d, const T* p, const T* qk, T scale, int i, int TT) {
  T dot = 0;
  for (int j = 0; j <= i; ++j) dot += p[j] * d[j];
  T acc = 0;
  for (int j = 0; j <= i; ++j) {
    d[j] = p[j] * (d[j] - dot);
    if (qk) acc += d[j] * qk[j];
    d[j] *= scale;
  }
  for (int j = i + 1; j < TT; ++j) d[j] = 0;
  return acc;
}

float softmax_backward_row_vec(float* d, const float* p, const float* qk, float scale, int i, int TT) {
  using namespace simd;
  const int n = i + 1;
  float s = 0;  // in the scalar row's order: dS's rounding is what the key bias's zero gradient is made of
  for (int j = 0; j < n; ++j) s += p[j] * d[j];
  F acc = splat(0);
  for_chunks(n, [&](int j, int k) {
    const F ds = load_n(p + j, k, 0) * (load_n(d + j, k, 0) - s);
    if (qk) acc += ds * load_n(qk + j, k, 0);
    store_n(d + j, ds * scale, k);
  });
  for (int j = n; j < TT; ++j) d[j] = 0;
  return hsum(acc);
}

}  // namespace

template <typename T>
void attention_forward(T* y, T* P, const T* q, const T* k, const T* v, const T* scale, int B, int TT, int H, int D,
                       T* scratch, const AttentionStats<T>& stats, int first) {
  const int C = H * D, S = TT - first;
  T max_logit = -std::numeric_limits<T>::infinity();
  T top_sum = 0;
  double spread_sum = 0, jacobian_sum = 0;  // double: summed over B*H*T rows
  if (stats.entropy_per_head) std::fill(stats.entropy_per_head, stats.entropy_per_head + H, T(0));
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const long base = static_cast<long>(b) * TT * C + h * D;
      T* Pbh = P + (static_cast<long>(b) * H + h) * TT * TT;
      // S[T,T] = Q_bh[T,D] K_bh[T,D]^T
      gemm_nt(scratch, TT, q + base, C, k + base, C, TT, D, TT, false);
      T entropy = 0;
      for (int i = 0; i < TT; ++i) {
        T* p = Pbh + static_cast<long>(i) * TT;
        T* s = scratch + static_cast<long>(i) * TT;
        RowStats<T> r;
        if constexpr (kVector<T>) r = softmax_row_vec(p, s, scale[h], i, TT);
        else r = softmax_row(p, s, scale[h], i, TT);
        max_logit = std::max(max_logit, r.max_logit);
        top_sum += r.top;
        entropy += r.entropy;
        spread_sum += r.spread;
        jacobian_sum += r.jacobian;
      }
      if (stats.entropy_per_head) stats.entropy_per_head[h] += entropy / (static_cast<T>(B) * TT);
      // Y_bh[S,D] = P[first:T, T] V_bh[T,D]: the output rows from first on
      gemm_nn(y + static_cast<long>(b) * S * C + h * D, C, Pbh + static_cast<long>(first) * TT, TT, v + base, C, S,
              TT, D, false);
    }
  if (stats.max_logit) *stats.max_logit = max_logit;
  if (stats.top_weight) *stats.top_weight = top_sum / (static_cast<T>(B) * H * TT);
  const double rows = static_cast<double>(B) * H * TT;
  if (stats.logit_spread) *stats.logit_spread = static_cast<T>(spread_sum / rows);
  if (stats.jacobian_norm) *stats.jacobian_norm = static_cast<T>(jacobian_sum / rows);
}

template <typename T>
void attention_backward(T* dq, T* dk, T* dv, T* dscale, const T* dy, const T* P, const T* q, const T* k, const T* v,
                        const T* scale, int B, int TT, int H, int D, T* scratch_a, T* scratch_b, int first) {
  // Rows before `first` have dY = 0, so dP, dS and dQ are 0 there and add nothing to dK, dV or dscale: only the
  // S rows from first on are computed (dS, dP: (S, T) in the scratch).
  const int C = H * D, S = TT - first;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const long base = static_cast<long>(b) * TT * C + h * D;       // of (N, C) buffers
      const long out = static_cast<long>(b) * S * C + h * D;         // of dy, dq: (B * S, C)
      const T* qs = q + base + static_cast<long>(first) * C;         // Q_bh's rows from first on
      const T* Ps = P + ((static_cast<long>(b) * H + h) * TT + first) * TT;  // P's rows from first on
      T* dP = scratch_a;
      // inverts Y_bh = P V_bh:  dP[S,T] = dY_bh[S,D] V_bh[T,D]^T
      gemm_nt(dP, TT, dy + out, C, v + base, C, S, D, TT, false);
      // and dV_bh[T,D] = P[S,T]^T dY_bh[S,D]
      gemm_tn(dv + base, C, Ps, TT, dy + out, C, TT, S, D, false);
      // QK^T again for dscale_h += sum(dS .* Q K^T)
      if (dscale) gemm_nt(scratch_b, TT, qs, C, k + base, C, S, D, TT, false);
      // inverts P = softmax(scale_h S):  dP becomes scale * dS, dS = P .* (dP - rowsum(P .* dP)), row by row
      // (zero above the diagonal since P is)
      T acc = 0;
      for (int i = first; i < TT; ++i) {
        const long row = static_cast<long>(i - first) * TT;
        const T* qk = dscale ? scratch_b + row : nullptr;
        if constexpr (kVector<T>) acc += softmax_backward_row_vec(dP + row, Ps + row, qk, scale[h], i, TT);
        else acc += softmax_backward_row(dP + row, Ps + row, qk, scale[h], i, TT);
      }
      if (dscale) dscale[h] += acc;
      // inverts S = Q_bh K_bh^T:  dQ_bh[S,D] = dS[S,T] K_bh[T,D];  dK_bh[T,D] = dS^T Q_bh[S,D]
      gemm_nn(dq + out, C, dP, TT, k + base, C, S, TT, D, false);
      gemm_tn(dk + base, C, dP, TT, qs, C, TT, S, D, false);
    }
}

#define SQRTDK_INSTANTIATE(T)                                                                                      \
  template void attention_forward<T>(T*, T*, const T*, const T*, const T*, const T*, int, int, int, int, T*,       \
                                     const AttentionStats<T>&, int);                                               \
  template void attention_backward<T>(T*, T*, T*, T*, const T*, const T*, const T*, const T*, const T*, const T*, \
                                      int, int, int, int, T*, T*, int);
SQRTDK_INSTANTIATE(float)
SQRTDK_INSTANTIATE(double)
#undef SQRTDK_INSTANTIATE

}  // namespace sqrtdk
