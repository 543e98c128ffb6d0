// Stochastic gradient descent with momentum, PyTorch's convention (no dampening, no Nesterov).
#pragma once
#include <cstddef>
#include <vector>

#include "core/nn/optimizer.hpp"

namespace sqrtdk {

class Sgd final : public UpdateRule {
 public:
  Sgd(const OptimConfig& config, std::size_t n);

  // v = momentum v + g;  w -= lr v.  (v starts at 0, so the first step is w -= lr g.)
  void step(float* params, const float* grads, double grad_norm) override;
  void reset() override;
  double update_sum_squares(std::size_t begin, std::size_t end) const override;  // lr^2 |v|^2

  const std::vector<float>& velocity() const { return v_; }

 private:
  OptimConfig config_;
  std::vector<float> v_;
};

}  // namespace sqrtdk
