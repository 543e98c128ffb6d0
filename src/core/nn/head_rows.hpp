// The rows the last layer computes after its attention scores: in each of B sequences of T positions, the
// positions first .. T-1.  With first = the copy layout's first scored position these are the rows the loss
// scores; nothing else the last layer computes past the scores reaches the loss (a row's output feeds only its
// own logits).  With first = 0 they are all rows: the reference the tests compare to.
//
// A buffer "of the head rows" holds them compactly, sequence after sequence: (B * (T - first), width).
#pragma once

namespace sqrtdk {

struct HeadRows {
  int B = 0, TT = 0;
  int first = 0;  // first position computed in each sequence

  int per_sequence() const { return TT - first; }
  int count() const { return B * per_sequence(); }  // R
  bool all() const { return first == 0; }
  // The compact row of position p (first <= p < T) of sequence b.
  long row(int b, int p) const { return static_cast<long>(b) * per_sequence() + (p - first); }
};

// out (R, C) = the head rows of x (B * T, C).
template <typename T>
void gather_head_rows(T* out, const T* x, const HeadRows& rows, int C);

// x (B * T, C) from its head rows held compactly at the start of x itself: each moves to its place, the rows
// before `first` become 0.  In place: x holds (R, C) on entry and (B * T, C) on return.
template <typename T>
void expand_head_rows(T* x, const HeadRows& rows, int C);

}  // namespace sqrtdk
