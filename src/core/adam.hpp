// Adam (Kingma & Ba 2015) over one flat parameter block, with optional global-norm clipping.
#pragma once
#include <cstddef>
#include <vector>

#include "core/config.hpp"

namespace sqrtdk {

class Adam {
 public:
  Adam(const OptimConfig& config, std::size_t n);

  // m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;  w -= lr * mhat / (sqrt(vhat) + eps), hats bias-corrected.
  // `grad_norm` is the global L2 norm of g; when clip_norm > 0 and grad_norm > clip_norm, g is scaled
  // by clip_norm / grad_norm first.  Allocates nothing.
  void step(float* params, const float* grads, double grad_norm);
  void reset();
  long steps() const { return t_; }

 private:
  OptimConfig config_;
  std::vector<float> m_, v_;
  long t_ = 0;
};

}  // namespace sqrtdk
