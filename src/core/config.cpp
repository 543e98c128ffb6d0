#include "core/config.hpp"

#include <limits>
#include <string>

#include "core/memory.hpp"
#include "core/settings.hpp"

namespace sqrtdk {

std::size_t estimated_bytes(const TrainConfig& c) {
  const double bytes = static_cast<double>(memory_plan(c).total());
  // size_t is 32 bits in wasm32: saturate rather than overflow the conversion.
  const double largest = static_cast<double>(std::numeric_limits<std::size_t>::max());
  return bytes >= largest ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(bytes);
}

std::string validate(const TrainConfig& c) {
  for (const Setting& s : settings()) {
    const std::string problem = check_setting(s, s.get(c));
    if (!problem.empty()) return problem;
  }
  if (c.model.d_model % c.model.n_heads != 0) {
    return "d_model (" + std::to_string(c.model.d_model) + ") must be divisible by heads (" +
           std::to_string(c.model.n_heads) + ")";
  }
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

namespace {
template <typename Enum, std::size_t N>
const char* name_of(Enum value, const char* const (&names)[N]) {
  const int i = static_cast<int>(value);
  return i >= 0 && i < static_cast<int>(N) ? names[i] : "?";
}
}  // namespace

const char* to_string(ScaleMode mode) { return name_of(mode, kScaleNames); }
const char* to_string(InitScheme init) { return name_of(init, kInitNames); }
const char* to_string(Optimizer optimizer) { return name_of(optimizer, kOptimizerNames); }

}  // namespace sqrtdk
