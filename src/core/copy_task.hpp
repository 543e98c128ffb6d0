// The copy task: the one place its token layout is defined.
//
//   token ids      0 = BOS, 1 = SEP, 2 .. n_symbols+1 = the symbols
//   one sequence   BOS x1 .. xL SEP x1 .. xL                      (2L + 2 tokens)
//   model input    positions 0 .. 2L   = the sequence minus its last token   (T = 2L + 1)
//   target         positions 0 .. 2L   = the sequence minus its first token
//   loss           only at positions L+1 .. 2L, whose targets are the copy x1 .. xL (L positions);
//                  the first half is random and cannot be predicted, so it is not scored.
//
// Greedy decoding feeds BOS x SEP, then at position p = L+1 .. 2L takes the argmax as the next input.
#pragma once
#include <cstdint>
#include <vector>

#include "core/config.hpp"
#include "core/rng.hpp"

namespace sqrtdk {

struct CopyLayout {
  static constexpr int bos = 0;
  static constexpr int sep = 1;
  static constexpr int first_symbol = 2;

  int copy_length;  // L
  int positions() const { return 2 * copy_length + 1; }    // T
  int first_scored() const { return copy_length + 1; }     // first position whose target is x1
  bool scored(int position) const { return position >= first_scored(); }
};

// A batch in the layout above; inputs and targets are (B, T) row-major.
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
