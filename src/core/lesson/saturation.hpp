// What "saturated" means, everywhere the lab says it (the explorer's notes, the training notes, the claims):
// a softmax row is saturated when one key takes almost all of its weight, its largest weight at least
// kSaturatedTopWeight.  The threshold does not depend on how many keys the row has, so a row of 2 keys and
// a row of 50 are judged alike (a uniform row's top weight is 1/n, a one-hot row's 1).
#pragma once

namespace sqrtdk {

inline constexpr double kSaturatedTopWeight = 0.9;

inline bool saturated(double top_weight) { return top_weight >= kSaturatedTopWeight; }

}  // namespace sqrtdk
