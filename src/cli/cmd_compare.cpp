// sqrtdk compare: the exercise's answer. Trains each variant on several seeds and compares steps to threshold.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

#include "cli/commands.hpp"
#include "cli/exercise_flags.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/text/json.hpp"
#include "cli/output.hpp"
#include "cli/range_flags.hpp"
#include "cli/train_flags.hpp"
#include "core/answer/analysis.hpp"
#include "core/answer/glossary.hpp"
#include "core/answer/learned_headline.hpp"
#include "core/claims/claims.hpp"
#include "core/answer/mechanism.hpp"
#include "core/claims/scenarios.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk {
namespace {

const std::string kUsage = std::string(
    "usage: sqrtdk compare [--variants " + default_variants() + "] " +
    range_synopsis({&run::seeds, &run::steps, &run::threshold}) + " [--seed N]\n"
    "                      [--json] [--quiet] [model, task, optimizer flags]\n"
    "       sqrtdk compare --scenario <id> [--json] [--quiet]   (a page scenario exactly; see 'sqrtdk scenarios')\n"
    "\n"
    "Trains every variant (scaled, unscaled, qknorm, alpha=<a>) on seeds seed .. seed+seeds-1 for the same\n"
    "number of steps and answers \"how much earlier/later does each variant reach the loss threshold than the\n"
    "first?\" with medians over seeds, each seed's steps, stalls and final levels.  The definitions (smoothed\n"
    "loss, steps to threshold, stall, final level, clear difference) are printed under the table; --json gives\n"
    "the same structured answer as the page's lab.compare().\n\n"
    ) + exercise_flags_usage() + train_flags_usage(/*with_scale=*/false);

// Pads UTF-8 `text` with spaces to `width` characters (display names contain √ and α).
std::string pad(const std::string& text, std::size_t width) {
  std::size_t chars = 0;
  for (const char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return text + std::string(width > chars ? width - chars : 1, ' ');
}

// The learner's runs in the claims' form; with --scenario, beside that preset's 20-seed claim and which median
// each line means.
std::string beside_claim(const Answer& answer, const Scenario* scenario) {
  const Message headline = runs_headline(answer);
  if (headline.key.empty()) return "";
  std::string text = english(headline) + "\n";
  const Message claim = scenario ? scenario_headline(*scenario) : Message();
  if (!claim.key.empty())
    text += english(Message("runs_headline.claim").with("headline", claim)) + "\n" +
            english(Message("runs_headline.medians")) + "\n";
  return text;
}

std::string text_report(const Answer& answer, const Scenario* scenario) {
  std::string text = pad("variant", 16) + pad("seed", 6) + pad("steps to " + format_number(answer.threshold), 24) +
                     pad("stall", 48) + pad("final", 10) + "sequence accuracy\n";
  for (const VariantResult& v : answer.variants)
    for (const RunSummary& r : v.runs) {
      char accuracy[16];
      std::snprintf(accuracy, sizeof accuracy, "%.3f", r.sequence_accuracy);
      text += pad(v.label, 16) + pad(std::to_string(r.seed), 6) + pad(run_steps_cell(r, answer.steps), 24) +
              pad(run_stall_cell(r), 48) + pad(format_number(r.final_loss), 10) + accuracy +
              (r.diverged ? "  DIVERGED" : "") + "\n";
    }
  text += "\n";
  for (const std::string& sentence : answer.sentences) text += sentence + "\n";
  text += beside_claim(answer, scenario) + "\n";
  for (const DefinitionText& d : definition_texts(answer.defs, answer.threshold, answer.steps)) text += d.text + "\n";
  // The table's last column is not one of the answer's definitions: its glossary entry.
  return text + english(glossary_line_of("accuracy", answer.threshold, answer.steps, answer.defs)) + "\n";
}

}  // namespace

namespace {

// One variant trained on seeds base.seed, base.seed + 1, ...: its loss and mechanism curves.
VariantCurves train_variant(const std::string& name, const TrainConfig& base, int seeds, int steps, bool quiet) {
  VariantCurves v;
  v.name = name;
  for (int s = 0; s < seeds; ++s) {
    TrainConfig config = base;
    parse_scale(name, config.model);
    v.label_message = variant_label_message(config.model.scale, config.model.alpha);
    v.label = english(v.label_message);
    config.seed = base.seed + static_cast<uint64_t>(s);
    Trainer trainer(config);
    if (!quiet) std::fprintf(stderr, "%s seed %llu ...\n", name.c_str(), static_cast<unsigned long long>(config.seed));
    const TrainLog log = trainer.run(steps);
    RunCurve run;
    run.seed = config.seed;
    run.loss = log.loss;
    run.mechanism = mechanism_curves(log);
    run.diverged_step = trainer.diverged_step();
    run.sequence_accuracy = trainer.diverged() ? 0.0
                            : log.evals.empty() ? trainer.evaluate().sequence_accuracy
                                                : log.evals.back().sequence_accuracy;
    v.runs.push_back(std::move(run));
  }
  return v;
}

// The configuration and timing, then the analysis's own members (the document lab.compare returns).
std::string compare_json(const ExerciseSettings& e, double seconds, const Answer& answer,
                         const MechanismReading& mechanism) {
  std::string joined;
  for (const std::string& sentence : answer.sentences) joined += (joined.empty() ? "" : " ") + sentence;
  JsonWriter w;
  w.begin_object().key("config").begin_object();
  write_settings_json(w, e.base, {"scale", "alpha", "seed", "eval_every"});  // the variants set the scale
  w.field("steps", e.steps).field("seeds", e.seeds).field("first_seed", e.base.seed).end_object();
  w.field("answer", joined).field("seconds", seconds);
  write_answer_members(w, answer);
  write_mechanism_member(w, mechanism);
  w.end_object();
  return w.str() + "\n";
}

}  // namespace

int run_compare(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept(exercise_flag_names({"json", "quiet"}));
  ExerciseSettings e = read_exercise_settings(args);
  const bool json = args.get_switch("json");
  const bool quiet = args.get_switch("quiet");
  e.base.eval_every = e.steps;  // one evaluation, at the end: the comparison needs the final accuracy only

  const auto start = std::chrono::steady_clock::now();
  std::vector<VariantCurves> variants;
  for (const std::string& name : e.variants) variants.push_back(train_variant(name, e.base, e.seeds, e.steps, quiet));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Answer answer = compare_runs(variants, e.threshold, e.steps);
  const MechanismReading mechanism = read_mechanism(variants, answer, mechanism_setting(e.base));
  const Scenario* scenario = args.has("scenario") ? find_scenario(args.get_string("scenario", "")) : nullptr;
  if (!json) return emit(text_report(answer, scenario) + "\n" + mechanism_text(mechanism));
  return emit(compare_json(e, seconds, answer, mechanism));
}

}  // namespace sqrtdk
