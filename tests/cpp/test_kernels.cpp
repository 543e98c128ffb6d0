// The float kernels on simd_math.hpp's vectors against the scalar loops, which the double instantiation runs:
// same inputs (rounded to float), sizes that are not multiples of the vector width (C = 13, D = 5, T = 21, V = 7),
// so full vectors, partial ones and single lanes all run.  Every build's float layers run on these kernels; the scalar
// loops are double's.  Float keeps ~7 digits; the tolerance is 2e-5 relative
// to each output's largest value, far below what a wrong lane or a missed tail gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/nn/layers.hpp"
#include "core/arith/simd_math.hpp"
#include "gradcheck.hpp"

using namespace sqrtdk;
using namespace sqrtdk::testing;

namespace {

constexpr double kFloatTolerance = 2e-5;

// Both precisions of one random input: the float one and its exact double copy.
struct Pair {
  std::vector<float> f;
  std::vector<double> d;
};

Pair random_pair(std::size_t n, Rng& rng, double std = 1.0) {
  Pair p;
  for (double x : random_vector(n, rng, std)) {
    p.f.push_back(static_cast<float>(x));
    p.d.push_back(static_cast<float>(x));
  }
  return p;
}

Pair zeros(std::size_t n) { return {std::vector<float>(n, 0.0f), std::vector<double>(n, 0.0)}; }

double relative_gap(const std::vector<float>& f, const std::vector<double>& d) {
  return relative_error(std::vector<double>(f.begin(), f.end()), d);
}

}  // namespace

