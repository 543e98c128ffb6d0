// sqrtdk compare: the exercise's answer. Trains each variant on several seeds and compares steps to threshold.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "cli/train_flags.hpp"
#include "core/analysis.hpp"
#include "core/trainer.hpp"

namespace sqrtdk {
namespace {

const std::string kUsage = std::string(
    "usage: sqrtdk compare [--variants scaled,unscaled] [--seeds 3] [--seed 0] [--steps 1500] [--threshold 0.1]\n"
    "                      [--json] [--quiet] [model, task, optimizer flags]\n"
    "\n"
    "Trains every variant (scaled, unscaled, qknorm, alpha=<a>) on seeds seed .. seed+seeds-1 for the same\n"
    "number of steps and answers \"how much earlier/later does each variant reach the loss threshold than the\n"
    "first?\" with medians over seeds.  Definitions (smoothed loss, steps to threshold, plateau, what counts as\n"
    "a clear difference) are in src/core/analysis.hpp.\n\n") +
    train_flags_usage(/*with_scale=*/false);

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
  if (out.empty() || out.size() > 8) throw UsageError("--variants needs 1 to 8 comma-separated variants");
  return out;
}

void write_json_run(JsonWriter& w, const RunSummary& r) {
  w.begin_object().field("seed", r.seed);
  w.key("steps_to_threshold");
  r.steps_to_threshold > 0 ? w.value(r.steps_to_threshold) : w.null();
  w.field("plateau_step", r.plateau_step).field("plateau_loss", r.plateau_loss);
  w.field("final_loss", r.final_loss).field("sequence_accuracy", r.sequence_accuracy);
  w.field("diverged", r.diverged);
  w.key("diverged_step");
  r.diverged ? w.value(r.diverged_step) : w.null();
  w.end_object();
}

}  // namespace

int run_compare(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept(train_flag_names({"variants", "seeds", "steps", "threshold", "json", "quiet"}));
  TrainConfig base = read_train_config(args, /*with_scale=*/false);
  const std::vector<std::string> names = split_variants(args.get_string("variants", "scaled,unscaled"));
  const int seeds = args.get_int("seeds", 3, 1, 50);
  const int steps = args.get_int("steps", 1500, 1, 1000000);
  const double threshold = args.get_double("threshold", 0.1, 1e-9, 100.0);
  const bool json = args.get_switch("json");
  const bool quiet = args.get_switch("quiet");
  base.eval_every = steps;  // one evaluation, at the end: the comparison needs the final accuracy only

  const auto start = std::chrono::steady_clock::now();
  std::vector<VariantSummary> variants;
  for (const std::string& name : names) {
    VariantSummary v;
    v.name = name;
    for (int s = 0; s < seeds; ++s) {
      TrainConfig config = base;
      parse_scale(name, config.model);
      config.seed = base.seed + static_cast<uint64_t>(s);
      Trainer trainer(config);
      if (!quiet) std::fprintf(stderr, "%s seed %llu ...\n", name.c_str(), static_cast<unsigned long long>(config.seed));
      const TrainLog log = trainer.run(steps);
      const double accuracy = log.evals.empty() ? trainer.evaluate().sequence_accuracy : log.evals.back().sequence_accuracy;
      RunSummary run = summarize_run(log.loss, threshold, trainer.diverged() ? 0.0 : accuracy, trainer.diverged_step());
      run.seed = config.seed;
      v.runs.push_back(run);
    }
    variants.push_back(v);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string answer = compare_answer(variants, threshold, steps);

  if (json) {
    JsonWriter w;
    w.begin_object().key("config").begin_object();
    w.field("n_layers", base.model.n_layers).field("d_model", base.model.d_model).field("n_heads", base.model.n_heads);
    w.field("d_ff", base.model.ff()).field("init", to_string(base.model.init));
    w.field("copy_length", base.task.copy_length).field("n_symbols", base.task.n_symbols);
    w.field("batch", base.task.batch).field("lr", base.optim.lr).field("beta1", base.optim.beta1);
    w.field("beta2", base.optim.beta2).field("eps", base.optim.eps).field("clip_norm", base.optim.clip_norm);
    w.field("steps", steps).field("seeds", seeds).field("first_seed", base.seed).end_object();
    w.field("threshold", threshold).key("variants").begin_array();
    for (const VariantSummary& v : variants) {
      w.begin_object().field("name", v.name).key("runs").begin_array();
      for (const RunSummary& r : v.runs) write_json_run(w, r);
      w.end_array().key("median_steps_to_threshold");
      const double m = v.median_steps_to_threshold();
      m > 0 ? w.value(m) : w.null();
      w.field("median_plateau_step", v.median_plateau_step()).end_object();
    }
    w.end_array().field("answer", answer).field("seconds", seconds).end_object();
    return emit(w.str() + "\n");
  }
  std::string text;
  appendf(text, "%-12s %6s %10s %9s %12s %10s %8s\n", "variant", "seed", "to_thresh", "plateau", "plateau_loss",
          "final_loss", "seq_acc");
  for (const VariantSummary& v : variants)
    for (const RunSummary& r : v.runs) {
      const std::string reach = r.steps_to_threshold > 0 ? std::to_string(r.steps_to_threshold) : "never";
      appendf(text, "%-12s %6llu %10s %9d %12.4g %10.4g %8.3f%s\n", v.name.c_str(), r.seed, reach.c_str(),
              r.plateau_step, r.plateau_loss, r.final_loss, r.sequence_accuracy, r.diverged ? "  DIVERGED" : "");
    }
  appendf(text, "\n%s\n", answer.c_str());
  return emit(text);
}

}  // namespace sqrtdk
