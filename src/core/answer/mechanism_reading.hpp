// The mechanism told in words: one measured sentence under each mechanism chart and the "why" box, computed
// from the runs' whole-model mechanism curves (analysis.hpp MechanismCurves) and the answer, for the CLI
// (sqrtdk compare) and the page (lab.compare) alike.
//
// Windows   early = steps 1..w, late = the last w steps every run of the variant has, w = the answer's
//           trailing window (CurveDefinitions::window); a run's reading is its mean over the window and a
//           variant's is the median over its seeds.
// Drop      the q/k gradient's trailing mean (window w) at its peak divided by its value at the last step.
// Dead      a run's drop of at least kDeadDrop while its final loss is above the threshold: the gradient is small
//           while the loss is still high, which is the lesson's claim.  (The SGD scenario's qk_collapse claim uses
//           the same bar.)  The q/k sentences group a variant's seeds by this (ended below the threshold, dead,
//           not dead) and name the seeds of each group, so a median never hides a seed that behaved otherwise.
// Jacobian |J|_F per layer; a variant is read in its layer whose late |J|_F is smallest (the most saturated
//           one: a mean over layers would hide a first layer whose softmax passes nothing behind a second that
//           does).
// Saturated a layer's mean top weight (over its rows) judged by saturation.hpp, read per layer at step 1 (before
//           any update, so the same for every optimizer on the same seeds and initialisation) and over the late
//           window; every sentence that says "saturated" names its window and its layer.
// Why box   once the answer is ready and the reference learned, one box for the reason the settings give: QK-norm
//           (about the qknorm variant: its bounded logits), GPT init (small initial logits), else the optimizer's
//           step (Adam's normalised one, SGD's proportional one), about unscaled (else the first variant after
//           the reference); each ends with the late readings and which seeds learned, by name.  Adam's box adds
//           what the same weight step does to unscaled's logits (√d_k times as far) beside the measured spread;
//           SGD's reads its measurements in the order they happen (the start, the q/k gradient's and the logit
//           spread's peaks, the last window, the gradient's fall), seeds' ranges where they differ.
#pragma once
#include <string>
#include <vector>

#include "core/answer/analysis.hpp"
#include "core/settings/config.hpp"
#include "core/text/phrasebook.hpp"

namespace sqrtdk {

inline constexpr double kDeadDrop = 20;

// What the readings need besides the curves: the optimizer and its rate, d_k, and the longest attention row.
struct MechanismSetting {
  Optimizer optimizer = Optimizer::adam;
  double lr = 1e-3;
  InitScheme init = InitScheme::xavier;
  int dk = 64;
  int keys = 21;  // the model's sequence length: a row has 1 to `keys` keys
};

// A curve smoothed as the loss is (trailing mean, the answer's window), at its peak and at its last step: the
// q/k gradient's drop (peak / last) and the logit spread's peak are both read this way.
struct SmoothedPeak {
  double peak = 0;      // largest smoothed value (0 for an empty curve)
  int peak_step = 0;    // 1-based step of the first peak (0: no finite value)
  double final = 0;     // smoothed value at the last step
  double ratio() const { return final > 0 ? peak / final : 0.0; }  // how many times smaller it ended (0: no run)
};
SmoothedPeak smoothed_peak(const std::vector<float>& curve, int window);

// One run's q/k gradient reading.
struct RunMechanism {
  uint64_t seed = 0;
  double drop = kNaN;              // peak / last of the smoothed q/k gradient
  double peak_step = kNaN;
  double late_grad = kNaN;         // mean over the late window
};

struct VariantMechanism {
  int runs = 0;                    // runs with at least a window of mechanism curves
  std::vector<RunMechanism> per_run;
  std::vector<double> start_top, late_top;  // per layer: the mean top weight of its rows at step 1 and over the late
                                            // window (a mean over layers would hide a one-hot layer)
  double early_grad = kNaN, early_update = kNaN, early_spread = kNaN;
  double late_grad = kNaN, late_spread = kNaN;
  double early_jacobian_mean = kNaN;  // over all layers
  int jacobian_layer = 0;          // 0-based: the layer whose |J|_F ends smallest (median over seeds)
  double early_jacobian = kNaN, late_jacobian = kNaN;  // in that layer
  std::vector<double> early_jacobian_by_layer, late_jacobian_by_layer;  // per layer (median over seeds): another
                                   // variant is compared with this one in the same layer
  std::vector<double> peak_spread, peak_spread_step;  // per run: the largest trailing mean (window w) of the
                                   // logit spread and its step
  double drop = kNaN;              // median over seeds of the q/k gradient's drop
  double peak_step = kNaN;         // median over seeds of the step of its peak
};

struct MechanismReading {
  bool given = false;              // the runs carried mechanism curves
  MechanismSetting setting;        // what the readings were read under
  std::vector<VariantMechanism> variants;  // in the answer's order
  std::vector<Message> qk, jacobian, spread;  // the sentences under each chart
  Message why_title;               // no key: no "why" box yet (the answer is not ready, or one variant)
  std::vector<Message> why;
};

MechanismReading read_mechanism(const std::vector<VariantCurves>& variants, const Answer& answer,
                                const MechanismSetting& setting);

// The readings as the member "mechanism" of the answer's JSON (analysis_json.cpp): {qk, jacobian, spread, why:
// [English text], why_title: text or null, messages: the same as messages, readings: every number the sentences
// quote, as numbers (the variants in the answer's order, layers from 1; what a reader of the export checks the
// sentences against)}.  Nothing when no curves were given.
void write_mechanism_member(JsonWriter& w, const MechanismReading& reading);

// A ratio as the readings write it: "6.09×", "830×", and from 1000 on the power of ten it exceeds ("more than
// 10000×"), since beyond three digits the digits say nothing a reader can use.
Message times_arg(double ratio);

// English texts of the readings, one paragraph per chart and the box (for the CLI).
std::string mechanism_text(const MechanismReading& reading);

}  // namespace sqrtdk
