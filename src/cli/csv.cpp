#include "cli/csv.hpp"

#include <cmath>

#include "core/text/json.hpp"

namespace sqrtdk {

CsvWriter& CsvWriter::cell(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return raw(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return raw(quoted);
}

CsvWriter& CsvWriter::cell(double x) { return raw(std::isfinite(x) ? format_roundtrip(x) : std::string()); }

CsvWriter& CsvWriter::end_row() {
  out_ += '\n';
  row_empty_ = true;
  return *this;
}

CsvWriter& CsvWriter::raw(std::string_view field) {
  if (!row_empty_) out_ += ',';
  row_empty_ = false;
  out_ += field;
  return *this;
}

}  // namespace sqrtdk
