#include "core/nn/layers.hpp"
#include "core/arith/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/arith/gemm.hpp"
#include "core/nn/layers_simd.hpp"
#include "core/arith/simd_math.hpp"

namespace sqrtdk {

namespace {
// Float runs the vector kernels of layers_simd.hpp in every build (the one arithmetic: the same bits on every CPU
// and in wasm).  The scalar loops below run for double only: the gradient checks' type, and the reference
// tests/cpp/test_kernels.cpp compares the kernels to.
template <typename T>
constexpr bool kVector = std::is_same_v<T, float>;
}  // namespace

// out = (x - mean) * rstd * g + b per row, rstd = 1 / sqrt(var + eps) (PyTorch's nn.LayerNorm)
template <typename T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* x, const T* g, const T* b, int N, int C) {
  if constexpr (kVector<T>) return simd::layernorm_forward(out, mean, rstd, x, g, b, N, C);
  for (int n = 0; n < N; ++n) {
    const T* xr = x + static_cast<long>(n) * C;
    T* yr = out + static_cast<long>(n) * C;
    T m = 0;
    for (int c = 0; c < C; ++c) m += xr[c];
    m /= C;
    T var = 0;
    for (int c = 0; c < C; ++c) var += (xr[c] - m) * (xr[c] - m);
    var /= C;
    const T r = T(1) / std::sqrt(var + T(kLayerNormEps));
    for (int c = 0; c < C; ++c) yr[c] = (xr[c] - m) * r * g[c] + b[c];
    mean[n] = m;
    rstd[n] = r;
  }
}

// Inverts layernorm_forward's out = xhat * g + b, xhat = (x - mean) * rstd.  With dxhat = dout .* g:
//   dx += rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat .* xhat)),  dg += dout .* xhat,  db += dout
template <typename T>
void layernorm_backward(T* dx, T* dg, T* db, const T* dout, const T* x, const T* mean, const T* rstd, const T* g,
                        int N, int C) {
  if constexpr (kVector<T>) return simd::layernorm_backward(dx, dg, db, dout, x, mean, rstd, g, N, C);
  for (int n = 0; n < N; ++n) {
    const T* xr = x + static_cast<long>(n) * C;
    const T* dr = dout + static_cast<long>(n) * C;
    T* dxr = dx + static_cast<long>(n) * C;
    const T m = mean[n], r = rstd[n];
    T sum_dxhat = 0, sum_dxhat_xhat = 0;
    for (int c = 0; c < C; ++c) {
      const T xhat = (xr[c] - m) * r;
      const T dxhat = dr[c] * g[c];
      sum_dxhat += dxhat;
      sum_dxhat_xhat += dxhat * xhat;
      dg[c] += dr[c] * xhat;
      db[c] += dr[c];
    }
    sum_dxhat /= C;
    sum_dxhat_xhat /= C;
    for (int c = 0; c < C; ++c) {
      const T xhat = (xr[c] - m) * r;
      dxr[c] += r * (dr[c] * g[c] - sum_dxhat - xhat * sum_dxhat_xhat);
    }
  }
}

// out = x W + b (+ residual): residual + b first, then the product added (so residual may be out itself)
template <typename T>
void linear_forward(T* out, const T* x, const T* w, const T* b, int N, int I, int O, const T* residual) {
  if constexpr (kVector<T>) {
    simd::bias_rows(out, b, residual, N, O);
  } else {
    for (int n = 0; n < N; ++n) {
      T* o = out + static_cast<long>(n) * O;
      if (residual)
        for (int i = 0; i < O; ++i) o[i] = residual[static_cast<long>(n) * O + i] + b[i];
      else
        std::copy(b, b + O, o);
    }
  }
  gemm_nn(out, O, x, I, w, O, N, I, O, /*accumulate=*/true);
}

// Inverts linear_forward's out = x W + b (+ residual: its gradient is dout itself, passed on by the caller).
template <typename T>
void linear_backward(T* dx, T* dw, T* db, const T* dout, const T* x, const T* w, int N, int I, int O,
                     bool accumulate_dx) {
  // dx[N,I] = dout[N,O] W[I,O]^T
  if (dx) gemm_nt(dx, I, dout, O, w, O, N, O, I, accumulate_dx);
  // dW[I,O] += x[N,I]^T dout[N,O]
  gemm_tn(dw, O, x, I, dout, O, I, N, O, /*accumulate=*/true);
  if constexpr (kVector<T>) return simd::add_colsum(db, dout, N, O);
  for (int n = 0; n < N; ++n) {
    const T* dr = dout + static_cast<long>(n) * O;
    for (int o = 0; o < O; ++o) db[o] += dr[o];
  }
}

