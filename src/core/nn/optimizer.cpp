#include "core/nn/optimizer.hpp"

#include "core/nn/adam.hpp"
#include "core/nn/sgd.hpp"

namespace sqrtdk {

float clip_factor(const OptimConfig& config, double grad_norm) {
  return (config.clip_norm > 0 && grad_norm > config.clip_norm) ? static_cast<float>(config.clip_norm / grad_norm)
                                                                 : 1.0f;
}

std::unique_ptr<UpdateRule> make_update_rule(const OptimConfig& config, std::size_t n) {
  if (config.optimizer == Optimizer::sgd) return std::make_unique<Sgd>(config, n);
  return std::make_unique<Adam>(config, n);
}

}  // namespace sqrtdk
