#include "core/answer/mechanism_reading.hpp"

#include <algorithm>
#include <cmath>

#include "core/lesson/saturation.hpp"
#include "core/lesson/softmax_stats.hpp"  // even_row_jacobian_norm

namespace sqrtdk {
namespace {

double window_mean(const std::vector<float>& x, std::size_t from, std::size_t to) {
  double s = 0;
  for (std::size_t t = from; t < to; ++t) s += x[t];
  return to > from ? s / static_cast<double>(to - from) : kNaN;
}

// Steps of a run whose every mechanism curve and loss are finite (a diverged run ends early).
std::size_t usable_steps(const RunCurve& r) {
  const MechanismCurves& m = r.mechanism;
  std::size_t n = std::min({r.loss.size(), m.qk_grad.size(), m.qk_update.size(), m.spread.size()});
  if (m.jacobian.empty() || m.top_weight.size() != m.jacobian.size()) return 0;
  for (const std::vector<float>& layer : m.jacobian) n = std::min(n, layer.size());
  for (const std::vector<float>& layer : m.top_weight) n = std::min(n, layer.size());
  for (std::size_t t = 0; t < n; ++t)
    if (!std::isfinite(r.loss[t]) || !std::isfinite(m.qk_grad[t])) return t;
  return n;
}

}  // namespace

SmoothedPeak smoothed_peak(const std::vector<float>& curve, int window) {
  SmoothedPeak out;
  const std::vector<double> smooth = smoothed_loss(curve, window);
  for (std::size_t t = 0; t < smooth.size(); ++t)
    if (std::isfinite(smooth[t]) && (out.peak_step == 0 || smooth[t] > out.peak))  // a diverged step is no peak
      out.peak = smooth[t], out.peak_step = static_cast<int>(t) + 1;
  if (!smooth.empty()) out.final = smooth.back();
  return out;
}

namespace {

VariantMechanism measure(const VariantCurves& v, int window) {
  const std::size_t w = static_cast<std::size_t>(window);
  std::vector<double> eg, eu, ejm, es, lg, ls, drop, peak_step;
  std::vector<RunMechanism> per_run;
  std::vector<double> out_peak_spread, out_peak_spread_step;
  std::vector<std::vector<double>> ej, lj, st, lt;  // (layers, seeds)
  for (const RunCurve& r : v.runs) {
    const std::size_t n = usable_steps(r);
    if (!r.mechanism.given() || n < w) continue;
    const MechanismCurves& m = r.mechanism;
    eg.push_back(window_mean(m.qk_grad, 0, w));
    eu.push_back(window_mean(m.qk_update, 0, w));
    const std::size_t L = m.jacobian.size();
    for (auto* by_layer : {&ej, &lj, &st, &lt}) by_layer->resize(std::max(by_layer->size(), L));
    double mean_early = 0;
    for (std::size_t l = 0; l < L; ++l) {
      ej[l].push_back(window_mean(m.jacobian[l], 0, w));
      lj[l].push_back(window_mean(m.jacobian[l], n - w, n));
      mean_early += ej[l].back() / static_cast<double>(L);
      st[l].push_back(m.top_weight[l][0]);
      lt[l].push_back(window_mean(m.top_weight[l], n - w, n));
    }
    ejm.push_back(mean_early);
    es.push_back(window_mean(m.spread, 0, w));
    lg.push_back(window_mean(m.qk_grad, n - w, n));
    ls.push_back(window_mean(m.spread, n - w, n));
    const SmoothedPeak grad = smoothed_peak(std::vector<float>(m.qk_grad.begin(), m.qk_grad.begin() + n), window);
    drop.push_back(grad.final > 0 ? grad.ratio() : kNaN);
    peak_step.push_back(grad.peak_step);
    per_run.push_back({r.seed, drop.back(), peak_step.back(), lg.back()});
    const SmoothedPeak spread = smoothed_peak(std::vector<float>(m.spread.begin(), m.spread.begin() + n), window);
    out_peak_spread.push_back(spread.peak);
    out_peak_spread_step.push_back(spread.peak_step);
  }
  VariantMechanism out;
  out.runs = static_cast<int>(eg.size());
  if (out.runs == 0) return out;
  out.early_grad = median(eg), out.early_update = median(eu), out.early_jacobian_mean = median(ejm);
  out.early_spread = median(es);
  out.late_grad = median(lg), out.late_spread = median(ls);
  for (std::size_t l = 0; l < st.size(); ++l) {
    out.start_top.push_back(median(st[l]));
    out.late_top.push_back(median(lt[l]));
  }
  out.per_run = per_run;
  out.peak_spread = out_peak_spread, out.peak_spread_step = out_peak_spread_step;
  for (std::size_t l = 0; l < lj.size(); ++l) {
    const double late = median(lj[l]);
    out.early_jacobian_by_layer.push_back(median(ej[l]));
    out.late_jacobian_by_layer.push_back(late);
    if (l == 0 || late < out.late_jacobian) {
      out.jacobian_layer = static_cast<int>(l);
      out.late_jacobian = late;
      out.early_jacobian = median(ej[l]);
    }
  }
  out.drop = median(drop), out.peak_step = std::round(median(peak_step));
  return out;
}

// "8.1× larger" / "26 % smaller" / "3.2× smaller": how `x` compares with `ref`.  Less than halved is said as a
// percent ("1.35× smaller" reads as a puzzle); from half on, as the factor it shrank by.
Message relation(double x, double ref) {
  const double r = x / ref;
  if (r >= 1) return Message("mech.larger").with("times", times_arg(r));
  if (r > 0.5) return Message("mech.smaller.share").with("percent", Arg::value(100 * (1 - r)));
  return Message("mech.smaller").with("times", times_arg(1 / r));
}

Arg steps_arg(const VariantResult& v, int steps) { return variant_median_arg(v, steps); }

// The variant the "why" box is about: unscaled when it is there, else the first after the reference.
std::size_t subject_of(const std::vector<VariantCurves>& variants) {
  for (std::size_t i = 1; i < variants.size(); ++i)
    if (variants[i].name == "unscaled") return i;
  return 1;
}

// "saturated: at least 0.9" or "not saturated: below 0.9" for a mean top weight (saturation.hpp's one bar).
Message saturation_verdict(double top) {
  return Message(saturated(top) ? "mech.top.saturated" : "mech.top.not_saturated").with("bar", Arg::value(kSaturatedTopWeight));
}

// A variant's top weight per layer: "layer 1 0.997 · layer 2 0.81", each with its verdict when `judged`
// ("layer 1 0.997, saturated: at least 0.9").
Arg top_by_layer(const std::vector<double>& tops, bool judged) {
  std::vector<Arg> items;
  for (std::size_t l = 0; l < tops.size(); ++l) {
    Message item(judged ? "mech.top.layer" : "mech.layer_value");
    item.with("layer", Arg::count(static_cast<double>(l + 1))).with("value", Arg::value(tops[l]));
    if (judged) item.with("verdict", saturation_verdict(tops[l]));
    items.push_back(item);
  }
  return Arg::list("join.dot", items);
}

bool learns(const VariantResult& v) { return std::isfinite(v.median_steps_to_threshold); }

// "seeds 0, 1" for the runs of `v` that learned (or did not).
Message seeds_where(const VariantResult& v, bool learned_) {
  std::vector<Arg> seeds;
  for (const RunSummary& r : v.runs)
    if ((r.steps_to_threshold > 0) == learned_) seeds.push_back(Arg::count(static_cast<double>(r.seed)));
  Message m("mech.seeds");
  m.plural_by("n", static_cast<double>(seeds.size()));
  return m.with("list", Arg::list("join.comma", seeds));
}

// One seed's value as `one` writes it, or a group's range "between {low} and {high}"; the value alone when both
// ends read the same ("more than 1000×" twice is one "more than 1000×").
template <typename Write>
Arg range_arg(const std::vector<double>& xs, Write one) {
  const auto [low, high] = std::minmax_element(xs.begin(), xs.end());
  const Arg lo = one(*low), hi = one(*high);
  if (english(lo) == english(hi)) return lo;
  return Message("mech.range").with("low", lo).with("high", hi);
}

// A group's drop: one seed's "more than 1000×", or "120×–more than 1000×"; when both ends are beyond 1000×, "more than
// 1000× (up to more than 100000×)" rather than "between more than ... and more than ...".
Arg drops_arg(const std::vector<double>& drops) {
  const auto [low, high] = std::minmax_element(drops.begin(), drops.end());
  const Message lo = times_arg(*low), hi = times_arg(*high);
  if (lo.key == "mech.times_over" && hi.key == "mech.times_over" && english(lo) != english(hi))
    return Message("mech.range_over").with("low", lo).with("high", hi);
  return range_arg(drops, times_arg);
}

// "step 36", or a group's "steps 30–46".
Message peak_steps_arg(const std::vector<double>& steps) {
  const auto [low, high] = std::minmax_element(steps.begin(), steps.end());
  if (*low == *high) return Message("mech.at_step").with("step", Arg::count(*low));
  return Message("mech.steps_range").with("low", Arg::count(*low)).with("high", Arg::count(*high));
}

// "unscaled 0.146 (layer 2)": a variant's |J|_F in a layer (0-based `layer`).
Message jacobian_item(const VariantResult& r, int layer, double value) {
  return Message("mech.item.layer").with("label", variant_label_arg(r)).with("value", Arg::value(value))
      .with("layer", Arg::count(layer + 1));
}

// A per-layer median of `v` in `layer`, or NaN when v has no such layer.
double in_layer(const std::vector<double>& by_layer, int layer) {
  return layer < static_cast<int>(by_layer.size()) ? by_layer[static_cast<std::size_t>(layer)] : kNaN;
}

void qk_sentences(MechanismReading& out, const std::vector<VariantCurves>& vs, const Answer& a, const MechanismSetting& s) {
  const VariantMechanism& ref = out.variants[0];
  const Arg window = Arg::count(a.defs.window);
  for (std::size_t i = 1; i < vs.size(); ++i) {
    const VariantMechanism& v = out.variants[i];
    if (v.runs == 0 || ref.runs == 0) continue;
    out.qk.push_back(Message("mech.qk.start").with("window", window).with("label", variant_label_arg(a.variants[i]))
                         .with("ref", variant_label_arg(a.variants[0])).with("grad", Arg::value(v.early_grad))
                         .with("refGrad", Arg::value(ref.early_grad)).with("relation", relation(v.early_grad, ref.early_grad)));
    if (vs[i].name == "unscaled" && vs[0].name == "scaled") {
      // Larger: by the scale's factor, less what the sharper softmax takes back (if it is sharper at all).  |J|_F
      // in unscaled's layer whose |J|_F ends smallest (as the Jacobian chart's sentence names it), and scaled's in
      // the same layer: one layer compared with itself.
      const int layer = v.jacobian_layer;
      const double ref_jacobian = in_layer(ref.early_jacobian_by_layer, layer);
      out.qk.push_back(Message(v.early_grad < ref.early_grad            ? "mech.qk.smaller_why"
                               : v.early_jacobian < ref_jacobian ? "mech.qk.larger_why"
                                                                  : "mech.qk.larger_why_not_sharper")
                           .with("root", Arg::value(std::sqrt(static_cast<double>(s.dk))))
                           .with("window", window)
                           .with("jacobians", Arg::list("join.dot", {jacobian_item(a.variants[i], layer, v.early_jacobian),
                                                                     jacobian_item(a.variants[0], layer, ref_jacobian)})));
    }
  }
  if (!a.ready) return;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const VariantMechanism& v = out.variants[i];
    const VariantResult& r = a.variants[i];
    // The seeds in three groups: the loss ended below the threshold; above it with the q/k gradient dead; above
    // it with the gradient not dead.  One sentence per group that has seeds, naming them.
    const char* keys[] = {"mech.qk.done", "mech.qk.died", "mech.qk.alive"};
    std::vector<const RunMechanism*> groups[3];
    std::vector<double> losses[3];
    for (const RunMechanism& run : v.per_run) {
      const auto summary = std::find_if(r.runs.begin(), r.runs.end(), [&](const RunSummary& rs) { return rs.seed == run.seed; });
      if (summary == r.runs.end() || !std::isfinite(run.drop) || !std::isfinite(summary->final_loss)) continue;
      const int g = summary->final_loss < a.threshold ? 0 : run.drop >= kDeadDrop ? 1 : 2;
      groups[g].push_back(&run);
      losses[g].push_back(summary->final_loss);
    }
    for (int g = 0; g < 3; ++g) {
      if (groups[g].empty()) continue;
      std::vector<double> drops, peaks, grads;
      std::vector<Arg> seeds;
      for (const RunMechanism* run : groups[g]) {
        drops.push_back(run->drop), peaks.push_back(run->peak_step), grads.push_back(run->late_grad);
        seeds.push_back(Arg::count(static_cast<double>(run->seed)));
      }
      // Several seeds are one sentence of their ranges (a seed's smallest and largest value), never of their
      // medians: the median of two seeds is a value neither had.
      Message seed_list("mech.group");
      seed_list.plural_by("n", static_cast<double>(seeds.size())).with("list", Arg::list("join.comma", seeds));
      out.qk.push_back(Message(keys[g]).with("label", variant_label_arg(r)).with("seeds", seed_list)
                           .with("drop", drops_arg(drops)).with("peak", peak_steps_arg(peaks))
                           .with("loss", range_arg(losses[g], Arg::value)).with("grad", range_arg(grads, Arg::value))
                           .with("threshold", Arg::value(a.threshold)).with("deadDrop", Arg::value(kDeadDrop)));
    }
  }
}

void jacobian_sentences(MechanismReading& out, const Answer& a, const MechanismSetting& s) {
  // Every variant read in one layer, compared with itself: the layer where the smallest final |J|_F of any
  // variant is (unscaled's, as a rule).
  std::size_t lowest = out.variants.size();
  for (std::size_t i = 0; i < out.variants.size(); ++i)
    if (out.variants[i].runs > 0 && (lowest == out.variants.size() || out.variants[i].late_jacobian < out.variants[lowest].late_jacobian))
      lowest = i;
  if (lowest == out.variants.size()) return;
  const int layer = out.variants[lowest].jacobian_layer;
  std::vector<Arg> early, late;
  for (std::size_t i = 0; i < out.variants.size(); ++i) {
    const VariantMechanism& v = out.variants[i];
    if (v.runs == 0) continue;
    const Arg label = variant_label_arg(a.variants[i]);
    early.push_back(Message("mech.item").with("label", label).with("value", Arg::value(in_layer(v.early_jacobian_by_layer, layer))));
    late.push_back(Message("mech.item").with("label", label).with("value", Arg::value(in_layer(v.late_jacobian_by_layer, layer))));
    out.jacobian.push_back(Message("mech.top").with("label", label).with("start", top_by_layer(v.start_top, true))
                               .with("end", top_by_layer(v.late_top, true)).with("window", Arg::count(a.defs.window)));
  }
  if (early.empty()) return;
  out.jacobian.insert(out.jacobian.begin(),
                      Message("mech.jacobian").with("window", Arg::count(a.defs.window)).with("early", Arg::list("join.dot", early))
                          .with("layer", Arg::count(layer + 1)).with("lowest", variant_label_arg(a.variants[lowest]))
                          .with("late", Arg::list("join.dot", late)).with("keys", Arg::count(s.keys))
                          .with("uniform", Arg::value(even_row_jacobian_norm(s.keys))));
}

void spread_sentences(MechanismReading& out, const Answer& a) {
  std::vector<Arg> early, late;
  for (std::size_t i = 0; i < out.variants.size(); ++i) {
    const VariantMechanism& v = out.variants[i];
    if (v.runs == 0) continue;
    const Arg label = variant_label_arg(a.variants[i]);
    early.push_back(Message("mech.item").with("label", label).with("value", Arg::value(v.early_spread)));
    late.push_back(Message("mech.item").with("label", label).with("value", Arg::value(v.late_spread)));
  }
  if (early.empty()) return;
  out.spread.push_back(Message("mech.spread").with("window", Arg::count(a.defs.window))
                           .with("early", Arg::list("join.dot", early)).with("late", Arg::list("join.dot", late)));
}

// SGD's failure, said together (at the start and at the end, not which caused which) only when each part was
// measured: no seed learned, the logit spread grew from the first window to the last, the layer read saturated at
// the end but no layer at step 1, and the q/k gradient ended at least kDeadDrop below its peak.
bool sgd_chain(const VariantMechanism& v, const VariantResult& r) {
  if (r.runs_reaching != 0 || !(v.late_spread > v.early_spread) || !(v.drop >= kDeadDrop)) return false;
  const std::size_t layer = static_cast<std::size_t>(v.jacobian_layer);  // 0-based, never negative
  if (layer >= v.late_top.size() || !saturated(v.late_top[layer]) || v.start_top.empty()) return false;
  return std::none_of(v.start_top.begin(), v.start_top.end(), [](double top) { return saturated(top); });
}

void why_box(MechanismReading& out, const std::vector<VariantCurves>& vs, const Answer& a, const MechanismSetting& s) {
  if (!a.ready || vs.size() < 2) return;
  if (!learns(a.variants[0])) return;  // the reference did not learn either: nothing for the mechanism to explain
  std::size_t qknorm = 0;
  for (std::size_t k = 1; k < vs.size(); ++k)
    if (vs[k].name == "qknorm") qknorm = k;
  const std::size_t i = qknorm ? qknorm : subject_of(vs);
  const VariantMechanism& v = out.variants[i];
  const VariantMechanism& ref = out.variants[0];
  if (v.runs == 0 || ref.runs == 0) return;
  const VariantResult& r = a.variants[i];
  const std::string reason = qknorm ? "qknorm"
                             : s.init == InitScheme::gpt ? "gpt"
                             : s.optimizer == Optimizer::adam ? "adam" : "sgd";
  const Arg label = variant_label_arg(r), ref_label = variant_label_arg(a.variants[0]);
  const Arg window = Arg::count(a.defs.window), bar = Arg::value(kSaturatedTopWeight);
  out.why_title = Message("mech.why.title." + reason).with("label", label).with("ref", ref_label);
  Message body("mech.why." + reason);
  body.with("label", label).with("ref", ref_label).with("window", window).with("bar", bar)
      .with("grad", relation(v.early_grad, ref.early_grad)).with("update", relation(v.early_update, ref.early_update))
      .with("lr", Arg::value(s.lr)).with("spread", Arg::value(v.early_spread)).with("spreadEnd", Arg::value(v.late_spread))
      .with("refSpread", Arg::value(ref.early_spread)).with("startTop", top_by_layer(v.start_top, false))
      .with("refStartTop", top_by_layer(ref.start_top, false))
      .with("jacobian", Arg::value(v.early_jacobian)).with("jacobianEnd", Arg::value(v.late_jacobian))
      .with("layer", Arg::count(v.jacobian_layer + 1))
      .with("refJacobianEnd", Arg::value(in_layer(ref.late_jacobian_by_layer, v.jacobian_layer)))  // the same layer
      .with("drop", times_arg(v.drop)).with("topEnd", top_by_layer(v.late_top, true));
  if (!v.peak_spread.empty()) {
    std::vector<double> grad_peaks;
    for (const RunMechanism& run : v.per_run) grad_peaks.push_back(run.peak_step);
    body.with("peakSpread", range_arg(v.peak_spread, Arg::value)).with("peakStep", peak_steps_arg(v.peak_spread_step))
        .with("gradPeak", peak_steps_arg(grad_peaks));
  }
  if (qknorm) {  // beside the variant QK-norm fixes: unscaled when it ran, else the reference
    const std::size_t o = subject_of(vs) != qknorm ? subject_of(vs) : 0;
    body.with("other", variant_label_arg(a.variants[o])).with("otherSpread", Arg::value(out.variants[o].early_spread))
        .with("otherSpreadEnd", Arg::value(out.variants[o].late_spread));
  }
  out.why.push_back(body);
  if (reason == "sgd" && sgd_chain(v, r)) {  // large logits, saturation and the dying gradient, said together
    out.why.push_back(Message("mech.why.sgd.chain").with("label", label).with("ref", ref_label).with("window", window)
                          .with("refStartTop", top_by_layer(ref.start_top, false))
                          .with("spread", Arg::value(v.early_spread)).with("spreadEnd", Arg::value(v.late_spread))
                          .with("layer", Arg::count(v.jacobian_layer + 1))
                          .with("jacobianEnd", Arg::value(v.late_jacobian)).with("drop", times_arg(v.drop))
                          .with("threshold", Arg::value(a.threshold)).with("startTop", top_by_layer(v.start_top, false)));
  }
  const bool unscaled_vs_scaled = vs[i].name == "unscaled" && vs[0].name == "scaled";
  if (reason == "adam" && unscaled_vs_scaled)  // the same weight step, √d_k times the logit step
    out.why.push_back(Message("mech.why.adam.logits").with("label", label).with("ref", ref_label).with("window", window)
                          .with("root", Arg::value(std::sqrt(static_cast<double>(s.dk))))
                          .with("spread", Arg::value(v.early_spread)).with("refSpread", Arg::value(ref.early_spread))
                          .with("spreadTimes", times_arg(v.early_spread / ref.early_spread)));
  if (reason != "sgd") {  // SGD's box reads the late window in its own order
    out.why.push_back(Message("mech.why.late").with("label", label).with("ref", ref_label).with("window", window)
                          .with("bar", bar).with("spreadEnd", Arg::value(v.late_spread))
                          .with("refSpreadEnd", Arg::value(ref.late_spread)).with("topEnd", top_by_layer(v.late_top, false))
                          .with("refTopEnd", top_by_layer(ref.late_top, false)));
  }
  const int seeds = static_cast<int>(r.runs.size());
  const char* outcome = r.runs_reaching == seeds ? "mech.why.learned.all"
                        : r.runs_reaching > 0    ? "mech.why.learned.some"
                                                 : "mech.why.learned.none";
  out.why.push_back(Message(outcome).with("label", label).with("ref", ref_label).with("seeds", Arg::count(seeds))
                        .with("learned", Arg::count(r.runs_reaching)).with("learnedSeeds", seeds_where(r, true))
                        .with("missedSeeds", seeds_where(r, false)).with("threshold", Arg::value(a.threshold))
                        .with("steps", steps_arg(r, a.steps)).with("refSteps", steps_arg(a.variants[0], a.steps))
                        .with("loss", Arg::value(r.median_final_loss)).with("budget", Arg::count(a.steps)));
}

}  // namespace

