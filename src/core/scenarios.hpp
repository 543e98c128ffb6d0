// One-click scenarios: named settings states of the exercise, each with a caption saying what to look at.
//
// `settings` is a URL-hash fragment in the web page's key vocabulary (web/src/state/properties.js), so the page
// applies a scenario through its normal URL-state parser (validated, shareable).  parse_exercise_settings reads
// the same fragment natively with the same key names, so `sqrtdk compare --scenario <id>` and the native tests
// of each scenario's claim (tests/cpp/test_scenarios.cpp) run exactly what the page runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"

namespace sqrtdk {

struct Scenario {
  const char* id;
  const char* title;
  const char* caption;   // what to look at, and what was measured natively (seeds 0-4)
  const char* settings;  // e.g. "variants=scaled,unscaled&optimizer=sgd&lr=0.1&momentum=0.9&steps=600&seeds=3"
};

const std::vector<Scenario>& scenarios();
const Scenario* find_scenario(const std::string& id);  // nullptr if unknown

// An exercise as the page runs it: every variant on seeds first_seed .. first_seed + seeds - 1, `steps` each.
// Defaults are the page's (properties.js): canonical model and task, 400 steps, 3 seeds, threshold 0.1.
struct ExerciseSettings {
  TrainConfig base;                    // the scale is each variant's
  std::vector<std::string> variants{"scaled", "unscaled"};  // parse_scale names; alpha as "alpha=<trainAlpha>"
  int seeds = 3;
  int steps = 400;
  double threshold = 0.1;
};

// Applies "key=value&key=value" (page keys: layers, dModel, heads, copyLength, symbols, batch, init, optimizer,
// lr, momentum, variants, trainAlpha, seeds, trainSeed, evalEvery, steps, threshold) over the defaults.  When
// optimizer is sgd and lr is absent, lr is kSgdDefaultLr.  Throws ConfigError naming the key on an unknown key,
// a malformed value or an invalid result.
ExerciseSettings parse_exercise_settings(const std::string& fragment);

}  // namespace sqrtdk
