#include "core/arith/median.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sqrtdk {

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  // A strict weak order over every double: numbers by <, then NaN.
  std::sort(v.begin(), v.end(), [](double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; });
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace sqrtdk
