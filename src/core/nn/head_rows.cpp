#include "core/nn/head_rows.hpp"

#include <algorithm>

namespace sqrtdk {

template <typename T>
void gather_head_rows(T* out, const T* x, const HeadRows& rows, int C) {
  const long span = static_cast<long>(rows.per_sequence()) * C;
  for (int b = 0; b < rows.B; ++b) {
    const T* from = x + (static_cast<long>(b) * rows.TT + rows.first) * C;
    std::copy(from, from + span, out + b * span);
  }
}

// Last sequence first: sequence b's rows move up (to b T + first from b (T - first)), never onto a sequence
// below b that is still to move, and its zeroed rows [b T, b T + first) lie above every such sequence's rows.
template <typename T>
void expand_head_rows(T* x, const HeadRows& rows, int C) {
  if (rows.all()) return;
  const long span = static_cast<long>(rows.per_sequence()) * C;
  for (int b = rows.B - 1; b >= 0; --b) {
    T* seq = x + static_cast<long>(b) * rows.TT * C;
    const T* from = x + b * span;
    std::copy_backward(from, from + span, seq + static_cast<long>(rows.TT) * C);
    std::fill(seq, seq + static_cast<long>(rows.first) * C, T(0));
  }
}

template void gather_head_rows<float>(float*, const float*, const HeadRows&, int);
template void gather_head_rows<double>(double*, const double*, const HeadRows&, int);
template void gather_head_rows<int>(int*, const int*, const HeadRows&, int);
template void expand_head_rows<float>(float*, const HeadRows&, int);
template void expand_head_rows<double>(double*, const HeadRows&, int);

}  // namespace sqrtdk
