// Deterministic randomness that gives the same numbers natively and in WebAssembly: the integer stream, the
// uniforms and the normals are bit-identical (the normals use det_math.hpp's log, not the C library's).
// std::normal_distribution differs between standard libraries, so the normal sampler is our own.
#pragma once
#include <cstdint>

namespace sqrtdk {

// The largest seed anything accepts: 2^53 - 1, the largest integer a double and a JS number hold exactly, so
// every seed printed in JSON or kept in a URL can be given back to the CLI, the wasm module and the page.
constexpr uint64_t kMaxSeed = (uint64_t(1) << 53) - 1;

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, passes BigCrush, and a good seeder.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias < 2^-32 for the small n used here).
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>(((next_u64() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

  // Standard normal by Marsaglia's polar method; the second value of each pair is kept for the next call.
  double normal();

  // An independent stream derived from this seed and a label (for "eval data", "init", ...).
  static Rng derive(uint64_t seed, uint64_t label);

 private:
  uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace sqrtdk
