#include "core/explorer_settings.hpp"

#include <cmath>
#include <cstdio>

namespace sqrtdk {
namespace {

std::string printed(const char* format, double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}
std::string format_integer(double x) { return printed("%.0f", x); }
std::string format_general(double x) { return printed("%g", x); }

}  // namespace

const std::vector<const ExplorerSetting*>& explorer_settings() {
  static const std::vector<const ExplorerSetting*> rows = {&explorer::dk,    &explorer::keys, &explorer::draws,
                                                           &explorer::seed,  &explorer::alpha, &explorer::top,
                                                           &explorer::bins};
  return rows;
}

std::string check_explorer(const ExplorerSetting& s, double value) { return check_explorer(s, value, s.hi); }

std::string check_explorer(const ExplorerSetting& s, double value, double hi) {
  const bool inside = std::isfinite(value) && value >= s.lo && value <= hi && (!s.integer || std::floor(value) == value);
  if (inside) return "";
  if (s.integer) {
    return std::string(s.name) + " must be in [" + format_integer(s.lo) + ", " + format_integer(hi) + "], got " +
           format_general(value);
  }
  return std::string(s.name) + " must be a finite number in [" + format_general(s.lo) + ", " + format_general(hi) +
         "], got " + format_general(value);
}

std::string explorer_usage_line(const ExplorerSetting& s) {
  const std::string flag = std::string("--") + s.name + (s.integer ? " N" : " A");
  char line[256];
  std::snprintf(line, sizeof line, "  %-13s %s, %s (default %s)\n", flag.c_str(), s.doc, s.range_doc,
                s.integer ? format_integer(s.value).c_str() : format_general(s.value).c_str());
  return line;
}

}  // namespace sqrtdk
