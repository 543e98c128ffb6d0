// Counts heap allocations made through operator new while a CountAllocations object is alive, and the bytes
// they leave allocated (requested sizes: new adds, delete of a block counted in the scope subtracts).
#pragma once
#include <cstddef>

namespace sqrtdk::testing {

class CountAllocations {
 public:
  CountAllocations();
  ~CountAllocations();
  std::size_t count() const;
  long long live_bytes() const;  // bytes requested in this scope and not yet freed
  static bool available();  // false under AddressSanitizer (see alloc_counter.cpp)
};

}  // namespace sqrtdk::testing
