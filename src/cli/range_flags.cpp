#include "cli/range_flags.hpp"

#include <cstdio>

namespace sqrtdk {

int range_int(const Args& args, const RangeSetting& s) {
  return args.get_int(s.name, static_cast<int>(s.value), static_cast<int>(s.lo), static_cast<int>(s.hi));
}

double range_real(const Args& args, const RangeSetting& s) { return args.get_double(s.name, s.value, s.lo, s.hi); }

uint64_t explorer_seed(const Args& args) {
  const RangeSetting& s = explorer::seed;
  return args.get_u64(s.name, static_cast<uint64_t>(s.value), static_cast<uint64_t>(s.lo), static_cast<uint64_t>(s.hi));
}

std::string range_synopsis(std::initializer_list<const RangeSetting*> rows) {
  std::string text;
  for (const RangeSetting* s : rows) {
    char part[64];
    std::snprintf(part, sizeof part, "%s[--%s %s]", text.empty() ? "" : " ", s->name, default_text(*s).c_str());
    text += part;
  }
  return text;
}

std::string range_usage(std::initializer_list<const RangeSetting*> rows) {
  std::string text;
  for (const RangeSetting* s : rows) text += range_usage_line(*s);
  return text;
}

}  // namespace sqrtdk
