// The scenarios' claims, measured as rates over many seeds.
//
// Training this copy task is chaotic: a rounding-level change sends a run down another trajectory after a few
// dozen steps, so a claim about one seed says little about a setting.  Each scenario is therefore measured on
// kClaimSeeds seeds (scripts/measure-claims.sh runs `sqrtdk claims --measure` for each run), the per-seed outcomes
// are committed in claims_table.cpp, and every claim a caption makes is a count over that table ("unscaled did not
// learn on 20 of 20 seeds").  The float arithmetic is the same natively and in WebAssembly (gemm_f32x4.hpp,
// simd_math.hpp, det_math.hpp), so the table holds on every machine, and tests/cpp/test_scenarios.cpp re-measures
// a few seeds of each scenario and fails when the table is stale.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/claims/scenarios.hpp"
#include "core/text/phrasebook.hpp"

namespace sqrtdk {

class JsonWriter;  // core/text/json.hpp

constexpr int kClaimSeeds = 20;  // seeds 0 .. 19 of every scenario
constexpr int kEndWindow = 50;   // the window of the "last steps" readings (end_jacobian)

// What one run of a scenario's variant did, read from its whole curve (every step of the scenario's budget).
struct SeedOutcome {
  int reached = -1;            // first step with the smoothed loss below the threshold, -1 never (learned or not)
  double final_loss = 0;       // smoothed loss at the last step analysed
  double min_loss = 0;         // lowest smoothed loss of the run
  int diverged_step = 0;       // 0: did not diverge
  double start_entropy = 0;    // layer 1's mean attention entropy at step 1, nats (mean over heads)
  double start_jacobian = 0;   // layer 1's mean softmax Jacobian norm at step 1
  double end_jacobian = 0;     // layer 1's mean softmax Jacobian norm over the last kEndWindow steps
  double qk_drop = 0;          // peak / final of the smoothed q/k gradient (mechanism.hpp)
  double start_qk_gradient = 0;  // the q/k gradient at step 1 (all layers)
};

// The variants a scenario's claims need measured: its reference (first variant), then each variant a claim names.
std::vector<std::string> measured_variants(const Scenario& scenario);

// Trains `variant` of the scenario's settings on seed `seed` for the scenario's steps and reads the outcome.
SeedOutcome measure_seed(const ExerciseSettings& settings, const std::string& variant, uint64_t seed);

// Learned (analysis.hpp's one definition): reached the threshold and ended below it.  Touched: reached it and
// ended above it (fell back).
bool learned(const SeedOutcome& o, double threshold);
bool touched(const SeedOutcome& o, double threshold);

struct MeasuredVariant {
  const char* variant;                // as in the scenario's settings ("scaled", "unscaled", "qknorm")
  std::vector<SeedOutcome> seeds;     // seeds 0 .. kClaimSeeds - 1
};
struct MeasuredScenario {
  const char* id;
  const char* settings;               // the scenario's settings
  std::vector<MeasuredVariant> variants;  // measured_variants(scenario), in that order
};

// One variant trained with one run's settings, as the table stores it: two scenarios that train the same variant
// with the same settings (qknorm's scaled runs are adam-high-lr's) share one measurement.
struct MeasuredRun {
  const char* settings;               // run_settings(scenario): what a run of one variant depends on
  const char* variant;
  std::vector<SeedOutcome> seeds;     // seeds 0 .. kClaimSeeds - 1
};

// Each (run settings, variant) that some scenario's claims need, once, in the order of scenarios(): the first
// scenario that needs it (scripts/measure-claims.sh measures these).
struct RunToMeasure {
  const Scenario* scenario;
  std::string variant;
};
std::vector<RunToMeasure> runs_to_measure();

// The committed measurements (claims_table.cpp, written by scripts/measure-claims.sh).
const std::vector<MeasuredRun>& measured_runs();
// The arithmetic's fingerprint (train/fingerprint.hpp) of the build that measured them: a build whose fingerprint
// differs computes other curves, so the table is stale there (tests/cpp/test_fingerprint.cpp).
const char* measured_with_fingerprint();
// The scenario `id`'s measurement, put together from the table's runs: nullptr if a variant its claims need was not
// measured with its current settings.
const MeasuredScenario* find_measurement(const std::string& id);

// The table's rows for one run, as claims_table.cpp spells them.
std::string measurement_source(const MeasuredRun& run);

// A scenario's caption: a headline (one sentence, the counts of every measured variant learning, at most
// kHeadlineWords words) and the details the page folds under it (what to look at, then every claim counted).
// As messages (phrasebook.hpp) for the page, which renders them in the learner's language, and in English.
inline constexpr int kHeadlineWords = 25;
Message scenario_title(const Scenario& scenario);
Message scenario_headline(const Scenario& scenario);           // no key when not measured with these settings
std::vector<Message> measured_messages(const Scenario& scenario);  // "Measured on seeds 0–19:", then each claim
std::vector<Message> scenario_details(const Scenario& scenario);   // lead, then measured_messages (or "not measured")
// English texts of the above, sentences joined by spaces ("" when there is none).
std::string english_text(const std::vector<Message>& messages);
std::string measured_sentences(const Scenario& scenario);
// headline + details: the whole caption in English (the CLI's).
std::string scenario_caption(const Scenario& scenario);
// {id, title, headline, details, settings, counts: [{variant, seeds, learned, median_steps}] (the headline's counts as
// numbers; empty when not measured), messages: {title, headline, details: [message]}}: the page's row.
void write_scenario(JsonWriter& w, const Scenario& scenario);

}  // namespace sqrtdk
