#include "core/claims/scenarios.hpp"

#include "core/answer/analysis.hpp"           // CurveDefinitions: the answer's bar for a clear difference
#include "core/answer/mechanism_reading.hpp"  // kDeadDrop: the page's dying-gradient test
#include "core/settings/attention_scale.hpp"
#include "core/settings/settings.hpp"
#include "core/nn/valid_config.hpp"
#include "core/text/phrasebook.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace sqrtdk {

const std::vector<Scenario>& scenarios() {
  // Every preset sets every key any preset changes, so applying one over another leaves nothing behind.
  // Titles and leads are the phrasebook's (scenario.<id>.title, .lead); a lead states no measured number: what
  // was measured is the claims' counts (claims.hpp), rendered after it.
  using K = ClaimKind;
  // Every pace claim (slower, similar) has the answer's bar for a clear difference, so a preset's claim and the
  // learner's answer never judge the same ratio by two bars.
  const double pace = CurveDefinitions{}.clear_ratio;
  const auto preset = [](const char* id, const char* settings, std::vector<Claim> claims) {
    return Scenario{id, english_phrase(std::string("scenario.") + id + ".title"),
                    english_phrase(std::string("scenario.") + id + ".lead"), settings, std::move(claims)};
  };
  static const std::vector<Scenario> table = {
      preset("adam",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::learns, "unscaled"}, {K::slower, "unscaled", pace},
        {K::start_gradient, "unscaled"}}),
      preset("sgd",
       "variants=scaled,unscaled&optimizer=sgd&lr=0.1&momentum=0.9&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=600&seeds=3",
       {{K::learns, "scaled"}, {K::fails, "unscaled"}, {K::qk_collapse, "unscaled", kDeadDrop},
        {K::dead_jacobian, "unscaled", 1e-3}}),
      preset("adam-high-lr",
       "variants=scaled,unscaled&optimizer=adam&lr=0.01&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::fails, "unscaled"}}),
      preset("gpt-init",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=gpt&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::start_sharper, "unscaled"}, {K::learns, "scaled"}, {K::learns, "unscaled"}, {K::similar, "unscaled", pace}}),
      preset("large-dk",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=xavier&dModel=128&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=300&seeds=3",
       {{K::start_sharper, "unscaled"}, {K::learns, "scaled"}, {K::learns, "unscaled"},
        {K::slower, "unscaled", pace}}),
      preset("qknorm",
       "variants=scaled,unscaled,qknorm&optimizer=adam&lr=0.01&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::learns, "qknorm"}, {K::similar, "qknorm", pace}}),
  };
  return table;
}

const Scenario* find_scenario(const std::string& id) {
  for (const Scenario& s : scenarios())
    if (id == s.id) return &s;
  return nullptr;
}

namespace {

// "a&b&&c" split at `separator`, empty parts dropped.  (No streams: they would pull the locale machinery
// into the wasm module.)
std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(separator, begin), text.size());
    if (end > begin) parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

double parse_number(const std::string& key, const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x))
    throw ConfigError("setting " + key + ": '" + text.substr(0, 40) + "' is not a finite number");
  return x;
}

int parse_int(const std::string& key, const std::string& text) {
  const double x = parse_number(key, text);
  if (x != std::floor(x) || std::abs(x) > 1e9)
    throw ConfigError("setting " + key + ": '" + text.substr(0, 40) + "' is not an integer");
  return static_cast<int>(x);
}

// The core setting a page key names: its JS key (settings.hpp), or trainSeed for seed.  The page's own alpha
// and seed belong to the softmax explorer, and each variant sets the scale, so those keys are not core settings.
const Setting* core_setting(const std::string& key) {
  if (key == "trainSeed") return find_setting("seed");
  if (key == "alpha" || key == "seed" || key == "scale") return nullptr;
  for (const Setting& s : settings())
    if (js_key(s) == key) return &s;
  return nullptr;
}

}  // namespace

std::string run_settings(const Scenario& scenario) {
  std::string out;
  for (const std::string& part : split(scenario.settings, '&'))
    if (part.rfind("variants=", 0) != 0 && part.rfind("seeds=", 0) != 0) out += (out.empty() ? "" : "&") + part;
  return out;
}

ExerciseSettings parse_exercise_settings(const std::string& fragment) {
  ExerciseSettings s;
  TrainConfig& c = s.base;
  std::vector<std::string> variants = s.variants;
  double train_alpha = run::alpha_variant.value;
  std::vector<GivenSetting> given;
  for (const std::string& pair : split(fragment, '&')) {
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos) throw ConfigError("setting '" + pair.substr(0, 40) + "' has no value");
    const std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
    if (const Setting* setting = core_setting(key)) {
      if (setting->type != SettingType::choice) {
        given.push_back({setting, parse_number(key, value)});
      } else if (const int index = choice_index(*setting, value); index >= 0) {
        given.push_back({setting, static_cast<double>(index)});
      } else {
        throw ConfigError(choice_error(*setting, value));
      }
    }
    else if (key == "trainAlpha") train_alpha = parse_number(key, value);
    else if (key == "seeds") s.seeds = parse_int(key, value);
    else if (key == "steps") s.steps = parse_int(key, value);
    else if (key == "threshold") s.threshold = parse_number(key, value);
    else if (key == "variants") {
      variants.clear();
      for (const std::string& item : split(value, ',')) {
        const Setting& scale = *find_setting("scale");  // a variant is a scale mode
        if (choice_index(scale, item) < 0) throw ConfigError("setting variants: " + choice_error(scale, item));
        variants.push_back(item);
      }
    } else {
      throw ConfigError("unknown setting '" + key.substr(0, 40) + "'");
    }
  }
  const std::string problem = apply_settings(given, c);  // ranges, sgd's default lr, validate()
  if (!problem.empty()) throw ConfigError(problem);
  s.variants.clear();
  for (const std::string& v : variants) {
    std::string name = v;
    if (v == "alpha") name += "=" + format_value(*find_setting("alpha"), train_alpha);  // parse_scale checks it
    parse_scale(name, c.model);  // checks alpha's range; the last variant's scale stays in base, unused
    s.variants.push_back(name);
  }
  if (s.variants.empty()) throw ConfigError("setting variants: at least one variant is needed");
  const std::pair<const RangeSetting*, double> runs[] = {
      {&run::seeds, s.seeds}, {&run::steps, s.steps}, {&run::threshold, s.threshold}};
  for (const auto& [setting, value] : runs) {
    const std::string message = check_range(*setting, value);
    if (!message.empty()) throw ConfigError("setting " + message);
  }
  require_valid(c);
  return s;
}

}  // namespace sqrtdk