namespace {
constexpr double kSqrt2OverPi = 0.79788456080286535588;
constexpr double kGeluCubic = 0.044715;
}  // namespace

// tanh for the GELU: float uses Eigen's rational approximation of tanhf (Eigen's ptanh_float, |error| < 4e-7),
// written as plain code so that the wasm build vectorises it too; double the exact one for gradient checks.
namespace {
inline float gelu_tanh(float a) {
  const float x = std::min(std::max(a, -7.90531110763549805f), 7.90531110763549805f);
  const float x2 = x * x;
  float p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;  // odd numerator, Horner in x^2
  p = x2 * p + -8.60467152213735e-11f;
  p = x2 * p + 5.12229709037114e-08f;
  p = x2 * p + 1.48572235717979e-05f;
  p = x2 * p + 6.37261928875436e-04f;
  p = x2 * p + 4.89352455891786e-03f;
  p = x * p;
  float q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;  // even denominator
  q = x2 * q + 2.26843463243900e-03f;
  q = x2 * q + 4.89352518554385e-03f;
  return std::fabs(a) < 0.0004f ? a : p / q;
}
inline double gelu_tanh(double a) { return std::tanh(a); }
}  // namespace

// gelu(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3)
template <typename T>
void gelu_forward(T* out, const T* x, int n) {
  for (int i = 0; i < n; ++i) {
    const T xi = x[i];
    const T th = gelu_tanh(T(kSqrt2OverPi) * (xi + T(kGeluCubic) * xi * xi * xi));
    out[i] = T(0.5) * xi * (T(1) + th);
  }
}

// Inverts gelu_forward's out = 0.5 x (1 + tanh u):
// d gelu/dx = 0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) sqrt(2/pi) (1 + 3 * 0.044715 x^2)
//   with a = 1 + tanh u (so 1 - tanh^2 u = (2 - a) a):  0.5 a + 0.5 x (2 - a) a du
// From the forward's y = 0.5 x a: a = 2 y / x, or 1 + sqrt(2/pi) x near 0 (tanh u ~ u; the error, O(x^3), is below
// float's rounding for |x| < 1e-4).  As accurate as recomputing the tanh, and a third of the work.
template <typename T>
void gelu_backward(T* dx, const T* dout, const T* x, int n, const T* y) {
  if (y && kVector<T>) {
    for (int i = 0; i < n; ++i) {
      const T xi = x[i];
      const T a = std::fabs(xi) > T(1e-4) ? T(2) * y[i] / xi : T(1) + T(kSqrt2OverPi) * xi;
      const T du = T(kSqrt2OverPi) * (T(1) + T(3 * kGeluCubic) * xi * xi);
      dx[i] = dout[i] * (T(0.5) * a + T(0.5) * xi * (T(2) - a) * a * du);
    }
    return;
  }
  for (int i = 0; i < n; ++i) {
    const T xi = x[i];
    const T th = gelu_tanh(T(kSqrt2OverPi) * (xi + T(kGeluCubic) * xi * xi * xi));
    const T du = T(kSqrt2OverPi) * (T(1) + T(3 * kGeluCubic) * xi * xi);
    dx[i] = dout[i] * (T(0.5) * (T(1) + th) + T(0.5) * xi * (T(1) - th * th) * du);
  }
}

// xhat = x * rnorm on each head's D-slice, rnorm = 1 / sqrt(|x|^2 + eps)
template <typename T>
void headnorm_forward(T* xhat, T* rnorm, const T* x, int N, int H, int D) {
  if constexpr (kVector<T>) return simd::headnorm_forward(xhat, rnorm, x, N, H, D);
  const int C = H * D;
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h) {
      const T* xs = x + static_cast<long>(n) * C + h * D;
      T* ys = xhat + static_cast<long>(n) * C + h * D;
      T ss = 0;
      for (int d = 0; d < D; ++d) ss += xs[d] * xs[d];
      const T r = T(1) / std::sqrt(ss + T(kHeadNormEps));
      for (int d = 0; d < D; ++d) ys[d] = xs[d] * r;
      rnorm[static_cast<long>(n) * H + h] = r;
    }
}

