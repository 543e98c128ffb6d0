#include "core/claims/claims.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "core/answer/analysis.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/answer/mechanism.hpp"
#include "core/train/trainer.hpp"

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
  return median(steps);
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

// What one claim's sentence needs: the claim's variant (a) and the reference (r), seed by seed, their names and
// the threshold.
struct ClaimContext {
  const Claim& claim;
  const std::vector<SeedOutcome>& a;
  const std::vector<SeedOutcome>& r;
  int n;
  double thr;
  std::string name, ref_name, t;
};

const auto kAll = [](const SeedOutcome&) { return true; };

std::string learns_sentence(const ClaimContext& c) {
  const auto learnt = [&](const SeedOutcome& o) { return learned(o, c.thr); };
  const auto steps_of = [](const SeedOutcome& o) { return static_cast<double>(o.reached); };
  int k = 0;
  for (const SeedOutcome& o : c.a) k += learnt(o);
  std::string text = c.name + " learned (reached loss " + c.t + " and ended below it) on " + count(k, c.n);
  if (k > 0)
    text += ", at step " + span(c.a, steps_of, learnt, true) + " (median " + format_steps(median_steps(c.a, c.thr)) + ")";
  return text + expectation(k, c.n) + ".";
}

std::string fails_sentence(const ClaimContext& c) {
  const auto not_learnt = [&](const SeedOutcome& o) { return !learned(o, c.thr); };
  const auto final_of = [](const SeedOutcome& o) { return o.final_loss; };
  int k = 0, fell_back = 0;
  for (const SeedOutcome& o : c.a) {
    k += not_learnt(o);
    fell_back += touched(o, c.thr);
  }
  std::string text = c.name + " did not learn on " + count(k, c.n);
  if (k > 0) text += ", ending at loss " + span(c.a, final_of, not_learnt, false);
  if (fell_back > 0) text += " (" + std::to_string(fell_back) + " of them touched " + c.t + " and fell back above it)";
  return text + expectation(k, c.n) + ".";
}

// slower (at least `parameter` times the reference's steps) or similar (within `parameter` of them), seed by seed.
std::string pace_sentence(const ClaimContext& c) {
  const bool slower = c.claim.kind == ClaimKind::slower;
  int k = 0;
  for (int i = 0; i < c.n; ++i) {
    if (!learned(c.r[i], c.thr)) continue;
    const double ratio = learned(c.a[i], c.thr) ? double(c.a[i].reached) / c.r[i].reached : kNever;
    k += slower ? ratio >= c.claim.parameter : std::fabs(ratio - 1) <= c.claim.parameter;
  }
  const std::string medians = " (medians " + format_steps(median_steps(c.a, c.thr)) + " and " +
                              format_steps(median_steps(c.r, c.thr)) + " steps among the runs that learned)";
  if (slower)
    return c.name + " needed at least " + format_number(c.claim.parameter) + "x the steps of " + c.ref_name +
           " on the same seed, or did not learn, on " + count(k, c.n) + medians + expectation(k, c.n) + ".";
  return c.name + " learned within " + format_number(100 * c.claim.parameter) + " % of the steps of " + c.ref_name +
         " on the same seed on " + count(k, c.n) + medians + expectation(k, c.n) + ".";
}

// The mechanism claims: how the variant starts (entropy, q/k gradient) and how its gradient path ends.
std::string mechanism_sentence(const ClaimContext& c) {
  int k = 0;
  switch (c.claim.kind) {
    case ClaimKind::start_saturated: {
      for (int i = 0; i < c.n; ++i) k += c.a[i].start_entropy < c.r[i].start_entropy;
      const auto entropy = [](const SeedOutcome& o) { return o.start_entropy; };
      return "At step 1 the attention of " + c.name + " was sharper than that of " + c.ref_name + " on " + count(k, c.n) +
             " (layer 0's entropy " + span(c.a, entropy, kAll, false) + " nats vs " + span(c.r, entropy, kAll, false) + ").";
    }
    case ClaimKind::start_gradient: {
      for (int i = 0; i < c.n; ++i) k += c.a[i].start_qk_gradient > c.r[i].start_qk_gradient;
      const auto gradient = [](const SeedOutcome& o) { return o.start_qk_gradient; };
      return "At step 1 the q/k gradient of " + c.name + " was larger than that of " + c.ref_name + " on " +
             count(k, c.n) + " (" + span(c.a, gradient, kAll, false) + " vs " + span(c.r, gradient, kAll, false) + ").";
    }
    case ClaimKind::qk_collapse: {
      for (const SeedOutcome& o : c.a) k += o.qk_drop > c.claim.parameter;
      return "The q/k gradient of " + c.name + " ended more than " + format_number(c.claim.parameter) +
             "x below its peak on " + count(k, c.n) + ".";
    }
    case ClaimKind::dead_jacobian: {
      for (const SeedOutcome& o : c.a) k += o.end_jacobian < c.claim.parameter;
      const auto jacobian = [](const SeedOutcome& o) { return o.end_jacobian; };
      return "Over the last 50 steps the softmax Jacobian of " + c.name + " (layer 0) was below " +
             format_number(c.claim.parameter) + " on " + count(k, c.n) + " (" + c.ref_name + ": " +
             span(c.r, jacobian, kAll, false) + ").";
    }
    default: return "";
  }
}

std::string claim_sentence(const Claim& claim, const MeasuredScenario& m, const ExerciseSettings& s) {
  const MeasuredVariant* v = find_variant(m, claim.variant);
  if (!v) return "";
  const MeasuredVariant& ref = m.variants.front();
  const ClaimContext c{claim, v->seeds, ref.seeds, static_cast<int>(v->seeds.size()), s.threshold,
                       label(claim.variant), label(ref.variant), format_number(s.threshold)};
  switch (claim.kind) {
    case ClaimKind::learns: return learns_sentence(c);
    case ClaimKind::fails: return fails_sentence(c);
    case ClaimKind::slower:
    case ClaimKind::similar: return pace_sentence(c);
    default: return mechanism_sentence(c);
  }
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
