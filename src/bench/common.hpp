// Small helpers shared by the report (bench_main.cpp) and the step server (step_server.cpp).
#pragma once
#include <string>

#include "bench/timing.hpp"

namespace sqrtdk::bench {

// Heap allocations per call of `run` over `calls` calls, counted by the test suite's operator new replacement
// (tests/cpp/alloc_counter.cpp).  NaN where that counter is compiled out (AddressSanitizer builds): a 0 is
// only ever reported after counting.
double allocations_per_call(const Calls& run, int calls);

// x as a JSON number; null when it is not finite.
std::string json_number(double x);

}  // namespace sqrtdk::bench
