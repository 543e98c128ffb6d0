// Saturation statistics: the softmax and its Jacobian norm, the lesson's numbers, reproducibility and validation.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/settings/config.hpp"
#include "core/arith/rng.hpp"
#include "core/lesson/draw_set.hpp"
#include "core/lesson/softmax_stats.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using namespace sqrtdk;

namespace {

std::vector<double> softmax_of(const std::vector<double>& logits) {
  std::vector<double> p(logits.size());
  softmax(p.data(), logits.data(), static_cast<int>(logits.size()));
  return p;
}

double sum_of(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

// ||J||_F entry by entry, J_ii = p_i (1 - p_i) with 1 - p_i summed from the other weights, J_ij = -p_i p_j.
double entrywise_jacobian_norm(const std::vector<double>& p) {
  double total = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    double complement = 0.0;
    for (size_t j = 0; j < p.size(); ++j) {
      if (j != i) {
        complement += p[j];
        total += (p[i] * p[j]) * (p[i] * p[j]);
      }
    }
    total += (p[i] * complement) * (p[i] * complement);
  }
  return std::sqrt(total);
}

SweepParams lesson_params(DrawMethod method) {
  SweepParams params;
  params.keys = 50;
  params.draws = 2000;
  params.seed = 0;
  params.alpha = 0.5;
  params.method = method;
  return params;
}

}  // namespace

TEST_CASE("softmax stays finite and sums to one for logits of 1e4", "[softmax]") {
  const std::vector<double> p = softmax_of({1e4, 1e4 - 1.0, 1e4 - 3.0, 1e4 - 40.0});
  const std::vector<double> shifted = softmax_of({0.0, -1.0, -3.0, -40.0});
  for (size_t i = 0; i < p.size(); ++i) {
    REQUIRE(std::isfinite(p[i]));
    CHECK_THAT(p[i], WithinRel(shifted[i], 1e-12));
  }
  CHECK_THAT(sum_of(p), WithinAbs(1.0, 1e-15));
}

TEST_CASE("softmax stays finite and sums to one for logits of -1e4", "[softmax]") {
  const std::vector<double> p = softmax_of({-1e4, -1e4, -1e4 - 2.0});
  for (const double w : p) REQUIRE(std::isfinite(w));
  CHECK_THAT(sum_of(p), WithinAbs(1.0, 1e-15));
  CHECK_THAT(p[0], WithinRel(1.0 / (2.0 + std::exp(-2.0)), 1e-14));
}

TEST_CASE("softmax of equal logits is uniform with entropy ln n and n effective keys", "[softmax]") {
  const int n = 50;
  const std::vector<double> p = softmax_of(std::vector<double>(n, 3.7));
  const WeightStats stats = weight_stats(p.data(), n);
  CHECK_THAT(stats.max_weight, WithinRel(1.0 / n, 1e-14));
  CHECK_THAT(stats.entropy, WithinRel(std::log(50.0), 1e-14));
  CHECK_THAT(stats.effective_keys, WithinRel(50.0, 1e-12));
  // Closed form at p_i = 1/n: S2 = 1/n, S3 = 1/n^2, so ||J||_F^2 = 1/n - 1/n^2.
  CHECK_THAT(stats.jacobian_norm, WithinRel(std::sqrt(1.0 / n - 1.0 / (n * n)), 1e-13));
}

TEST_CASE("Jacobian Frobenius norm matches central finite differences of the softmax", "[softmax]") {
  Rng rng(11);
  const int n = 7;
  const double h = 1e-5;
  for (const double spread : {0.1, 1.0, 4.0, 12.0}) {
    std::vector<double> logits(n);
    for (double& s : logits) s = spread * rng.normal();
    const std::vector<double> p = softmax_of(logits);
    double fd_norm2 = 0.0;
    for (int j = 0; j < n; ++j) {
      std::vector<double> plus = logits, minus = logits;
      plus[j] += h;
      minus[j] -= h;
      const std::vector<double> p_plus = softmax_of(plus), p_minus = softmax_of(minus);
      for (int i = 0; i < n; ++i) {
        const double column = (p_plus[i] - p_minus[i]) / (2.0 * h);    // dp_i / ds_j
        const double analytic = p[i] * ((i == j ? 1.0 : 0.0) - p[j]);  // (diag(p) - p p^T)_ij
        CHECK_THAT(column, WithinAbs(analytic, 1e-9));
        fd_norm2 += column * column;
      }
    }
    CHECK_THAT(softmax_jacobian_norm(p.data(), n), WithinRel(std::sqrt(fd_norm2), 1e-6));
  }
}

