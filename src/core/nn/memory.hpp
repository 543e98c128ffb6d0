// What a Trainer allocates, from the same layout code that sizes its blocks (ParamLayout for the parameter
// block, Workspace::size for the activations), so the estimate the memory cap checks is the allocation itself.
#pragma once
#include <cstdint>
#include <string>

#include "core/settings/config.hpp"

namespace sqrtdk {

// Bytes a Trainer for the configuration allocates, by what they hold.
struct MemoryPlan {
  uint64_t parameters = 0;   // weights, gradients, optimizer state: parameter_blocks() parameter blocks
  uint64_t activations = 0;  // per-token buffers of the train and eval workspaces, tokens, batches
  uint64_t attention = 0;    // (B, H, T, T) softmax weights per layer, both workspaces
  uint64_t logits = 0;       // (N, V) logits, probabilities and their gradient, both workspaces
  uint64_t bookkeeping = 0;  // parameter names, shapes, views, per-step metrics: an upper bound (strings)
  uint64_t slack = 0;        // how far bookkeeping may exceed what is allocated: the names' allocations,
                             // which depend on the standard library's small-string size, are bounded above
  uint64_t total() const { return parameters + activations + attention + logits + bookkeeping; }

  // "the output logits (3 x batch x sequence x vocabulary: reduce symbols, batch, eval_batch or copy_length)":
  // the largest part and the settings that size it.
  std::string largest_part() const;
};

// Parameter-sized blocks a Trainer holds: weights, gradients and the optimizer's state (Adam's two moments, or
// SGD's velocity).
int parameter_blocks(const OptimConfig& optim);

MemoryPlan memory_plan(const TrainConfig& config);

}  // namespace sqrtdk
