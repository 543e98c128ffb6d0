// Text helpers shared by the subcommands: number formatting and writing a command's output in one go.
#pragma once
#include <string>

namespace sqrtdk {

// The shortest of "%.15g", "%.16g", "%.17g" that reads back as exactly x (C locale), e.g. "0.1", "128",
// "0.95077823451394827", "1e-300". Non-finite x gives "nan", "inf" or "-inf"; the JSON and CSV writers map
// those to null and to an empty cell.
std::string format_roundtrip(double x);

// Appends printf-style formatted text to `out`.
[[gnu::format(printf, 2, 3)]] void appendf(std::string& out, const char* format, ...);

// Writes `text` to stdout and flushes. Returns 0, or 1 after a one-line message on stderr if writing failed,
// so a command can end with `return emit(text);`.
int emit(const std::string& text);

}  // namespace sqrtdk