TEST_CASE("Jacobian norm equals the closed form sqrt(S2 - 2 S3 + S2^2) away from saturation", "[softmax]") {
  Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> logits(30);
    for (double& s : logits) s = 2.0 * rng.normal();
    const std::vector<double> p = softmax_of(logits);
    double s2 = 0.0, s3 = 0.0;
    for (const double w : p) {
      s2 += w * w;
      s3 += w * w * w;
    }
    const double closed_form = std::sqrt(s2 - 2.0 * s3 + s2 * s2);
    CHECK_THAT(softmax_jacobian_norm(p.data(), 30), WithinRel(closed_form, 1e-10));
    CHECK_THAT(softmax_jacobian_norm(p.data(), 30), WithinRel(entrywise_jacobian_norm(p), 1e-13));
  }
}

TEST_CASE("Jacobian norm of an even row is sqrt(N - 1) / N, the Jacobian of p_i = 1/N", "[softmax]") {
  for (const int n : {1, 2, 3, 21, 50, 1000}) {
    const std::vector<double> even(static_cast<std::size_t>(n), 1.0 / n);
    // (1e-9: the entry-wise reference sums N^2 terms)
    CHECK_THAT(even_row_jacobian_norm(n), WithinRel(entrywise_jacobian_norm(even), 1e-9));
  }
  CHECK(even_row_jacobian_norm(2) == 0.5);
}

TEST_CASE("Jacobian norm keeps full precision when the softmax saturates", "[softmax]") {
  // Top weight 1 - 2.8e-9: the closed form cancels to exactly 0 here, the entry-wise sum does not.
  const std::vector<double> p = softmax_of({0.0, -20.0, -21.0, -25.0});
  const double norm = softmax_jacobian_norm(p.data(), 4);
  CHECK(norm > 0.0);
  CHECK_THAT(norm, WithinRel(entrywise_jacobian_norm(p), 1e-13));
  const WeightStats stats = weight_stats(p.data(), 4);
  const double tail = p[1] + p[2] + p[3];
  // The top weight's term with ln(1 - tail) taken as log1p(-tail), the others summed directly.
  const double entropy =
      -(1.0 - tail) * std::log1p(-tail) - p[1] * std::log(p[1]) - p[2] * std::log(p[2]) - p[3] * std::log(p[3]);
  CHECK_THAT(stats.entropy, WithinRel(entropy, 1e-12));
  CHECK(stats.entropy > 0.0);
}

TEST_CASE("the demo draws q first, then the keys row by row, from Rng(seed)", "[draws]") {
  DemoParams params;
  params.dk = 3;
  params.keys = 4;
  params.seed = 9;
  params.top = 2;
  const SoftmaxDemo demo = softmax_demo(params);
  Rng rng(9);
  double q[3];
  for (double& x : q) x = rng.normal();
  for (int i = 0; i < 4; ++i) {
    double dot = 0.0;
    for (const double qj : q) dot += qj * rng.normal();
    CHECK_THAT(demo.dots[i], WithinRel(dot, 1e-12));
  }
  CHECK_THAT(demo.raw.scores[0], WithinRel(demo.dots[0], 1e-15));
  CHECK_THAT(demo.scaled.scores[0], WithinRel(demo.dots[0] / std::sqrt(3.0), 1e-14));
  CHECK(demo.raw.top.size() == 2);
  CHECK(demo.raw.top[0] >= demo.raw.top[1]);
  CHECK_THAT(demo.raw.top[0], WithinRel(demo.raw.stats.max_weight, 1e-15));
}

TEST_CASE("a one-draw exact sweep reproduces the demo's statistics", "[draws]") {
  DemoParams demo_params;
  demo_params.dk = 64;
  demo_params.keys = 20;
  demo_params.seed = 4;
  const SoftmaxDemo demo = softmax_demo(demo_params);
  SweepParams params;
  params.keys = 20;
  params.draws = 1;
  params.seed = 4;
  params.method = DrawMethod::exact;
  const SweepRow row = sweep_row(params, 64);
  CHECK_THAT(row.raw.max_weight.median, WithinRel(demo.raw.stats.max_weight, 1e-12));
  CHECK_THAT(row.raw.jacobian_norm.q1, WithinRel(demo.raw.stats.jacobian_norm, 1e-9));
  CHECK_THAT(row.scaled.entropy.q3, WithinRel(demo.scaled.stats.entropy, 1e-12));
}

