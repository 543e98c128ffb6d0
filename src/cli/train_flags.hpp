// The model, task and optimizer flags shared by `train`, `compare` and `dump`.
#pragma once
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "core/config.hpp"

namespace sqrtdk {

// Usage lines for the shared flags, with their defaults (the canonical configuration).
extern const char kTrainFlagsUsage[];

// Names of the shared flags, plus `extra` ones for the command; pass to Args::accept.
std::vector<std::string> train_flag_names(std::initializer_list<const char*> extra);

// Reads the shared flags (all optional) into a configuration and validates it.  `with_scale` is false for
// commands that take the scale from elsewhere (compare's --variants).  Throws UsageError or ConfigError.
TrainConfig read_train_config(const Args& args, bool with_scale = true);

}  // namespace sqrtdk
