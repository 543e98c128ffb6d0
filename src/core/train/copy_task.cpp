#include "core/train/copy_task.hpp"

namespace sqrtdk {

void CopyBatch::resize(int b, int t) {
  batch = b;
  positions = t;
  inputs.assign(static_cast<std::size_t>(b) * t, 0);
  targets.assign(static_cast<std::size_t>(b) * t, 0);
}

void sample_copy_batch(const TaskConfig& task, Rng& rng, CopyBatch& out) {
  const CopyLayout layout{task.copy_length};
  const int L = task.copy_length, T = layout.positions();
  for (int b = 0; b < out.batch; ++b) {
    int32_t* in = out.inputs.data() + static_cast<std::size_t>(b) * T;
    int32_t* tgt = out.targets.data() + static_cast<std::size_t>(b) * T;
    in[0] = CopyLayout::bos;
    for (int i = 0; i < L; ++i) in[1 + i] = CopyLayout::first_symbol + static_cast<int32_t>(rng.below(task.n_symbols));
    in[L + 1] = CopyLayout::sep;
    for (int i = 0; i < L - 1; ++i) in[L + 2 + i] = in[1 + i];
    // target[p] = sequence[p + 1]
    for (int p = 0; p < T - 1; ++p) tgt[p] = in[p + 1];
    tgt[T - 1] = in[L];
  }
}

}  // namespace sqrtdk
