// Reading the mechanism metrics of a run: how far the gradient reaching the queries and keys fell.
//
// q/k gradient of a step   sqrt(sum over layers of qk_grad_norm^2): the gradient reaching every W_q, W_k, b_q, b_k
// Smoothed                  trailing mean over the loss curve's window (analysis.hpp), so one noisy step does not
//                           decide the peak or the final value
// Drop                      peak of the smoothed q/k gradient over the run, divided by its value at the last step
#pragma once
#include <vector>

#include "core/answer/analysis.hpp"
#include "core/answer/mechanism_reading.hpp"
#include "core/train/metrics.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk {

// The q/k gradient's drop: its smoothed peak and last value (mechanism_reading.hpp).
using GradientDrop = SmoothedPeak;

// (steps) a metric of the whole model at each step: its layers (and heads) combined by the metric's rule
// (metrics.hpp: the norm of all layers' tensors for a norm, the mean for an average over rows).
std::vector<float> whole_model(const TrainLog& log, const Metric& m);

// (steps) q/k gradient norm of each step, all layers together.
std::vector<float> qk_gradient(const TrainLog& log);

// A run's whole-model mechanism curves, as the comparison takes them (analysis.hpp).
MechanismCurves mechanism_curves(const TrainLog& log);

// What the mechanism readings need of a run's configuration: optimizer, lr, d_k and the sequence length.
MechanismSetting mechanism_setting(const TrainConfig& config);

// The q/k gradient smoothed as the loss is (the answer's trailing window), at its peak and at the last step.
GradientDrop qk_gradient_drop(const TrainLog& log, int window = CurveDefinitions{}.window);

}  // namespace sqrtdk
