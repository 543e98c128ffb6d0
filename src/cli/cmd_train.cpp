// Placeholder so the CLI links until the lead's cmd_train.cpp replaces this file.
#include <cstdio>

#include "cli/commands.hpp"

namespace sqrtdk {

int run_train(const Args&) {
  std::fputs("sqrtdk train: not built yet\n", stderr);
  return 2;
}

}  // namespace sqrtdk
