// One-click scenarios: named settings states of the exercise, each with a caption saying what to look at and what
// was measured (claims.hpp counts its claims over many seeds).  A scenario's title and what to look at are the
// phrasebook's "scenario.<id>.title" and "scenario.<id>.lead" (src/core/text/phrasebook.cpp), so they translate
// with the answer's texts.
//
// `settings` is a URL-hash fragment in the web page's key vocabulary (web/src/state/properties.js), so the page
// applies a scenario through its normal URL-state parser (validated, shareable).  parse_exercise_settings reads
// the same fragment natively with the same key names, so `sqrtdk compare --scenario <id>` and the native tests
// of each scenario's claim (tests/cpp/test_scenarios.cpp) run exactly what the page runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/settings/config.hpp"
#include "core/settings/run_settings.hpp"

namespace sqrtdk {

// A claim a scenario's caption makes, counted over the seeds of its measurement (claims.hpp).  `variant` is one
// of the scenario's variants; the reference is its first.
enum class ClaimKind {
  learns,          // reached the threshold and ended below it
  fails,           // did not learn (never reached it, or reached it and fell back above it)
  slower,          // needed at least `parameter` x the reference's steps on the same seed, or never got there
  similar,         // reached it less than `parameter` x apart from the reference's steps (either way), same seed
  start_sharper,   // layer 1's attention entropy at step 1 below the reference's on the same seed
  start_gradient,  // the q/k gradient at step 1 larger than the reference's on the same seed
  qk_collapse,     // the smoothed q/k gradient ended at least `parameter` x below its peak (kDeadDrop)
  dead_jacobian,   // layer 1's softmax Jacobian over the last kEndWindow steps (claims.hpp) below `parameter`
};
struct Claim {
  ClaimKind kind;
  const char* variant;
  double parameter = 0;
};

struct Scenario {
  const char* id;
  const char* title;     // English, from the phrasebook's "scenario.<id>.title"
  const char* lead;      // English, "scenario.<id>.lead": what to look at; no measured number (that is the claims')
  const char* settings;  // e.g. "variants=scaled,unscaled&optimizer=sgd&lr=0.1&momentum=0.9&steps=600&seeds=3"
  std::vector<Claim> claims;
};

const std::vector<Scenario>& scenarios();
const Scenario* find_scenario(const std::string& id);  // nullptr if unknown

// A scenario's settings without the ones a single run of one variant does not depend on (variants, seeds: which
// variants the page trains side by side and how many seeds): the key of its runs in the claims table.
std::string run_settings(const Scenario& scenario);

// An exercise as the page runs it: every variant on seeds first_seed .. first_seed + seeds - 1, `steps` each.
// Defaults are the page's (properties.js): canonical model and task, 400 steps, 3 seeds, threshold 0.1.
struct ExerciseSettings {
  TrainConfig base;                    // the scale is each variant's
  std::vector<std::string> variants{"scaled", "unscaled"};  // parse_scale names; alpha as "alpha=<trainAlpha>"
  int seeds = static_cast<int>(run::seeds.value);
  int steps = static_cast<int>(run::steps.value);
  double threshold = run::threshold.value;
};

// Applies "key=value&key=value" (page keys: layers, dModel, heads, copyLength, symbols, batch, init, optimizer,
// lr, momentum, variants, trainAlpha, seeds, trainSeed, evalEvery, steps, threshold) over the defaults.  When
// optimizer is sgd and lr is absent, lr is kSgdDefaultLr.  Throws ConfigError naming the key on an unknown key,
// a malformed value or an invalid result.
ExerciseSettings parse_exercise_settings(const std::string& fragment);

}  // namespace sqrtdk
