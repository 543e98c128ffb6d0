#include "core/settings/settings.hpp"

#include <cmath>
#include <cstdio>
#include <type_traits>

#include "core/text/number_text.hpp"
#include "core/arith/rng.hpp"  // kMaxSeed

namespace sqrtdk {
namespace {

// get/set of one member, through the double encoding (an enum is its index).
template <typename T>
double encode(T x) {
  if constexpr (std::is_enum_v<T>) return static_cast<double>(static_cast<int>(x));
  else return static_cast<double>(x);
}
template <typename T>
T decode(double v) {
  if constexpr (std::is_enum_v<T>) return static_cast<T>(static_cast<int>(v));
  else return static_cast<T>(v);
}

// A member of a part of TrainConfig (model, task, optim) ...
template <auto part, auto member>
struct In {
  static double get(const TrainConfig& c) { return encode((c.*part).*member); }
  static void set(TrainConfig& c, double v) {
    auto& field = (c.*part).*member;
    field = decode<std::remove_reference_t<decltype(field)>>(v);
  }
};
// ... or of TrainConfig itself.
template <auto member>
struct Top {
  static double get(const TrainConfig& c) { return encode(c.*member); }
  static void set(TrainConfig& c, double v) {
    auto& field = c.*member;
    field = decode<std::remove_reference_t<decltype(field)>>(v);
  }
};

template <typename Access>
Setting integer(const char* name, const char* group, double lo, double hi, const char* unit, const char* doc) {
  return {name, group, SettingType::integer, lo, hi, false, false, {}, unit, doc, &Access::get, &Access::set};
}
template <typename Access>
Setting real(const char* name, const char* group, double lo, double hi, bool lo_open, bool hi_open, const char* unit,
             const char* doc) {
  return {name, group, SettingType::real, lo, hi, lo_open, hi_open, {}, unit, doc, &Access::get, &Access::set};
}
template <typename Access, std::size_t N>
Setting choice(const char* name, const char* group, const char* const (&names)[N], const char* doc) {
  return {name,         group, SettingType::choice, 0, N - 1.0, false, false, {names, names + N}, "", doc,
          &Access::get, &Access::set};
}

constexpr double kMaxSafeInteger = static_cast<double>(kMaxSeed);

std::vector<Setting> make_table() {
  using C = TrainConfig;
  using Mo = ModelConfig;
  using Ta = TaskConfig;
  using Op = OptimConfig;
  constexpr auto model = &C::model;
  constexpr auto task = &C::task;
  constexpr auto optim = &C::optim;
  return {
      integer<In<model, &Mo::n_layers>>("layers", "model", 1, Limits::max_layers, "", "Transformer blocks"),
      integer<In<model, &Mo::d_model>>("d_model", "model", 1, Limits::max_d_model, "",
                                       "width of the residual stream; divisible by heads"),
      integer<In<model, &Mo::n_heads>>("heads", "model", 1, Limits::max_heads, "",
                                       "attention heads; d_k = d_model / heads"),
      integer<In<model, &Mo::d_ff>>("d_ff", "model", 0, Limits::max_d_ff, "", "MLP hidden width; 0 = 4 d_model"),
      choice<In<model, &Mo::scale>>("scale", "model", kScaleNames,
                                    "attention score scale: 1/sqrt(d_k), 1, 1/d_k^alpha, or QK-norm with a gain"),
      real<In<model, &Mo::alpha>>("alpha", "model", 0, kMaxAlpha, false, false, "",
                                  "exponent of scale alpha: score = q.k / d_k^alpha"),
      choice<In<model, &Mo::init>>("init", "model", kInitNames,
                                   "weight init: U(+-sqrt(6/(in+out))), PyTorch's Linear default, or N(0, 0.02²)"),
      integer<In<task, &Ta::copy_length>>("copy_length", "task", 1, Limits::max_copy_length, "tokens",
                                          "symbols to copy (sequence length 2 L + 1)"),
      integer<In<task, &Ta::n_symbols>>("symbols", "task", 2, Limits::max_symbols, "",
                                        "distinct symbols (vocabulary = symbols + 2)"),
      integer<In<task, &Ta::batch>>("batch", "task", 1, Limits::max_batch, "sequences", "training batch"),
      integer<In<task, &Ta::eval_batch>>("eval_batch", "task", 1, Limits::max_eval_batch, "sequences",
                                         "fixed evaluation batch, drawn once per seed"),
      choice<In<optim, &Op::optimizer>>("optimizer", "optimizer", kOptimizerNames,
                                        "Adam, or SGD with momentum (without an lr, sgd uses its own default lr)"),
      real<In<optim, &Op::lr>>("lr", "optimizer", 0, 100, true, false, "", "learning rate"),
      real<In<optim, &Op::momentum>>("momentum", "optimizer", 0, 1, false, true, "", "SGD's momentum"),
      real<In<optim, &Op::beta1>>("beta1", "optimizer", 0, 1, false, true, "", "Adam's first-moment decay"),
      real<In<optim, &Op::beta2>>("beta2", "optimizer", 0, 1, false, true, "", "Adam's second-moment decay"),
      real<In<optim, &Op::eps>>("eps", "optimizer", 0, 1, true, false, "", "Adam's denominator epsilon"),
      real<In<optim, &Op::clip_norm>>("clip_norm", "optimizer", 0, 1e9, false, false, "",
                                      "global gradient-norm clipping; 0 = off"),
      {"seed", "training", SettingType::seed, 0, kMaxSafeInteger, false, false, {}, "",
       "seed of the initialisation and the data", &Top<&C::seed>::get, &Top<&C::seed>::set},
      integer<Top<&C::eval_every>>("eval_every", "training", 1, 1000000, "steps",
                                   "evaluate (greedy decoding on the fixed batch) every this many steps"),
  };
}

}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = make_table();
  return table;
}

