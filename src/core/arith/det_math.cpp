#include "core/arith/det_math.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace sqrtdk::det {
namespace {

// ln 2 in two parts (fdlibm's): the first has 32 significant bits, so k * kLn2Hi is exact for |k| < 2^21.
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;

// 1 / n! for n = 0..14, each rounded once (n! is exact in double up to 18!).
constexpr double kInverseFactorial[15] = {
    1.0,         1.0,          1.0 / 2,         1.0 / 6,          1.0 / 24,          1.0 / 120,
    1.0 / 720,   1.0 / 5040,   1.0 / 40320,     1.0 / 362880,     1.0 / 3628800,     1.0 / 39916800,
    1.0 / 479001600, 1.0 / 6227020800, 1.0 / 87178291200};

// 2^k for -1022 <= k <= 1023, from its exponent bits.
double power_of_two(int k) {
  const uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// 2 atanh(s) = log((1 + s) / (1 - s)) for |s| <= 0.1716: s + s^3/3 + s^5/5 + ..., the terms after s^23/23 are
// below 1e-18 relative.
double two_atanh(double s) {
  const double z = s * s;
  double p = 1.0 / 23;
  for (int n = 21; n >= 3; n -= 2) p = p * z + 1.0 / n;
  return 2 * s + 2 * s * (z * p);
}

}  // namespace

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = k ln2 + r, |r| <= ln2 / 2 (std::floor is exact)
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // e^r by its Taylor series to r^14 / 14! (the next term is below 1e-18 relative at |r| = 0.347)
  double p = kInverseFactorial[14];
  for (int n = 13; n >= 0; --n) p = p * r + kInverseFactorial[n];
  // 2^k = 2^k1 2^k2, each a normal double for k in [-1075, 1024]; the last product rounds once
  const int ki = static_cast<int>(k);
  const int k1 = ki / 2, k2 = ki - k1;
  return p * power_of_two(k1) * power_of_two(k2);
}

double log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // exact: x = m 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  // m in [sqrt(1/2), sqrt(2)): log m = 2 atanh((m - 1) / (m + 1))
  const double f = m - 1;
  const double ed = e;
  return ed * kLn2Hi + (two_atanh(f / (2 + f)) + ed * kLn2Lo);
}

double log1p(double x) {
  if (std::fabs(x) < 0.25) return two_atanh(x / (2 + x));
  return log(1 + x);
}

double pow(double x, double y) { return exp(y * log(x)); }

}  // namespace sqrtdk::det
