// Flags read and documented from RangeSetting rows (core/settings/explorer_settings.hpp for softmax, histogram and
// sweep; core/settings/run_settings.hpp for compare and train), so a default or a range is written once.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "cli/args.hpp"
#include "core/settings/explorer_settings.hpp"
#include "core/lesson/softmax_stats.hpp"

namespace sqrtdk {

int range_int(const Args& args, const RangeSetting& s);         // an integer row: --dk, --keys, --steps ...
double range_real(const Args& args, const RangeSetting& s);     // a real row: --alpha, --threshold
uint64_t explorer_seed(const Args& args);                       // the explorer's --seed

// The flags of many draws (sweep and histogram): --keys, --draws, --seed, --alpha, --method.
template <typename Params>
void read_draw_flags(const Args& args, Params& p) {
  p.keys = range_int(args, explorer::keys);
  p.draws = range_int(args, explorer::draws);
  p.seed = explorer_seed(args);
  p.alpha = range_real(args, explorer::alpha);
  p.method = args.get_choice("method", "fast", {"fast", "exact"}) == "exact" ? DrawMethod::exact : DrawMethod::fast;
}

// "[--dk 128] [--keys 50]": the synopsis of the usage's first line.
std::string range_synopsis(std::initializer_list<const RangeSetting*> rows);
// One "  --dk N  query/key dimension, 1..4096 (default 128)" line per row.
std::string range_usage(std::initializer_list<const RangeSetting*> rows);

}  // namespace sqrtdk