const Setting* find_setting(const std::string& name) {
  for (const Setting& s : settings())
    if (name == s.name) return &s;
  return nullptr;
}

std::string cli_flag(const Setting& s) {
  std::string flag = s.name;
  for (char& ch : flag)
    if (ch == '_') ch = '-';
  return flag;
}

std::string js_key(const Setting& s) {
  std::string key;
  bool upper = false;
  for (const char* p = s.name; *p != '\0'; ++p) {
    if (*p == '_') {
      upper = true;
      continue;
    }
    key += upper ? static_cast<char>(*p - 'a' + 'A') : *p;
    upper = false;
  }
  return key;
}

double default_value(const Setting& s) { return s.get(TrainConfig{}); }

std::string format_value(const Setting& s, double value) {
  if (s.type == SettingType::choice && value >= 0 && value < static_cast<double>(s.choices.size()) &&
      std::floor(value) == value)
    return s.choices[static_cast<std::size_t>(value)];
  return s.type != SettingType::real ? format_whole(value) : format_given(value);
}

std::string describe_range(const Setting& s) {
  if (s.type == SettingType::choice) {
    std::string list;
    for (const char* c : s.choices) list += std::string(list.empty() ? "" : "|") + c;
    return list;
  }
  const bool integral = s.type != SettingType::real;
  const std::string lo = integral ? format_value(s, s.lo) : format_given(s.lo);
  const std::string hi = integral ? format_value(s, s.hi) : format_given(s.hi);
  return std::string(s.lo_open ? "(" : "[") + lo + ", " + hi + (s.hi_open ? ")" : "]");
}

std::string check_setting(const Setting& s, double v) {
  const bool inside = (s.lo_open ? v > s.lo : v >= s.lo) && (s.hi_open ? v < s.hi : v <= s.hi);
  switch (s.type) {
    case SettingType::real:
      if (std::isfinite(v) && inside) return "";
      return std::string(s.name) + " must be a finite number in " + describe_range(s) + ", got " + format_given(v);
    case SettingType::choice: {
      if (std::isfinite(v) && std::floor(v) == v && inside) return "";
      std::string list;
      for (const char* c : s.choices) list += std::string(list.empty() ? "" : ", ") + c;
      return std::string(s.name) + " must be one of " + list + ", got " + format_given(v);
    }
    case SettingType::integer:
    case SettingType::seed:
      if (std::isfinite(v) && std::floor(v) == v && inside) return "";
      return std::string(s.name) + (std::isfinite(v) && std::floor(v) == v ? " must be in " : " must be an integer in ") +
             describe_range(s) + ", got " + format_value(s, v);
  }
  return "";
}

int choice_index(const Setting& s, const std::string& text) {
  for (std::size_t i = 0; i < s.choices.size(); ++i)
    if (text == s.choices[i]) return static_cast<int>(i);
  return -1;
}

std::string choice_error(const Setting& s, const std::string& text) {
  std::string list;
  for (const char* c : s.choices) list += std::string(list.empty() ? "" : ", ") + c;
  return std::string(s.name) + " must be one of " + list + ", got '" + text.substr(0, 40) + "'";
}

}  // namespace sqrtdk
