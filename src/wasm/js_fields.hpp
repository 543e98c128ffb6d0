// Reading plain JS option objects in the Embind layer: type-checked fields with defaults, unknown keys refused.
// The first problem is kept as a one-line message naming the field; nothing throws.
#pragma once
#include <emscripten/val.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace sqrtdk::wasm {

class JsFields {
 public:
  // `what` names the object in messages ("config", "options").  undefined or null reads as {}.
  JsFields(const emscripten::val& object, const char* what, std::initializer_list<const char*> known);
  JsFields(const emscripten::val& object, const char* what, const std::vector<std::string>& known);

  bool has(const char* name) const;  // present and not undefined

  // Absent or undefined: fallback.  Otherwise a finite number (integral for integer fields), else an error.
  int integer(const char* name, int fallback);
  uint64_t seed(const char* name, uint64_t fallback);  // integer in [0, 2^53 - 1]
  double whole(const char* name, double fallback);     // any finite integral number (the caller checks range)
  double number(const char* name, double fallback);
  std::string text(const char* name, const std::string& fallback);
  std::vector<int> integers(const char* name, const std::vector<int>& fallback);  // array of integers

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void fail(const std::string& message);  // keeps the first message only

 private:
  void check_keys(const std::vector<std::string>& known);
  double bounded(const char* name, double fallback, double lo, double hi);  // an integer in [lo, hi]
  emscripten::val field(const char* name) const;
  emscripten::val object_;
  std::string what_;
  std::string error_;
};

// {error: message}: how every binding reports a refused request (JS sees a result, never an exception).
emscripten::val error_result(const std::string& message);

// Message for a value that must be an integer in [lo, hi] ("" if it is): used for positional arguments.
std::string check_integer(const emscripten::val& v, const char* name, double lo, double hi);

}  // namespace sqrtdk::wasm
