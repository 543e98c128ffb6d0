#include "core/rng.hpp"

#include <cmath>

namespace sqrtdk {

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // u1 in (0, 1] so that log(u1) is finite.
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = 6.283185307179586476925286766559 * u2;
  spare_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

Rng Rng::derive(uint64_t seed, uint64_t label) {
  Rng mixer(seed ^ (label * 0xD1B54A32D192ED03ull));
  mixer.next_u64();
  return Rng(mixer.next_u64());
}

}  // namespace sqrtdk
