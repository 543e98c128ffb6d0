// sqrtdk train: one copy-task run; per-step metrics to a CSV file, a summary to stdout.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/text/json.hpp"
#include "cli/output.hpp"
#include "cli/range_flags.hpp"
#include "cli/train_flags.hpp"
#include "core/answer/analysis.hpp"
#include "core/answer/mechanism.hpp"
#include "core/train/metrics.hpp"
#include "core/settings/run_settings.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk {
namespace {

// The per-step metrics, one line each, from the metrics table.
std::string metrics_usage() {
  std::string out = "Per-step metrics (CSV columns):\n";
  for (const Metric& m : metrics()) {
    const char* per = m.shape == MetricShape::step ? "" : m.shape == MetricShape::layer ? "_l<i>" : "_l<i>_h<j>";
    out += "  " + std::string(m.name) + per + std::string(24 - std::min<std::size_t>(23, std::strlen(m.name) + std::strlen(per)), ' ') +
           m.doc + (*m.unit ? std::string(" (") + m.unit + ")" : "") + "\n";
  }
  return out;
}

const std::string kUsage = std::string(
    "usage: sqrtdk train [--scale scaled|unscaled|alpha=0.25|qknorm] " + range_synopsis({&run::steps, &run::threshold}) +
    " [--seed N]\n"
    "                    [--csv FILE] [--json] [--quiet] [model, task, optimizer flags]\n"
    "\n"
    "Trains the tiny Transformer on the copy task and writes one CSV row per step to FILE, in the format of the\n"
    "page's CSV export: variant, seed, step, then every per-step metric below (_l<i> is layer i, _h<j> head j,\n"
    "from 1), then eval_loss, eval_token_accuracy, eval_sequence_accuracy at evaluation steps. Empty cells: no\n"
    "value (not evaluated at that step, or not finite).\n"
    "Progress goes to stderr (unless --quiet); the summary to stdout (JSON with --json), with the q/k gradient\n"
    "of all layers smoothed like the loss at its peak and at the last step (qk_grad_peak, qk_grad_peak_step,\n"
    "qk_grad_final; see src/core/answer/mechanism.hpp).\n\n") +
    range_usage({&run::steps, &run::threshold}) + "\n" + metrics_usage() + "\n" + train_flags_usage();

// The one CSV format of a run's curves (metrics.hpp: curves_csv_header), the page's export's too.
std::string metrics_csv(const TrainLog& log, const std::string& variant, uint64_t seed) {
  const int L = log.n_layers, H = log.n_heads;
  CsvWriter csv;
  for (const std::string& name : curves_csv_header(L, H)) csv.cell(name);
  csv.end_row();
  std::size_t next_eval = 0;
  for (std::size_t t = 0; t < log.size(); ++t) {
    csv.cell(variant).cell(seed).cell(log.step[t]);
    for (const Metric& m : metrics()) {
      const std::size_t width = static_cast<std::size_t>(metric_width(m, L, H));
      for (std::size_t i = 0; i < width; ++i) csv.cell(double((log.*m.series)[t * width + i]));
    }
    const bool evaluated = next_eval < log.evals.size() && log.evals[next_eval].step == log.step[t];
    for (const EvalColumn& e : eval_columns())
      if (evaluated) csv.cell(double(log.evals[next_eval].*e.value));
      else csv.cell("");
    next_eval += evaluated;
    csv.end_row();
  }
  return csv.str();
}

}  // namespace

