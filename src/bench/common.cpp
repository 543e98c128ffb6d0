#include "bench/common.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "../../tests/cpp/alloc_counter.hpp"

namespace sqrtdk::bench {

double allocations_per_call(const Calls& run, int calls) {
  if (!testing::CountAllocations::available()) return std::numeric_limits<double>::quiet_NaN();
  testing::CountAllocations allocations;
  run(calls);
  return static_cast<double>(allocations.count()) / calls;
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

}  // namespace sqrtdk::bench
