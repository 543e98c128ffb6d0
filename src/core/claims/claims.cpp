#include "core/claims/claims.hpp"

#include "core/answer/learned_headline.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "core/answer/analysis.hpp"
#include "core/arith/median.hpp"
#include "core/answer/learned_headline.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/answer/mechanism.hpp"
#include "core/text/json.hpp"
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
    const std::size_t last = std::min<std::size_t>(kEndWindow, log.size());
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

std::vector<RunToMeasure> runs_to_measure() {
  std::vector<RunToMeasure> out;
  for (const Scenario& s : scenarios())
    for (const std::string& variant : measured_variants(s)) {
      const bool seen = std::any_of(out.begin(), out.end(), [&](const RunToMeasure& r) {
        return r.variant == variant && run_settings(*r.scenario) == run_settings(s);
      });
      if (!seen) out.push_back({&s, variant});
    }
  return out;
}

const MeasuredScenario* find_measurement(const std::string& id) {
  // Put together once per scenario from the table (which does not change while the program runs).
  static const std::vector<MeasuredScenario> measured = [] {
    std::vector<MeasuredScenario> out;
    for (const Scenario& s : scenarios()) {
      MeasuredScenario m{s.id, s.settings, {}};
      const std::string key = run_settings(s);
      for (const std::string& variant : measured_variants(s))
        for (const MeasuredRun& run : measured_runs())
          if (run.variant == variant && run.settings == key) m.variants.push_back({run.variant, run.seeds});
      if (m.variants.size() == measured_variants(s).size()) out.push_back(std::move(m));
    }
    return out;
  }();
  for (const MeasuredScenario& m : measured)
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

// The range "59–75" (or "61") of values (steps: as counts), as an argument; empty for no values.
Arg values_span(const std::vector<double>& values, bool steps) {
  double lo = kNever, hi = -kNever;
  for (double x : values) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  if (lo > hi) return Arg::verbatim("");
  const auto arg = [&](double x) { return steps ? Arg::count(x) : Arg::value(x); };
  if (steps ? lo == hi : format_number(lo) == format_number(hi)) return arg(lo);  // the same as written
  return Message("range").with("low", arg(lo)).with("high", arg(hi));
}

// The range of the values picked by `get` from the seeds where `keep` holds.
template <class Get, class Keep>
Arg span(const std::vector<SeedOutcome>& seeds, Get get, Keep keep, bool steps) {
  std::vector<double> values;
  for (const SeedOutcome& o : seeds)
    if (keep(o)) values.push_back(get(o));
  return values_span(values, steps);
}

double median_steps(const std::vector<SeedOutcome>& seeds, double threshold) {
  std::vector<double> steps;
  for (const SeedOutcome& o : seeds)
    if (learned(o, threshold)) steps.push_back(o.reached);
  return median(steps);
}

Arg seed_range(int n) { return Message("range").with("low", Arg::count(0)).with("high", Arg::count(n - 1)); }

// "seeds 2, 4, 5" (the table's seeds are 0 .. n-1, in order).
Message seed_list(const std::vector<int>& seeds) {
  std::vector<Arg> items;
  for (int seed : seeds) items.push_back(Arg::count(seed));
  Message m("claims.seeds");
  m.plural_by("n", static_cast<double>(seeds.size()));
  return m.with("list", Arg::list("join.comma", items));
}

// A count "k of n seeds" and which seeds: the fewer side named, " (seeds 2, 7)" or " (all but seeds 2, 7)",
// nothing when the count is none or all.
struct Counted {
  Arg count, which;
};
// `seeds` are the seeds counted (all of the table's when empty), `holds` whether the claim holds on each.
Counted counted(const std::vector<bool>& holds, const std::vector<int>& seeds = {}) {
  std::vector<int> yes, no;
  for (std::size_t i = 0; i < holds.size(); ++i)
    (holds[i] ? yes : no).push_back(seeds.empty() ? static_cast<int>(i) : seeds[i]);
  const int k = static_cast<int>(yes.size()), n = static_cast<int>(holds.size());
  Counted c{Message("claims.count").with("k", Arg::count(k)).with("n", Arg::count(n)), Message("claims.empty")};
  if (k > 0 && k < n)
    c.which = yes.size() <= no.size() ? Message("claims.which.these").with("seeds", seed_list(yes))
                                      : Message("claims.which.all_but").with("seeds", seed_list(no));
  return c;
}

// What one claim's sentence needs: the claim's variant (a) and the reference (r), seed by seed, their names and
// the threshold.
struct ClaimContext {
  const Claim& claim;
  const std::vector<SeedOutcome>& a;
  const std::vector<SeedOutcome>& r;
  int n;
  double thr;
  Arg name, ref_name;
};

const auto kAll = [](const SeedOutcome&) { return true; };

template <class Holds>
Message counted_message(const char* key, const ClaimContext& c, Holds holds) {
  std::vector<bool> yes;
  for (int i = 0; i < c.n; ++i) yes.push_back(holds(i));
  const Counted k = counted(yes);
  return Message(key).with("label", c.name).with("ref", c.ref_name).with("count", k.count).with("which", k.which)
      .with("threshold", Arg::value(c.thr));
}

// A claim about how a failure looks, counted over the seeds on which the variant did not learn only: "Of the 19
// seeds on which unscaled did not learn, ... on 14 of them (all but seeds 12, 14, 15, 18, 19)".  A seed that
// learned is not a failure, whatever its gradient did.
template <class Holds>
Message failures_message(const char* key, const ClaimContext& c, Holds holds) {
  std::vector<int> failed;
  std::vector<bool> yes;
  for (int i = 0; i < c.n; ++i)
    if (!learned(c.a[i], c.thr)) {
      failed.push_back(i);
      yes.push_back(holds(i));
    }
  if (failed.empty()) return Message();  // no failure to describe: the caption leaves the sentence out
  const Counted k = counted(yes, failed);
  const auto holding = static_cast<double>(std::count(yes.begin(), yes.end(), true));
  return Message(key).with("label", c.name).with("ref", c.ref_name)
      .with("failures", Message("seeds").plural_by("n", static_cast<double>(failed.size())))
      .with("count", Message("claims.count.of_them").with("k", Arg::count(holding)))
      .with("which", k.which).with("threshold", Arg::value(c.thr));
}

Message learns_message(const ClaimContext& c) {
  const auto learnt = [&](const SeedOutcome& o) { return learned(o, c.thr); };
  const auto steps_of = [](const SeedOutcome& o) { return static_cast<double>(o.reached); };
  Message m = counted_message("claims.learns", c, [&](int i) { return learnt(c.a[i]); });
  const bool any = std::any_of(c.a.begin(), c.a.end(), learnt);
  return m.with("at", any ? Message("claims.learns.at").with("range", span(c.a, steps_of, learnt, true))
                                .with("median", Arg::count(median_steps(c.a, c.thr)))
                          : Message("claims.empty"));
}

Message fails_message(const ClaimContext& c) {
  const auto not_learnt = [&](const SeedOutcome& o) { return !learned(o, c.thr); };
  const auto final_of = [](const SeedOutcome& o) { return o.final_loss; };
  int k = 0, fell_back = 0;
  for (const SeedOutcome& o : c.a) {
    k += not_learnt(o);
    fell_back += touched(o, c.thr);
  }
  Message m = counted_message("claims.fails", c, [&](int i) { return not_learnt(c.a[i]); });
  m.with("ending", k > 0 ? Message("claims.fails.ending").with("range", span(c.a, final_of, not_learnt, false))
                         : Message("claims.empty"));
  return m.with("fell", fell_back > 0 ? Message("claims.fails.fell_back").with("fell", Arg::count(fell_back))
                                            .with("threshold", Arg::value(c.thr))
                                      : Message("claims.empty"));
}

// slower (at least `parameter` times the reference's steps) or similar (less than `parameter` times apart, either
// way), seed by seed.  A seed whose reference did not learn has no ratio and counts against the claim.
Message pace_message(const ClaimContext& c) {
  const bool slower = c.claim.kind == ClaimKind::slower;
  const double bar = c.claim.parameter;
  std::vector<double> ratio(c.n, kNever);  // the variant's steps / the reference's; kNever: the variant never learned
  std::vector<double> both;                // the ratios of the seeds on which both learned, shown beside the bar
  for (int i = 0; i < c.n; ++i) {
    if (!learned(c.r[i], c.thr)) ratio[i] = std::nan("");
    else if (learned(c.a[i], c.thr)) both.push_back(ratio[i] = double(c.a[i].reached) / c.r[i].reached);
  }
  Message m = counted_message(slower ? "claims.slower" : "claims.similar", c, [&](int i) {
    return slower ? ratio[i] >= bar : ratio[i] < bar && ratio[i] > 1 / bar;  // NaN: false either way
  });
  return m.with("times", Arg::value(bar))
      .with("ratios", both.empty() ? Message("claims.empty")
                                   : Message("claims.ratios").with("range", values_span(both, false))
                                         .with("label", c.name).with("ref", c.ref_name)
                                         .with("both", Arg::count(static_cast<double>(both.size()))))
      .with("median", Arg::count(median_steps(c.a, c.thr))).with("refMedian", Arg::count(median_steps(c.r, c.thr)));
}

// The mechanism claims: how the variant starts (entropy, q/k gradient) and how its gradient path ends.
Message mechanism_message(const ClaimContext& c) {
  switch (c.claim.kind) {
    case ClaimKind::start_sharper: {
      const auto entropy = [](const SeedOutcome& o) { return o.start_entropy; };
      std::vector<double> gaps;  // seed by seed: how much lower the variant's entropy is, the size of the claim
      for (int i = 0; i < c.n; ++i) gaps.push_back(c.r[i].start_entropy - c.a[i].start_entropy);
      return counted_message("claims.start_sharper", c, [&](int i) { return c.a[i].start_entropy < c.r[i].start_entropy; })
          .with("range", span(c.a, entropy, kAll, false)).with("refRange", span(c.r, entropy, kAll, false))
          .with("gap", values_span(gaps, false));
    }
    case ClaimKind::start_gradient: {
      const auto gradient = [](const SeedOutcome& o) { return o.start_qk_gradient; };
      return counted_message("claims.start_gradient", c,
                             [&](int i) { return c.a[i].start_qk_gradient > c.r[i].start_qk_gradient; })
          .with("range", span(c.a, gradient, kAll, false)).with("refRange", span(c.r, gradient, kAll, false));
    }
    case ClaimKind::qk_collapse:
      return failures_message("claims.qk_collapse", c, [&](int i) { return c.a[i].qk_drop >= c.claim.parameter; })
          .with("times", Arg::value(c.claim.parameter));
    case ClaimKind::dead_jacobian: {
      const auto jacobian = [](const SeedOutcome& o) { return o.end_jacobian; };
      return failures_message("claims.dead_jacobian", c, [&](int i) { return c.a[i].end_jacobian < c.claim.parameter; })
          .with("window", Arg::count(kEndWindow)).with("bar", Arg::value(c.claim.parameter))
          .with("seeds", Arg::count(c.n))
          .with("refRange", span(c.r, jacobian, kAll, false));
    }
    default: return Message();
  }
}

Arg variant_name(const std::string& variant) {
  ModelConfig model;
  parse_scale(variant, model);
  return variant_label_message(model.scale, model.alpha);
}

Message claim_message(const Claim& claim, const MeasuredScenario& m, const ExerciseSettings& s) {
  const MeasuredVariant* v = find_variant(m, claim.variant);
  if (!v) return Message();
  const MeasuredVariant& ref = m.variants.front();
  const ClaimContext c{claim, v->seeds, ref.seeds, static_cast<int>(v->seeds.size()), s.threshold,
                       variant_name(claim.variant), variant_name(ref.variant)};
  switch (claim.kind) {
    case ClaimKind::learns: return learns_message(c);
    case ClaimKind::fails: return fails_message(c);
    case ClaimKind::slower:
    case ClaimKind::similar: return pace_message(c);
    default: return mechanism_message(c);
  }
}

// The scenario's measurement when it was measured with its current settings, else nullptr.
const MeasuredScenario* current_measurement(const Scenario& scenario) {
  const MeasuredScenario* m = find_measurement(scenario.id);  // its runs' keys hold its current settings
  return m && !m->variants.empty() ? m : nullptr;
}

}  // namespace

