#include "core/nn/valid_config.hpp"

#include <limits>

#include "core/nn/memory.hpp"

namespace sqrtdk {

std::size_t estimated_bytes(const TrainConfig& c) {
  const double bytes = static_cast<double>(memory_plan(c).total());
  // size_t is 32 bits in wasm32: saturate rather than overflow the conversion.
  const double largest = static_cast<double>(std::numeric_limits<std::size_t>::max());
  return bytes >= largest ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(bytes);
}

std::string validate(const TrainConfig& c) {
  const std::string problem = validate_settings(c);
  if (!problem.empty()) return problem;
  const MemoryPlan plan = memory_plan(c);
  if (plan.total() > Limits::max_bytes) {
    return "configuration needs about " + std::to_string(plan.total() >> 20) + " MiB, over the cap of " +
           std::to_string(Limits::max_bytes >> 20) + " MiB; most of it is " + plan.largest_part();
  }
  return "";
}

void require_valid(const TrainConfig& config) {
  const std::string message = validate(config);
  if (!message.empty()) throw ConfigError(message);
}

std::string apply_settings(const std::vector<GivenSetting>& given, TrainConfig& config) {
  TrainConfig c = config;
  bool lr_given = false;
  for (const GivenSetting& g : given) {
    const std::string problem = check_setting(*g.setting, g.value);
    if (!problem.empty()) return problem;
    g.setting->set(c, g.value);
    lr_given = lr_given || std::string(g.setting->name) == "lr";
  }
  if (c.optim.optimizer == Optimizer::sgd && !lr_given) c.optim.lr = kSgdDefaultLr;
  const std::string problem = validate(c);
  if (!problem.empty()) return problem;
  config = c;
  return "";
}

}  // namespace sqrtdk
