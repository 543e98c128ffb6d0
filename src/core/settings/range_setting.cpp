#include "core/settings/range_setting.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/text/number_text.hpp"
#include "core/arith/rng.hpp"  // kMaxSeed

namespace sqrtdk {

std::string check_range(const RangeSetting& s, double value) { return check_range(s, value, s.hi); }

std::string check_range(const RangeSetting& s, double value, double hi) {
  const bool inside = std::isfinite(value) && value >= s.lo && value <= hi && (!s.integer || std::floor(value) == value);
  if (inside) return "";
  if (s.integer) {
    return std::string(s.name) + " must be in [" + format_whole(s.lo) + ", " + format_whole(hi) + "], got " +
           format_given(value);
  }
  return std::string(s.name) + " must be a finite number in [" + format_given(s.lo) + ", " + format_given(hi) +
         "], got " + format_given(value);
}

std::string range_text(const RangeSetting& s) {
  if (!s.integer) return "[" + format_given(s.lo) + ", " + format_given(s.hi) + "]";
  const std::string hi = s.hi_name                                 ? std::string(s.hi_name)
                         : s.hi == static_cast<double>(kMaxSeed) ? std::string("2^53-1")
                                                                   : format_whole(s.hi);
  return format_whole(s.lo) + ".." + hi;
}

std::string default_text(const RangeSetting& s) {
  return s.integer ? format_whole(s.value) : format_given(s.value);
}

std::string range_usage_line(const RangeSetting& s) {
  const std::string flag = std::string("--") + s.name + (s.integer ? " N" : " A");
  char line[256];
  std::snprintf(line, sizeof line, "  %-13s %s, %s (default %s)\n", flag.c_str(), s.doc, range_text(s).c_str(),
                default_text(s).c_str());
  return line;
}

}  // namespace sqrtdk
