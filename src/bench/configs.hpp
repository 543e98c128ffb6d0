// The two configurations every implementation is measured on (scripts/bench/protocol.mjs and
// tests/reference/bench_torch.py list the same).
#pragma once
#include <vector>

#include "core/settings/config.hpp"

namespace sqrtdk::bench {

struct NamedConfig {
  const char* name;
  TrainConfig config;
};

// canonical: 2 layers, d_model 64, 1 head, d_ff 256, copy length 10, batch 32;
// wide: the same with d_model 128, 4 heads, d_ff 512.  Evaluation off.
std::vector<NamedConfig> bench_configs();

}  // namespace sqrtdk::bench