TEST_CASE("at d_k 128 and 50 keys the median top weight is ~0.95 raw and ~0.11 scaled", "[lesson]") {
  // Independently checked with a pure-Python reimplementation (random.gauss, 1500 draws): raw median 0.951,
  // entropy 0.217 nats; the population median is ~0.950 (20000 draws: 0.9498).
  for (const DrawMethod method : {DrawMethod::fast, DrawMethod::exact}) {
    CAPTURE(to_string(method));
    const SweepRow row = sweep_row(lesson_params(method), 128);
    CHECK(row.raw.max_weight.median >= 0.93);
    CHECK(row.raw.max_weight.median <= 0.97);
    CHECK(row.scaled.max_weight.median >= 0.08);
    CHECK(row.scaled.max_weight.median <= 0.15);
    CHECK(row.raw.entropy.median >= 0.1);
    CHECK(row.raw.entropy.median <= 0.35);
    CHECK(row.scaled.entropy.median >= 3.35);
    CHECK(row.scaled.entropy.median <= 3.6);
    CHECK(row.raw.max_weight.q1 <= row.raw.max_weight.median);
    CHECK(row.raw.max_weight.median <= row.raw.max_weight.q3);
  }
}

TEST_CASE("the variance of q.k tracks d_k within 10 percent", "[lesson]") {
  const SweepParams params = lesson_params(DrawMethod::fast);
  for (const int dk : {1, 4, 16, 128, 1024}) {
    CAPTURE(dk);
    CHECK_THAT(sweep_row(params, dk).dot_variance, WithinRel(static_cast<double>(dk), 0.10));
  }
  const SweepParams exact = lesson_params(DrawMethod::exact);
  for (const int dk : {2, 32}) {
    CAPTURE(dk);
    CHECK_THAT(sweep_row(exact, dk).dot_variance, WithinRel(static_cast<double>(dk), 0.10));
  }
}

TEST_CASE("the raw Jacobian norm rises then falls with d_k while the scaled one stays near 0.2", "[lesson]") {
  SweepParams params = lesson_params(DrawMethod::fast);
  params.dks = {1, 16, 128, 512};
  const std::vector<SweepRow> rows = sweep(params);
  CHECK(rows[1].raw.jacobian_norm.median > rows[0].raw.jacobian_norm.median);
  CHECK(rows[1].raw.jacobian_norm.median > 0.3);
  CHECK(rows[2].raw.jacobian_norm.median < 0.15);
  CHECK(rows[3].raw.jacobian_norm.median < 0.01);
  for (const SweepRow& row : rows) {
    CAPTURE(row.dk);
    CHECK_THAT(row.scaled.jacobian_norm.median, WithinAbs(0.2, 0.05));
  }
}

TEST_CASE("fast and exact draws give the same statistics within sampling error", "[draws]") {
  const SweepRow fast = sweep_row(lesson_params(DrawMethod::fast), 32);
  const SweepRow exact = sweep_row(lesson_params(DrawMethod::exact), 32);
  CHECK_THAT(fast.raw.max_weight.median, WithinAbs(exact.raw.max_weight.median, 0.04));
  CHECK_THAT(fast.raw.entropy.median, WithinAbs(exact.raw.entropy.median, 0.1));
  CHECK_THAT(fast.raw.jacobian_norm.median, WithinAbs(exact.raw.jacobian_norm.median, 0.03));
  CHECK_THAT(fast.scaled.max_weight.median, WithinAbs(exact.scaled.max_weight.median, 0.01));
  CHECK_THAT(fast.dot_variance, WithinRel(exact.dot_variance, 0.05));
}

TEST_CASE("the same seed gives the same numbers and another seed different ones", "[draws]") {
  DemoParams params;
  const SoftmaxDemo a = softmax_demo(params), b = softmax_demo(params);
  CHECK(a.dots == b.dots);
  CHECK(a.scaled.weights == b.scaled.weights);
  params.seed = 1;
  CHECK(softmax_demo(params).dots != a.dots);

  SweepParams sweep_params = lesson_params(DrawMethod::fast);
  sweep_params.draws = 300;
  const SweepRow first = sweep_row(sweep_params, 64), second = sweep_row(sweep_params, 64);
  CHECK(first.raw.max_weight.median == second.raw.max_weight.median);
  CHECK(first.scaled.jacobian_norm.q3 == second.scaled.jacobian_norm.q3);
  CHECK(first.dot_variance == second.dot_variance);
}

TEST_CASE("the histogram counts every sample on shared edges spanning 4 sqrt(d_k)", "[histogram]") {
  HistogramParams params;
  params.dk = 128;
  params.draws = 500;
  params.bins = 40;
  const DotHistogram h = dot_histogram(params);
  REQUIRE(h.edges.size() == 41);
  CHECK_THAT(h.edges.front(), WithinRel(-4.0 * std::sqrt(128.0), 1e-15));
  CHECK_THAT(h.edges.back(), WithinRel(4.0 * std::sqrt(128.0), 1e-15));
  CHECK(h.total == 500 * 50);
  int64_t raw = h.raw_below + h.raw_above, scaled = h.scaled_below + h.scaled_above;
  for (int b = 0; b < 40; ++b) {
    raw += h.raw_counts[b];
    scaled += h.scaled_counts[b];
  }
  CHECK(raw == h.total);
  CHECK(scaled == h.total);
  // Scaled scores have std 1 on an axis of +-45: the middle four bins span +-4.5 std, beyond which a normal lies
  // with probability 6.8e-6 (0.17 of these 25,000 samples expected): at most 2 fall outside them.
  CHECK(h.scaled_counts[18] + h.scaled_counts[19] + h.scaled_counts[20] + h.scaled_counts[21] >=
        h.total - h.scaled_below - h.scaled_above - 2);
  // Same draws as the sweep row.
  SweepParams sweep_params;
  sweep_params.draws = 500;
  CHECK(h.dot_variance == sweep_row(sweep_params, 128).dot_variance);
}

