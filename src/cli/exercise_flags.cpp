#include "cli/exercise_flags.hpp"

#include <sstream>

#include "cli/range_flags.hpp"
#include "cli/train_flags.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/settings/settings.hpp"

namespace sqrtdk {
namespace {

std::vector<std::string> split_variants(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) throw UsageError("--variants has an empty item in '" + text + "'");
    ModelConfig check;
    try {
      parse_scale(item, check);
    } catch (const ConfigError& e) {
      throw UsageError(std::string("--variants: ") + e.what());
    }
    out.push_back(item);
  }
  if (out.empty() || out.size() > static_cast<std::size_t>(kMaxVariants))
    throw UsageError("--variants needs 1 to " + std::to_string(kMaxVariants) + " comma-separated variants");
  return out;
}

}  // namespace

std::string default_variants() {
  std::string text;
  for (const std::string& v : ExerciseSettings{}.variants) text += (text.empty() ? "" : ",") + v;
  return text;
}

std::string exercise_flags_usage() {
  return "  --variants V  comma-separated variants, 1 to " + std::to_string(kMaxVariants) +
         ", the first the reference (default " + default_variants() + ")\n" +
         range_usage({&run::seeds, &run::steps, &run::threshold});
}

std::vector<std::string> exercise_flag_names(std::initializer_list<const char*> extra) {
  std::vector<std::string> names = train_flag_names({"variants", "seeds", "steps", "threshold", "scenario"});
  names.insert(names.end(), extra.begin(), extra.end());
  return names;
}

ExerciseSettings read_exercise_settings(const Args& args, std::initializer_list<const char*> over_scenario) {
  if (args.has("scenario")) {
    for (const std::string& flag : train_flag_names({"variants", "seeds", "steps", "threshold"})) {
      bool allowed = false;
      for (const char* name : over_scenario) allowed = allowed || flag == name;
      if (args.has(flag) && !allowed) throw UsageError("--scenario sets every setting: drop --" + flag);
    }
    const std::string id = args.get_string("scenario", "");
    const Scenario* scenario = find_scenario(id);
    if (!scenario)
      throw UsageError("--scenario: no scenario '" + id.substr(0, 40) + "'; 'sqrtdk scenarios' lists them");
    ExerciseSettings settings = parse_exercise_settings(scenario->settings);
    if (args.has("seeds")) settings.seeds = range_int(args, run::seeds);
    if (args.has("seed")) {
      const Setting& seed = *find_setting("seed");
      const double value = args.get_number("seed", 0.0, true);
      const std::string problem = check_setting(seed, value);
      if (!problem.empty()) throw ConfigError(problem);
      seed.set(settings.base, value);
    }
    return settings;
  }
  ExerciseSettings settings;
  settings.base = read_train_config(args, /*with_scale=*/false);
  if (args.has("variants")) settings.variants = split_variants(args.get_string("variants", ""));
  settings.seeds = range_int(args, run::seeds);
  settings.steps = range_int(args, run::steps);
  settings.threshold = range_real(args, run::threshold);
  return settings;
}

}  // namespace sqrtdk
