// Placeholder so the CLI links until the lead's cmd_compare.cpp replaces this file.
#include <cstdio>

#include "cli/commands.hpp"

namespace sqrtdk {

int run_compare(const Args&) {
  std::fputs("sqrtdk compare: not built yet\n", stderr);
  return 2;
}

}  // namespace sqrtdk
