#include "bench/configs.hpp"

namespace sqrtdk::bench {

std::vector<NamedConfig> bench_configs() {
  TrainConfig canonical;           // the defaults are the canonical configuration
  canonical.eval_every = 1000000;  // Trainer::step() never evaluates; this keeps run() from doing so too
  TrainConfig wide = canonical;
  wide.model.n_heads = 4;
  wide.model.d_model = 128;  // d_ff 0 = 4 * d_model = 512
  return {{"canonical", canonical}, {"wide", wide}};
}

}  // namespace sqrtdk::bench
