// The definitions that answer the exercise, on curves whose answers are known.
#include <catch2/catch.hpp>

#include "core/analysis.hpp"

using namespace sqrtdk;

namespace {
// Flat at `high` until `drop`, then linearly down to `low` over `ramp` steps, then flat.
std::vector<float> curve(int steps, int drop, int ramp, float high, float low) {
  std::vector<float> c(steps);
  for (int t = 0; t < steps; ++t) {
    const float f = t < drop ? 0.0f : std::min(1.0f, float(t - drop) / float(ramp));
    c[t] = high + (low - high) * f;
  }
  return c;
}
VariantSummary variant(const std::string& name, std::initializer_list<std::vector<float>> curves, double threshold) {
  VariantSummary v{name, {}};
  for (const auto& c : curves) v.runs.push_back(summarize_run(c, threshold, 1.0, 0));
  return v;
}
}  // namespace

TEST_CASE("smoothed loss is the trailing mean over the window", "[analysis]") {
  const std::vector<float> loss{4, 2, 0, 2};
  const std::vector<double> s = smoothed_loss(loss, 2);
  CHECK(s == std::vector<double>{4, 3, 1, 1});
}

TEST_CASE("steps to threshold is the first step whose smoothed loss is below it", "[analysis]") {
  const std::vector<float> c = curve(1000, 100, 100, 2.0f, 0.0f);
  CurveDefinitions defs;
  defs.window = 1;
  CHECK(steps_to_threshold(c, 1.0, defs) == 151 + 1);
  CHECK(steps_to_threshold(c, -1.0, defs) == -1);
}

TEST_CASE("a stuck curve plateaus at the step it flattened, a converging one when it reached its floor",
          "[analysis]") {
  CurveDefinitions defs;
  defs.window = 1;
  CHECK(plateau_step(curve(1000, 1000, 1, 1.5f, 1.5f), defs) == 1);
  const int p = plateau_step(curve(1000, 100, 100, 2.0f, 0.0f), defs);
  CHECK(p > 190);
  CHECK(p <= 201);  // the ramp reaches 0 at index 200, i.e. step 201
  CHECK(plateau_step({}, defs) == -1);
}

TEST_CASE("the answer states the measured ratio when the difference is clear", "[analysis]") {
  const double th = 0.1;
  const auto scaled = variant("scaled", {curve(1500, 50, 100, 2, 0), curve(1500, 60, 100, 2, 0)}, th);
  const auto unscaled = variant("unscaled", {curve(1500, 400, 100, 2, 0), curve(1500, 500, 100, 2, 0)}, th);
  const std::string a = compare_answer({scaled, unscaled}, th, 1500);
  CHECK_THAT(a, Catch::Matchers::Contains("x later"));
  CHECK_THAT(a, Catch::Matchers::StartsWith("unscaled reached smoothed loss 0.1 at a median of"));
}

TEST_CASE("the answer says no clear difference when seeds overlap or the ratio is small", "[analysis]") {
  const double th = 0.1;
  const auto a = variant("scaled", {curve(1500, 100, 100, 2, 0), curve(1500, 300, 100, 2, 0)}, th);
  const auto b = variant("qknorm", {curve(1500, 150, 100, 2, 0), curve(1500, 250, 100, 2, 0)}, th);
  CHECK_THAT(compare_answer({a, b}, th, 1500), Catch::Matchers::Contains("no clear difference"));
}

TEST_CASE("the answer says when a variant never reached the threshold", "[analysis]") {
  const double th = 0.1;
  const auto a = variant("scaled", {curve(500, 10, 100, 2, 0)}, th);
  const auto b = variant("unscaled", {curve(500, 500, 1, 2, 2)}, th);
  CHECK_THAT(compare_answer({a, b}, th, 500),
             Catch::Matchers::StartsWith("unscaled did not reach smoothed loss 0.1 within 500 steps in 1 of 1 seeds"));
}

TEST_CASE("a diverged run is summarised on its finite part", "[analysis]") {
  std::vector<float> c = curve(100, 10, 10, 2, 0.5);
  c.push_back(std::numeric_limits<float>::quiet_NaN());
  const RunSummary r = summarize_run(c, 0.1, 0.0, 101);
  CHECK(r.diverged);
  CHECK(r.diverged_step == 101);
  CHECK(std::isfinite(r.final_loss));
  CHECK(r.steps_to_threshold == -1);
}
