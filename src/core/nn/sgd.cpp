#include "core/nn/sgd.hpp"

#include <algorithm>

#include "core/arith/simd_math.hpp"

namespace sqrtdk {

Sgd::Sgd(const OptimConfig& config, std::size_t n) : config_(config), v_(n, 0.0f) {}

void Sgd::reset() {
  std::fill(v_.begin(), v_.end(), 0.0f);
  t_ = 0;
}

void Sgd::step(float* params, const float* grads, double grad_norm) {
  ++t_;
  const float clip = clip_factor(config_, grad_norm);
  const float mu = static_cast<float>(config_.momentum), lr = static_cast<float>(config_.lr);
  const std::size_t n = v_.size();
  float* v = v_.data();
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = mu * v[i] + grads[i] * clip;
    params[i] -= lr * v[i];
  }
}

double Sgd::update_sum_squares(std::size_t begin, std::size_t end) const {
  const float lr = static_cast<float>(config_.lr);
  // u = lr v in float as step() applies it, squared and summed in double
  simd::F64 lo = simd::F64{} + 0.0, hi = lo;
  std::size_t i = begin;
  for (; i + simd::kLanes <= end; i += simd::kLanes) simd::add_squares(lo, hi, lr * simd::load(&v_[i]));
  double s = simd::sum_lanes(lo, hi);
  for (; i < end; ++i) {
    const double u = lr * v_[i];
    s += u * u;
  }
  return s;
}

}  // namespace sqrtdk
