// The copy task's token layout: the one place it is defined (config.hpp sizes the model from it,
// copy_task.cpp samples batches in it, the attention map's guide is drawn from it).
//
//   token ids      0 = BOS, 1 = SEP, 2 .. n_symbols+1 = the symbols
//   one sequence   BOS x1 .. xL SEP x1 .. xL                      (2L + 2 tokens)
//   model input    positions 0 .. 2L   = the sequence minus its last token   (T = 2L + 1):
//                  0 = BOS, 1 .. L = x1 .. xL, L+1 = SEP, L+2 .. 2L = the copy so far
//   target         positions 0 .. 2L   = the sequence minus its first token
//   loss           only at positions L+1 .. 2L, whose targets are the copy x1 .. xL (L positions);
//                  the first half is random and cannot be predicted, so it is not scored.
//
// Greedy decoding feeds BOS x SEP, then at position p = L+1 .. 2L takes the argmax as the next input.
#pragma once

namespace sqrtdk {

struct CopyLayout {
  // token ids
  static constexpr int bos = 0;
  static constexpr int sep = 1;
  static constexpr int first_symbol = 2;
  static constexpr int vocab(int n_symbols) { return first_symbol + n_symbols; }

  int copy_length;  // L
  int positions() const { return 2 * copy_length + 1; }    // T, the model's input length
  int bos_position() const { return 0; }
  int sep_position() const { return copy_length + 1; }
  int first_scored() const { return copy_length + 1; }     // first position whose target is x1
  int last_scored() const { return 2 * copy_length; }
  bool scored(int position) const { return position >= first_scored(); }
  // Where a model that copies looks from scored query p: the key holding the symbol it must write next.
  int source_of(int query) const { return query - copy_length; }
};

}  // namespace sqrtdk