std::string measurement_source(const MeasuredRun& run) {
  std::string out = std::string("    {\"") + run.settings + "\",\n     \"" + run.variant + "\",\n     {\n";
  for (const SeedOutcome& o : run.seeds)
    out += "         {" + std::to_string(o.reached) + ", " + exact(o.final_loss) + ", " + exact(o.min_loss) + ", " +
           std::to_string(o.diverged_step) + ", " + exact(o.start_entropy) + ", " + exact(o.start_jacobian) + ", " +
           exact(o.end_jacobian) + ", " + exact(o.qk_drop) + ", " + exact(o.start_qk_gradient) + "},\n";
  return out + "     }},\n";
}

Message scenario_title(const Scenario& scenario) { return Message(std::string("scenario.") + scenario.id + ".title"); }
Message scenario_lead(const Scenario& scenario) { return Message(std::string("scenario.") + scenario.id + ".lead"); }

Message scenario_headline(const Scenario& scenario) {
  const MeasuredScenario* m = current_measurement(scenario);
  if (!m) return Message();
  const double threshold = parse_exercise_settings(scenario.settings).threshold;
  std::vector<Arg> items;
  for (const MeasuredVariant& v : m->variants) {
    int k = 0;
    for (const SeedOutcome& o : v.seeds) k += learned(o, threshold);
    items.push_back(learned_item(variant_name(v.variant), threshold, k, static_cast<int>(v.seeds.size()),
                                 median_steps(v.seeds, threshold), items.empty()));
  }
  return Message("claims.headline").with("seeds", seed_range(static_cast<int>(m->variants.front().seeds.size())))
      .with("items", Arg::list("join.comma", items));
}

