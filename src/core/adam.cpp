#include "core/adam.hpp"

#include <algorithm>
#include <cmath>

namespace sqrtdk {

Adam::Adam(const OptimConfig& config, std::size_t n) : config_(config), m_(n, 0.0f), v_(n, 0.0f) {}

void Adam::reset() {
  std::fill(m_.begin(), m_.end(), 0.0f);
  std::fill(v_.begin(), v_.end(), 0.0f);
  t_ = 0;
  c1_ = c2_ = 0;
}

void Adam::step(float* params, const float* grads, double grad_norm) {
  ++t_;
  const float clip = clip_factor(config_, grad_norm);
  const float b1 = static_cast<float>(config_.beta1), b2 = static_cast<float>(config_.beta2);
  c1_ = static_cast<float>(1.0 / (1.0 - std::pow(config_.beta1, static_cast<double>(t_))));
  c2_ = static_cast<float>(1.0 / (1.0 - std::pow(config_.beta2, static_cast<double>(t_))));
  const float c1 = c1_, c2 = c2_;
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

double Adam::update_sum_squares(std::size_t begin, std::size_t end) const {
  if (t_ == 0) return 0.0;
  const float lr = static_cast<float>(config_.lr), eps = static_cast<float>(config_.eps);
  double s = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const double u = lr * (m_[i] * c1_) / (std::sqrt(v_[i] * c2_) + eps);
    s += u * u;
  }
  return s;
}

}  // namespace sqrtdk
