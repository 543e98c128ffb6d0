#include "core/text/json.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <stdexcept>


namespace sqrtdk {

std::string format_roundtrip(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0) return "0";  // -0 too, as JavaScript writes it
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

std::string json_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back({Scope::object});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  end(Scope::object, '}');
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  stack_.push_back({Scope::array});
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  end(Scope::array, ']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (stack_.empty() || stack_.back().scope != Scope::object || key_pending_) {
    throw std::logic_error("JsonWriter: key \"" + std::string(name) + "\" outside an object or after a key");
  }
  if (!stack_.back().empty) out_ += ',';
  stack_.back().empty = false;
  if (camel_case_) {
    std::string camel;
    for (std::size_t i = 0; i < name.size(); ++i) {
      if (name[i] == '_' && i + 1 < name.size()) camel += static_cast<char>(std::toupper(static_cast<unsigned char>(name[++i])));
      else camel += name[i];
    }
    out_ += json_quote(camel);
  } else {
    out_ += json_quote(name);
  }
  out_ += ':';
  key_pending_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(double x) { return raw(std::isfinite(x) ? format_roundtrip(x) : "null"); }

JsonWriter& JsonWriter::value(bool b) { return raw(b ? "true" : "false"); }

JsonWriter& JsonWriter::value(std::string_view text) { return raw(json_quote(text)); }

JsonWriter& JsonWriter::raw(std::string_view token) {
  before_value();
  out_ += token;
  return *this;
}

void JsonWriter::before_value() {
  if (stack_.empty()) {
    if (!out_.empty()) throw std::logic_error("JsonWriter: a second top-level value");
    return;
  }
  Level& level = stack_.back();
  if (level.scope == Scope::object) {
    if (!key_pending_) throw std::logic_error("JsonWriter: a value inside an object needs a key");
    key_pending_ = false;
  } else {
    if (!level.empty) out_ += ',';
    level.empty = false;
  }
}

void JsonWriter::end(Scope scope, char close) {
  if (stack_.empty() || stack_.back().scope != scope || key_pending_) {
    throw std::logic_error(std::string("JsonWriter: unbalanced '") + close + "'");
  }
  stack_.pop_back();
  out_ += close;
}

}  // namespace sqrtdk
