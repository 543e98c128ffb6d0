// The configuration's Embind surface: the settings table for JS (lab.schema()), the defaults, validation, the
// memory estimate and the predicted logit std of a config.  Invalid input returns {error} or a message; nothing
// throws into JS.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <string>
#include <vector>

#include "core/settings/attention_scale.hpp"
#include "core/settings/config.hpp"
#include "core/nn/memory.hpp"
#include "core/settings/settings.hpp"
#include "core/nn/valid_config.hpp"
#include "wasm/config_js.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {

using emscripten::val;


// JS keys of the settings table (dModel, copyLength, ...): the only fields a config object may have.
const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const Setting& s : settings()) out.push_back(js_key(s));
    return out;
  }();
  return keys;
}

// Reads a JS config object over the canonical defaults (settings.hpp); "" or the first problem.  Types are
// checked first ("config.dModel must be an integer, got string"), then the core checks values ("config: ...").
std::string read_config(const val& object, TrainConfig& c) {
  JsFields f(object, "config", config_keys());
  std::vector<GivenSetting> given;
  std::vector<std::string> texts;  // a choice's name, for each entry of `given` (empty for numbers)
  for (const Setting& s : settings()) {
    const std::string key = js_key(s);
    if (!f.has(key.c_str())) continue;
    const bool is_choice = s.type == SettingType::choice;
    texts.push_back(is_choice ? f.text(key.c_str(), "") : "");
    const double value = is_choice ? 0 : s.type == SettingType::real ? f.number(key.c_str(), 0) : f.whole(key.c_str(), 0);
    given.push_back({&s, value});
  }
  if (!f.ok()) return f.error();
  for (std::size_t i = 0; i < given.size(); ++i) {
    const Setting& s = *given[i].setting;
    if (s.type != SettingType::choice) continue;
    const int index = choice_index(s, texts[i]);
    if (index < 0) return "config: " + choice_error(s, texts[i]);
    given[i].value = index;
  }
  const std::string problem = apply_settings(given, c);
  return problem.empty() ? "" : "config: " + problem;
}

// A setting's value as JS sees it: a choice's name, otherwise the number.
val setting_to_js(const Setting& s, double value) {
  return s.type == SettingType::choice ? val(format_value(s, value)) : val(value);
}

val config_to_js(const TrainConfig& c) {
  val o = val::object();
  for (const Setting& s : settings()) o.set(js_key(s), setting_to_js(s, s.get(c)));
  return o;
}

const char* type_name(SettingType type) {
  switch (type) {
    case SettingType::integer: return "integer";
    case SettingType::seed: return "seed";
    case SettingType::real: return "real";
    case SettingType::choice: return "choice";
  }
  return "?";
}

// The settings table for JavaScript: [{name, jsKey, cliFlag, group, type, default, min, max, minOpen, maxOpen,
// choices, unit, doc}], in table order; lr also carries sgdDefault (kSgdDefaultLr).
val schema() {
  val rows = val::array();
  for (const Setting& s : settings()) {
    val row = val::object();
    row.set("name", std::string(s.name));
    row.set("jsKey", js_key(s));
    row.set("cliFlag", "--" + cli_flag(s));
    row.set("group", std::string(s.group));
    row.set("type", std::string(type_name(s.type)));
    row.set("default", setting_to_js(s, default_value(s)));
    if (s.type == SettingType::choice) {
      val choices = val::array();
      for (const char* name : s.choices) choices.call<void>("push", std::string(name));
      row.set("choices", choices);
    } else {
      row.set("min", s.lo);
      row.set("max", s.hi);
      row.set("minOpen", s.lo_open);
      row.set("maxOpen", s.hi_open);
    }
    row.set("unit", std::string(s.unit));
    row.set("doc", std::string(s.doc));
    if (std::string(s.name) == "lr") row.set("sgdDefault", kSgdDefaultLr);
    rows.call<void>("push", row);
  }
  return rows;
}

val defaults() { return config_to_js(TrainConfig{}); }

// Refuses a trainer that could not fit in what the heap may still grow to (an allocation failure would
// abort the module).  The estimate is what the trainer allocates (memory.hpp).
std::string check_memory(const TrainConfig& c) {
  const double in_use = static_cast<double>(mallinfo().uordblks);
  const double room = static_cast<double>(emscripten_get_heap_max()) - in_use - (16 << 20);  // keep 16 MiB spare
  const double need = static_cast<double>(estimated_bytes(c));
  if (need <= room) return "";
  return "not enough WebAssembly memory for this configuration: it needs about " +
         std::to_string(static_cast<long long>(need / (1 << 20))) + " MiB and " +
         std::to_string(static_cast<long long>(room > 0 ? room / (1 << 20) : 0)) +
         " MiB are free (delete other trainers or make it smaller)";
}


namespace {


// The same checks createTrainer makes, the free wasm memory included.
std::string validate_config(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  return problem.empty() ? check_memory(c) : problem;
}

// Bytes a trainer for the config allocates (memory.hpp), for a valid config.
val estimated_bytes_js(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  if (!problem.empty()) return error_result(problem);
  val out = val::object();
  out.set("value", static_cast<double>(estimated_bytes(c)));
  return out;
}

val predicted_logit_std_js(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  if (!problem.empty()) return error_result(problem);
  val out = val::object();
  out.set("value", predicted_logit_std(c.model));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_config) {
  emscripten::function("defaults", &defaults);
  emscripten::function("schema", &schema);
  emscripten::function("validateConfig", &validate_config);
  emscripten::function("predictedLogitStd", &predicted_logit_std_js);
  emscripten::function("estimatedBytes", &estimated_bytes_js);
}

}  // namespace sqrtdk::wasm
