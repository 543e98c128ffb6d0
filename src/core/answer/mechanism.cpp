#include "core/answer/mechanism.hpp"

#include <cmath>

#include "core/answer/analysis.hpp"

namespace sqrtdk {

std::vector<float> whole_model(const TrainLog& log, const Metric& m) {
  const std::size_t width = static_cast<std::size_t>(metric_width(m, log.n_layers, log.n_heads));
  const std::vector<float>& values = log.*m.series;
  std::vector<float> out(log.size(), 0.0f);
  for (std::size_t t = 0; t < out.size(); ++t) {
    double s = 0;
    for (std::size_t i = 0; i < width; ++i) {
      const double v = values[t * width + i];
      s += m.combine == LayerCombine::root_sum_square ? v * v : v;
    }
    out[t] = static_cast<float>(m.combine == LayerCombine::root_sum_square ? std::sqrt(s)
                                 : m.combine == LayerCombine::mean      ? s / static_cast<double>(width)
                                                                        : values[t * width]);
  }
  return out;
}

std::vector<float> qk_gradient(const TrainLog& log) { return whole_model(log, find_metric("qk_grad_norm")); }

MechanismCurves mechanism_curves(const TrainLog& log) {
  MechanismCurves m;
  m.qk_grad = whole_model(log, find_metric("qk_grad_norm"));
  m.qk_update = whole_model(log, find_metric("qk_update_norm"));
  const std::size_t L = static_cast<std::size_t>(log.n_layers);
  m.jacobian.assign(L, std::vector<float>(log.size()));
  m.top_weight.assign(L, std::vector<float>(log.size()));
  for (std::size_t t = 0; t < log.size(); ++t)
    for (std::size_t l = 0; l < L; ++l) {
      m.jacobian[l][t] = log.jacobian_norm[t * L + l];
      m.top_weight[l][t] = log.top_weight[t * L + l];
    }
  m.spread = whole_model(log, find_metric("logit_spread"));
  return m;
}

MechanismSetting mechanism_setting(const TrainConfig& config) {
  MechanismSetting s;
  s.optimizer = config.optim.optimizer;
  s.lr = config.optim.lr;
  s.init = config.model.init;
  s.dk = config.model.d_model / config.model.n_heads;
  s.keys = config.task.seq_len();
  return s;
}

GradientDrop qk_gradient_drop(const TrainLog& log, int window) { return smoothed_peak(qk_gradient(log), window); }

}  // namespace sqrtdk
