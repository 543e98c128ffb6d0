// The optimizers behind one interface: an update rule over one flat parameter block, with optional global-norm
// clipping.  Adam (adam.hpp) and SGD with momentum (sgd.hpp); make_update_rule picks by OptimConfig::optimizer.
#pragma once
#include <cstddef>
#include <memory>

#include "core/settings/config.hpp"

namespace sqrtdk {

class UpdateRule {
 public:
  virtual ~UpdateRule() = default;

  // params -= update(grads).  `grad_norm` is the global L2 norm of grads; when clip_norm > 0 and grad_norm
  // > clip_norm, grads are scaled by clip_norm / grad_norm first.  Allocates nothing.
  virtual void step(float* params, const float* grads, double grad_norm) = 0;
  virtual void reset() = 0;  // the state of a fresh optimizer

  // Sum of squares of the change the last step applied to params[begin, end), recomputed from the state in
  // the same float arithmetic as the step (0 before the first step).
  virtual double update_sum_squares(std::size_t begin, std::size_t end) const = 0;

  long steps() const { return t_; }

 protected:
  long t_ = 0;
};

// The factor on the gradient: clip_norm / grad_norm when clipping applies, else 1.
float clip_factor(const OptimConfig& config, double grad_norm);

std::unique_ptr<UpdateRule> make_update_rule(const OptimConfig& config, std::size_t n);

}  // namespace sqrtdk
