#include "core/answer/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

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

namespace {

int first_below(const std::vector<double>& s, double threshold) {
  for (std::size_t t = 0; t < s.size(); ++t)
    if (s[t] < threshold) return static_cast<int>(t) + 1;
  return -1;
}

}  // namespace

int steps_to_threshold(const std::vector<float>& loss, double threshold, const CurveDefinitions& defs) {
  const std::vector<double> s = smoothed_loss(loss, defs.window);
  const int first = first_below(s, threshold);
  return learned(first, s.empty() ? kNaN : s.back(), threshold) ? first : -1;
}

bool learned(int first_step_below, double final_loss, double threshold) {
  return first_step_below > 0 && final_loss < threshold;
}

Stall find_stall(const std::vector<double>& s, double threshold, const CurveDefinitions& defs) {
  // Two pointers: for each end b, the earliest start a such that s[a..b] is above the threshold and within
  // the band.  Shrinking a window keeps it valid, so a only moves forward; monotone deques give the window's
  // highest and lowest values.  O(n).
  const double ratio = 1.0 + defs.stall_band;
  std::deque<std::size_t> highest, lowest;  // indices with decreasing / increasing values
  std::size_t a = 0, best_start = 0, best_length = 0;
  for (std::size_t b = 0; b < s.size(); ++b) {
    if (!(s[b] > threshold)) {  // also ends a window at a non-finite value
      highest.clear();
      lowest.clear();
      a = b + 1;
      continue;
    }
    while (!highest.empty() && s[highest.back()] <= s[b]) highest.pop_back();
    while (!lowest.empty() && s[lowest.back()] >= s[b]) lowest.pop_back();
    highest.push_back(b);
    lowest.push_back(b);
    while (s[highest.front()] > ratio * s[lowest.front()]) {
      ++a;
      if (highest.front() < a) highest.pop_front();
      if (lowest.front() < a) lowest.pop_front();
    }
    if (b - a + 1 >= best_length) {  // of equally long stretches the latest: a stall running to the end ends there
      best_start = a;
      best_length = b - a + 1;
    }
  }
  Stall stall;
  if (best_length == 0 || best_length < static_cast<std::size_t>(defs.stall_min_steps)) return stall;
  stall.start = static_cast<int>(best_start) + 1;
  stall.length = static_cast<int>(best_length);
  stall.level = median(std::vector<double>(s.begin() + best_start, s.begin() + best_start + best_length));
  stall.to_end = best_start + best_length == s.size();
  return stall;
}

RunSummary summarize_run(const RunCurve& run, double threshold, int budget, const CurveDefinitions& defs) {
  RunSummary r;
  r.seed = run.seed;
  r.diverged = run.diverged_step > 0;
  r.diverged_step = run.diverged_step;
  r.sequence_accuracy = run.sequence_accuracy;
  // Past the budget nothing counts; a diverged run ends with non-finite losses: analyse the finite part.
  std::size_t end = run.loss.size();
  if (budget > 0) end = std::min<std::size_t>(end, static_cast<std::size_t>(budget));
  while (end > 0 && !std::isfinite(run.loss[end - 1])) --end;
  const std::vector<double> s = smoothed_loss(std::vector<float>(run.loss.begin(), run.loss.begin() + end), defs.window);
  r.steps = static_cast<int>(s.size());
  r.stopped = run.stopped || r.diverged || (budget > 0 && run.loss.size() >= static_cast<std::size_t>(budget));
  r.touched_step = first_below(s, threshold);
  r.stall = find_stall(s, threshold, defs);
  r.final_loss = s.empty() ? kNaN : s.back();
  r.steps_to_threshold = learned(r.touched_step, r.final_loss, threshold) ? r.touched_step : -1;
  return r;
}

RunSummary summarize_run(const std::vector<float>& loss, double threshold, double sequence_accuracy,
                         int diverged_step, const CurveDefinitions& defs) {
  RunCurve run;
  run.loss = loss;
  run.sequence_accuracy = sequence_accuracy;
  run.diverged_step = diverged_step;
  return summarize_run(run, threshold, 0, defs);
}

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::pending: return "pending";
    case Outcome::reference: return "reference";
    case Outcome::single: return "single";
    case Outcome::clear: return "clear";
    case Outcome::within_spread: return "within-spread";
    case Outcome::small: return "small";
    case Outcome::one_seed: return "one-seed";
    case Outcome::never: return "never";
    case Outcome::reference_never: return "reference-never";
    case Outcome::neither: return "neither";
  }
  return "?";
}

