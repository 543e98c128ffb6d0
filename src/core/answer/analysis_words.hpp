// Phrases the answer's sentences (analysis_text.cpp) and its table cells (analysis_cells.cpp) share.
#pragma once
#include <cstddef>

#include "core/answer/analysis.hpp"

namespace sqrtdk {

// "1 seed", "3 seeds".
Message seeds_message(std::size_t n);
// The variant's table cell against the reference: "57 steps later (1.93×)", "3 steps earlier (0.967×)".
Message difference(const VariantResult& v);
// The reference against the variant, as the answer's sentence says it: "57 steps earlier than unscaled",
// "3 steps later than QK-norm", "in the same number of steps as unscaled".
Message reference_gap(const VariantResult& v);

}  // namespace sqrtdk
