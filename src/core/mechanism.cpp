#include "core/mechanism.hpp"

#include <cmath>

#include "core/analysis.hpp"

namespace sqrtdk {

std::vector<float> qk_gradient(const TrainLog& log) {
  const std::size_t L = static_cast<std::size_t>(log.n_layers);
  std::vector<float> out(log.size(), 0.0f);
  for (std::size_t t = 0; t < out.size(); ++t) {
    double s = 0;
    for (std::size_t l = 0; l < L; ++l) s += double(log.qk_grad_norm[t * L + l]) * log.qk_grad_norm[t * L + l];
    out[t] = static_cast<float>(std::sqrt(s));
  }
  return out;
}

GradientDrop qk_gradient_drop(const TrainLog& log, int window) {
  GradientDrop drop;
  const std::vector<double> smooth = smoothed_loss(qk_gradient(log), window);
  for (std::size_t t = 0; t < smooth.size(); ++t)
    if (smooth[t] > drop.peak) {
      drop.peak = smooth[t];
      drop.peak_step = static_cast<int>(t) + 1;
    }
  if (!smooth.empty()) drop.final = smooth.back();
  return drop;
}

}  // namespace sqrtdk
