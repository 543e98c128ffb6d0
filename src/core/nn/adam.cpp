#include "core/nn/adam.hpp"

#include <algorithm>
#include <cmath>

#include "core/arith/simd_math.hpp"

namespace sqrtdk {

Adam::Adam(const OptimConfig& config, std::size_t n) : config_(config), m_(n, 0.0f), v_(n, 0.0f) {}

void Adam::reset() {
  std::fill(m_.begin(), m_.end(), 0.0f);
  std::fill(v_.begin(), v_.end(), 0.0f);
  t_ = 0;
  beta1_power_ = beta2_power_ = 1.0;
  c1_ = c2_ = 0;
}

void Adam::step(float* params, const float* grads, double grad_norm) {
  ++t_;
  const float clip = clip_factor(config_, grad_norm);
  const float b1 = static_cast<float>(config_.beta1), b2 = static_cast<float>(config_.beta2);
  // beta^t as a running product: std::pow's last bit depends on the C library
  beta1_power_ *= config_.beta1;
  beta2_power_ *= config_.beta2;
  c1_ = static_cast<float>(1.0 / (1.0 - beta1_power_));
  c2_ = static_cast<float>(1.0 / (1.0 - beta2_power_));
  const float c1 = c1_, c2 = c2_;
  const float lr = static_cast<float>(config_.lr), eps = static_cast<float>(config_.eps);
  const std::size_t n = m_.size();
  float* m = m_.data();
  float* v = v_.data();
  // The same arithmetic per element on vectors (std::sqrt does not vectorise natively), then the tail.
  std::size_t i = 0;
  for (; i + simd::kLanes <= n; i += simd::kLanes) {
    const simd::F g = simd::load(grads + i) * clip;
    const simd::F mi = b1 * simd::load(m + i) + (1.0f - b1) * g;
    const simd::F vi = b2 * simd::load(v + i) + (1.0f - b2) * g * g;
    simd::store(m + i, mi);
    simd::store(v + i, vi);
    simd::store(params + i, simd::load(params + i) - lr * (mi * c1) / (simd::sqrt(vi * c2) + eps));
  }
  for (; i < n; ++i) {
    const float g = grads[i] * clip;
    m[i] = b1 * m[i] + (1.0f - b1) * g;
    v[i] = b2 * v[i] + (1.0f - b2) * g * g;
    params[i] -= lr * (m[i] * c1) / (std::sqrt(v[i] * c2) + eps);
  }
}

double Adam::update_sum_squares(std::size_t begin, std::size_t end) const {
  if (t_ == 0) return 0.0;
  const float lr = static_cast<float>(config_.lr), eps = static_cast<float>(config_.eps);
  // u in float as step() computes it, squared and summed in double
  simd::F64 lo = simd::F64{} + 0.0, hi = lo;
  std::size_t i = begin;
  for (; i + simd::kLanes <= end; i += simd::kLanes)
    simd::add_squares(lo, hi, lr * (simd::load(&m_[i]) * c1_) / (simd::sqrt(simd::load(&v_[i]) * c2_) + eps));
  double s = simd::sum_lanes(lo, hi);
  for (; i < end; ++i) {
    const double u = lr * (m_[i] * c1_) / (std::sqrt(v_[i] * c2_) + eps);
    s += u * u;
  }
  return s;
}

}  // namespace sqrtdk
