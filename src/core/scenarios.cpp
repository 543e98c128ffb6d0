#include "core/scenarios.hpp"

#include "core/settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace sqrtdk {

const std::vector<Scenario>& scenarios() {
  // Every preset sets every key any preset changes, so applying one over another leaves nothing behind.
  // Each caption's claims are checked over seeds 0-2 by tests/cpp/test_scenarios.cpp.
  static const std::vector<Scenario> table = {
      {"adam", "Adam (default): slower, still learns",
       "Both variants learn to copy; unscaled reaches loss 0.1 later on every seed. Look at the q/k gradient chart: "
       "at step 1 it is larger unscaled than scaled, not smaller, and over the first 50 steps it is more than twice "
       "scaled's, yet Adam moves those weights no further: it divides each step by the running size of the "
       "gradient, so the step does not follow the gradient's size, and the unscaled model keeps moving.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=xavier&dModel=64&heads=1&steps=400&seeds=3"},
      {"sgd", "SGD: the lesson's 'fails to learn entirely'",
       "SGD's step is the learning rate times the gradient, not a normalised one. Unscaled starts to learn, then its "
       "attention saturates: the logit spread climbs into the hundreds and beyond, the softmax Jacobian falls to ~0, "
       "the gradient reaching W_q and W_k collapses, and the loss goes back towards ln 10 = 2.3, the uniform guess. "
       "Scaled reaches 0.1 in under 80 steps.",
       "variants=scaled,unscaled&optimizer=sgd&lr=0.1&momentum=0.9&init=xavier&dModel=64&heads=1&steps=600&seeds=3"},
      {"adam-high-lr", "Adam at lr 0.01: fails too",
       "Ten times Adam's default step. Scaled reaches loss 0.1 in under 60 steps; unscaled does not reach it within "
       "400 steps and copies few or no sequences: its logits grow until the softmax saturates, which Adam's "
       "normalised step cannot undo at this rate. 'Fails to learn entirely' is not only SGD's.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.01&init=xavier&dModel=64&heads=1&steps=400&seeds=3"},
      {"gpt-init", "GPT-style init: the difference disappears, and why",
       "With weights drawn from N(0, 0.02) the predicted std of the unscaled logits at init is 0.2, not 8 as with "
       "Xavier: the softmax starts almost uniform with or without 1/sqrt(d_k), and both variants reach loss 0.1 "
       "within 15 % of each other. The lesson's footnote assumes unit-variance q and k, which is the Xavier case; "
       "compare the step-1 attention entropy with the Adam scenario's.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=gpt&dModel=64&heads=1&steps=400&seeds=3"},
      {"large-dk", "larger d_k (d_model 256, 1 head)",
       "With d_k = 256 the unscaled logits start with std 16 (scaled: 1): at step 1 the unscaled attention is "
       "nearly one-hot (entropy below 0.5 nats, scaled above 1.5) and its softmax Jacobian is less than half of "
       "scaled's. Adam still makes unscaled learn, but it takes more than twice as many steps as scaled to reach "
       "loss 0.1 on every seed. A step costs about 16 times a canonical one.",
       "variants=scaled,unscaled&optimizer=adam&lr=0.001&init=xavier&dModel=256&heads=1&steps=250&seeds=3"},
      {"qknorm", "QK-norm: a modern fix",
       "QK-norm divides q and k by their norms and learns the logit scale, so the logits stay bounded by that gain. "
       "At Adam lr 0.01, where unscaled fails, QK-norm reaches loss 0.1 about as fast as scaled (under 60 steps).",
       "variants=scaled,unscaled,qknorm&optimizer=adam&lr=0.01&init=xavier&dModel=64&heads=1&steps=400&seeds=3"},
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

}  // namespace

ExerciseSettings parse_exercise_settings(const std::string& fragment) {
  ExerciseSettings s;
  std::vector<std::string> variants = s.variants;
  double train_alpha = 1.0;  // the page's default alpha for the alpha variant
  uint64_t first_seed = 0;
  std::vector<GivenSetting> given;  // core settings, by the page's (JavaScript) key of the settings table
  for (const std::string& pair : split(fragment, '&')) {
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos) throw ConfigError("setting '" + pair.substr(0, 40) + "' has no value");
    const std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
    // The exercise's own keys first (they are the page's, not the core's), then the settings table.
    if (key == "trainAlpha") train_alpha = parse_number(key, value);
    else if (key == "seeds") s.seeds = parse_int(key, value);
    else if (key == "trainSeed") first_seed = static_cast<uint64_t>(std::max(0, parse_int(key, value)));
    else if (key == "steps") s.steps = parse_int(key, value);
    else if (key == "threshold") s.threshold = parse_number(key, value);
    else if (key == "variants") {
      variants.clear();
      for (const std::string& item : split(value, ',')) {
        if (item != "scaled" && item != "unscaled" && item != "alpha" && item != "qknorm")
          throw ConfigError("setting variants: '" + item.substr(0, 40) + "' is not scaled, unscaled, alpha or qknorm");
        variants.push_back(item);
      }
    } else {
      const Setting* setting = nullptr;
      for (const Setting& candidate : settings())
        if (js_key(candidate) == key && key != "scale" && key != "alpha" && key != "seed") setting = &candidate;
      if (!setting) throw ConfigError("unknown setting '" + key.substr(0, 40) + "'");
      double number = 0;
      if (setting->type == SettingType::choice) {
        const int index = choice_index(*setting, value);
        if (index < 0) throw ConfigError(choice_error(*setting, value));
        number = index;
      } else {
        number = parse_number(key, value);
      }
      given.push_back({setting, number});
    }
  }
  TrainConfig& c = s.base;
  const std::string problem = apply_settings(given, c);
  if (!problem.empty()) throw ConfigError(problem);
  c.seed = first_seed;
  s.variants.clear();
  for (const std::string& v : variants) {
    std::string name = v;
    if (v == "alpha") name += "=" + format_value(*find_setting("alpha"), train_alpha);
    parse_scale(name, c.model);  // checks alpha's range; the last variant's scale stays in base, unused
    s.variants.push_back(name);
  }
  if (s.variants.empty()) throw ConfigError("setting variants: at least one variant is needed");
  if (s.seeds < 1 || s.seeds > 50) throw ConfigError("setting seeds must be in [1, 50]");
  if (s.steps < 1 || s.steps > 1000000) throw ConfigError("setting steps must be in [1, 1000000]");
  if (!(s.threshold > 0)) throw ConfigError("setting threshold must be positive");
  require_valid(c);
  return s;
}

}  // namespace sqrtdk