TEST_CASE("invalid inputs are rejected with a message naming the parameter", "[validation]") {
  DemoParams demo;
  CHECK(validate(demo).empty());
  demo.keys = 1;
  CHECK_THAT(validate(demo), Equals("keys must be in [2, 10000], got 1"));
  CHECK_THROWS_MATCHES(softmax_demo(demo), ConfigError, Catch::Matchers::Message("keys must be in [2, 10000], got 1"));
  demo.keys = 50;
  demo.dk = 0;
  CHECK_THAT(validate(demo), Equals("dk must be in [1, 4096], got 0"));
  demo.dk = 4097;
  CHECK_THAT(validate(demo), Equals("dk must be in [1, 4096], got 4097"));
  demo.dk = 128;
  demo.alpha = std::numeric_limits<double>::quiet_NaN();
  CHECK_THAT(validate(demo), Contains("alpha must be a finite number in [0, 2]"));
  demo.alpha = 2.5;
  CHECK_THAT(validate(demo), Equals("alpha must be a finite number in [0, 2], got 2.5"));
  demo.alpha = 0.5;
  demo.top = 51;
  CHECK_THAT(validate(demo), Contains("top must be in [1, keys]"));

  SweepParams sweep_params;
  CHECK(validate(sweep_params).empty());
  sweep_params.draws = 0;
  CHECK_THAT(validate(sweep_params), Equals("draws must be in [1, 100000], got 0"));
  CHECK_THROWS_AS(sweep(sweep_params), ConfigError);
  CHECK_THROWS_AS(sweep_row(sweep_params, 8), ConfigError);
  sweep_params.draws = 10;
  sweep_params.dks = {};
  CHECK_THAT(validate(sweep_params), Contains("dk list must have 1 to 100 entries, got 0"));
  sweep_params.dks = {8, 5000};
  CHECK_THAT(validate(sweep_params), Equals("dk must be in [1, 4096], got 5000"));
  CHECK_THROWS_AS(sweep_row(sweep_params, 0), ConfigError);

  HistogramParams histogram;
  CHECK(validate(histogram).empty());
  histogram.bins = 0;
  CHECK_THAT(validate(histogram), Equals("bins must be in [1, 1000], got 0"));
  histogram.bins = 10;
  histogram.half_width = -1.0;
  CHECK_THAT(validate(histogram), Contains("half_width"));
  CHECK_THROWS_AS(dot_histogram(histogram), ConfigError);
}

TEST_CASE("the explorer's set of draws: each seed's demo draw, and the quartiles of its raw top weight", "[softmax]") {
  DrawSetParams p;
  p.dk = 32;
  p.keys = 10;
  p.seeds = 9;
  const DrawSet set = draw_set(p);
  REQUIRE(set.raw_top.size() == 9);
  for (int seed = 0; seed < 9; ++seed) {
    DemoParams d;
    d.dk = 32;
    d.keys = 10;
    d.seed = static_cast<uint64_t>(seed);
    const SoftmaxDemo demo = softmax_demo(d);
    CHECK(set.raw_top[seed] == demo.raw.stats.max_weight);
    CHECK(set.raw_jacobian[seed] == demo.raw.stats.jacobian_norm);
    CHECK(set.scaled_jacobian[seed] == demo.scaled.stats.jacobian_norm);
  }
  std::vector<double> sorted = set.raw_top;
  std::sort(sorted.begin(), sorted.end());
  CHECK(set.raw_top_quartiles.q1 == sorted[2]);
  CHECK(set.raw_top_quartiles.median == sorted[4]);
  CHECK(set.raw_top_quartiles.q3 == sorted[6]);
  CHECK(DrawSetParams().seeds == 200);
  p.seeds = 0;
  CHECK(validate(p) == "seeds must be in [1, 10000], got 0");
  CHECK_THROWS_AS(draw_set(p), ConfigError);
  p.seeds = 3;
  p.keys = 1;
  CHECK(validate(p).rfind("keys must be in", 0) == 0);
}
