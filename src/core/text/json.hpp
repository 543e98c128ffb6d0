// A small streaming JSON writer: commas, nesting and escaping are its job, the caller only says what comes next.
//
//   JsonWriter json;
//   json.begin_object().field("dk", 128).field("alpha", 0.5).key("top5").array(top).end_object();
//   emit(json.str() + "\n");  // {"dk":128,"alpha":0.5,"top5":[0.95,0.04]}
//
// The one JSON writer of the project: the CLI's documents and the analysis's (analysis_json.cpp, which lab.compare
// returns to the page) both go through it.  Keys are written in snake_case; a writer made with camel_case = true
// writes them in camelCase (steps_to_threshold -> stepsToThreshold), so each document's keys are spelled once.
// Numbers: integers exactly; doubles by format_roundtrip(), so they read back bit for bit (-0 as 0, as JavaScript
// writes it);
// NaN and infinities become null. Strings are escaped per RFC 8259 (", \, and control characters; other
// bytes pass through, so give it UTF-8). Misuse (a value where a key is due, unbalanced end_*) throws
// std::logic_error: it is a bug in the command, not bad input.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sqrtdk {

// The shortest of "%.15g", "%.16g", "%.17g" that reads back as exactly x (C locale), e.g. "0.1", "128",
// "0.95077823451394827", "1e-300". Non-finite x gives "nan", "inf" or "-inf"; the JSON and CSV writers map
// those to null and to an empty cell.
std::string format_roundtrip(double x);

// `text` as a quoted, escaped JSON string.
std::string json_quote(std::string_view text);

class JsonWriter {
 public:
  explicit JsonWriter(bool camel_case = false) : camel_case_(camel_case) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();

  // The next member's name (snake_case), inside an object; a value (or begin_*) must follow.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(double x);
  JsonWriter& value(bool b);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  JsonWriter& value(T x) {
    return raw(std::to_string(x));
  }
  JsonWriter& null() { return raw("null"); }

  // key(name).value(x)
  template <typename T>
  JsonWriter& field(std::string_view name, const T& x) {
    return key(name).value(x);
  }

  // An array of numbers (or strings).
  template <typename T>
  JsonWriter& array(const std::vector<T>& values) {
    begin_array();
    for (const T& x : values) value(x);
    return end_array();
  }

  // The document so far; complete once every begin_* has its end_*.
  const std::string& str() const { return out_; }
  bool complete() const { return stack_.empty() && !out_.empty(); }

 private:
  enum class Scope { object, array };
  struct Level {
    Scope scope;
    bool empty = true;
  };

  JsonWriter& raw(std::string_view token);  // one value token
  void before_value();                      // comma / key bookkeeping before any value or begin_*
  void end(Scope scope, char close);

  std::string out_;
  std::vector<Level> stack_;
  bool key_pending_ = false;  // a key was written and awaits its value
  bool camel_case_ = false;
};

}  // namespace sqrtdk
