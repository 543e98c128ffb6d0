// Phrases the answer's sentences (analysis_text.cpp) and its table cells (analysis_cells.cpp) share.
#pragma once
#include <cstddef>

#include "core/answer/analysis.hpp"

namespace sqrtdk {

// "1 seed", "3 seeds".
Message seeds_message(std::size_t n);
// "57 steps later (1.93× as many steps)", "3 steps earlier (0.967× as many steps)"; in a table cell the ratio
// alone: "57 steps later (1.93×)".
Message difference(const VariantResult& v, bool cell);

}  // namespace sqrtdk
