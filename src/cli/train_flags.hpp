// The model, task and optimizer flags shared by `train`, `compare` and `dump`: one flag per row of the
// settings table (src/core/settings/settings.hpp), named after it (d_model -> --d-model).
#pragma once
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "core/text/json.hpp"
#include "core/settings/config.hpp"

namespace sqrtdk {

// Usage lines for the shared flags, from the settings table: flag, default, range or choices, doc.
// `with_scale` false leaves out --scale (compare takes the scale from --variants).
std::string train_flags_usage(bool with_scale = true);

// Names of the shared flags (every setting but scale, which commands add themselves) plus `extra` ones for the
// command; pass to Args::accept.
std::vector<std::string> train_flag_names(std::initializer_list<const char*> extra);

// Reads the shared flags (all optional) into a configuration and validates it.  `with_scale` is false for
// commands that take the scale from elsewhere (compare's --variants).  `--scale alpha=0.25` is short for
// `--scale alpha --alpha 0.25` (giving both is an error).  Throws UsageError or ConfigError.
TrainConfig read_train_config(const Args& args, bool with_scale = true);

// Every setting of `config` as JSON fields under the table's names (a choice by its name), except `skip`.
void write_settings_json(JsonWriter& w, const TrainConfig& config, std::initializer_list<const char*> skip = {});

}  // namespace sqrtdk
