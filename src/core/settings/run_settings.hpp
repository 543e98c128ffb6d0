// How the exercise is run: how many seeds per variant, how many steps, the loss threshold the answer measures
// steps to, and the alpha variant's exponent.  Their defaults and ranges, written once: ExerciseSettings (scenarios.hpp) takes its defaults
// from these rows and parse_exercise_settings checks their ranges, `sqrtdk compare` and `train` read their
// flags and usage lines from them, and lab.runSchema() hands them to the page (web/src/state/properties.js),
// which narrows the ranges for its controls.
#pragma once
#include <vector>

#include "core/settings/config.hpp"  // kMaxAlpha
#include "core/settings/range_setting.hpp"

namespace sqrtdk {

namespace run {
inline constexpr RangeSetting seeds{"seeds", true, 3, 1, 50, "seeds per variant: seed .. seed + seeds - 1"};
inline constexpr RangeSetting steps{"steps", true, 400, 1, 1000000, "training steps of each run"};
inline constexpr RangeSetting threshold{"threshold", false, 0.1, 1e-9, 100,
                                        "loss threshold: the answer measures the steps until the loss is below it"};
// The alpha variant's exponent: 1 (muP's 1/d_k) unless told, not the model's 0.5, which would repeat scaled.
inline constexpr RangeSetting alpha_variant{"trainAlpha", false, 1, 0, kMaxAlpha,
                                            "exponent of the alpha variant, q.k / d_k^alpha"};
}  // namespace run

// The most variants one exercise compares (the first is the reference).
inline constexpr int kMaxVariants = 8;

// Every row, in the order lab.runSchema() lists them.
inline const std::vector<const RangeSetting*>& run_settings() {
  static const std::vector<const RangeSetting*> rows = {&run::seeds, &run::steps, &run::threshold,
                                                        &run::alpha_variant};
  return rows;
}

}  // namespace sqrtdk
