#include "cli/args.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/text/number_text.hpp"

namespace sqrtdk {
namespace {

bool starts_with_dashes(const std::string& token) { return token.size() >= 2 && token[0] == '-' && token[1] == '-'; }

// Whole-string integer parse: optional '-', then digits only (no spaces, no '+'), no overflow.
bool parse_int64(const std::string& text, long long& out) {
  const size_t first_digit = (!text.empty() && text[0] == '-') ? 1 : 0;
  if (text.size() <= first_digit || text[first_digit] < '0' || text[first_digit] > '9') return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0';
}

bool parse_uint64(const std::string& text, unsigned long long& out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0';
}

// Whole-string finite double parse (C locale: the CLI never calls setlocale).
bool parse_double(const std::string& text, double& out) {
  if (text.empty() || text[0] == ' ' || text[0] == '\t') return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && *end == '\0' && std::isfinite(out);
}

}  // namespace

Args::Args(const std::vector<std::string>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    Flag flag;
    if (token == "-h") {
      flag.name = "help";
    } else if (starts_with_dashes(token)) {
      const size_t eq = token.find('=');
      flag.name = token.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) {
        flag.value = token.substr(eq + 1);
        flag.has_value = true;
      } else if (i + 1 < tokens.size() && !starts_with_dashes(tokens[i + 1])) {
        flag.value = tokens[++i];
        flag.has_value = true;
      }
    } else {
      throw UsageError("unexpected argument '" + token + "'");
    }
    if (flag.name.empty()) throw UsageError("empty flag name in '" + token + "'");
    if (find(flag.name) != nullptr) throw UsageError("flag --" + flag.name + " given twice");
    flags_.push_back(flag);
  }
}

bool Args::wants_help() const { return find("help") != nullptr; }

void Args::accept(std::initializer_list<const char*> names) const {
  for (const Flag& flag : flags_) {
    bool known = flag.name == "help";
    for (const char* name : names) known = known || flag.name == name;
    if (!known) throw UsageError("unknown flag --" + flag.name);
  }
}

void Args::accept(const std::vector<std::string>& names) const {
  for (const Flag& flag : flags_)
    if (flag.name != "help" && std::find(names.begin(), names.end(), flag.name) == names.end())
      throw UsageError("unknown flag --" + flag.name);
}

bool Args::has(const std::string& name) const { return find(name) != nullptr; }

bool Args::get_switch(const std::string& name) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return false;
  if (flag->has_value) throw UsageError("--" + name + " takes no value, got '" + flag->value + "'");
  return true;
}

int Args::get_int(const std::string& name, int fallback, int lo, int hi) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return fallback;
  const std::string& text = value_of(*flag);
  long long value = 0;
  if (!parse_int64(text, value) || value < lo || value > hi) {
    throw UsageError("--" + name + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], got '" + text + "'");
  }
  return static_cast<int>(value);
}

uint64_t Args::get_u64(const std::string& name, uint64_t fallback, uint64_t lo, uint64_t hi) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return fallback;
  const std::string& text = value_of(*flag);
  unsigned long long value = 0;
  if (!parse_uint64(text, value) || value < lo || value > hi) {
    throw UsageError("--" + name + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], got '" + text + "'");
  }
  return static_cast<uint64_t>(value);
}

double Args::get_double(const std::string& name, double fallback, double lo, double hi) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return fallback;
  const std::string& text = value_of(*flag);
  double value = 0.0;
  if (!parse_double(text, value) || value < lo || value > hi) {
    throw UsageError("--" + name + " must be a number in [" + format_given(lo) + ", " + format_given(hi) + "], got '" +
                     text + "'");
  }
  return value;
}

double Args::get_number(const std::string& name, double fallback, bool integer) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return fallback;
  const std::string& text = value_of(*flag);
  const size_t first_digit = (!text.empty() && text[0] == '-') ? 1 : 0;
  const bool digits = text.size() > first_digit &&
                      std::all_of(text.begin() + first_digit, text.end(), [](char c) { return c >= '0' && c <= '9'; });
  double value = 0.0;
  if ((integer && !digits) || !parse_double(text, value))
    throw UsageError("--" + name + " must be " + (integer ? "an integer" : "a number") + ", got '" + text + "'");
  return value;
}

std::string Args::get_string(const std::string& name, const std::string& fallback) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return fallback;
  const std::string& text = value_of(*flag);
  if (text.empty()) throw UsageError("--" + name + " must not be empty");
  return text;
}

std::string Args::get_choice(const std::string& name, const std::string& fallback,
                             std::initializer_list<const char*> choices) const {
  const std::string text = get_string(name, fallback);
  std::string listed;
  for (const char* choice : choices) {
    if (text == choice) return text;
    listed += (listed.empty() ? "" : ", ") + std::string(choice);
  }
  throw UsageError("--" + name + " must be one of " + listed + "; got '" + text + "'");
}

std::vector<int> Args::get_int_list(const std::string& name, const std::vector<int>& fallback, int lo, int hi,
                                    int max_count) const {
  const Flag* flag = find(name);
  if (flag == nullptr) return fallback;
  const std::string& text = value_of(*flag);
  std::vector<int> values;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    long long value = 0;
    if (!parse_int64(item, value) || value < lo || value > hi) {
      throw UsageError("--" + name + " must list integers in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                       "] separated by commas, got '" + item + "' in '" + text + "'");
    }
    values.push_back(static_cast<int>(value));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (static_cast<long long>(values.size()) > max_count) {
    throw UsageError("--" + name + " must list at most " + std::to_string(max_count) + " integers, got " +
                     std::to_string(values.size()));
  }
  return values;
}

const Args::Flag* Args::find(const std::string& name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

const std::string& Args::value_of(const Flag& flag) const {
  if (!flag.has_value) throw UsageError("--" + flag.name + " needs a value");
  return flag.value;
}

}  // namespace sqrtdk
