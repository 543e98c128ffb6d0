#include "core/lesson/draw_set.hpp"

#include "core/settings/config.hpp"

namespace sqrtdk {

namespace {

DemoParams demo_params(const DrawSetParams& params, int seed) {
  DemoParams p;
  p.dk = params.dk;
  p.keys = params.keys;
  p.alpha = params.alpha;
  p.seed = static_cast<uint64_t>(seed);
  p.top = 1;
  return p;
}

}  // namespace

std::string validate(const DrawSetParams& params) {
  const std::string demo = validate(demo_params(params, 0));
  return demo.empty() ? check_range(explorer::draw_set_seeds, params.seeds) : demo;
}

DrawSet draw_set(const DrawSetParams& params) {
  const std::string problem = validate(params);
  if (!problem.empty()) throw ConfigError(problem);
  DrawSet set;
  for (int seed = 0; seed < params.seeds; ++seed) {
    const SoftmaxDemo demo = softmax_demo(demo_params(params, seed));
    set.raw_top.push_back(demo.raw.stats.max_weight);
    set.raw_jacobian.push_back(demo.raw.stats.jacobian_norm);
    set.scaled_jacobian.push_back(demo.scaled.stats.jacobian_norm);
  }
  std::vector<double> sorted = set.raw_top;
  set.raw_top_quartiles = quartiles(sorted);
  return set;
}

}  // namespace sqrtdk
