// Replaces the global operator new for the test binary so a test can count allocations in a scope.
// Not under AddressSanitizer, whose own operator new/delete would then be mixed with ours (the release
// build runs the allocation test; the sanitizer build skips it).
#include "alloc_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define SQRTDK_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQRTDK_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef SQRTDK_COUNT_ALLOCATIONS
#define SQRTDK_COUNT_ALLOCATIONS 1
#endif

namespace {
std::atomic<bool> g_counting{false};      // test-binary instrumentation, not library state
std::atomic<std::size_t> g_allocations{0};
}  // namespace

#if SQRTDK_COUNT_ALLOCATIONS
namespace {
void* allocate(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace sqrtdk::testing {
CountAllocations::CountAllocations() {
  g_allocations = 0;
  g_counting = true;
}
CountAllocations::~CountAllocations() { g_counting = false; }
std::size_t CountAllocations::count() const { return g_allocations.load(); }
bool CountAllocations::available() { return SQRTDK_COUNT_ALLOCATIONS != 0; }
}  // namespace sqrtdk::testing
