// The memory estimate is the allocation: a workspace exactly; a whole trainer up to the rounding of its
// parameter names' allocations (the estimate is never below the allocation).
#include <catch2/catch.hpp>

#include <cstdio>

#include "alloc_counter.hpp"
#include "core/nn/memory.hpp"
#include "core/nn/model.hpp"
#include "core/train/trainer.hpp"
#include "core/nn/valid_config.hpp"

using namespace sqrtdk;

namespace {

// Five configurations that stress different terms: canonical, qknorm with heads, wide MLP, many symbols,
// long sequences with many layers.
std::vector<TrainConfig> configurations() {
  std::vector<TrainConfig> out(5);
  out[1].model.scale = ScaleMode::qknorm;
  out[1].model.n_heads = 4;
  out[2].model.d_model = 128;
  out[2].model.d_ff = 1024;
  out[2].task.batch = 16;
  out[3].model.d_model = 8;
  out[3].task.n_symbols = 1000;
  out[3].task.batch = 8;
  out[3].task.eval_batch = 8;
  out[4].model.n_layers = 6;
  out[4].task.copy_length = 32;
  out[4].task.batch = 8;
  out[4].model.n_heads = 2;
  out[4].optim.optimizer = Optimizer::sgd;
  return out;
}

}  // namespace

TEST_CASE("a workspace allocates exactly the bytes its layout pass counts", "[memory]") {
  if (!testing::CountAllocations::available()) {
    WARN("allocation counting is off in sanitizer builds; the release build runs this test");
    return;
  }
  for (const TrainConfig& c : configurations()) {
    for (const int batch : {c.task.batch, c.task.eval_batch}) {
      testing::CountAllocations count;
      const Workspace<float> ws(c, batch);
      CHECK(count.live_bytes() == static_cast<long long>(Workspace<float>::bytes(c, batch)));
      CHECK(ws.storage.size() == Workspace<float>::size(c, batch).total());
    }
  }
}

TEST_CASE("a trainer allocates its estimate, less at most the slack of the names' allocations", "[memory]") {
  if (!testing::CountAllocations::available()) {
    WARN("allocation counting is off in sanitizer builds; the release build runs this test");
    return;
  }
  CHECK(validate(TrainConfig{}).empty());  // builds the settings table (once per process) outside the count
  for (const TrainConfig& c : configurations()) {
    const MemoryPlan plan = memory_plan(c);
    testing::CountAllocations count;
    const Trainer trainer(c);
    const long long allocated = count.live_bytes();
    const long long estimate = static_cast<long long>(estimated_bytes(c));
    CAPTURE(c.model.d_model, c.task.n_symbols, allocated, estimate, plan.slack);
    CHECK(estimate == static_cast<long long>(plan.total()));
    CHECK(allocated <= estimate);
    CHECK(allocated >= estimate - static_cast<long long>(plan.slack));
    std::printf("memory: layers %d d_model %d heads %d d_ff %d copy %d symbols %d batch %d/%d: estimate %lld, "
                "allocated %lld (difference %lld, slack %llu)\n",
                c.model.n_layers, c.model.d_model, c.model.n_heads, c.model.ff(), c.task.copy_length,
                c.task.n_symbols, c.task.batch, c.task.eval_batch, estimate, allocated, estimate - allocated,
                static_cast<unsigned long long>(plan.slack));
  }
}

TEST_CASE("the cap's message names the part that dominates and the settings that size it", "[memory]") {
  TrainConfig logits;  // the symbols dominate: (N, V) buffers
  logits.model.d_model = 8;
  logits.task.n_symbols = 1000;
  logits.task.batch = 1024;
  logits.task.copy_length = 64;
  CHECK_THAT(validate(logits), Catch::Matchers::Contains("most of it is the output logits") &&
                                   Catch::Matchers::Contains("reduce symbols"));
  TrainConfig attention;  // many heads over long sequences: (B, H, T, T)
  attention.model.n_heads = 64;
  attention.task.copy_length = 64;
  attention.task.batch = 256;
  CHECK_THAT(validate(attention), Catch::Matchers::Contains("most of it is the attention maps"));
  TrainConfig parameters;  // wide and deep with a tiny batch
  parameters.model.d_model = 1024;
  parameters.model.d_ff = 8192;
  parameters.model.n_layers = 12;
  parameters.task.batch = 1;
  parameters.task.eval_batch = 1;
  CHECK_THAT(validate(parameters), Catch::Matchers::Contains("most of it is the parameters"));
  TrainConfig activations;
  activations.model.d_model = 1024;
  activations.model.d_ff = 8192;
  activations.task.batch = 512;
  activations.task.copy_length = 32;
  CHECK_THAT(validate(activations), Catch::Matchers::Contains("most of it is the activations"));
}
