// The settings table: every setting of a training run (model, task, optimizer, trainer) written once.
//
// Each row names one field of TrainConfig with ONE canonical snake_case name, from which the other spellings
// are derived mechanically:
//   JSON key  d_model   (the name itself; also what every message calls it)
//   CLI flag  --d-model (cli_flag: '_' -> '-')
//   JS key    dModel    (js_key: camelCase)
// plus its type, range or choices, unit and a one-line doc.  The default is not restated: it is the value the
// field has in a default-constructed TrainConfig (config.hpp).  validate(), the CLI flags and usage text
// (src/cli/train_flags.cpp), the Embind conversion both ways and lab.schema() (src/wasm/bindings.cpp) are all
// loops over this table, so a new setting is one row here plus its member in config.hpp.
//
// Every value passes through a double: integers and seeds (< 2^53) are exact, and a choice is its index in
// `choices`, which is also the enum value.
#pragma once
#include <string>
#include <vector>

#include "core/settings/config.hpp"

namespace sqrtdk {

enum class SettingType {
  integer,  // int field, range [lo, hi]
  seed,     // uint64 field, range [lo, hi] with hi = 2^53 - 1 (exact in a double and in JavaScript)
  real,     // double field, finite, range per lo_open / hi_open
  choice,   // enum field; the value is the index into choices
};

struct Setting {
  const char* name;   // canonical snake_case name
  const char* group;  // "model", "task", "optimizer" or "training": how usage text groups them
  SettingType type;
  double lo = 0, hi = 0;
  bool lo_open = false, hi_open = false;  // real only: (lo, ...] or [..., hi)
  std::vector<const char*> choices;       // choice only, in enum order
  const char* unit = "";                  // e.g. "steps"; "" if none
  const char* doc = "";                   // one line
  double (*get)(const TrainConfig&) = nullptr;
  void (*set)(TrainConfig&, double) = nullptr;  // only with a value check_setting() accepted
};

// Every setting, in the order usage text and lab.schema() list them.
const std::vector<Setting>& settings();
// The row named `name` (canonical), or nullptr.
const Setting* find_setting(const std::string& name);

std::string cli_flag(const Setting& s);  // "d-model" (without the dashes)
std::string js_key(const Setting& s);    // "dModel"

// The value of `s` in a default-constructed TrainConfig.
double default_value(const Setting& s);

// "" if `value` is allowed for `s`, else "d_model must be in [1, 1024], got 0",
// "lr must be a finite number in (0, 100], got nan" or "optimizer must be one of adam, sgd, got 7".
std::string check_setting(const Setting& s, double value);
// Index of `text` in s.choices, or -1.
int choice_index(const Setting& s, const std::string& text);
// "optimizer must be one of adam, sgd, got 'rmsprop'".
std::string choice_error(const Setting& s, const std::string& text);
// The value as its front ends show it: a choice's name, an integer without decimals, a real in %g.
std::string format_value(const Setting& s, double value);
// "[1, 1024]", "(0, 100]", "adam|sgd".
std::string describe_range(const Setting& s);

// One value a front end read (CLI text or a JS field), already converted to the table's double encoding.
struct GivenSetting {
  const Setting* setting;
  double value;
};


}  // namespace sqrtdk