Message times_arg(double r) {
  if (!(r >= 1000) || std::isinf(r)) return Message("times.short").with("ratio", Arg::value(r));
  double power = 1000;
  while (power * 10 <= r) power *= 10;  // exact, where a C library's log10 may not be
  return Message("mech.times_over").with("power", Arg::count(power));
}

MechanismReading read_mechanism(const std::vector<VariantCurves>& variants, const Answer& answer,
                                const MechanismSetting& setting) {
  MechanismReading out;
  out.setting = setting;
  for (const VariantCurves& v : variants)
    for (const RunCurve& r : v.runs) out.given = out.given || r.mechanism.given();
  if (!out.given || variants.size() != answer.variants.size()) return out;
  for (const VariantCurves& v : variants) out.variants.push_back(measure(v, answer.defs.window));
  qk_sentences(out, variants, answer, setting);
  jacobian_sentences(out, answer, setting);
  spread_sentences(out, answer);
  why_box(out, variants, answer, setting);
  return out;
}

std::string mechanism_text(const MechanismReading& reading) {
  std::string text;
  const auto paragraph = [&](const char* title, const std::vector<Message>& ms) {
    if (ms.empty()) return;
    text += title;
    for (const Message& m : ms) text += " " + english(m);
    text += "\n";
  };
  paragraph("q/k gradient:", reading.qk);
  paragraph("softmax Jacobian:", reading.jacobian);
  paragraph("logit spread:", reading.spread);
  if (!reading.why_title.key.empty()) paragraph((english(reading.why_title)).c_str(), reading.why);
  return text;
}

}  // namespace sqrtdk
