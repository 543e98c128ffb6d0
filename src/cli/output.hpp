// Text helpers shared by the subcommands: formatted text and writing a command's output in one go.
// (Numbers that must read back exactly: format_roundtrip in core/text/json.hpp.)
#pragma once
#include <string>

namespace sqrtdk {

// Appends printf-style formatted text to `out`.
[[gnu::format(printf, 2, 3)]] void appendf(std::string& out, const char* format, ...);

// Writes `text` to stdout and flushes. Returns 0, or 1 after a one-line message on stderr if writing failed,
// so a command can end with `return emit(text);`.
int emit(const std::string& text);

}  // namespace sqrtdk
