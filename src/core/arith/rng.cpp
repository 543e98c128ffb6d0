#include "core/arith/rng.hpp"

#include <cmath>

#include "core/arith/det_math.hpp"

namespace sqrtdk {

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Marsaglia's polar method: a point uniform in the unit disc gives two independent normals with one log and
  // one sqrt (both exact or libm-free), where Box-Muller needs sin and cos, whose last bit varies by C library.
  double u, v, s;
  do {
    u = uniform(-1.0, 1.0);
    v = uniform(-1.0, 1.0);
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * det::log(s) / s);
  spare_ = v * factor;
  has_spare_ = true;
  return u * factor;
}

Rng Rng::derive(uint64_t seed, uint64_t label) {
  Rng mixer(seed ^ (label * 0xD1B54A32D192ED03ull));
  mixer.next_u64();
  return Rng(mixer.next_u64());
}

}  // namespace sqrtdk
