#include "core/claims.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "core/analysis.hpp"
#include "core/mechanism.hpp"
#include "core/trainer.hpp"

namespace sqrtdk {

SeedOutcome measure_seed(const ExerciseSettings& settings, const std::string& variant, uint64_t seed) {
  TrainConfig c = settings.base;
  parse_scale(variant, c.model);
  c.seed = seed;
  Trainer trainer(c);
  TrainLog log;
  while (trainer.steps_done() < settings.steps && !trainer.diverged())
    log.extend(trainer.run(std::min(100, settings.steps - trainer.steps_done())));

  SeedOutcome o;
  const RunSummary run = summarize_run(log.loss, settings.threshold, kNaN, trainer.diverged_step());
  o.reached = run.touched_step;
  o.final_loss = run.final_loss;
  o.diverged_step = trainer.diverged_step();
  const std::vector<double> smooth = smoothed_loss(log.loss, CurveDefinitions{}.window);
  o.min_loss = smooth.empty() ? kNaN : smooth.front();
  for (double x : smooth) o.min_loss = std::min(o.min_loss, x);
  const std::size_t L = static_cast<std::size_t>(log.n_layers), H = static_cast<std::size_t>(log.n_heads);
  if (log.size() > 0) {
    for (std::size_t h = 0; h < H; ++h) o.start_entropy += log.entropy[h] / static_cast<double>(H);
    o.start_jacobian = log.jacobian_norm[0];
    o.start_qk_gradient = qk_gradient(log)[0];
    const std::size_t last = std::min<std::size_t>(50, log.size());
    for (std::size_t t = log.size() - last; t < log.size(); ++t)
      o.end_jacobian += log.jacobian_norm[t * L] / static_cast<double>(last);
  }
  o.qk_drop = qk_gradient_drop(log).ratio();
  return o;
}

std::vector<std::string> measured_variants(const Scenario& scenario) {
  std::vector<std::string> out{parse_exercise_settings(scenario.settings).variants.front()};
  for (const Claim& claim : scenario.claims)
    if (std::find(out.begin(), out.end(), claim.variant) == out.end()) out.push_back(claim.variant);
  return out;
}

bool learned(const SeedOutcome& o, double threshold) { return learned(o.reached, o.final_loss, threshold); }
bool touched(const SeedOutcome& o, double threshold) { return o.reached > 0 && !learned(o, threshold); }

const MeasuredScenario* find_measurement(const std::string& id) {
  for (const MeasuredScenario& m : measured_scenarios())
    if (id == m.id) return &m;
  return nullptr;
}

namespace {

std::string exact(double x) {  // round-trips through the C++ source
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

const MeasuredVariant* find_variant(const MeasuredScenario& m, const std::string& variant) {
  for (const MeasuredVariant& v : m.variants)
    if (variant == v.variant) return &v;
  return nullptr;
}

std::string label(const std::string& variant) {
  ModelConfig model;
  parse_scale(variant, model);
  return variant_label(model.scale, model.alpha);
}

// "59-75" or "61" for the values picked by `get` from the seeds where `keep` holds.
template <class Get, class Keep>
std::string span(const std::vector<SeedOutcome>& seeds, Get get, Keep keep, bool steps) {
  double lo = kNever, hi = -kNever;
  for (const SeedOutcome& o : seeds)
    if (keep(o)) {
      lo = std::min(lo, get(o));
      hi = std::max(hi, get(o));
    }
  if (lo > hi) return "";
  const auto text = [&](double x) { return steps ? format_steps(x) : format_number(x); };
  return lo == hi ? text(lo) : text(lo) + "-" + text(hi);
}

double median_steps(const std::vector<SeedOutcome>& seeds, double threshold) {
  std::vector<double> steps;
  for (const SeedOutcome& o : seeds)
    if (learned(o, threshold)) steps.push_back(o.reached);
  if (steps.empty()) return kNaN;
  std::sort(steps.begin(), steps.end());
  const std::size_t n = steps.size();
  return n % 2 ? steps[n / 2] : (steps[n / 2 - 1] + steps[n / 2]) / 2;
}

std::string count(int k, int n) { return std::to_string(k) + " of " + std::to_string(n) + " seeds"; }

// Where a rate is neither none nor all, what a learner running a few seeds should expect.
std::string expectation(int k, int n) {
  if (k == 0 || k == n) return "";
  const long tenths = std::lround(10.0 * k / n);
  if (tenths == 0) return " (so a few seeds rarely show it)";
  if (tenths == 10) return " (so a few seeds rarely show an exception)";
  return " (about " + std::to_string(tenths) + " in 10: a few seeds can show either)";
}

std::string claim_sentence(const Claim& claim, const MeasuredScenario& m, const ExerciseSettings& s) {
  const MeasuredVariant* v = find_variant(m, claim.variant);
  const MeasuredVariant* ref = &m.variants.front();
  if (!v) return "";
  const std::vector<SeedOutcome>& a = v->seeds;
  const std::vector<SeedOutcome>& r = ref->seeds;
  const int n = static_cast<int>(a.size());
  const double thr = s.threshold;
  const std::string name = label(claim.variant), ref_name = label(ref->variant), t = format_number(thr);
  const auto steps_of = [](const SeedOutcome& o) { return static_cast<double>(o.reached); };
  const auto final_of = [](const SeedOutcome& o) { return o.final_loss; };
  const auto learnt = [&](const SeedOutcome& o) { return learned(o, thr); };
  const auto not_learnt = [&](const SeedOutcome& o) { return !learned(o, thr); };
  const auto all = [](const SeedOutcome&) { return true; };
  int k = 0;
  switch (claim.kind) {
    case ClaimKind::learns: {
      for (const SeedOutcome& o : a) k += learnt(o);
      std::string text = name + " learned (reached loss " + t + " and ended below it) on " + count(k, n);
      if (k > 0)
        text += ", at step " + span(a, steps_of, learnt, true) + " (median " + format_steps(median_steps(a, thr)) + ")";
      return text + expectation(k, n) + ".";
    }
    case ClaimKind::fails: {
      int fell_back = 0;
      for (const SeedOutcome& o : a) {
        k += not_learnt(o);
        fell_back += touched(o, thr);
      }
      std::string text = name + " did not learn on " + count(k, n);
      if (k > 0) text += ", ending at loss " + span(a, final_of, not_learnt, false);
      if (fell_back > 0)
        text += " (" + std::to_string(fell_back) + " of them touched " + t + " and fell back above it)";
      return text + expectation(k, n) + ".";
    }
    case ClaimKind::slower:
    case ClaimKind::similar: {
      for (int i = 0; i < n; ++i) {
        if (!learned(r[i], thr)) continue;
        const double ratio = learned(a[i], thr) ? double(a[i].reached) / r[i].reached : kNever;
        k += claim.kind == ClaimKind::slower ? ratio >= claim.parameter : std::fabs(ratio - 1) <= claim.parameter;
      }
      const std::string medians = " (medians " + format_steps(median_steps(a, thr)) + " and " +
                                  format_steps(median_steps(r, thr)) + " steps among the runs that learned)";
      if (claim.kind == ClaimKind::slower)
        return name + " needed at least " + format_number(claim.parameter) + "x the steps of " + ref_name +
               " on the same seed, or did not learn, on " + count(k, n) + medians + expectation(k, n) + ".";
      return name + " learned within " + format_number(100 * claim.parameter) + " % of the steps of " + ref_name +
             " on the same seed on " + count(k, n) + medians + expectation(k, n) + ".";
    }
    case ClaimKind::start_saturated: {
      for (int i = 0; i < n; ++i) k += a[i].start_entropy < r[i].start_entropy;
      const auto entropy = [](const SeedOutcome& o) { return o.start_entropy; };
      return "At step 1 the attention of " + name + " was sharper than that of " + ref_name + " on " + count(k, n) +
             " (layer 0's entropy " + span(a, entropy, all, false) + " nats vs " + span(r, entropy, all, false) + ").";
    }
    case ClaimKind::start_gradient: {
      for (int i = 0; i < n; ++i) k += a[i].start_qk_gradient > r[i].start_qk_gradient;
      const auto gradient = [](const SeedOutcome& o) { return o.start_qk_gradient; };
      return "At step 1 the q/k gradient of " + name + " was larger than that of " + ref_name + " on " + count(k, n) +
             " (" + span(a, gradient, all, false) + " vs " + span(r, gradient, all, false) + ").";
    }
    case ClaimKind::qk_collapse: {
      for (const SeedOutcome& o : a) k += o.qk_drop > claim.parameter;
      return "The q/k gradient of " + name + " ended more than " + format_number(claim.parameter) +
             "x below its peak on " + count(k, n) + ".";
    }
    case ClaimKind::dead_jacobian: {
      for (const SeedOutcome& o : a) k += o.end_jacobian < claim.parameter;
      const auto jacobian = [](const SeedOutcome& o) { return o.end_jacobian; };
      return "Over the last 50 steps the softmax Jacobian of " + name + " (layer 0) was below " +
             format_number(claim.parameter) + " on " + count(k, n) + " (" + ref_name + ": " +
             span(r, jacobian, all, false) + ").";
    }
  }
  return "";
}

}  // namespace

std::string measurement_source(const MeasuredScenario& m) {
  std::string out = std::string("    {\"") + m.id + "\",\n     \"" + m.settings + "\",\n     {\n";
  for (const MeasuredVariant& v : m.variants) {
    out += std::string("         {\"") + v.variant + "\",\n          {\n";
    for (const SeedOutcome& o : v.seeds)
      out += "              {" + std::to_string(o.reached) + ", " + exact(o.final_loss) + ", " + exact(o.min_loss) +
             ", " + std::to_string(o.diverged_step) + ", " + exact(o.start_entropy) + ", " +
             exact(o.start_jacobian) + ", " + exact(o.end_jacobian) + ", " + exact(o.qk_drop) + ", " +
             exact(o.start_qk_gradient) + "},\n";
    out += "          }},\n";
  }
  return out + "     }},\n";
}

std::string measured_sentences(const Scenario& scenario) {
  const MeasuredScenario* m = find_measurement(scenario.id);
  if (!m || m->settings != std::string(scenario.settings) || m->variants.empty()) return "";
  const ExerciseSettings s = parse_exercise_settings(scenario.settings);
  const int n = static_cast<int>(m->variants.front().seeds.size());
  std::string text = "Measured on seeds 0-" + std::to_string(n - 1) + ":";
  for (const Claim& claim : scenario.claims) text += " " + claim_sentence(claim, *m, s);
  return text;
}

std::string scenario_caption(const Scenario& scenario) {
  const std::string measured = measured_sentences(scenario);
  return std::string(scenario.lead) + " " +
         (measured.empty() ? "(Not measured with these settings yet: run scripts/measure-claims.sh.)" : measured);
}

}  // namespace sqrtdk
