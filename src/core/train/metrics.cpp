#include "core/train/metrics.hpp"

#include <stdexcept>

namespace sqrtdk {

const std::array<Metric, kMetricCount>& metrics() {
  using S = MetricShape;
  using C = LayerCombine;
  // The order is the CSV's and the fingerprint's: a new metric goes at the end.
  static const std::array<Metric, kMetricCount> table = {{
      {"loss", S::step, C::none, "nats", "mean cross-entropy on the copy half of the step's batch",
       &TrainLog::loss, &StepMetrics::loss, nullptr},
      {"grad_norm", S::step, C::none, "", "global L2 norm of the gradient, before clipping",
       &TrainLog::grad_norm, &StepMetrics::grad_norm, nullptr},
      {"layer_grad_norm", S::layer, C::root_sum_square, "", "L2 norm of the gradient of each block's parameters",
       &TrainLog::layer_grad_norm, nullptr, &StepMetrics::layer_grad_norm},
      {"entropy", S::layer_head, C::mean, "nats", "mean entropy of the attention rows",
       &TrainLog::entropy, nullptr, &StepMetrics::entropy},
      {"max_logit", S::layer, C::none, "", "largest attention logit (after the scaling)",
       &TrainLog::max_logit, nullptr, &StepMetrics::max_logit},
      {"top_weight", S::layer, C::mean, "", "mean over the attention rows of the largest softmax weight",
       &TrainLog::top_weight, nullptr, &StepMetrics::top_weight},
      {"qk_grad_norm", S::layer, C::root_sum_square, "",
       "L2 norm of the gradient reaching W_q, W_k, b_q, b_k (all heads)",
       &TrainLog::qk_grad_norm, nullptr, &StepMetrics::qk_grad_norm},
      {"qk_update_norm", S::layer, C::root_sum_square, "",
       "L2 norm of the change the optimizer applied to W_q, W_k, b_q, b_k (0 at a diverged step)",
       &TrainLog::qk_update_norm, nullptr, &StepMetrics::qk_update_norm},
      {"logit_spread", S::layer, C::mean, "", "mean over the attention rows of max - mean of the logits (after the scaling)",
       &TrainLog::logit_spread, nullptr, &StepMetrics::logit_spread},
      {"jacobian_norm", S::layer, C::mean, "",
       "mean over the attention rows of the softmax Jacobian's Frobenius norm |diag(p) - p p^T|_F",
       &TrainLog::jacobian_norm, nullptr, &StepMetrics::jacobian_norm},
  }};
  return table;
}

const Metric& find_metric(const std::string& name) {
  for (const Metric& m : metrics())
    if (name == m.name) return m;
  throw std::out_of_range("no metric '" + name + "'");
}

int metric_width(const Metric& m, int n_layers, int n_heads) {
  switch (m.shape) {
    case MetricShape::step: return 1;
    case MetricShape::layer: return n_layers;
    case MetricShape::layer_head: return n_layers * n_heads;
  }
  return 1;
}

std::vector<std::string> metric_columns(const Metric& m, int n_layers, int n_heads) {
  if (m.shape == MetricShape::step) return {m.name};
  std::vector<std::string> out;
  for (int l = 1; l <= n_layers; ++l) {
    const std::string layer = std::string(m.name) + "_l" + std::to_string(l);
    if (m.shape == MetricShape::layer) out.push_back(layer);
    else
      for (int h = 1; h <= n_heads; ++h) out.push_back(layer + "_h" + std::to_string(h));
  }
  return out;
}

const std::array<EvalColumn, 3>& eval_columns() {
  static const std::array<EvalColumn, 3> table = {{
      {"eval_loss", "loss", "teacher-forced copy loss on the fixed evaluation batch", &EvalMetrics::loss},
      {"eval_token_accuracy", "token_accuracy", "fraction of copied tokens right (greedy decoding)",
       &EvalMetrics::token_accuracy},
      {"eval_sequence_accuracy", "sequence_accuracy", "fraction of sequences copied without a mistake",
       &EvalMetrics::sequence_accuracy},
  }};
  return table;
}

std::vector<std::string> curves_csv_header(int n_layers, int n_heads) {
  std::vector<std::string> out = {"variant", "seed", "step"};
  for (const Metric& m : metrics())
    for (std::string& c : metric_columns(m, n_layers, n_heads)) out.push_back(std::move(c));
  for (const EvalColumn& e : eval_columns()) out.push_back(e.csv_name);
  return out;
}

std::string camel_case(const std::string& snake_name) {
  std::string out;
  bool upper = false;
  for (const char c : snake_name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

const char* to_string(MetricShape shape) {
  switch (shape) {
    case MetricShape::step: return "step";
    case MetricShape::layer: return "layer";
    case MetricShape::layer_head: return "layerHead";
  }
  return "step";
}

const char* to_string(LayerCombine combine) {
  switch (combine) {
    case LayerCombine::none: return "none";
    case LayerCombine::root_sum_square: return "rootSumSquare";
    case LayerCombine::mean: return "mean";
  }
  return "none";
}

}  // namespace sqrtdk