// Inverts headnorm_forward's xhat = x * rnorm:  dx = rnorm * (dxhat - xhat (xhat . dxhat)) per D-slice
template <typename T>
void headnorm_backward(T* dx, const T* dxhat, const T* xhat, const T* rnorm, int N, int H, int D) {
  if constexpr (kVector<T>) return simd::headnorm_backward(dx, dxhat, xhat, rnorm, N, H, D);
  const int C = H * D;
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h) {
      const long off = static_cast<long>(n) * C + h * D;
      T dot = 0;
      for (int d = 0; d < D; ++d) dot += xhat[off + d] * dxhat[off + d];
      const T r = rnorm[static_cast<long>(n) * H + h];
      for (int d = 0; d < D; ++d) dx[off + d] = r * (dxhat[off + d] - xhat[off + d] * dot);
    }
}

// probs = softmax(logits) per row;  loss = mean over scored rows of -log probs[target]
template <typename T>
T cross_entropy_forward(T* probs, const T* logits, const int* targets, const unsigned char* mask, int N, int V) {
  double loss = 0;
  int count = 0;
  for (int n = 0; n < N; ++n) {
    const T* l = logits + static_cast<long>(n) * V;
    T* p = probs + static_cast<long>(n) * V;
    T m, sum;
    if constexpr (kVector<T>) {
      sum = simd::softmax_row(p, l, V, &m);
    } else {
      m = *std::max_element(l, l + V);
      sum = 0;
      for (int i = 0; i < V; ++i) {
        p[i] = std::exp(l[i] - m);
        sum += p[i];
      }
      for (int i = 0; i < V; ++i) p[i] /= sum;
    }
    if (!mask || mask[n]) {
      // -log p[t] = log(sum) + m - l[t], stable even when p[t] underflows
      loss += static_cast<double>(static_cast<T>(det::log(sum)) + m - l[targets[n]]);
      ++count;
    }
  }
  return count > 0 ? static_cast<T>(loss / count) : T(0);
}

// Inverts cross_entropy_forward's loss = mean(-log softmax(logits)[target]):  dlogits = (probs - onehot) / count
template <typename T>
void cross_entropy_backward(T* dlogits, const T* probs, const int* targets, const unsigned char* mask, int N, int V) {
  int count = 0;
  for (int n = 0; n < N; ++n) count += !mask || mask[n] ? 1 : 0;
  const T inv = count > 0 ? T(1) / count : T(0);
  for (int n = 0; n < N; ++n) {
    T* d = dlogits + static_cast<long>(n) * V;
    const T* p = probs + static_cast<long>(n) * V;
    if (mask && !mask[n]) {
      std::fill(d, d + V, T(0));
      continue;
    }
    for (int i = 0; i < V; ++i) d[i] = p[i] * inv;
    d[targets[n]] -= inv;
  }
}

#define SQRTDK_INSTANTIATE(T)                                                                                      \
  template void layernorm_forward<T>(T*, T*, T*, const T*, const T*, const T*, int, int);                          \
  template void layernorm_backward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, int, int);     \
  template void linear_forward<T>(T*, const T*, const T*, const T*, int, int, int, const T*);                      \
  template void linear_backward<T>(T*, T*, T*, const T*, const T*, const T*, int, int, int, bool);                 \
  template void gelu_forward<T>(T*, const T*, int);                                                                \
  template void gelu_backward<T>(T*, const T*, const T*, int, const T*);                                          \
  template void headnorm_forward<T>(T*, T*, const T*, int, int, int);                                              \
  template void headnorm_backward<T>(T*, const T*, const T*, const T*, int, int, int);                             \
  template T cross_entropy_forward<T>(T*, const T*, const int*, const unsigned char*, int, int);                   \
  template void cross_entropy_backward<T>(T*, const T*, const int*, const unsigned char*, int, int);
SQRTDK_INSTANTIATE(float)
SQRTDK_INSTANTIATE(double)
#undef SQRTDK_INSTANTIATE

}  // namespace sqrtdk
