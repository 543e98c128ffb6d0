// The explorer's fixed set of draws, so that the page can say where its one draw stands among many: the demo's
// draw (softmax_demo: one exact draw from Rng(seed)) for each seed 0 .. seeds - 1 at one d_k, number of keys and
// alpha, with the quartiles of the raw top weight over the set by the sweep's rule (quartiles, softmax_stats.hpp).
#pragma once
#include <string>
#include <vector>

#include "core/lesson/softmax_stats.hpp"
#include "core/settings/range_setting.hpp"

namespace sqrtdk {

namespace explorer {
// Not a slider of the explorer: the size of the set the page ranks its draw in.  200 draws put the median draw
// (the default seed, explorer_settings.hpp) within the set's middle half by construction.
inline constexpr RangeSetting draw_set_seeds{"seeds", true, 200, 1, 10000, "draws in the fixed set: seeds 0 .. seeds - 1"};
}  // namespace explorer

struct DrawSetParams {
  int dk = static_cast<int>(explorer::dk.value);
  int keys = static_cast<int>(explorer::keys.value);
  double alpha = explorer::alpha.value;
  int seeds = static_cast<int>(explorer::draw_set_seeds.value);
};

struct DrawSet {
  std::vector<double> raw_top;          // (seeds) the raw softmax's top weight of each seed's draw
  std::vector<double> raw_jacobian;     // (seeds) |J|_F of the raw softmax
  std::vector<double> scaled_jacobian;  // (seeds) |J|_F of the softmax scaled by d_k^-alpha
  Quartiles raw_top_quartiles;          // of raw_top
};

// "" if valid, otherwise one line naming the parameter (the demo's messages for dk, keys and alpha).
std::string validate(const DrawSetParams& params);

// The set; throws ConfigError (config.hpp) with validate()'s message.  Memory O(seeds + D + N).
DrawSet draw_set(const DrawSetParams& params);

}  // namespace sqrtdk
