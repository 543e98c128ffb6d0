// Adam (Kingma & Ba 2015) over one flat parameter block.
#pragma once
#include <cstddef>
#include <vector>

#include "core/nn/optimizer.hpp"

namespace sqrtdk {

class Adam final : public UpdateRule {
 public:
  Adam(const OptimConfig& config, std::size_t n);

  // m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;  w -= lr * mhat / (sqrt(vhat) + eps), hats bias-corrected.
  void step(float* params, const float* grads, double grad_norm) override;
  void reset() override;
  double update_sum_squares(std::size_t begin, std::size_t end) const override;

 private:
  OptimConfig config_;
  std::vector<float> m_, v_;
  double beta1_power_ = 1, beta2_power_ = 1;  // beta^t
  float c1_ = 0, c2_ = 0;  // the last step's bias corrections 1 / (1 - beta^t)
};

}  // namespace sqrtdk
