// The copy task's batches, in the layout of copy_layout.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "core/settings/config.hpp"
#include "core/settings/copy_layout.hpp"
#include "core/arith/rng.hpp"

namespace sqrtdk {

// A batch in the copy layout; inputs and targets are (B, T) row-major.
struct CopyBatch {
  int batch = 0;
  int positions = 0;
  std::vector<int32_t> inputs;
  std::vector<int32_t> targets;

  void resize(int b, int t);
};

// Fill `out` (already sized) with fresh random sequences; symbols are uniform over n_symbols.
void sample_copy_batch(const TaskConfig& task, Rng& rng, CopyBatch& out);

}  // namespace sqrtdk
