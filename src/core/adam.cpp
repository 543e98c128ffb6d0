#include "core/adam.hpp"

#include <algorithm>
#include <cmath>

namespace sqrtdk {

Adam::Adam(const OptimConfig& config, std::size_t n) : config_(config), m_(n, 0.0f), v_(n, 0.0f) {}

void Adam::reset() {
  std::fill(m_.begin(), m_.end(), 0.0f);
  std::fill(v_.begin(), v_.end(), 0.0f);
  t_ = 0;
}

void Adam::step(float* params, const float* grads, double grad_norm) {
  ++t_;
  const float clip = (config_.clip_norm > 0 && grad_norm > config_.clip_norm)
                         ? static_cast<float>(config_.clip_norm / grad_norm) : 1.0f;
  const float b1 = static_cast<float>(config_.beta1), b2 = static_cast<float>(config_.beta2);
  const float c1 = static_cast<float>(1.0 / (1.0 - std::pow(config_.beta1, static_cast<double>(t_))));
  const float c2 = static_cast<float>(1.0 / (1.0 - std::pow(config_.beta2, static_cast<double>(t_))));
  const float lr = static_cast<float>(config_.lr), eps = static_cast<float>(config_.eps);
  const std::size_t n = m_.size();
  float* m = m_.data();
  float* v = v_.data();
  for (std::size_t i = 0; i < n; ++i) {
    const float g = grads[i] * clip;
    m[i] = b1 * m[i] + (1.0f - b1) * g;
    v[i] = b2 * v[i] + (1.0f - b2) * g * g;
    params[i] -= lr * (m[i] * c1) / (std::sqrt(v[i] * c2) + eps);
  }
}

}  // namespace sqrtdk
