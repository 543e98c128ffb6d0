// Placeholder so the CLI links until the lead's cmd_dump.cpp replaces this file.
#include <cstdio>

#include "cli/commands.hpp"

namespace sqrtdk {

int run_dump(const Args&) {
  std::fputs("sqrtdk dump: not built yet\n", stderr);
  return 2;
}

}  // namespace sqrtdk
