// The answer in words: display names, numbers, sentences, table cells and the definitions' text.  Every
// front end shows these strings as they are, so the CLI and the page say the same thing.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/analysis.hpp"

namespace sqrtdk {

std::string variant_label(ScaleMode scale, double alpha) {
  switch (scale) {
    case ScaleMode::scaled: return "scaled 1/√d_k";
    case ScaleMode::unscaled: return "unscaled";
    case ScaleMode::alpha: return "1/d_k^α, α=" + format_number(alpha);
    case ScaleMode::qknorm: return "QK-norm";
  }
  return "?";
}

std::string format_number(double x) {
  if (std::isnan(x)) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string format_steps(double steps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, steps == std::floor(steps) ? "%.0f" : "%.1f", steps);
  return buf;
}

namespace {

std::string seeds(std::size_t n) { return std::to_string(n) + (n == 1 ? " seed" : " seeds"); }

// "at a median of 61 steps" (several seeds) or "at step 61" (one).
std::string reached_at(const VariantResult& v) {
  const std::string m = format_steps(v.median_steps_to_threshold);
  return v.runs.size() == 1 ? "at step " + m : "at a median of " + m + " steps";
}

// The seeds' steps to threshold as a range: "58–72", "103–never", "61".
std::string seed_range(const VariantResult& v) {
  double lo = kNever, hi = 0;
  for (const RunSummary& r : v.runs) {
    const double s = r.steps_to_threshold > 0 ? r.steps_to_threshold : kNever;
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  const auto text = [](double s) { return std::isinf(s) ? std::string("never") : format_steps(s); };
  return lo == hi ? text(lo) : text(lo) + "–" + text(hi);
}

// "57 steps later (1.93× as many steps)", "3 steps earlier (0.967× as many steps)"; in a table cell the
// ratio alone: "57 steps later (1.93×)".
std::string difference(const VariantResult& v, bool cell = false) {
  const double d = v.steps_earlier;
  const std::string times = format_number(v.ratio) + (cell ? "×" : "× as many steps");
  if (d == 0) return "in the same number of steps (" + times + ")";
  const std::string n = format_steps(std::fabs(d));
  return n + (std::fabs(d) == 1 ? " step " : " steps ") + (d > 0 ? "later" : "earlier") + " (" + times + ")";
}

std::string never_phrase(const VariantResult& v, const Answer& a) {
  const std::size_t n = v.runs.size();
  const std::size_t missing = n - static_cast<std::size_t>(v.runs_reaching);
  std::string s = v.label + " did not reach smoothed loss " + format_number(a.threshold) + " in " +
                  std::to_string(a.steps) + " steps";
  if (n == 1) return s;
  if (missing == n) return s + " for any of " + std::to_string(n) + " seeds";
  std::string others;
  for (const RunSummary& r : v.runs)
    if (r.steps_to_threshold > 0) others += (others.empty() ? "" : ", ") + std::to_string(r.steps_to_threshold);
  return s + " for " + std::to_string(missing) + " of " + std::to_string(n) + " seeds (the " +
         (v.runs_reaching == 1 ? "other at step " : "others at steps ") + others + ")";
}

// How the reference (or a variant) reached it, for the second half of a "never" sentence.
std::string reached_phrase(const VariantResult& v) {
  std::string s = v.label + " reached it " + reached_at(v);
  if (static_cast<std::size_t>(v.runs_reaching) < v.runs.size())
    s += " (" + std::to_string(v.runs_reaching) + " of " + std::to_string(v.runs.size()) + " seeds got there)";
  return s;
}

const char* direction(const VariantResult& v) { return v.steps_earlier > 0 ? "slower" : "faster"; }

std::string comparison_sentence(const VariantResult& v, const VariantResult& ref, const Answer& a) {
  const std::string t = format_number(a.threshold);
  const std::string one_seed = " One seed: no spread to judge whether the difference is clear.";
  switch (v.outcome) {
    case Outcome::never:
      return never_phrase(v, a) + "; " + reached_phrase(ref) + "." + (v.runs.size() == 1 ? one_seed : "");
    case Outcome::reference_never:
      return never_phrase(ref, a) + "; " + reached_phrase(v) + "." + (v.runs.size() == 1 ? one_seed : "");
    case Outcome::neither:
      return "Neither " + v.label + " nor " + ref.label + " reached smoothed loss " + t + " in " +
             std::to_string(a.steps) + " steps" + (v.runs.size() > 1 ? " for most seeds" : "") +
             ", so this run cannot say which gets there sooner; their final levels: " + v.label + " " +
             format_number(v.median_final_loss) + ", " + ref.label + " " + format_number(ref.median_final_loss) + ".";
    default: break;
  }
  std::string s = v.label + " reached smoothed loss " + t + " " + reached_at(v) + " vs " +
                  format_steps(ref.median_steps_to_threshold) + " for " + ref.label + ": " + difference(v) + ".";
  const std::string ranges_apart = "every seed of " + v.label + " (" + seed_range(v) + " steps) was " + direction(v) +
                                   " than every seed of " + ref.label + " (" + seed_range(ref) + ")";
  switch (v.outcome) {
    case Outcome::clear: return s + " A clear difference: " + ranges_apart + ".";
    case Outcome::within_spread:
      return s + " Within the spread of the seeds: " + v.label + " took " + seed_range(v) + " steps and " + ref.label +
             " " + seed_range(ref) + ", so there is no clear difference.";
    case Outcome::small:
      return s + " Small but consistent: " + ranges_apart + ", by less than the " +
             format_number(a.defs.clear_ratio) + "× a clear difference needs, so the two are about equally fast.";
    case Outcome::one_seed: return s + one_seed;
    default: return s;
  }
}

std::string single_sentence(const VariantResult& v, const Answer& a) {
  if (std::isinf(v.median_steps_to_threshold)) return never_phrase(v, a) + ".";
  std::string s = v.label + " reached smoothed loss " + format_number(a.threshold) + " " + reached_at(v);
  if (v.runs.size() > 1) s += " (" + seeds(v.runs.size()) + ": " + seed_range(v) + ")";
  return s + ".";
}

// "from step 118, 69 steps at 0.248", "from step 23 to the end at 2.07", "from step 23, 120 steps so far at 2.07".
std::string stall_phrase(const Stall& stall, bool stopped) {
  const std::string from = "from step " + std::to_string(stall.start);
  const std::string level = " at " + format_number(stall.level);
  if (stall.to_end && stopped) return from + " to the end (" + std::to_string(stall.length) + " steps)" + level;
  return from + ", " + std::to_string(stall.length) + " steps" + (stall.to_end ? " so far" : "") + level;
}

bool all_stopped(const VariantResult& v) {
  return std::all_of(v.runs.begin(), v.runs.end(), [](const RunSummary& r) { return r.stopped; });
}

// One variant's stalls: "none", "in 1 of 3 seeds, from step 118, 69 steps at 0.248" or
// "in 3 of 3 seeds, median from step 23, 378 steps at 2.07, all to the end"; with one seed the run's stall.
std::string variant_stalls(const VariantResult& v) {
  const std::size_t n = v.runs.size();
  if (v.runs_stalled == 0) return "none";
  const std::string in = n == 1 ? "" : "in " + std::to_string(v.runs_stalled) + " of " + std::to_string(n) + " seeds, ";
  if (v.runs_stalled == 1) {
    for (const RunSummary& r : v.runs)
      if (r.stall.found()) return in + stall_phrase(r.stall, r.stopped);
  }
  std::string s = in + "median from step " + std::to_string(v.median_stall.start) + ", " +
                  std::to_string(v.median_stall.length) + " steps at " + format_number(v.median_stall.level);
  if (v.stalls_to_end > 0 && all_stopped(v))
    s += v.stalls_to_end == v.runs_stalled ? ", all to the end" : ", " + std::to_string(v.stalls_to_end) + " to the end";
  return s;
}

std::string stall_sentence(const Answer& a) {
  const std::string rule = "within " + format_number(100 * a.defs.stall_band) + " % for at least " +
                           std::to_string(a.defs.stall_min_steps) + " steps above " + format_number(a.threshold);
  const bool any = std::any_of(a.variants.begin(), a.variants.end(), [](const VariantResult& v) { return v.runs_stalled > 0; });
  if (!any) return "No stalls: no smoothed loss stayed " + rule + ".";
  std::string s = "Stalls, where the smoothed loss stayed " + rule + ": ";
  for (std::size_t i = 0; i < a.variants.size(); ++i)
    s += (i ? "; " : "") + a.variants[i].label + " " + variant_stalls(a.variants[i]);
  return s + ".";
}

std::string diverged_sentence(const Answer& a) {
  std::string s;
  for (const VariantResult& v : a.variants) {
    if (v.runs_diverged == 0) continue;
    std::string at;
    for (const RunSummary& r : v.runs)
      if (r.diverged) at += (at.empty() ? "" : ", ") + std::to_string(r.diverged_step);
    s += (s.empty() ? "Diverged: " : "; ") + v.label + " in " + std::to_string(v.runs_diverged) + " of " +
         seeds(v.runs.size()) + " (at step" + (v.runs_diverged > 1 ? "s " : " ") + at + ")";
  }
  return s.empty() ? s : s + ".";
}

std::string final_sentence(const Answer& a) {
  const bool several = std::any_of(a.variants.begin(), a.variants.end(), [](const VariantResult& v) { return v.runs.size() > 1; });
  std::string s = several ? "Final smoothed loss (median over seeds): " : "Final smoothed loss: ";
  for (std::size_t i = 0; i < a.variants.size(); ++i)
    s += (i ? ", " : "") + a.variants[i].label + " " + format_number(a.variants[i].median_final_loss);
  return s + ".";
}

}  // namespace

std::vector<std::string> answer_sentences(const Answer& a) {
  std::vector<std::string> out;
  if (!a.ready || a.variants.empty()) return out;
  const VariantResult& ref = a.variants.front();
  if (a.variants.size() == 1) out.push_back(single_sentence(ref, a));
  for (std::size_t i = 1; i < a.variants.size(); ++i) out.push_back(comparison_sentence(a.variants[i], ref, a));
  const std::string diverged = diverged_sentence(a);
  if (!diverged.empty()) out.push_back(diverged);
  out.push_back(stall_sentence(a));
  if (a.final) out.push_back(final_sentence(a));
  return out;
}

std::vector<DefinitionText> definition_texts(const CurveDefinitions& d, double threshold, int steps) {
  const std::string t = format_number(threshold);
  return {
      {"smoothed_loss", "Smoothed loss: the mean of the last " + std::to_string(d.window) +
                            " steps' losses (fewer at the start)."},
      {"steps_to_threshold", "Steps to threshold: the first step whose smoothed loss is below " + t +
                                 "; \"never (in " + std::to_string(steps) +
                                 " steps)\" if the run does not get there. Over seeds: the median, a seed that "
                                 "never got there counting as slower than any."},
      {"stall", "Stall: at least " + std::to_string(d.stall_min_steps) + " steps in which the smoothed loss stays above " +
                    t + " and within " + format_number(100 * d.stall_band) + " % (its highest at most " +
                    format_number(1 + d.stall_band) +
                    "× its lowest): the curve is flat where it should be falling. Shown: a run's longest one, where it "
                    "starts, how long it lasts and its level (median)."},
      {"final_level", "Final level: the smoothed loss at the run's last step."},
      {"clear_difference", "Clear difference: every seed of one variant reached the threshold before every seed of "
                           "the other, and the medians are at least " +
                               format_number(d.clear_ratio) +
                               "× apart. Seeds that overlap: within the spread of the seeds. One seed: no spread to "
                               "judge."},
  };
}

std::string run_steps_cell(const RunSummary& run, int steps) {
  if (run.steps_to_threshold > 0) return std::to_string(run.steps_to_threshold);
  if (run.pending()) return "not yet";
  if (run.diverged) return "never (diverged at step " + std::to_string(run.diverged_step) + ")";
  return "never (in " + std::to_string(steps) + " steps)";
}

std::string run_stall_cell(const RunSummary& run) { return run.stall.found() ? stall_phrase(run.stall, run.stopped) : "none"; }

std::string variant_median_cell(const VariantResult& v, int steps) {
  if (std::isnan(v.median_steps_to_threshold)) return "…";
  if (std::isinf(v.median_steps_to_threshold)) return "never (in " + std::to_string(steps) + " steps)";
  return format_steps(v.median_steps_to_threshold);
}

std::string variant_seeds_cell(const VariantResult& v, int) {
  std::string s;
  for (const RunSummary& r : v.runs) {
    const std::string one = r.steps_to_threshold > 0 ? std::to_string(r.steps_to_threshold) : r.pending() ? "…" : "never";
    s += (s.empty() ? "" : " · ") + one;
  }
  return s;
}

std::string variant_relation_cell(const VariantResult& v, int steps) {
  switch (v.outcome) {
    case Outcome::reference: return "reference";
    case Outcome::pending: case Outcome::single: return "…";
    case Outcome::never: return "never (in " + std::to_string(steps) + " steps)";
    case Outcome::reference_never: return "reached it; the reference never did";
    case Outcome::neither: return "neither reached it";
    case Outcome::clear: return difference(v, true) + ": clear";
    case Outcome::within_spread: return difference(v, true) + ": within the seeds' spread";
    case Outcome::small: return difference(v, true) + ": small but consistent";
    case Outcome::one_seed: return difference(v, true) + ": one seed, no spread to judge";
  }
  return "";
}

std::string variant_stall_cell(const VariantResult& v) { return variant_stalls(v); }

}  // namespace sqrtdk
