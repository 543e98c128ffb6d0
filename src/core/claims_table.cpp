// Written by scripts/measure-claims.sh (`sqrtdk claims --measure <id>` for every scenario): do not edit by hand.
// Per scenario (with the settings it was measured with), per measured variant, seeds 0, 1, 2, ...:
// {reached, final_loss, min_loss, diverged_step, start_entropy, start_jacobian, end_jacobian, qk_drop,
//  start_qk_gradient}, as claims.hpp's SeedOutcome.
#include "core/claims.hpp"

namespace sqrtdk {

const std::vector<MeasuredScenario>& measured_scenarios() {
  static const std::vector<MeasuredScenario> table = {
  };
  return table;
}

}  // namespace sqrtdk
