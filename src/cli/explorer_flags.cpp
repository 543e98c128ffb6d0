#include "cli/explorer_flags.hpp"

#include <cstdio>

namespace sqrtdk {

int explorer_int(const Args& args, const ExplorerSetting& s) {
  return args.get_int(s.name, static_cast<int>(s.value), static_cast<int>(s.lo), static_cast<int>(s.hi));
}

double explorer_real(const Args& args, const ExplorerSetting& s) { return args.get_double(s.name, s.value, s.lo, s.hi); }

uint64_t explorer_seed(const Args& args) {
  const ExplorerSetting& s = explorer::seed;
  return args.get_u64(s.name, static_cast<uint64_t>(s.value), static_cast<uint64_t>(s.lo), static_cast<uint64_t>(s.hi));
}

std::string explorer_synopsis(std::initializer_list<const ExplorerSetting*> rows) {
  std::string text;
  for (const ExplorerSetting* s : rows) {
    char part[64];
    std::snprintf(part, sizeof part, "%s[--%s %g]", text.empty() ? "" : " ", s->name, s->value);
    text += part;
  }
  return text;
}

std::string explorer_usage(std::initializer_list<const ExplorerSetting*> rows) {
  std::string text;
  for (const ExplorerSetting* s : rows) text += explorer_usage_line(*s);
  return text;
}

}  // namespace sqrtdk
