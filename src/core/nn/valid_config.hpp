// Whether a configuration can be trained: its settings in range (settings/config.hpp) and its allocation under
// the memory cap, which needs the network's memory plan (memory.hpp).  Every front end checks through here.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/settings/config.hpp"
#include "core/settings/settings.hpp"

namespace sqrtdk {

// "" if `config` is valid, otherwise a one-line message: validate_settings()'s, or "configuration needs about
// 600 MiB, over the cap of 512 MiB; most of it is ...".
std::string validate(const TrainConfig& config);
// Throws ConfigError with validate()'s message.
void require_valid(const TrainConfig& config);

// Bytes the trainer would allocate for this configuration (checked against Limits::max_bytes before allocating).
std::size_t estimated_bytes(const TrainConfig& config);

// Builds a configuration from the defaults and the given values: checks each value, applies it, then applies
// the rules between settings (sgd without an lr given uses kSgdDefaultLr) and validate().  "" or the first
// problem, with `config` untouched on a problem.
std::string apply_settings(const std::vector<GivenSetting>& given, TrainConfig& config);

}  // namespace sqrtdk
