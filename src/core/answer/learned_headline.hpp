// The claims' form of "how many seeds learned": one item per variant, "{label} reached loss {threshold} and ended
// below on {k} of {n} (median {m} steps)", the median taken over the seeds that learned (analysis.hpp's one
// definition of learned).  The presets' 20-seed headlines (claims.cpp) and the learner's own runs
// (runs_headline) are written by it, so that a learner reads the two side by side in one form.  The answer's table
// has another median, over every seed with "never" as the slowest; the words say which is which.
#pragma once
#include <vector>

#include "core/answer/analysis.hpp"
#include "core/text/phrasebook.hpp"

namespace sqrtdk {

// One variant's item; `first` says the whole sentence (the threshold named), the others only the counts.
// median_of_learned: the median steps of the seeds that learned (arith/median.hpp), NaN when none learned.
Message learned_item(const Arg& label, double threshold, int learned, int n, double median_of_learned, bool first);

// "Your seeds 0–2: scaled 1/√d_k reached loss 0.1 and ended below on 3 of 3 (median 63 steps), ...":
// the answer's runs in the claims' form; no key (empty Message) until the answer is final.
Message runs_headline(const Answer& answer);

}  // namespace sqrtdk
