// The saturation explorer's settings: the default and range of each, written once.  `sqrtdk softmax`,
// `histogram` and `sweep` read their flags and usage lines from these rows, the softmax_stats parameter
// structs their defaults and validate() their ranges, and lab.schema() hands them to the page, whose
// explorer panel narrows some ranges for its sliders (web/src/state/properties.js).  The training settings
// are the other table (settings.hpp): these parametrise random draws, not a model.
#pragma once
#include <string>
#include <vector>

#include "core/rng.hpp"  // kMaxSeed

namespace sqrtdk {

struct ExplorerSetting {
  const char* name;      // the CLI flag without "--", the JS option key and the name in messages
  bool integer;          // an integer (a seed included), else a finite real
  double value;          // the default
  double lo, hi;         // inclusive range
  const char* range_doc; // the range as usage text writes it
  const char* doc;       // one line
};

namespace explorer {
inline constexpr ExplorerSetting dk{"dk", true, 128, 1, 4096, "1..4096", "query/key dimension"};
inline constexpr ExplorerSetting keys{"keys", true, 50, 2, 10000, "2..10000", "number of keys"};
inline constexpr ExplorerSetting draws{"draws", true, 2000, 1, 100000, "1..100000", "random draws of q and the keys"};
inline constexpr ExplorerSetting seed{"seed", true, 0, 0, static_cast<double>(kMaxSeed), "0..2^53-1",
                                      "seed of the draws"};
inline constexpr ExplorerSetting alpha{"alpha", false, 0.5, 0, 2, "[0, 2]",
                                       "scale exponent of q.k / d_k^alpha (0.5: 1/sqrt(d_k))"};
inline constexpr ExplorerSetting top{"top", true, 5, 1, 10000, "1..keys", "how many of the largest weights to list"};
inline constexpr ExplorerSetting bins{"bins", true, 40, 1, 1000, "1..1000", "histogram bins"};
}  // namespace explorer

// Every row, in the order lab.schema() lists them.
const std::vector<const ExplorerSetting*>& explorer_settings();

// "" if `value` is allowed, else "dk must be in [1, 4096], got 0" or "alpha must be a finite number in [0, 2],
// got nan" (a row's own range; `hi` overrides it, for top whose upper end is the number of keys).
std::string check_explorer(const ExplorerSetting& s, double value);
std::string check_explorer(const ExplorerSetting& s, double value, double hi);

// One usage line: "  --dk N       query/key dimension, 1..4096 (default 128)".
std::string explorer_usage_line(const ExplorerSetting& s);

}  // namespace sqrtdk
