#include "wasm/js_fields.hpp"

#include <cmath>

#include "core/text/number_text.hpp"
#include "core/arith/rng.hpp"  // kMaxSeed

namespace sqrtdk::wasm {

using emscripten::val;

namespace {
constexpr double kMaxSafeInteger = static_cast<double>(kMaxSeed);  // 2^53 - 1, exact in a JS number

std::string describe(const val& v) {
  const std::string type = v.typeOf().as<std::string>();
  if (type == "object" && v.isNull()) return "null";
  if (type == "object" && val::global("Array").call<bool>("isArray", v)) return "array";
  return type;
}
}  // namespace

JsFields::JsFields(const val& object, const char* what, std::initializer_list<const char*> known)
    : JsFields(object, what, std::vector<std::string>(known.begin(), known.end())) {}

JsFields::JsFields(const val& object, const char* what, const std::vector<std::string>& known)
    : object_(object), what_(what) {
  if (object_.isUndefined() || object_.isNull()) {
    object_ = val::object();
    return;
  }
  if (describe(object_) != "object") {
    fail(what_ + " must be an object, got " + describe(object_));
    object_ = val::object();
    return;
  }
  check_keys(known);
}

void JsFields::check_keys(const std::vector<std::string>& known) {
  const val keys = val::global("Object").call<val>("keys", object_);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    bool found = false;
    for (const std::string& k : known) found = found || key == k;
    if (!found) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      fail(what_ + " has an unknown field '" + key.substr(0, 40) + "' (known: " + list + ")");
      return;
    }
  }
}

bool JsFields::has(const char* name) const { return !field(name).isUndefined(); }

double JsFields::bounded(const char* name, double fallback, double lo, double hi) {
  const val v = field(name);
  if (v.isUndefined()) return fallback;
  const std::string problem = check_integer(v, (what_ + "." + name).c_str(), lo, hi);
  if (!problem.empty()) {
    fail(problem);
    return fallback;
  }
  return v.as<double>();
}

double JsFields::whole(const char* name, double fallback) { return bounded(name, fallback, -1e308, 1e308); }

void JsFields::fail(const std::string& message) {
  if (error_.empty()) error_ = message;
}

val JsFields::field(const char* name) const { return object_[name]; }

double JsFields::number(const char* name, double fallback) {
  const val v = field(name);
  if (v.isUndefined()) return fallback;
  if (v.typeOf().as<std::string>() != "number") {
    fail(what_ + "." + name + " must be a number, got " + describe(v));
    return fallback;
  }
  const double x = v.as<double>();
  if (!std::isfinite(x)) {
    fail(what_ + "." + name + " must be a finite number, got " + format_whole(x));
    return fallback;
  }
  return x;
}

int JsFields::integer(const char* name, int fallback) {
  // Any integer a config could sensibly hold fits in 9 digits; the core then checks the real range.
  return static_cast<int>(bounded(name, fallback, -999999999.0, 999999999.0));
}

uint64_t JsFields::seed(const char* name, uint64_t fallback) {
  return static_cast<uint64_t>(bounded(name, static_cast<double>(fallback), 0, kMaxSafeInteger));
}

std::string JsFields::text(const char* name, const std::string& fallback) {
  const val v = field(name);
  if (v.isUndefined()) return fallback;
  if (v.typeOf().as<std::string>() != "string") {
    fail(what_ + "." + name + " must be a string, got " + describe(v));
    return fallback;
  }
  const std::string s = v.as<std::string>();
  if (s.size() > 64) {
    fail(what_ + "." + name + " is too long (" + std::to_string(s.size()) + " bytes of UTF-8, at most 64)");
    return fallback;
  }
  return s;
}

std::vector<int> JsFields::integers(const char* name, const std::vector<int>& fallback) {
  const val v = field(name);
  if (v.isUndefined()) return fallback;
  if (describe(v) != "array") {
    fail(what_ + "." + name + " must be an array of integers, got " + describe(v));
    return fallback;
  }
  const int n = v["length"].as<int>();
  if (n > 1000) {
    fail(what_ + "." + name + " has too many entries (" + std::to_string(n) + ")");
    return fallback;
  }
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    const std::string problem =
        check_integer(v[i], (what_ + "." + name + "[" + std::to_string(i) + "]").c_str(), -999999999.0, 999999999.0);
    if (!problem.empty()) {
      fail(problem);
      return fallback;
    }
    out.push_back(static_cast<int>(v[i].as<double>()));
  }
  return out;
}

std::string check_integer(const val& v, const char* name, double lo, double hi) {
  if (v.typeOf().as<std::string>() != "number") return std::string(name) + " must be an integer, got " + describe(v);
  const double x = v.as<double>();
  if (!std::isfinite(x) || std::floor(x) != x) return std::string(name) + " must be an integer, got " + format_whole(x);
  if (x < lo || x > hi)
    return std::string(name) + " must be in [" + format_whole(lo) + ", " + format_whole(hi) + "], got " + format_whole(x);
  return "";
}

emscripten::val error_result(const std::string& message) {
  emscripten::val out = emscripten::val::object();
  out.set("error", message);
  return out;
}

}  // namespace sqrtdk::wasm