namespace {

// One finished run as the trainer and its analysis saw it.
struct TrainedRun {
  const TrainConfig& config;
  const TrainLog& log;
  const RunSummary& run;
  const EvalMetrics& final_eval;
  double threshold;
  double seconds;
};

std::string train_json(const TrainedRun& t) {
  const RunSummary& run = t.run;
  JsonWriter w;
  w.begin_object().field("scale", scale_label(t.config.model)).field("init", to_string(t.config.model.init));
  w.field("optimizer", to_string(t.config.optim.optimizer)).field("lr", t.config.optim.lr);
  w.field("seed", t.config.seed).field("steps", run.steps).field("threshold", t.threshold);
  w.key("steps_to_threshold");
  run.steps_to_threshold > 0 ? w.value(run.steps_to_threshold) : w.null();
  w.key("stall");
  run.stall.found() ? w.begin_object().field("start", run.stall.start).field("length", run.stall.length)
                          .field("level", run.stall.level).field("to_end", run.stall.to_end).end_object()
                    : w.null();
  w.field("final_loss", run.final_loss).field("token_accuracy", double(t.final_eval.token_accuracy));
  w.field("sequence_accuracy", run.sequence_accuracy).field("diverged", run.diverged);
  w.key("diverged_step");
  run.diverged ? w.value(run.diverged_step) : w.null();
  const GradientDrop drop = qk_gradient_drop(t.log);
  w.field("qk_grad_peak", drop.peak).field("qk_grad_peak_step", drop.peak_step).field("qk_grad_final", drop.final);
  w.field("steps_per_second", run.steps / t.seconds).end_object();
  return w.str() + "\n";
}

std::string train_text(const TrainedRun& t) {
  const RunSummary& run = t.run;
  std::string text;
  appendf(text, "scale %s, init %s, %s lr %s, seed %llu: %d steps in %.1f s (%.0f steps/s)\n",
          scale_label(t.config.model).c_str(), to_string(t.config.model.init), to_string(t.config.optim.optimizer),
          format_given(t.config.optim.lr).c_str(), static_cast<unsigned long long>(t.config.seed), run.steps, t.seconds,
          run.steps / t.seconds);
  if (run.diverged) appendf(text, "DIVERGED at step %d\n", run.diverged_step);
  // Measured values by the core's one rule (format_number): a diverged run's loss reads "∞" or "–".
  appendf(text, "final smoothed loss %s, sequence accuracy %.3f, token accuracy %.3f\n",
          format_number(run.final_loss).c_str(), run.sequence_accuracy, double(t.final_eval.token_accuracy));
  const std::string threshold = format_given(t.threshold);
  if (run.steps_to_threshold > 0) appendf(text, "smoothed loss < %s at step %d\n", threshold.c_str(), run.steps_to_threshold);
  else appendf(text, "smoothed loss never went below %s\n", threshold.c_str());
  appendf(text, "stall: %s\n", run_stall_cell(run).c_str());
  const GradientDrop drop = qk_gradient_drop(t.log);
  appendf(text, "q/k gradient (smoothed): peak %s at step %d, final %s (%sx below the peak)\n",
          format_number(drop.peak).c_str(), drop.peak_step, format_number(drop.final).c_str(),
          format_number(drop.ratio()).c_str());
  return text;
}

}  // namespace

int run_train(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept(train_flag_names({"scale", "steps", "threshold", "csv", "json", "quiet"}));
  const TrainConfig config = read_train_config(args);
  const int steps = range_int(args, run::steps);
  const double threshold = range_real(args, run::threshold);
  const std::string csv_path = args.get_string("csv", "");
  const bool json = args.get_switch("json");
  const bool quiet = args.get_switch("quiet");

  Trainer trainer(config);
  TrainLog log;
  const auto start = std::chrono::steady_clock::now();
  const int chunk = std::max(1, steps / 20);
  while (trainer.steps_done() < steps && !trainer.diverged()) {
    log.extend(trainer.run(std::min(chunk, steps - trainer.steps_done())));
    if (!quiet)
      std::fprintf(stderr, "\rstep %d/%d  loss %.4f", trainer.steps_done(), steps,
                   log.loss.empty() ? 0.0 : double(log.loss.back()));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!quiet) std::fprintf(stderr, "\n");
  const EvalMetrics final_eval = trainer.diverged() ? EvalMetrics{} : trainer.evaluate();
  const RunSummary run = summarize_run(log.loss, threshold, final_eval.sequence_accuracy, trainer.diverged_step());

  if (!csv_path.empty()) {
    std::ofstream file(csv_path, std::ios::binary);
    file << metrics_csv(log, scale_label(config.model), config.seed);
    if (!file) throw UsageError("--csv: cannot write '" + csv_path + "'");
  }
  const TrainedRun trained{config, log, run, final_eval, threshold, seconds};
  return emit(json ? train_json(trained) : train_text(trained));
}

}  // namespace sqrtdk
