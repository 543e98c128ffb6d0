// An exercise from the command line (compare, export-torch): the variants, the run settings (seeds, steps,
// threshold) and every model, task and optimizer flag, or one of the page's scenarios.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "core/claims/scenarios.hpp"

namespace sqrtdk {

// "scaled,unscaled": the variants an exercise compares unless told.
std::string default_variants();

// The usage lines of --variants and the run settings (seeds, steps, threshold).
std::string exercise_flags_usage();

// The flags an exercise reads (pass to Args::accept with the command's own).
std::vector<std::string> exercise_flag_names(std::initializer_list<const char*> extra);

// The exercise the flags give: `--scenario <id>` is that scenario's settings exactly, with only the flags in
// `over_scenario` applied on top (others are refused); otherwise the flags over the defaults.  Throws UsageError
// or ConfigError naming the flag.
ExerciseSettings read_exercise_settings(const Args& args, std::initializer_list<const char*> over_scenario = {});

}  // namespace sqrtdk
