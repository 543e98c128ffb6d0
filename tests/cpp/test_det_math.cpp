// det_math.hpp against the C library's functions: within a few ulp everywhere they are used (the scores of a
// softmax row, a loss's log-sum, the Rng's log, d_k^-alpha), and the edges (0, infinities, NaN, underflow).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/arith/det_math.hpp"
#include "core/arith/rng.hpp"

using namespace sqrtdk;

namespace {

// Distance in units in the last place between two finite doubles of the same sign.
int64_t ulps(double a, double b) {
  int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? ia - ib : ib - ia;
}

}  // namespace

TEST_CASE("det::exp is within 2 ulp of std::exp from -708 to 709, and exact at 0", "[det_math]") {
  Rng rng(1);
  int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = i < 100000 ? rng.uniform(-708.0, 709.0) : rng.uniform(-2.0, 2.0);
    worst = std::max(worst, ulps(det::exp(x), std::exp(x)));
  }
  INFO("worst " << worst << " ulp");
  CHECK(worst <= 2);
  CHECK(det::exp(0.0) == 1.0);
  CHECK(det::exp(-800.0) == 0.0);
  CHECK(std::isinf(det::exp(710.0)));
  CHECK(std::isnan(det::exp(std::numeric_limits<double>::quiet_NaN())));
  // subnormal results: relative error grows as the precision shrinks, but stays tiny in absolute terms
  CHECK_THAT(det::exp(-740.0), Catch::Matchers::WithinRel(std::exp(-740.0), 1e-3));
}

TEST_CASE("det::log and det::log1p are within 2 and 4 ulp of std::log and std::log1p", "[det_math]") {
  Rng rng(2);
  int64_t worst_log = 0, worst_log1p = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = det::exp(rng.uniform(-700.0, 700.0)) * rng.uniform(0.5, 2.0);
    if (std::fabs(std::log(x)) > 1e-300) worst_log = std::max(worst_log, ulps(std::fabs(det::log(x)), std::fabs(std::log(x))));
    const double y = rng.uniform(-0.999, 3.0) * (i % 2 ? 1.0 : 1e-9);
    worst_log1p = std::max(worst_log1p, ulps(std::fabs(det::log1p(y)), std::fabs(std::log1p(y))));
  }
  INFO("worst log " << worst_log << " ulp, log1p " << worst_log1p << " ulp");
  CHECK(worst_log <= 2);
  CHECK(worst_log1p <= 4);  // x / (2 + x) rounds once more
  CHECK(det::log(1.0) == 0.0);
  CHECK(det::log(0.0) == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(det::log(-1.0)));
  CHECK(std::isinf(det::log(std::numeric_limits<double>::infinity())));
  CHECK_THAT(det::log(std::numeric_limits<double>::denorm_min()), Catch::Matchers::WithinRel(-744.44007192138126, 1e-15));
}

TEST_CASE("det::pow gives d_k^-alpha within 1e-14 relative for every d_k and alpha the settings allow", "[det_math]") {
  for (int dk = 1; dk <= 4096; dk = dk * 2 + 1)
    for (double alpha = 0; alpha <= 1.0; alpha += 0.05)
      CHECK_THAT(det::pow(dk, -alpha), Catch::Matchers::WithinRel(std::pow(dk, -alpha), 1e-14));
}
