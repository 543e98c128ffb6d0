// Reading loss curves: the definitions behind the exercise's answer, in one place.
//
// Smoothed loss   s_t = mean of the losses at steps max(1, t-w+1) .. t   (trailing window, w = 20 by default)
// Steps to threshold   the first step t with s_t < threshold; "never" (-1) if there is none.
// Plateau step    the first step t after which the smoothed loss never again falls more than
//                 max(rel_tol * s_t, abs_tol) below s_t (defaults 5 % and 0.01): where the curve
//                 flattened for good within the run, at whatever level (a stuck run plateaus early and
//                 high, a converging run plateaus late and low).  Its level is s_t.
// A variant's steps to threshold over seeds is summarised by the median, counting "never" as +infinity.
// Two variants differ clearly when their medians differ by a factor of at least 1.25 and their
// seed ranges do not overlap; otherwise the answer says there was no clear difference.
#pragma once
#include <string>
#include <vector>

namespace sqrtdk {

struct CurveDefinitions {
  int window = 20;
  double plateau_rel_tol = 0.05;
  double plateau_abs_tol = 0.01;
  double clear_ratio = 1.25;
};

std::vector<double> smoothed_loss(const std::vector<float>& loss, int window);
// 1-based step, or -1 if the smoothed loss never goes below threshold.
int steps_to_threshold(const std::vector<float>& loss, double threshold, const CurveDefinitions& defs = {});
// 1-based step, or -1 for an empty curve.
int plateau_step(const std::vector<float>& loss, const CurveDefinitions& defs = {});

// One training run as the comparison sees it.
struct RunSummary {
  unsigned long long seed = 0;
  int steps_to_threshold = -1;  // -1: never
  int plateau_step = -1;
  double plateau_loss = 0;
  double final_loss = 0;        // smoothed loss at the last step
  double sequence_accuracy = 0; // last evaluation
  bool diverged = false;
  int diverged_step = 0;
  int steps = 0;                // steps run
};

struct VariantSummary {
  std::string name;
  std::vector<RunSummary> runs;
  // Median over seeds, never = +infinity; -1 when the median itself is "never".
  double median_steps_to_threshold() const;
  double median_plateau_step() const;
  int runs_reaching() const;
};

// One honest sentence comparing every variant with the first, e.g. "unscaled reached the threshold
// 0.1 at a median of 840 steps vs 420 for scaled (2.0x later) ...", or saying there was no clear difference.
std::string compare_answer(const std::vector<VariantSummary>& variants, double threshold, int steps,
                           const CurveDefinitions& defs = {});

RunSummary summarize_run(const std::vector<float>& loss, double threshold, double sequence_accuracy,
                         int diverged_step, const CurveDefinitions& defs = {});

}  // namespace sqrtdk
