#include "core/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace sqrtdk {

std::vector<double> smoothed_loss(const std::vector<float>& loss, int window) {
  std::vector<double> out(loss.size());
  double sum = 0;
  for (std::size_t t = 0; t < loss.size(); ++t) {
    sum += loss[t];
    if (t >= static_cast<std::size_t>(window)) sum -= loss[t - window];
    out[t] = sum / static_cast<double>(std::min<std::size_t>(t + 1, window));
  }
  return out;
}

int steps_to_threshold(const std::vector<float>& loss, double threshold, const CurveDefinitions& defs) {
  const std::vector<double> s = smoothed_loss(loss, defs.window);
  for (std::size_t t = 0; t < s.size(); ++t)
    if (s[t] < threshold) return static_cast<int>(t) + 1;
  return -1;
}

int plateau_step(const std::vector<float>& loss, const CurveDefinitions& defs) {
  const std::vector<double> s = smoothed_loss(loss, defs.window);
  if (s.empty()) return -1;
  // later_min[t] = min over u > t of s[u]; scan from the end.
  double later_min = std::numeric_limits<double>::infinity();
  int plateau = static_cast<int>(s.size());
  for (int t = static_cast<int>(s.size()) - 1; t >= 0; --t) {
    const double margin = std::max(defs.plateau_rel_tol * s[t], defs.plateau_abs_tol);
    if (later_min >= s[t] - margin) plateau = t + 1;
    else break;  // from here back, the curve still had a real drop ahead of it
    later_min = std::min(later_min, s[t]);
  }
  return plateau;
}

RunSummary summarize_run(const std::vector<float>& loss, double threshold, double sequence_accuracy,
                         int diverged_step, const CurveDefinitions& defs) {
  RunSummary r;
  r.steps = static_cast<int>(loss.size());
  r.diverged = diverged_step > 0;
  r.diverged_step = diverged_step;
  // A diverged run's last loss is not finite: analyse the finite part of its curve.
  std::vector<float> finite(loss.begin(), loss.end());
  while (!finite.empty() && !std::isfinite(finite.back())) finite.pop_back();
  r.steps_to_threshold = steps_to_threshold(finite, threshold, defs);
  r.plateau_step = plateau_step(finite, defs);
  const std::vector<double> s = smoothed_loss(finite, defs.window);
  r.plateau_loss = r.plateau_step > 0 ? s[r.plateau_step - 1] : 0;
  r.final_loss = s.empty() ? std::numeric_limits<double>::quiet_NaN() : s.back();
  r.sequence_accuracy = sequence_accuracy;
  return r;
}

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
constexpr double kNever = std::numeric_limits<double>::infinity();

std::vector<double> threshold_steps(const VariantSummary& v) {
  std::vector<double> out;
  for (const RunSummary& r : v.runs) out.push_back(r.steps_to_threshold > 0 ? r.steps_to_threshold : kNever);
  return out;
}
}  // namespace

double VariantSummary::median_steps_to_threshold() const {
  const double m = median(threshold_steps(*this));
  return std::isfinite(m) ? m : -1;
}

double VariantSummary::median_plateau_step() const {
  std::vector<double> p;
  for (const RunSummary& r : runs) p.push_back(r.plateau_step);
  return median(p);
}

int VariantSummary::runs_reaching() const {
  int n = 0;
  for (const RunSummary& r : runs) n += r.steps_to_threshold > 0 ? 1 : 0;
  return n;
}

std::string compare_answer(const std::vector<VariantSummary>& variants, double threshold, int steps,
                           const CurveDefinitions& defs) {
  std::ostringstream out;
  out.precision(3);
  if (variants.empty()) return "No variants were run.";
  const VariantSummary& ref = variants.front();
  const std::vector<double> ref_steps = threshold_steps(ref);
  const double ref_median = median(ref_steps);
  for (std::size_t i = 1; i < variants.size(); ++i) {
    const VariantSummary& v = variants[i];
    const std::vector<double> v_steps = threshold_steps(v);
    const double v_median = median(v_steps);
    const int n = static_cast<int>(v.runs.size());
    if (i > 1) out << " ";
    if (!std::isfinite(v_median) && !std::isfinite(ref_median)) {
      out << "Neither " << v.name << " nor " << ref.name << " reached smoothed loss " << threshold << " within " << steps
          << " steps in most seeds, so this run cannot say which is faster.";
      continue;
    }
    if (!std::isfinite(v_median)) {
      out << v.name << " did not reach smoothed loss " << threshold << " within " << steps << " steps in "
          << (n - v.runs_reaching()) << " of " << n << " seeds, while " << ref.name << " reached it at a median of "
          << ref_median << " steps.";
      continue;
    }
    if (!std::isfinite(ref_median)) {
      out << ref.name << " did not reach smoothed loss " << threshold << " within " << steps << " steps in most seeds, while "
          << v.name << " reached it at a median of " << v_median << " steps.";
      continue;
    }
    const double ratio = v_median / ref_median;
    const double v_lo = *std::min_element(v_steps.begin(), v_steps.end());
    const double v_hi = *std::max_element(v_steps.begin(), v_steps.end());
    const double r_lo = *std::min_element(ref_steps.begin(), ref_steps.end());
    const double r_hi = *std::max_element(ref_steps.begin(), ref_steps.end());
    const bool separated = v_lo > r_hi || v_hi < r_lo;
    const bool clear = separated && (ratio >= defs.clear_ratio || ratio <= 1.0 / defs.clear_ratio);
    out << v.name << " reached smoothed loss " << threshold << " at a median of " << v_median << " steps vs "
        << ref_median << " for " << ref.name << " (" << n << " seeds): ";
    if (!clear) {
      out << "no clear difference (ratio " << ratio << ", seed ranges " << (separated ? "apart" : "overlap") << ").";
    } else if (ratio > 1) {
      out << ratio << "x later.";
    } else {
      out << (1.0 / ratio) << "x earlier.";
    }
  }
  // The plateaus: where each variant's curve flattened for good, and at which loss.
  out << " Plateau (median step, loss):";
  for (const VariantSummary& v : variants) {
    std::vector<double> level;
    for (const RunSummary& r : v.runs) level.push_back(r.plateau_loss);
    out << " " << v.name << " " << v.median_plateau_step() << " at " << median(level) << ";";
  }
  std::string text = out.str();
  text.back() = '.';
  return text;
}

}  // namespace sqrtdk
