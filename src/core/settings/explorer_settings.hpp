// The saturation explorer's settings: the default and range of each, written once.  `sqrtdk softmax`,
// `histogram` and `sweep` read their flags and usage lines from these rows, the softmax_stats parameter
// structs their defaults and validate() their ranges, and lab.explorerSchema() hands them to the page, whose
// explorer panel narrows some ranges for its sliders (web/src/state/properties.js).  These parametrise random
// draws, not a model.
#pragma once
#include <vector>

#include "core/settings/config.hpp"  // kMaxAlpha
#include "core/settings/range_setting.hpp"
#include "core/arith/rng.hpp"  // kMaxSeed

namespace sqrtdk {

namespace explorer {
inline constexpr RangeSetting dk{"dk", true, 128, 1, 4096, "query/key dimension"};
inline constexpr RangeSetting keys{"keys", true, 50, 2, 10000, "number of keys"};
inline constexpr RangeSetting draws{"draws", true, 2000, 1, 100000, "random draws of q and the keys"};
// The default seed, 142, is the median draw of the fixed set (seeds 0-199, core/lesson/draw_set.hpp) at the default
// d_k, keys and alpha, ranked by the raw softmax's top weight (the lower of the two middle draws,
// web/src/explorer/draw-rank.js), so that the first draw a learner sees is a typical one; seed 0 ranks 20th of
// those 200.  tests/node/draw_set.test.mjs recomputes it.
inline constexpr RangeSetting seed{"seed", true, 142, 0, static_cast<double>(kMaxSeed), "seed of the draws"};
inline constexpr RangeSetting alpha{"alpha", false, 0.5, 0, kMaxAlpha,
                                   "scale exponent of q.k / d_k^alpha (0.5: 1/sqrt(d_k))"};
inline constexpr RangeSetting top{"top", true, 5, 1, 10000, "how many of the largest weights to list", "keys"};
inline constexpr RangeSetting bins{"bins", true, 40, 1, 1000, "histogram bins"};
}  // namespace explorer

// Every row, in the order lab.explorerSchema() lists them.
inline const std::vector<const RangeSetting*>& explorer_settings() {
  static const std::vector<const RangeSetting*> rows = {&explorer::dk,   &explorer::keys,  &explorer::draws,
                                                        &explorer::seed, &explorer::alpha, &explorer::top,
                                                        &explorer::bins};
  return rows;
}

}  // namespace sqrtdk
