#include "cli/output.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace sqrtdk {

void appendf(std::string& out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (size > 0) {
    std::vector<char> buf(static_cast<size_t>(size) + 1);
    std::vsnprintf(buf.data(), buf.size(), format, args);
    out.append(buf.data(), static_cast<size_t>(size));
  }
  va_end(args);
}

int emit(const std::string& text) {
  const bool ok = std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0;
  if (!ok) {
    std::fputs("sqrtdk: error: cannot write to stdout\n", stderr);
    return 1;
  }
  return 0;
}

}  // namespace sqrtdk