std::vector<Message> measured_messages(const Scenario& scenario) {
  const MeasuredScenario* m = current_measurement(scenario);
  if (!m) return {};
  const ExerciseSettings s = parse_exercise_settings(scenario.settings);
  std::vector<Message> out{
      Message("claims.measured").with("seeds", seed_range(static_cast<int>(m->variants.front().seeds.size())))};
  for (const Claim& claim : scenario.claims) {
    Message sentence = claim_message(claim, *m, s);
    if (!sentence.key.empty()) out.push_back(sentence);
  }
  return out;
}

std::vector<Message> scenario_details(const Scenario& scenario) {
  std::vector<Message> out{scenario_lead(scenario)};
  const std::vector<Message> measured = measured_messages(scenario);
  if (measured.empty()) out.push_back(Message("claims.not_measured"));
  out.insert(out.end(), measured.begin(), measured.end());
  return out;
}

std::string english_text(const std::vector<Message>& messages) {
  std::string text;
  for (const Message& m : messages) text += (text.empty() ? "" : " ") + english(m);
  return text;
}

std::string measured_sentences(const Scenario& scenario) { return english_text(measured_messages(scenario)); }

std::string scenario_caption(const Scenario& scenario) {
  const Message headline = scenario_headline(scenario);
  const std::string details = english_text(scenario_details(scenario));
  return headline.key.empty() ? details : english(headline) + " " + details;
}

