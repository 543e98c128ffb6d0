#include "core/text/number_text.hpp"

#include <cmath>
#include <cstdio>

namespace sqrtdk {
namespace {

// ∞ rather than printf's "inf": one spelling with the page's.
const char* infinity(double x) { return x > 0 ? "∞" : "-∞"; }

std::string printed(const char* format, double x) {
  if (x == 0) x = 0;  // -0 is written "0", as JavaScript writes it
  char buf[40];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

}  // namespace

std::string power_of_ten(int exponent) {
  static const char* const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = exponent < 0 ? "10⁻" : "10";
  const std::string digits = std::to_string(exponent < 0 ? -exponent : exponent);
  for (char d : digits) out += kDigits[d - '0'];
  return out;
}

std::string format_number(double x) {
  if (std::isnan(x)) return "–";
  if (std::isinf(x)) return infinity(x);
  const std::string g = printed("%.3g", x);  // %.3g's rounding; its exponent form rewritten as ×10ⁿ
  const std::size_t e = g.find('e');
  if (e == std::string::npos) return g;
  const std::string mantissa = g.substr(0, e), power = power_of_ten(std::stoi(g.substr(e + 1)));
  if (mantissa == "1" || mantissa == "-1") return (mantissa == "-1" ? "-" : "") + power;
  return mantissa + "×" + power;
}

std::string format_significant(double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return format_number(x);
  // %.2e rounds to 3 significant digits as %.3g does; its exponent says how many decimals keep all three.  (glibc's
  // %#.3g writes 999.5 as "1.e+03", losing the zeros.)
  const std::string e_form = printed("%.2e", x);
  const std::size_t e = e_form.find('e');
  const int exponent = std::stoi(e_form.substr(e + 1));
  if (exponent < -4 || exponent >= 3) return e_form.substr(0, e) + "×" + power_of_ten(exponent);
  char format[8];
  std::snprintf(format, sizeof format, "%%.%df", 2 - exponent);
  return printed(format, x);
}

std::string format_given(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return infinity(x);
  return printed("%g", x);
}

std::string format_whole(double x) {
  if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 1e18) return printed("%.0f", x);
  return format_given(x);
}

std::string format_steps(double steps) { return printed(steps == std::floor(steps) ? "%.0f" : "%.1f", steps); }

}  // namespace sqrtdk
