// sqrtdk train: one copy-task run; per-step metrics to a CSV file, a summary to stdout.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "core/json.hpp"
#include "cli/output.hpp"
#include "cli/train_flags.hpp"
#include "core/analysis.hpp"
#include "core/mechanism.hpp"
#include "core/trainer.hpp"

namespace sqrtdk {
namespace {

const std::string kUsage = std::string(
    "usage: sqrtdk train [--scale scaled|unscaled|alpha=0.25|qknorm] [--steps 1500] [--seed 0]\n"
    "                    [--threshold 0.1] [--csv FILE] [--json] [--quiet] [model, task, optimizer flags]\n"
    "\n"
    "Trains the tiny Transformer on the copy task and writes one CSV row per step to FILE: step, loss,\n"
    "smoothed_loss (trailing mean of 20), grad_norm, grad_norm_l<i>, entropy_l<i>_h<j> (nats),\n"
    "max_logit_l<i>, top_weight_l<i>, qk_grad_norm_l<i> (gradient reaching W_q, W_k, b_q, b_k),\n"
    "qk_update_norm_l<i> (how far the optimizer moved them), logit_spread_l<i> (mean of row max - row mean of\n"
    "the attention logits), jacobian_norm_l<i> (mean softmax Jacobian norm), and at evaluation steps eval_loss,\n"
    "token_accuracy, sequence_accuracy.\n"
    "Progress goes to stderr (unless --quiet); the summary to stdout (JSON with --json), with the q/k gradient\n"
    "of all layers smoothed like the loss at its peak and at the last step (qk_grad_peak, qk_grad_peak_step,\n"
    "qk_grad_final; see src/core/mechanism.hpp).\n\n") +
    train_flags_usage();

std::string metrics_csv(const TrainLog& log) {
  const int L = log.n_layers, H = log.n_heads;
  CsvWriter csv;
  csv.cell("step").cell("loss").cell("smoothed_loss").cell("grad_norm");
  for (int l = 0; l < L; ++l) csv.cell("grad_norm_l" + std::to_string(l));
  for (int l = 0; l < L; ++l)
    for (int h = 0; h < H; ++h) csv.cell("entropy_l" + std::to_string(l) + "_h" + std::to_string(h));
  for (int l = 0; l < L; ++l) csv.cell("max_logit_l" + std::to_string(l));
  for (int l = 0; l < L; ++l) csv.cell("top_weight_l" + std::to_string(l));
  const std::pair<const char*, const std::vector<float>*> mechanism[] = {
      {"qk_grad_norm_l", &log.qk_grad_norm},
      {"qk_update_norm_l", &log.qk_update_norm},
      {"logit_spread_l", &log.logit_spread},
      {"jacobian_norm_l", &log.jacobian_norm}};
  for (const auto& [name, values] : mechanism)
    for (int l = 0; l < L; ++l) csv.cell(name + std::to_string(l));
  csv.cell("eval_loss").cell("token_accuracy").cell("sequence_accuracy").end_row();
  const std::vector<double> smooth = smoothed_loss(log.loss, CurveDefinitions{}.window);
  std::size_t next_eval = 0;
  for (std::size_t t = 0; t < log.size(); ++t) {
    csv.cell(log.step[t]).cell(double(log.loss[t])).cell(smooth[t]).cell(double(log.grad_norm[t]));
    for (int l = 0; l < L; ++l) csv.cell(double(log.layer_grad_norm[t * L + l]));
    for (int i = 0; i < L * H; ++i) csv.cell(double(log.entropy[t * L * H + i]));
    for (int l = 0; l < L; ++l) csv.cell(double(log.max_logit[t * L + l]));
    for (int l = 0; l < L; ++l) csv.cell(double(log.top_weight[t * L + l]));
    for (const auto& [name, values] : mechanism)
      for (int l = 0; l < L; ++l) csv.cell(double((*values)[t * L + l]));
    if (next_eval < log.evals.size() && log.evals[next_eval].step == log.step[t]) {
      const EvalMetrics& e = log.evals[next_eval++];
      csv.cell(double(e.loss)).cell(double(e.token_accuracy)).cell(double(e.sequence_accuracy));
    } else {
      csv.cell("").cell("").cell("");
    }
    csv.end_row();
  }
  return csv.str();
}

}  // namespace

int run_train(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept(train_flag_names({"scale", "steps", "threshold", "csv", "json", "quiet"}));
  const TrainConfig config = read_train_config(args);
  const int steps = args.get_int("steps", 1500, 1, 1000000);
  const double threshold = args.get_double("threshold", 0.1, 1e-9, 100.0);
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
    file << metrics_csv(log);
    if (!file) throw UsageError("--csv: cannot write '" + csv_path + "'");
  }
  if (json) {
    JsonWriter w;
    w.begin_object().field("scale", scale_label(config.model)).field("init", to_string(config.model.init));
    w.field("optimizer", to_string(config.optim.optimizer)).field("lr", config.optim.lr);
    w.field("seed", config.seed).field("steps", run.steps).field("threshold", threshold);
    w.key("steps_to_threshold");
    run.steps_to_threshold > 0 ? w.value(run.steps_to_threshold) : w.null();
    w.key("stall");
    run.stall.found() ? w.begin_object().field("start", run.stall.start).field("length", run.stall.length)
                            .field("level", run.stall.level).field("to_end", run.stall.to_end).end_object()
                      : w.null();
    w.field("final_loss", run.final_loss).field("token_accuracy", double(final_eval.token_accuracy));
    w.field("sequence_accuracy", run.sequence_accuracy).field("diverged", run.diverged);
    w.key("diverged_step");
    run.diverged ? w.value(run.diverged_step) : w.null();
    const GradientDrop drop = qk_gradient_drop(log);
    w.field("qk_grad_peak", drop.peak).field("qk_grad_peak_step", drop.peak_step).field("qk_grad_final", drop.final);
    w.field("steps_per_second", run.steps / seconds).end_object();
    return emit(w.str() + "\n");
  }
  std::string text;
  appendf(text, "scale %s, init %s, %s lr %g, seed %llu: %d steps in %.1f s (%.0f steps/s)\n",
          scale_label(config.model).c_str(), to_string(config.model.init), to_string(config.optim.optimizer),
          config.optim.lr, static_cast<unsigned long long>(config.seed), run.steps, seconds,
          run.steps / seconds);
  if (run.diverged) appendf(text, "DIVERGED at step %d\n", run.diverged_step);
  appendf(text, "final smoothed loss %.4g, sequence accuracy %.3f, token accuracy %.3f\n", run.final_loss,
          run.sequence_accuracy, double(final_eval.token_accuracy));
  if (run.steps_to_threshold > 0) appendf(text, "smoothed loss < %g at step %d\n", threshold, run.steps_to_threshold);
  else appendf(text, "smoothed loss never went below %g\n", threshold);
  appendf(text, "stall: %s\n", run_stall_cell(run).c_str());
  const GradientDrop drop = qk_gradient_drop(log);
  appendf(text, "q/k gradient (smoothed): peak %.3g at step %d, final %.3g (%.3gx below the peak)\n", drop.peak,
          drop.peak_step, drop.final, drop.ratio());
  return emit(text);
}

}  // namespace sqrtdk