void write_scenario(JsonWriter& w, const Scenario& scenario) {
  const Message headline = scenario_headline(scenario);
  const std::vector<Message> details = scenario_details(scenario);
  w.begin_object().field("id", scenario.id).field("title", english(scenario_title(scenario)));
  w.field("headline", headline.key.empty() ? std::string() : english(headline)).field("details", english_text(details));
  w.field("settings", scenario.settings).key("counts").begin_array();  // the headline's counts, as numbers
  if (const MeasuredScenario* m = current_measurement(scenario)) {
    const double threshold = parse_exercise_settings(scenario.settings).threshold;
    for (const MeasuredVariant& v : m->variants) {
      int k = 0;
      for (const SeedOutcome& o : v.seeds) k += learned(o, threshold);
      w.begin_object().field("variant", v.variant).field("seeds", static_cast<int>(v.seeds.size()));
      w.field("learned", k).field("median_steps", median_steps(v.seeds, threshold)).end_object();
    }
  }
  w.end_array().key("messages").begin_object().key("title");
  write_message(w, scenario_title(scenario));
  w.key("headline");
  if (headline.key.empty()) w.null();
  else write_message(w, headline);
  w.key("details").begin_array();
  for (const Message& m : details) write_message(w, m);
  w.end_array().end_object().end_object();
}

}  // namespace sqrtdk
