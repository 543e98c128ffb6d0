// Counts heap allocations made through operator new while a CountAllocations object is alive.
#pragma once
#include <cstddef>

namespace sqrtdk::testing {

class CountAllocations {
 public:
  CountAllocations();
  ~CountAllocations();
  std::size_t count() const;
  static bool available();  // false under AddressSanitizer (see alloc_counter.cpp)
};

}  // namespace sqrtdk::testing