namespace {

// Steps to threshold of every run, "never" as +infinity.
std::vector<double> reach_steps(const VariantResult& v) {
  std::vector<double> out;
  for (const RunSummary& r : v.runs) out.push_back(r.steps_to_threshold > 0 ? r.steps_to_threshold : kNever);
  return out;
}

VariantResult summarize_variant(const VariantCurves& curves, double threshold, int steps, const CurveDefinitions& defs) {
  VariantResult v;
  v.name = curves.name;
  v.label = curves.label;
  v.label_message = curves.label_message;
  std::vector<double> finals, starts, lengths, levels;
  for (const RunCurve& c : curves.runs) {
    const RunSummary r = summarize_run(c, threshold, steps, defs);
    v.runs_reaching += r.steps_to_threshold > 0;
    v.runs_diverged += r.diverged;
    v.runs_pending += r.pending();
    v.runs_fell_back += r.fell_back() && !r.pending();
    if (r.stall.found()) {
      v.runs_stalled += 1;
      v.stalls_to_end += r.stall.to_end;
      starts.push_back(r.stall.start);
      lengths.push_back(r.stall.length);
      levels.push_back(r.stall.level);
    }
    if (std::isfinite(r.final_loss)) finals.push_back(r.final_loss);
    v.runs.push_back(r);
  }
  if (v.runs_pending == 0 && !v.runs.empty()) v.median_steps_to_threshold = median(reach_steps(v));
  v.median_final_loss = median(finals);
  if (v.runs_stalled > 0) {
    v.median_stall.start = static_cast<int>(std::lround(median(starts)));
    v.median_stall.length = static_cast<int>(std::lround(median(lengths)));
    v.median_stall.level = median(levels);
    v.median_stall.to_end = v.stalls_to_end == v.runs_stalled;
  }
  return v;
}

void compare_with(VariantResult& v, const VariantResult& ref, const CurveDefinitions& defs) {
  const double m = v.median_steps_to_threshold, r = ref.median_steps_to_threshold;
  if (std::isnan(m) || std::isnan(r)) {
    v.outcome = Outcome::pending;
    return;
  }
  if (std::isinf(m) && std::isinf(r)) {
    v.outcome = Outcome::neither;
    return;
  }
  if (std::isinf(m)) {
    v.outcome = Outcome::never;
    return;
  }
  if (std::isinf(r)) {
    v.outcome = Outcome::reference_never;
    return;
  }
  v.ratio = m / r;
  v.steps_earlier = m - r;
  // Pairs in which the variant on the medians' side (slower when its median is larger) is strictly behind / ahead.
  const std::vector<double> mine = reach_steps(v), theirs = reach_steps(ref);
  const bool slower = m > r;
  v.pairs = static_cast<int>(mine.size() * theirs.size());
  v.pairs_ahead = 0;
  for (const double a : mine)
    for (const double b : theirs) v.pairs_ahead += slower ? a > b : a < b;
  const bool apart = v.pairs_ahead >= defs.clear_share * v.pairs;
  const bool large = v.ratio >= defs.clear_ratio || v.ratio <= 1.0 / defs.clear_ratio;
  if (v.runs.size() < 2 || ref.runs.size() < 2) v.outcome = Outcome::one_seed;
  else if (!apart) v.outcome = Outcome::within_spread;
  else if (!large) v.outcome = Outcome::small;
  else v.outcome = Outcome::clear;
}

}  // namespace

Answer compare_runs(const std::vector<VariantCurves>& variants, double threshold, int steps,
                    const CurveDefinitions& defs) {
  Answer a;
  a.threshold = threshold;
  a.steps = steps;
  a.defs = defs;
  a.ready = !variants.empty();
  a.final = !variants.empty();
  for (const VariantCurves& curves : variants) {
    a.variants.push_back(summarize_variant(curves, threshold, steps, defs));
    const VariantResult& v = a.variants.back();
    a.ready = a.ready && v.runs_pending == 0;
    for (const RunSummary& r : v.runs) a.final = a.final && r.stopped;
  }
  for (std::size_t i = 0; i < a.variants.size(); ++i) {
    if (i == 0) a.variants[i].outcome = Outcome::reference;
    else compare_with(a.variants[i], a.variants[0], defs);
  }
  if (a.variants.size() == 1) {
    a.outcome = a.ready ? Outcome::single : Outcome::pending;
  } else if (a.variants.size() > 1) {
    a.outcome = a.variants[1].outcome;
    a.ratio = a.variants[1].ratio;
    a.steps_earlier = a.variants[1].steps_earlier;
  }
  a.sentences = answer_sentences(a);
  return a;
}

}  // namespace sqrtdk
