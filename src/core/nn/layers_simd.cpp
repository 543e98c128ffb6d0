#include "core/nn/layers_simd.hpp"

#include <cmath>

#include "core/nn/layers.hpp"
#include "core/arith/simd_math.hpp"

namespace sqrtdk::simd {

void layernorm_forward(float* out, float* mean, float* rstd, const float* x, const float* g, const float* b, int N,
                       int C) {
  for (int n = 0; n < N; ++n) {
    const float* xr = x + static_cast<long>(n) * C;
    float* yr = out + static_cast<long>(n) * C;
    F acc = splat(0);
    for_chunks(C, [&](int c, int k) { acc += load_n(xr + c, k, 0); });
    const float m = hsum(acc) / C;
    F var = splat(0);
    for_chunks(C, [&](int c, int k) {
      const F d = load_n(xr + c, k, m) - m;  // missing lanes: 0
      var += d * d;
    });
    const float r = 1.0f / std::sqrt(hsum(var) / C + static_cast<float>(kLayerNormEps));
    for_chunks(C, [&](int c, int k) {
      store_n(yr + c, (load_n(xr + c, k, 0) - m) * r * load_n(g + c, k, 0) + load_n(b + c, k, 0), k);
    });
    mean[n] = m;
    rstd[n] = r;
  }
}

void layernorm_backward(float* dx, float* dg, float* db, const float* dout, const float* x, const float* mean,
                        const float* rstd, const float* g, int N, int C) {
  for (int n = 0; n < N; ++n) {
    const float* xr = x + static_cast<long>(n) * C;
    const float* dr = dout + static_cast<long>(n) * C;
    float* dxr = dx + static_cast<long>(n) * C;
    const float m = mean[n], r = rstd[n];
    F sum_dxhat = splat(0), sum_dxhat_xhat = splat(0);
    for_chunks(C, [&](int c, int k) {
      const F xhat = (load_n(xr + c, k, m) - m) * r;
      const F d = load_n(dr + c, k, 0);
      const F dxhat = d * load_n(g + c, k, 0);
      sum_dxhat += dxhat;
      sum_dxhat_xhat += dxhat * xhat;
      store_n(dg + c, load_n(dg + c, k, 0) + d * xhat, k);
      store_n(db + c, load_n(db + c, k, 0) + d, k);
    });
    const float mean_dxhat = hsum(sum_dxhat) / C, mean_dxhat_xhat = hsum(sum_dxhat_xhat) / C;
    for_chunks(C, [&](int c, int k) {
      const F xhat = (load_n(xr + c, k, m) - m) * r;
      const F dxhat = load_n(dr + c, k, 0) * load_n(g + c, k, 0);
      store_n(dxr + c, load_n(dxr + c, k, 0) + r * (dxhat - mean_dxhat - xhat * mean_dxhat_xhat), k);
    });
  }
}

void headnorm_forward(float* xhat, float* rnorm, const float* x, int N, int H, int D) {
  const long C = static_cast<long>(H) * D;
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h) {
      const float* xs = x + n * C + h * D;
      float* ys = xhat + n * C + h * D;
      F ss = splat(0);
      for_chunks(D, [&](int d, int k) {
        const F v = load_n(xs + d, k, 0);
        ss += v * v;
      });
      const float r = 1.0f / std::sqrt(hsum(ss) + static_cast<float>(kHeadNormEps));
      for_chunks(D, [&](int d, int k) { store_n(ys + d, load_n(xs + d, k, 0) * r, k); });
      rnorm[static_cast<long>(n) * H + h] = r;
    }
}

void headnorm_backward(float* dx, const float* dxhat, const float* xhat, const float* rnorm, int N, int H, int D) {
  const long C = static_cast<long>(H) * D;
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h) {
      const long off = n * C + h * D;
      F dot = splat(0);
      for_chunks(D, [&](int d, int k) { dot += load_n(xhat + off + d, k, 0) * load_n(dxhat + off + d, k, 0); });
      const float s = hsum(dot), r = rnorm[static_cast<long>(n) * H + h];
      for_chunks(D, [&](int d, int k) {
        store_n(dx + off + d, r * (load_n(dxhat + off + d, k, 0) - load_n(xhat + off + d, k, 0) * s), k);
      });
    }
}

void bias_rows(float* out, const float* b, const float* residual, int N, int O) {
  for (int n = 0; n < N; ++n) {
    float* o = out + static_cast<long>(n) * O;
    if (residual) {
      const float* res = residual + static_cast<long>(n) * O;
      for_chunks(O, [&](int i, int k) { store_n(o + i, load_n(res + i, k, 0) + load_n(b + i, k, 0), k); });
    } else {
      for_chunks(O, [&](int i, int k) { store_n(o + i, load_n(b + i, k, 0), k); });
    }
  }
}

void add_colsum(float* db, const float* dout, int N, int O) {
  // A column strip at a time, summed in registers in the scalar loop's order (db + row 0 + row 1 ...): some bias
  // gradients are exactly zero but for rounding (a key bias shifts a softmax row), and Adam scales that noise up.
  for_chunks(O, [&](int i, int k) {
    F acc = load_n(db + i, k, 0);
    for (long n = 0; n < N; ++n) acc += load_n(dout + n * O + i, k, 0);
    store_n(db + i, acc, k);
  });
}

float softmax_row(float* p, const float* logits, int n, float* max_out) {
  F mx = splat(-INFINITY);
  for_chunks(n, [&](int i, int k) { mx = max(mx, load_n(logits + i, k, -INFINITY)); });
  const float m = hmax(mx);
  F sum = splat(0);
  for_chunks(n, [&](int i, int k) {
    const F e = exp(load_n(logits + i, k, -INFINITY) - m);  // missing lanes: exp(-inf) = 0
    sum += e;
    store_n(p + i, e, k);
  });
  const float s = hsum(sum), inv = 1.0f / s;
  for_chunks(n, [&](int i, int k) { store_n(p + i, load_n(p + i, k, 0) * inv, k); });
  *max_out = m;
  return s;
}

}  // namespace sqrtdk::simd
