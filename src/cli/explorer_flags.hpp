// The explorer commands' flags (softmax, histogram, sweep), read and documented from the rows of
// core/explorer_settings.hpp, so a default or a range is written once.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "cli/args.hpp"
#include "core/explorer_settings.hpp"
#include "core/softmax_stats.hpp"

namespace sqrtdk {

int explorer_int(const Args& args, const ExplorerSetting& s);      // an integer row: --dk, --keys, --draws, --bins
double explorer_real(const Args& args, const ExplorerSetting& s);  // a real row: --alpha
uint64_t explorer_seed(const Args& args);                          // --seed

// The flags of many draws (sweep and histogram): --keys, --draws, --seed, --alpha, --method.
template <typename Params>
void read_draw_flags(const Args& args, Params& p) {
  p.keys = explorer_int(args, explorer::keys);
  p.draws = explorer_int(args, explorer::draws);
  p.seed = explorer_seed(args);
  p.alpha = explorer_real(args, explorer::alpha);
  p.method = args.get_choice("method", "fast", {"fast", "exact"}) == "exact" ? DrawMethod::exact : DrawMethod::fast;
}

// "[--dk 128] [--keys 50]": the synopsis of the usage's first line.
std::string explorer_synopsis(std::initializer_list<const ExplorerSetting*> rows);
// One "  --dk N  query/key dimension, 1..4096 (default 128)" line per row.
std::string explorer_usage(std::initializer_list<const ExplorerSetting*> rows);

}  // namespace sqrtdk