TEST_CASE("simd exp is within 2 ulp of std::exp on [-87, 88], subnormal below, 0 under -104, NaN for NaN",
          "[kernels]") {
  using namespace sqrtdk::simd;
  double worst_ulp = 0;
  for (double x = -87.3; x <= 88.3; x += 0.00731) {
    float in[kLanes], out[kLanes];
    for (int i = 0; i < kLanes; ++i) in[i] = static_cast<float>(x + i * 1e-4);
    store(out, simd::exp(load(in)));
    for (int i = 0; i < kLanes; ++i) {
      const double exact = std::exp(static_cast<double>(in[i]));
      const double ulp = std::nextafter(static_cast<float>(exact), INFINITY) - static_cast<float>(exact);
      worst_ulp = std::max(worst_ulp, std::abs(out[i] - exact) / ulp);
    }
  }
  INFO("worst error " << worst_ulp << " ulp");
  CHECK(worst_ulp <= 2.0);
  // subnormal results: within 2 of their ulp (2^-149) of the exact value, as libm's
  for (double x = -103.9; x < -87.4; x += 0.0173) {
    float out[kLanes];
    store(out, simd::exp(splat(static_cast<float>(x))));
    const double exact = std::exp(static_cast<double>(static_cast<float>(x)));
    REQUIRE(std::abs(out[0] - exact) <= 2 * 1.401298464324817e-45 + 2e-7 * exact);
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float special[] = {0.0f, -104.0f, -200.0f, -1e30f, -INFINITY, nan, 1e-30f, -1e-30f};
  for (float x : special) {
    float out[kLanes];
    store(out, simd::exp(splat(x)));
    INFO("x = " << x);
    if (std::isnan(x)) {
      CHECK(std::isnan(out[0]));
    } else if (x == 0.0f) {
      CHECK(out[0] == 1.0f);
    } else if (x <= -104.0f) {
      CHECK(out[0] == 0.0f);
    } else {
      CHECK(std::abs(out[0] - std::exp(x)) <= 1e-7f);
    }
  }
}

TEST_CASE("vector layernorm forward and backward match the scalar loops on a width of 13", "[kernels]") {
  const int N = 9, C = 13;
  Rng rng(11);
  Pair x = random_pair(N * C, rng, 3.0), g = random_pair(C, rng), b = random_pair(C, rng);
  Pair dout = random_pair(N * C, rng), out = zeros(N * C), mean = zeros(N), rstd = zeros(N);
  Pair dx = random_pair(N * C, rng), dg = random_pair(C, rng), db = random_pair(C, rng);  // backward adds into them
  layernorm_forward(out.f.data(), mean.f.data(), rstd.f.data(), x.f.data(), g.f.data(), b.f.data(), N, C);
  layernorm_forward(out.d.data(), mean.d.data(), rstd.d.data(), x.d.data(), g.d.data(), b.d.data(), N, C);
  CHECK(relative_gap(out.f, out.d) < kFloatTolerance);
  CHECK(relative_gap(mean.f, mean.d) < kFloatTolerance);
  CHECK(relative_gap(rstd.f, rstd.d) < kFloatTolerance);
  layernorm_backward(dx.f.data(), dg.f.data(), db.f.data(), dout.f.data(), x.f.data(), mean.f.data(), rstd.f.data(),
                     g.f.data(), N, C);
  layernorm_backward(dx.d.data(), dg.d.data(), db.d.data(), dout.d.data(), x.d.data(), mean.d.data(), rstd.d.data(),
                     g.d.data(), N, C);
  CHECK(relative_gap(dx.f, dx.d) < kFloatTolerance);
  CHECK(relative_gap(dg.f, dg.d) < kFloatTolerance);
  CHECK(relative_gap(db.f, db.d) < kFloatTolerance);
}

TEST_CASE("vector bias rows, residual add and bias gradient match the scalar loops on a width of 13", "[kernels]") {
  const int N = 7, I = 6, O = 13;
  Rng rng(12);
  Pair x = random_pair(N * I, rng), w = random_pair(I * O, rng), b = random_pair(O, rng), res = random_pair(N * O, rng);
  Pair out = zeros(N * O), dout = random_pair(N * O, rng), dx = zeros(N * I), dw = zeros(I * O);
  Pair db = random_pair(O, rng);
  for (const bool residual : {false, true}) {
    linear_forward(out.f.data(), x.f.data(), w.f.data(), b.f.data(), N, I, O, residual ? res.f.data() : nullptr);
    linear_forward(out.d.data(), x.d.data(), w.d.data(), b.d.data(), N, I, O, residual ? res.d.data() : nullptr);
    CHECK(relative_gap(out.f, out.d) < kFloatTolerance);
  }
  linear_backward(dx.f.data(), dw.f.data(), db.f.data(), dout.f.data(), x.f.data(), w.f.data(), N, I, O);
  linear_backward(dx.d.data(), dw.d.data(), db.d.data(), dout.d.data(), x.d.data(), w.d.data(), N, I, O);
  CHECK(relative_gap(db.f, db.d) < kFloatTolerance);
}

TEST_CASE("vector head normalisation matches the scalar loops on a head width of 5", "[kernels]") {
  const int N = 6, H = 3, D = 5;
  Rng rng(13);
  Pair x = random_pair(N * H * D, rng), dxhat = random_pair(N * H * D, rng);
  Pair xhat = zeros(N * H * D), rnorm = zeros(N * H), dx = zeros(N * H * D);
  headnorm_forward(xhat.f.data(), rnorm.f.data(), x.f.data(), N, H, D);
  headnorm_forward(xhat.d.data(), rnorm.d.data(), x.d.data(), N, H, D);
  CHECK(relative_gap(xhat.f, xhat.d) < kFloatTolerance);
  CHECK(relative_gap(rnorm.f, rnorm.d) < kFloatTolerance);
  headnorm_backward(dx.f.data(), dxhat.f.data(), xhat.f.data(), rnorm.f.data(), N, H, D);
  headnorm_backward(dx.d.data(), dxhat.d.data(), xhat.d.data(), rnorm.d.data(), N, H, D);
  CHECK(relative_gap(dx.f, dx.d) < kFloatTolerance);
}

TEST_CASE("vector attention softmax, its statistics and backward match the scalar loops at T = 21", "[kernels]") {
  const int B = 2, TT = 21, H = 3, D = 5, C = H * D, N = B * TT;
  Rng rng(14);
  // a spread of logit scales: nearly uniform rows, peaked ones, and one head saturated (weights underflow to 0)
  Pair q = random_pair(N * C, rng, 2.0), k = random_pair(N * C, rng, 2.0), v = random_pair(N * C, rng);
  Pair dy = random_pair(N * C, rng);
  Pair scale{{0.1f, 1.0f, 8.0f}, {0.1, 1.0, 8.0}};
  Pair y = zeros(N * C), P = zeros(B * H * TT * TT), scratch_a = zeros(TT * TT), scratch_b = zeros(TT * TT);
  Pair entropy = zeros(H), stats = zeros(4);  // top weight, max logit, spread, Jacobian norm
  attention_forward(y.f.data(), P.f.data(), q.f.data(), k.f.data(), v.f.data(), scale.f.data(), B, TT, H, D,
                    scratch_a.f.data(),
                    AttentionStats<float>{entropy.f.data(), &stats.f[0], &stats.f[1], &stats.f[2], &stats.f[3]});
  attention_forward(y.d.data(), P.d.data(), q.d.data(), k.d.data(), v.d.data(), scale.d.data(), B, TT, H, D,
                    scratch_a.d.data(),
                    AttentionStats<double>{entropy.d.data(), &stats.d[0], &stats.d[1], &stats.d[2], &stats.d[3]});
  CHECK(relative_gap(P.f, P.d) < kFloatTolerance);
  CHECK(relative_gap(y.f, y.d) < kFloatTolerance);
  for (int h = 0; h < H; ++h) CHECK(std::abs(entropy.f[h] - entropy.d[h]) < kFloatTolerance * std::max(1.0, entropy.d[h]));
  for (int s = 0; s < 4; ++s) CHECK(std::abs(stats.f[s] - stats.d[s]) < kFloatTolerance * std::max(1.0, std::abs(stats.d[s])));
  int underflowed = 0;  // causal weights of 0 (the saturated head)
  for (int i = 0; i < B * H * TT; ++i) {
    for (int j = 0; j <= i % TT; ++j) underflowed += P.f[static_cast<std::size_t>(i) * TT + j] == 0.0f;
    for (int j = i % TT + 1; j < TT; ++j) REQUIRE(P.f[static_cast<std::size_t>(i) * TT + j] == 0.0f);
  }
  CHECK(underflowed > 0);
  Pair dq = zeros(N * C), dk = zeros(N * C), dv = zeros(N * C), dscale = zeros(H);
  attention_backward(dq.f.data(), dk.f.data(), dv.f.data(), dscale.f.data(), dy.f.data(), P.f.data(), q.f.data(),
                     k.f.data(), v.f.data(), scale.f.data(), B, TT, H, D, scratch_a.f.data(), scratch_b.f.data());
  attention_backward(dq.d.data(), dk.d.data(), dv.d.data(), dscale.d.data(), dy.d.data(), P.d.data(), q.d.data(),
                     k.d.data(), v.d.data(), scale.d.data(), B, TT, H, D, scratch_a.d.data(), scratch_b.d.data());
  CHECK(relative_gap(dq.f, dq.d) < kFloatTolerance);
  CHECK(relative_gap(dk.f, dk.d) < kFloatTolerance);
  CHECK(relative_gap(dv.f, dv.d) < kFloatTolerance);
  CHECK(relative_gap(dscale.f, dscale.d) < kFloatTolerance);
}

TEST_CASE("vector cross-entropy softmax matches the scalar loops over 7 classes", "[kernels]") {
  const int N = 10, V = 7;
  Rng rng(15);
  Pair logits = random_pair(N * V, rng, 4.0), probs = zeros(N * V);
  std::vector<int> targets(N);
  std::vector<unsigned char> mask(N);
  for (int n = 0; n < N; ++n) {
    targets[n] = (3 * n) % V;
    mask[n] = n % 3 != 0;
  }
  const float loss_f = cross_entropy_forward(probs.f.data(), logits.f.data(), targets.data(), mask.data(), N, V);
  const double loss_d = cross_entropy_forward(probs.d.data(), logits.d.data(), targets.data(), mask.data(), N, V);
  CHECK(relative_gap(probs.f, probs.d) < kFloatTolerance);
  CHECK(std::abs(loss_f - loss_d) < kFloatTolerance * loss_d);
}

TEST_CASE("gelu backward from the forward's output matches the one that recomputes tanh", "[kernels]") {
  // a sweep of [-12, 12] plus the points around 0 where 2 y / x hands over to 1 + sqrt(2/pi) x
  std::vector<double> xs{0.0, 1e-30, -1e-30, 1e-6, -1e-6, 9.9e-5, -9.9e-5, 1.01e-4, -1.01e-4, 1e-3, -1e-3};
  for (double x = -12.0; x <= 12.0; x += 0.0137) xs.push_back(x);
  const int n = static_cast<int>(xs.size());
  Rng rng(16);
  Pair x{std::vector<float>(xs.begin(), xs.end()), xs}, dout = random_pair(n, rng);
  Pair y = zeros(n), from_y = zeros(n), recomputed = zeros(n);
  gelu_forward(y.f.data(), x.f.data(), n);
  gelu_forward(y.d.data(), x.d.data(), n);
  gelu_backward(from_y.f.data(), dout.f.data(), x.f.data(), n, y.f.data());
  gelu_backward(from_y.d.data(), dout.d.data(), x.d.data(), n, y.d.data());
  gelu_backward(recomputed.d.data(), dout.d.data(), x.d.data(), n);
  CHECK(relative_gap(y.f, y.d) < kFloatTolerance);
  CHECK(relative_gap(from_y.f, recomputed.d) < kFloatTolerance);
  CHECK(relative_error(from_y.d, recomputed.d) < 1e-12);
  for (float v : from_y.f) REQUIRE(std::isfinite(v));
}
