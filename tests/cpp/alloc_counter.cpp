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
std::atomic<long long> g_live_bytes{0};
std::atomic<unsigned> g_scope{0};  // which CountAllocations scope a block was counted in (0: none)
}  // namespace

#if SQRTDK_COUNT_ALLOCATIONS
namespace {
// Every block carries a 16-byte header (keeping malloc's 16-byte alignment): its size, and the scope that
// counted it, so that delete subtracts exactly what new added, and only for blocks of the current scope.
struct Header {
  std::size_t size;
  unsigned scope;
};
constexpr std::size_t kHeader = 16;
static_assert(sizeof(Header) <= kHeader, "header too large");

void* allocate(std::size_t size) {
  auto* raw = static_cast<unsigned char*>(std::malloc(kHeader + (size ? size : 1)));
  if (raw == nullptr) throw std::bad_alloc();
  const bool counting = g_counting.load(std::memory_order_relaxed);
  *reinterpret_cast<Header*>(raw) = Header{size, counting ? g_scope.load() : 0u};
  if (counting) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    g_live_bytes.fetch_add(static_cast<long long>(size), std::memory_order_relaxed);
  }
  return raw + kHeader;
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  unsigned char* raw = static_cast<unsigned char*>(p) - kHeader;
  const Header header = *reinterpret_cast<Header*>(raw);
  if (header.scope != 0 && header.scope == g_scope.load() && g_counting.load(std::memory_order_relaxed))
    g_live_bytes.fetch_sub(static_cast<long long>(header.size), std::memory_order_relaxed);
  std::free(raw);
}
}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
#endif

namespace sqrtdk::testing {
CountAllocations::CountAllocations() {
  g_allocations = 0;
  g_live_bytes = 0;
  g_scope.fetch_add(1);
  g_counting = true;
}
CountAllocations::~CountAllocations() { g_counting = false; }
std::size_t CountAllocations::count() const { return g_allocations.load(); }
long long CountAllocations::live_bytes() const { return g_live_bytes.load(); }
bool CountAllocations::available() { return SQRTDK_COUNT_ALLOCATIONS != 0; }
}  // namespace sqrtdk::testing
