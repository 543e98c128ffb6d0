// sqrtdk claims: what each scenario's caption claims, counted over the committed measurements; and, with
// --measure, the measurement itself (scripts/measure-claims.sh writes src/core/claims/claims_table.cpp from it).
#include <algorithm>
#include <string>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/claims/claims.hpp"
#include "core/text/json.hpp"

namespace sqrtdk {
namespace {

const char kUsage[] =
    "usage: sqrtdk claims [--json] [--runs] [--measure <scenario> [--variant <name>] [--seeds N]]\n"
    "\n"
    "Without --measure: each scenario's claims as counts over its committed measurement (seeds 0-19).\n"
    "--json: the measurement as data, {scenarios: [{id, settings, threshold, claims: [{kind, variant, parameter}],\n"
    "variants: {name: [{reached, learned}, one per seed]}}]} (kind: learns, fails, slower, similar, or mechanism),\n"
    "for checks that count the same claims elsewhere (tests/torch_export/check.py).\n"
    "--runs: the runs the table holds, one per line as \"<scenario> <variant>\": each variant trained with one\n"
    "scenario's settings, once even when several scenarios share it.\n"
    "--measure <id>: trains every variant the scenario's claims need (or only --variant) on seeds 0 .. N-1\n"
    "(default 20) for the scenario's steps and prints the rows of src/core/claims/claims_table.cpp for each\n"
    "(scripts/measure-claims.sh runs this for every line of --runs and writes the file).\n";

// The claims a loss curve decides, by kind; the others read the lab's per-layer metrics.
const char* claim_kind(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::learns: return "learns";
    case ClaimKind::fails: return "fails";
    case ClaimKind::slower: return "slower";
    case ClaimKind::similar: return "similar";
    default: return "mechanism";
  }
}

std::string claims_json() {
  JsonWriter w;
  w.begin_object().key("scenarios").begin_array();
  for (const Scenario& s : scenarios()) {
    const MeasuredScenario* m = find_measurement(s.id);
    if (!m || m->settings != std::string(s.settings)) continue;  // not measured with its current settings
    const double threshold = parse_exercise_settings(s.settings).threshold;
    w.begin_object().field("id", s.id).field("settings", s.settings).field("threshold", threshold);
    w.key("claims").begin_array();
    for (const Claim& c : s.claims)
      w.begin_object().field("kind", claim_kind(c.kind)).field("variant", c.variant).field("parameter", c.parameter)
          .end_object();
    w.end_array().key("variants").begin_object();
    for (const MeasuredVariant& v : m->variants) {
      w.key(v.variant).begin_array();
      for (const SeedOutcome& o : v.seeds)
        w.begin_object().field("reached", o.reached).field("learned", learned(o, threshold)).end_object();
      w.end_array();
    }
    w.end_object().end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

}  // namespace

int run_claims(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept({"measure", "variant", "seeds", "json", "runs"});
  if (args.get_switch("json")) {
    if (args.has("measure")) throw UsageError("--json shows the committed measurement: drop --measure");
    return emit(claims_json());
  }
  if (args.get_switch("runs")) {
    std::string text;
    for (const RunToMeasure& run : runs_to_measure()) text += std::string(run.scenario->id) + " " + run.variant + "\n";
    return emit(text);
  }
  const std::string id = args.get_string("measure", "");
  const int seeds = static_cast<int>(args.get_int("seeds", kClaimSeeds, 1, 1000));
  if (id.empty()) {
    std::string text;
    for (const Scenario& s : scenarios()) {
      const std::string measured = measured_sentences(s);
      appendf(text, "%s: %s\n  %s\n\n", s.id, s.title,
              measured.empty() ? "not measured with its current settings" : measured.c_str());
    }
    return emit(text);
  }
  const Scenario* scenario = find_scenario(id);
  if (!scenario) throw UsageError("--measure: unknown scenario '" + id.substr(0, 40) + "' (see sqrtdk scenarios)");
  const ExerciseSettings settings = parse_exercise_settings(scenario->settings);
  std::vector<std::string> names = measured_variants(*scenario);
  if (args.has("variant")) {
    const std::string variant = args.get_string("variant", "");
    if (std::find(names.begin(), names.end(), variant) == names.end())
      throw UsageError("--variant: '" + variant.substr(0, 40) + "' is not one of the variants " + id + "'s claims need");
    names = {variant};
  }
  const std::string key = run_settings(*scenario);
  std::string text;
  for (const std::string& variant : names) {
    MeasuredRun run{key.c_str(), variant.c_str(), {}};
    for (int seed = 0; seed < seeds; ++seed) run.seeds.push_back(measure_seed(settings, variant, seed));
    text += measurement_source(run);
  }
  return emit(text);
}

}  // namespace sqrtdk
