#include "core/claims/scenarios.hpp"

#include "core/settings/attention_scale.hpp"
#include "core/settings/settings.hpp"
#include "core/nn/valid_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace sqrtdk {

const std::vector<Scenario>& scenarios() {
  // Every preset sets every key any preset changes, so applying one over another leaves nothing behind.
  // A lead states no measured number: what was measured is the claims' counts (claims.hpp), rendered after it.
  using K = ClaimKind;
  static const std::vector<Scenario> table = {
      {"adam", "Adam (default): slower, still learns",
       "Look at the q/k gradient chart: at step 1 it is larger unscaled than scaled, not smaller (the unscaled "
       "logits are √d_k times larger, and so is their gradient). Adam divides each step by the running size of "
       "the gradient, so the size of the gradient does not set the size of the step, and the unscaled model keeps "
       "moving: it learns later, not never.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::learns, "unscaled"}, {K::slower, "unscaled", 1.3},
        {K::start_gradient, "unscaled"}}},
      {"sgd", "SGD: the lesson's 'fails to learn entirely'",
       "SGD's step is the learning rate times the gradient, not a normalised one. Unscaled starts to learn, then its "
       "attention saturates: the logit spread climbs, the softmax Jacobian falls towards 0, the gradient reaching "
       "W_q and W_k collapses, and the loss goes back towards ln 10 = 2.3, the uniform guess.",
       "variants=scaled,unscaled&optimizer=sgd&lr=0.1&momentum=0.9&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=600&seeds=3",
       {{K::learns, "scaled"}, {K::fails, "unscaled"}, {K::qk_collapse, "unscaled", 20},
        {K::dead_jacobian, "unscaled", 1e-3}}},
      {"adam-high-lr", "Adam at lr 0.01: fails too, on most seeds",
       "Ten times Adam's default step. The unscaled logits grow until the softmax saturates, which Adam's normalised "
       "step does not undo at this rate: 'fails to learn entirely' is not only SGD's.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.01&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::fails, "unscaled"}}},
      {"gpt-init", "GPT-style init: the difference disappears, and why",
       "With weights drawn from N(0, 0.02) the predicted std of the unscaled logits at init is 0.2, not 8 as with "
       "Xavier: the softmax starts almost uniform with or without 1/√d_k. The lesson's footnote assumes "
       "unit-variance q and k, which is the Xavier case.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=gpt&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::learns, "unscaled"}, {K::similar, "unscaled", 0.15}}},
      {"large-dk", "the lesson's d_k = 128 (d_model 128, 1 head)",
       "With d_k = 128 the unscaled logits start with std √128 = 11.3 (scaled: 1), so the unscaled attention "
       "starts nearly one-hot, as in the explorer's demo. A step costs about 4 times a canonical one.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=xavier&dModel=128&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=300&seeds=3",
       {{K::start_saturated, "unscaled"}, {K::learns, "scaled"}, {K::learns, "unscaled"},
        {K::slower, "unscaled", 2}}},
      {"qknorm", "QK-norm: a modern fix",
       "QK-norm divides q and k by their norms and learns the logit scale, so the logits stay bounded by that gain. "
       "This is Adam at lr 0.01, where unscaled mostly fails (see 'Adam at lr 0.01').",
       "variants=scaled,unscaled,qknorm&optimizer=adam&lr=0.01&init=xavier&dModel=64&heads=1&layers=2&copyLength=10&symbols=10&batch=32&threshold=0.1&trainSeed=0&steps=400&seeds=3",
       {{K::learns, "scaled"}, {K::learns, "qknorm"}, {K::similar, "qknorm", 0.25}}},
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
