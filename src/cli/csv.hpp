// A small CSV writer (RFC 4180): fields separated by commas, rows ended by "\n".
//
//   CsvWriter csv;
//   csv.cell("dk").cell("dot_variance").end_row();
//   csv.cell(128).cell(127.1).end_row();
//
// Text containing a comma, a quote, CR or LF is quoted, with quotes doubled. Doubles use format_roundtrip()
// (output.hpp); NaN and infinities become empty cells.
#pragma once
#include <string>
#include <string_view>
#include <type_traits>

namespace sqrtdk {

class CsvWriter {
 public:
  CsvWriter& cell(std::string_view text);
  CsvWriter& cell(const char* text) { return cell(std::string_view(text)); }
  CsvWriter& cell(double x);
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  CsvWriter& cell(T x) {
    return raw(std::to_string(x));
  }
  CsvWriter& end_row();

  const std::string& str() const { return out_; }

 private:
  CsvWriter& raw(std::string_view field);

  std::string out_;
  bool row_empty_ = true;
};

}  // namespace sqrtdk
