#include "core/settings/config.hpp"

#include <string>

#include "core/settings/settings.hpp"

namespace sqrtdk {

std::string validate_settings(const TrainConfig& c) {
  for (const Setting& s : settings()) {
    const std::string problem = check_setting(s, s.get(c));
    if (!problem.empty()) return problem;
  }
  if (c.model.d_model % c.model.n_heads != 0) {
    return "d_model (" + std::to_string(c.model.d_model) + ") must be divisible by heads (" +
           std::to_string(c.model.n_heads) + ")";
  }
  return "";
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
