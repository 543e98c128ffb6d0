#include "cli/train_flags.hpp"

#include <cstdio>

#include "core/settings/attention_scale.hpp"
#include "core/settings/settings.hpp"
#include "core/nn/valid_config.hpp"

namespace sqrtdk {
namespace {

bool is_scale(const Setting& s) { return std::string(s.name) == "scale"; }

}  // namespace

std::string train_flags_usage(bool with_scale) {
  std::string text;
  std::string group;
  for (const Setting& s : settings()) {
    if (!with_scale && is_scale(s)) continue;
    if (group != s.group) {
      group = s.group;
      text += group + ":\n";
    }
    const std::string flag = "--" + cli_flag(s) + " " + format_value(s, default_value(s));
    std::string rule = describe_range(s);
    if (*s.unit != '\0') rule += std::string(" ") + s.unit;
    char line[256];
    std::snprintf(line, sizeof line, "  %-22s %-28s %s\n", flag.c_str(), rule.c_str(), s.doc);
    text += line;
    if (is_scale(s)) text += "  " + std::string(22 + 1 + 28, ' ') + " (--scale alpha=0.25 = --scale alpha --alpha 0.25)\n";
  }
  return text;
}

std::vector<std::string> train_flag_names(std::initializer_list<const char*> extra) {
  std::vector<std::string> names;
  for (const Setting& s : settings())
    if (!is_scale(s)) names.push_back(cli_flag(s));
  names.insert(names.end(), extra.begin(), extra.end());
  return names;
}

TrainConfig read_train_config(const Args& args, bool with_scale) {
  std::vector<GivenSetting> given;
  for (const Setting& s : settings()) {
    const std::string flag = cli_flag(s);
    if ((!with_scale && is_scale(s)) || !args.has(flag)) continue;
    if (s.type != SettingType::choice) {
      given.push_back({&s, args.get_number(flag, 0.0, s.type != SettingType::real)});
      continue;
    }
    const std::string text = args.get_string(flag, "");
    const int index = choice_index(s, text);
    if (index >= 0) {
      given.push_back({&s, static_cast<double>(index)});
    } else if (is_scale(s) && text.rfind("alpha=", 0) == 0) {  // the shorthand: both settings
      if (args.has("alpha")) throw UsageError("give the alpha once: --scale " + text + " or --alpha, not both");
      ModelConfig model;
      parse_scale(text, model);
      given.push_back({&s, static_cast<double>(static_cast<int>(model.scale))});
      given.push_back({find_setting("alpha"), model.alpha});
    } else {
      throw ConfigError(choice_error(s, text));
    }
  }
  TrainConfig config;
  const std::string problem = apply_settings(given, config);
  if (!problem.empty()) throw ConfigError(problem);
  return config;
}

void write_settings_json(JsonWriter& w, const TrainConfig& config, std::initializer_list<const char*> skip) {
  for (const Setting& s : settings()) {
    bool skipped = false;
    for (const char* name : skip) skipped = skipped || std::string(name) == s.name;
    if (skipped) continue;
    const double value = s.get(config);
    if (s.type == SettingType::choice) w.field(s.name, format_value(s, value));
    else if (s.type == SettingType::real) w.field(s.name, value);
    else w.field(s.name, static_cast<long long>(value));
  }
}

}  // namespace sqrtdk
