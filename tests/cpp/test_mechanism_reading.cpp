// The mechanism readings: which sentence each chart and the "why" box get, and that their numbers are the
// curves' (synthetic curves with known windows, so each branch is pinned).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>

#include "core/answer/analysis.hpp"
#include "core/answer/mechanism.hpp"
#include "core/answer/mechanism_reading.hpp"
#include "core/train/trainer.hpp"
#include "core/text/phrasebook.hpp"
#include "core/text/json.hpp"

using namespace sqrtdk;

namespace {

// A run of `n` steps whose loss goes from 2.3 to `end` and whose q/k gradient goes from `g0` to `g1`
// (geometrically, so the last window's mean is close to the end value).
RunCurve run(int n, double end, double g0, double g1, double top, uint64_t seed) {
  RunCurve r;
  r.seed = seed;
  for (int t = 0; t < n; ++t) {
    const double f = static_cast<double>(t) / (n - 1);
    r.loss.push_back(static_cast<float>(2.3 * std::pow(end / 2.3, f)));
    r.mechanism.qk_grad.push_back(static_cast<float>(g0 * std::pow(g1 / g0, f)));
    r.mechanism.qk_update.push_back(0.01f);
    r.mechanism.jacobian.resize(2);
    r.mechanism.jacobian[0].push_back(static_cast<float>(0.3 * (1 - top)));
    r.mechanism.jacobian[1].push_back(static_cast<float>(0.2));
    r.mechanism.spread.push_back(static_cast<float>(1 + 10 * top));
    r.mechanism.top_weight.resize(2);
    r.mechanism.top_weight[0].push_back(static_cast<float>(top));
    r.mechanism.top_weight[1].push_back(static_cast<float>(0.5));
  }
  return r;
}

bool has_key(const std::vector<Message>& ms, const std::string& key) {
  for (const Message& m : ms)
    if (m.key == key) return true;
  return false;
}

std::vector<VariantCurves> exercise(double unscaled_end, double unscaled_g1, double unscaled_g0 = 0.8,
                                    double unscaled_top = 0.95) {
  VariantCurves scaled{"scaled", "scaled", {}, variant_label_message(ScaleMode::scaled, 0.5)};
  VariantCurves unscaled{"unscaled", "unscaled", {}, variant_label_message(ScaleMode::unscaled, 0.5)};
  for (uint64_t s = 0; s < 3; ++s) {
    scaled.runs.push_back(run(200, 0.001, 0.2, 0.001, 0.4, s));
    unscaled.runs.push_back(run(200, unscaled_end, unscaled_g0, unscaled_g1, unscaled_top, s));
  }
  return {scaled, unscaled};
}

// SGD's failure as the runs show it: the logits grow during training (spread 2 -> 2000), layer 1's rows go from
// a top weight of 0.5 (not saturated) to 0.999 (saturated), its |J|_F with them.
void logits_grow(RunCurve& r) {
  const int n = static_cast<int>(r.loss.size());
  for (int t = 0; t < n; ++t) {
    const double f = static_cast<double>(t) / (n - 1);
    const double top = 0.5 + 0.499 * f;
    r.mechanism.top_weight[0][t] = static_cast<float>(top);
    r.mechanism.jacobian[0][t] = static_cast<float>(0.3 * (1 - top));
    r.mechanism.spread[t] = static_cast<float>(2 * std::pow(1000.0, f));
  }
}

}  // namespace

TEST_CASE("SGD's box says large logits, saturation and the dying gradient together only when each was measured",
          "[mechanism]") {
  MechanismSetting s;
  s.optimizer = Optimizer::sgd;
  std::vector<VariantCurves> vs = exercise(2.2, 0.01);  // stuck, q/k gradient 80x below its peak
  for (RunCurve& r : vs[1].runs) logits_grow(r);
  const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), s);
  std::string chain;
  for (const Message& m : r.why)
    if (m.key == "mech.why.sgd.chain") chain = english(Arg(m));
  INFO(chain);
  CHECK(chain.rfind("Measured at the start and at the end (not when each happened): unscaled's logits grew (logit spread ", 0) == 0);
  CHECK(chain.find("at the end layer 1's softmax was saturated, with its |J|_F at ") != std::string::npos);
  CHECK(chain.find("at step 1 no layer was saturated (layer 1 0.5 · layer 2 0.5; scaled 1/√d_k: layer 1 0.4 · layer 2 0.5)") != std::string::npos);
  CHECK(chain.find("they do not isolate which caused which.") != std::string::npos);  // read together, not as a cause
  // Saturated from step 1 (top weight 0.95 throughout): no chain; nor under Adam; nor when a seed learned.
  CHECK_FALSE(has_key(read_mechanism(exercise(2.2, 0.01), compare_runs(exercise(2.2, 0.01), 0.1, 200), s).why, "mech.why.sgd.chain"));
  CHECK_FALSE(has_key(read_mechanism(vs, compare_runs(vs, 0.1, 200), MechanismSetting{}).why, "mech.why.sgd.chain"));
  vs[1].runs[0] = run(200, 0.001, 0.8, 0.001, 0.95, 0);
  CHECK_FALSE(has_key(read_mechanism(vs, compare_runs(vs, 0.1, 200), s).why, "mech.why.sgd.chain"));
}

TEST_CASE("a gradient that fell while the loss is still high is read as dead, and SGD's box says stuck", "[mechanism]") {
  const std::vector<VariantCurves> vs = exercise(2.2, 0.01);
  const Answer a = compare_runs(vs, 0.1, 200);
  MechanismSetting s;
  s.optimizer = Optimizer::sgd;
  const MechanismReading r = read_mechanism(vs, a, s);
  REQUIRE(r.given);
  CHECK(has_key(r.qk, "mech.qk.start"));
  CHECK(has_key(r.qk, "mech.qk.larger_why"));  // 0.8 vs 0.2 at the start, |J|_F 0.1075 vs 0.19
  CHECK(has_key(r.qk, "mech.qk.done"));        // scaled: its loss fell below the threshold
  CHECK(has_key(r.qk, "mech.qk.died"));        // unscaled: fell 0.8 -> 0.01 with the loss at 2.2
  CHECK(has_key(r.jacobian, "mech.top"));
  CHECK(r.why_title.key == "mech.why.title.sgd");
  CHECK(has_key(r.why, "mech.why.learned.none"));
  REQUIRE(r.variants[1].start_top.size() == 2);  // per layer: layer 1 saturated, layer 2 not
  CHECK(r.variants[1].start_top[0] == Approx(0.95));
  CHECK(r.variants[1].start_top[1] == Approx(0.5));
  CHECK(r.variants[1].late_top[0] == Approx(0.95));
  CHECK(r.variants[1].jacobian_layer == 0);  // 0.015 < 0.2: the first layer is the saturated one
  CHECK(r.variants[1].late_jacobian == Approx(0.015));
  CHECK(r.variants[1].early_jacobian_mean == Approx(0.1075));
  CHECK(r.variants[1].drop > kDeadDrop);
  const std::string text = mechanism_text(r);
  CHECK(text.find('{') == std::string::npos);  // every argument of every template is given
  // The top weight per layer, never a mean over layers that would hide the saturated one.
  CHECK(text.find("over the last 20 steps (layer 1 0.95, saturated: at least 0.9 · layer 2 0.5, not saturated: below "
                  "0.9)") != std::string::npos);
  CHECK(text.find("mean top weight") == std::string::npos);
  // SGD's box says what was measured, in order: the start, the peaks, the last window, the gradient's fall.
  const std::string box = english(Arg(r.why.at(0)));
  INFO(box);
  const std::size_t start = box.find("in steps 1–20 its q/k gradient was 4.16× larger"),
                    peak = box.find("its q/k gradient peaked at step 1"),
                    largest = box.find("its logit spread reached its largest, 10.5, at step 1"),
                    late = box.find("over the last 20 steps its spread was 10.5, its top weight (layer 1 0.95, saturated"),
                    fell = box.find("ended 64.4× below its peak");
  CHECK(start < peak);
  CHECK(peak < largest);
  CHECK(largest < late);
  CHECK(late < fell);
  CHECK(fell != std::string::npos);
}

TEST_CASE("Adam's box says what the same weight step does to unscaled's logits, with the spread measured", "[mechanism]") {
  const std::vector<VariantCurves> vs = exercise(0.01, 0.01);
  MechanismSetting adam;
  adam.dk = 64;
  const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), adam);
  REQUIRE(has_key(r.why, "mech.why.adam.logits"));
  const std::string text = mechanism_text(r);
  INFO(text);
  // spread 1 + 10 top: unscaled 10.5, scaled 5 (the curves), so 2.1x: read from the runs, not √d_k's 8.
  CHECK(text.find("moves its logits 8× as far as the same change moves scaled 1/√d_k's. Measured in steps 1–20 (median "
                  "over seeds): unscaled's logit spread is 10.5, 2.1× scaled 1/√d_k's 5 (at step 1 both start from the same "
                  "weights, so there the ratio is exactly 8).") != std::string::npos);
}

TEST_CASE("under Adam a variant that learned gets Adam's box, and one that stays high with a live gradient is not called dead",
          "[mechanism]") {
  MechanismSetting adam;
  const std::vector<VariantCurves> learned = exercise(0.01, 0.01);
  const MechanismReading r = read_mechanism(learned, compare_runs(learned, 0.1, 200), adam);
  CHECK(r.why_title.key == "mech.why.title.adam");
  CHECK(has_key(r.why, "mech.why.learned.all"));
  CHECK_FALSE(has_key(r.qk, "mech.qk.died"));
  CHECK(mechanism_text(r).find('{') == std::string::npos);

  // Falling to the last step (no stall): slow, not failed.
  const std::vector<VariantCurves> slow = exercise(0.5, 0.5);
  const MechanismReading s = read_mechanism(slow, compare_runs(slow, 0.1, 200), adam);
  CHECK(s.why_title.key == "mech.why.title.adam");
  CHECK(has_key(s.qk, "mech.qk.alive"));  // fell only 1.6x
  CHECK(mechanism_text(s).find('{') == std::string::npos);

  // Flat at 2.2 for the whole run: stalled to the end, so failed.
  std::vector<VariantCurves> flat = exercise(2.2, 0.01);
  for (RunCurve& run : flat[1].runs) std::fill(run.loss.begin(), run.loss.end(), 2.2f);
  MechanismSetting sgd;
  sgd.optimizer = Optimizer::sgd;
  const MechanismReading f = read_mechanism(flat, compare_runs(flat, 0.1, 200), sgd);
  CHECK(f.why_title.key == "mech.why.title.sgd");
  CHECK(mechanism_text(f).find('{') == std::string::npos);
}

TEST_CASE("seeds that behave differently get their own sentences, by name: a median hides none of them", "[mechanism]") {
  // unscaled: seeds 0 and 1 learn, seed 2 stays at 2.2 with its q/k gradient down 800x (dead).
  std::vector<VariantCurves> vs = exercise(0.01, 0.01);
  vs[1].runs[2] = run(200, 2.2, 0.8, 0.001, 0.95, 2);
  std::fill(vs[1].runs[2].loss.begin(), vs[1].runs[2].loss.end(), 2.2f);
  const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), MechanismSetting{});
  std::vector<std::string> unscaled;
  for (const Message& m : r.qk)
    if (english(Arg(m)).rfind("unscaled, ", 0) == 0) unscaled.push_back(english(Arg(m)));
  REQUIRE(unscaled.size() == 2);
  CHECK(unscaled[0].rfind("unscaled, seeds 0, 1: ", 0) == 0);
  CHECK(unscaled[0].find("below 0.1") != std::string::npos);
  CHECK(unscaled[0].find("median") == std::string::npos);  // a group is its seeds' values, not their medians'
  CHECK(unscaled[1].find("800×") == std::string::npos);
  CHECK(unscaled[1].rfind("unscaled, seed 2: ", 0) == 0);
  CHECK(unscaled[1].find("the lesson's dying gradient") != std::string::npos);
  // The box counts them the same way: 2 of 3, by name, and says no "still learns".
  REQUIRE(has_key(r.why, "mech.why.learned.some"));
  const std::string box = english(Arg(r.why_title)) + " " + mechanism_text(r);
  CHECK(box.find("unscaled learned on 2 of 3 seeds (seeds 0, 1;") != std::string::npos);
  CHECK(box.find("on seed 2 its loss ended above 0.1") != std::string::npos);
  for (const char* verdict : {"still learn", "a small gradient", "learns later", "sharp softmax passes"}) {
    INFO(verdict);
    CHECK(box.find(verdict) == std::string::npos);
  }
}

TEST_CASE("a why box per reason: GPT init reads the small initial logits, QK-norm its bounded logits", "[mechanism]") {
  MechanismSetting gpt;
  gpt.init = InitScheme::gpt;
  const std::vector<VariantCurves> vs = exercise(0.01, 0.01, 0.8, 0.2);
  const MechanismReading g = read_mechanism(vs, compare_runs(vs, 0.1, 200), gpt);
  CHECK(g.why_title.key == "mech.why.title.gpt");
  CHECK(has_key(g.why, "mech.why.gpt"));
  CHECK(mechanism_text(g).find("passes a direction") == std::string::npos);

  std::vector<VariantCurves> with_qknorm = exercise(0.01, 0.01);
  VariantCurves qknorm{"qknorm", "QK-norm", {}, variant_label_message(ScaleMode::qknorm, 0.5)};
  for (uint64_t s = 0; s < 3; ++s) qknorm.runs.push_back(run(200, 0.001, 0.2, 0.001, 0.5, s));
  with_qknorm.push_back(qknorm);
  const MechanismReading q = read_mechanism(with_qknorm, compare_runs(with_qknorm, 0.1, 200), MechanismSetting{});
  CHECK(q.why_title.key == "mech.why.title.qknorm");
  REQUIRE(has_key(q.why, "mech.why.qknorm"));
  const std::string text = mechanism_text(q);
  CHECK(text.find("QK-norm learned on all 3 seeds") != std::string::npos);  // about QK-norm, not unscaled
  CHECK(text.find("(unscaled: ") != std::string::npos);                    // beside the variant it fixes
}

TEST_CASE("saturated has one definition and names its window: step 1 reads the same under Adam and SGD",
          "[mechanism]") {
  // The canonical model, unscaled and scaled, seed 0, 20 steps with each optimizer: the same weights at step 1.
  std::vector<std::string> sentences;
  for (Optimizer optimizer : {Optimizer::adam, Optimizer::sgd}) {
    std::vector<VariantCurves> vs;
    for (ScaleMode scale : {ScaleMode::scaled, ScaleMode::unscaled}) {
      TrainConfig c;
      c.model.scale = scale;
      c.optim.optimizer = optimizer;
      if (optimizer == Optimizer::sgd) c.optim.lr = 0.1;
      Trainer trainer(c);
      const TrainLog log = trainer.run(20);
      RunCurve r;
      r.loss = log.loss;
      r.mechanism = mechanism_curves(log);
      VariantCurves v{to_string(scale), "", {r}, variant_label_message(scale, 0.5)};
      vs.push_back(v);
    }
    const MechanismReading reading = read_mechanism(vs, compare_runs(vs, 0.1, 20), mechanism_setting(TrainConfig{}));
    for (const Message& m : reading.jacobian)
      if (m.key == "mech.top") sentences.push_back(english(Arg(m)));
  }
  REQUIRE(sentences.size() == 4);
  for (const std::string& s : sentences) {
    CAPTURE(s);
    CHECK(s.find("at step 1, before any update (") != std::string::npos);  // the window, in the sentence
    CHECK(s.find("over the last 20 steps (") != std::string::npos);
  }
  // "unscaled's ... {start} at step 1 (verdict)": the same words under both optimizers.
  const auto start_part = [](const std::string& s) { return s.substr(0, s.find(");")); };
  CHECK(start_part(sentences[1]) == start_part(sentences[3]));
  CHECK(start_part(sentences[0]) == start_part(sentences[2]));
}

TEST_CASE("no mechanism curves: no readings, and fewer steps than a window: no numbers yet", "[mechanism]") {
  std::vector<VariantCurves> vs = exercise(2.2, 0.01);
  for (VariantCurves& v : vs)
    for (RunCurve& r : v.runs) r.mechanism = {};
  CHECK_FALSE(read_mechanism(vs, compare_runs(vs, 0.1, 200), {}).given);
  std::vector<VariantCurves> short_runs = exercise(2.2, 0.01);
  for (VariantCurves& v : short_runs)
    for (RunCurve& r : v.runs) {
      r.loss.resize(5);
      r.stopped = false;
    }
  const MechanismReading r = read_mechanism(short_runs, compare_runs(short_runs, 0.1, 200), {});
  CHECK(r.qk.empty());
  CHECK(r.why_title.key.empty());
}

TEST_CASE("a group of seeds reads as the range of its seeds' values, a ratio of 1000 or more as its power of ten",
          "[mechanism]") {
  // unscaled: seeds 0, 1 and 2 learn; seed 1's q/k gradient falls 8000x, the others' 80x; seed 2's peaks at the end.
  std::vector<VariantCurves> vs = exercise(0.01, 0.01);
  vs[1].runs[1] = run(200, 0.01, 0.8, 0.0001, 0.95, 1);
  vs[1].runs[2] = run(200, 0.01, 0.001, 0.8, 0.95, 2);
  const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), MechanismSetting{});
  std::string sentence;
  for (const Message& m : r.qk)
    if (english(Arg(m)).rfind("unscaled, ", 0) == 0) sentence = english(Arg(m));
  INFO(sentence);
  CHECK(sentence.rfind("unscaled, seeds 0, 1, 2: the q/k gradient ended between ", 0) == 0);
  CHECK(sentence.find(" and more than 1000× below its own peak (reached at steps 1–200), with the final smoothed loss ") != std::string::npos);
  // Two seeds whose drops both read "more than 1000×" read it once.
  vs[1].runs[0] = run(200, 0.01, 0.8, 0.0002, 0.95, 0);
  vs[1].runs[2] = run(200, 0.01, 0.8, 0.0001, 0.95, 2);
  std::string both;
  for (const Message& m : read_mechanism(vs, compare_runs(vs, 0.1, 200), MechanismSetting{}).qk)
    if (english(Arg(m)).rfind("unscaled, ", 0) == 0) both = english(Arg(m));
  INFO(both);
  CHECK(both.rfind("unscaled, seeds 0, 1, 2: the q/k gradient ended more than 1000× below its own peak (reached at step 1), ", 0) == 0);
  // Both ends beyond 1000x but apart: the lower bound that holds for every seed, then the highest.
  vs[1].runs[2] = run(200, 0.01, 0.8, 0.00001, 0.95, 2);
  std::string apart;
  for (const Message& m : read_mechanism(vs, compare_runs(vs, 0.1, 200), MechanismSetting{}).qk)
    if (english(Arg(m)).rfind("unscaled, ", 0) == 0) apart = english(Arg(m));
  INFO(apart);
  CHECK(apart.rfind("unscaled, seeds 0, 1, 2: the q/k gradient ended more than 1000× (up to more than 10000×) below its "
                    "own peak", 0) == 0);
  CHECK(english(Arg(times_arg(93786))) == "more than 10000×");
  CHECK(english(Arg(times_arg(999.4))) == "999×");
  CHECK(english(Arg(times_arg(6.094))) == "6.09×");
}

TEST_CASE("the readings of every kind use every mech.* template of the phrasebook, with every argument given",
          "[mechanism][phrasebook]") {
  std::set<std::string> used;
  std::function<void(const Arg&)> collect = [&](const Arg& arg) {
    if (arg.kind == Arg::Kind::message) {
      used.insert(english_key(*arg.message));
      for (const auto& named : arg.message->args) collect(named.second);
    }
    for (const Arg& item : arg.items) collect(item);
  };
  for (Optimizer optimizer : {Optimizer::adam, Optimizer::sgd}) {
    MechanismSetting setting;
    setting.optimizer = optimizer;
    // learns (gradient larger at first, softmax sharper); slow (smaller); stuck; learns with a softmax no sharper
    std::vector<std::vector<VariantCurves>> kinds = {exercise(0.01, 0.01), exercise(0.5, 0.08, 0.1), exercise(2.2, 0.001),
                                                     exercise(0.01, 0.01, 0.8, 0.2)};
    for (RunCurve& run : kinds[2][1].runs) std::fill(run.loss.begin(), run.loss.end(), 2.2f);  // stuck from the start
    // a gradient a little below scaled's ("… % smaller") and one far below it ("…× smaller")
    kinds.push_back(exercise(0.5, 0.08, 0.15));
    kinds.push_back(exercise(0.5, 0.01, 0.05));
    // seeds that differ: two learn, one stays high
    kinds.push_back(exercise(0.01, 0.01));
    kinds.back()[1].runs[2] = run(200, 2.2, 0.8, 0.001, 0.95, 2);
    std::fill(kinds.back()[1].runs[2].loss.begin(), kinds.back()[1].runs[2].loss.end(), 2.2f);
    // seeds that learn with different peaks and drops: a range
    kinds.push_back(exercise(0.01, 0.01));
    kinds.back()[1].runs[2] = run(200, 0.01, 0.001, 0.8, 0.95, 2);
    kinds.back()[1].runs[1] = run(200, 0.01, 0.8, 0.0001, 0.95, 1);
    // ... and drops all beyond 1000x, not all past the same power of ten
    kinds.push_back(exercise(0.01, 0.01));
    kinds.back()[1].runs[0] = run(200, 0.01, 0.8, 0.0002, 0.95, 0);
    kinds.back()[1].runs[1] = run(200, 0.01, 0.8, 0.0001, 0.95, 1);
    kinds.back()[1].runs[2] = run(200, 0.01, 0.8, 0.00001, 0.95, 2);
    // stuck while the logits grow: SGD's chain
    kinds.push_back(exercise(2.2, 0.01));
    for (RunCurve& r : kinds.back()[1].runs) logits_grow(r);
    // QK-norm beside scaled and unscaled
    kinds.push_back(exercise(0.01, 0.01));
    kinds.back().push_back(VariantCurves{"qknorm", "QK-norm", {}, variant_label_message(ScaleMode::qknorm, 0.5)});
    for (uint64_t seed = 0; seed < 3; ++seed) kinds.back().back().runs.push_back(run(200, 0.001, 0.2, 0.001, 0.5, seed));
    for (const std::vector<VariantCurves>& vs : kinds)
      for (InitScheme init : {InitScheme::xavier, InitScheme::gpt}) {
      setting.init = init;
      const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), setting);
      CHECK(mechanism_text(r).find('{') == std::string::npos);
      for (const std::vector<Message>* list : {&r.qk, &r.jacobian, &r.spread, &r.why})
        for (const Message& m : *list) collect(Arg(m));
      if (!r.why_title.key.empty()) collect(Arg(r.why_title));
    }
  }
  for (const Phrase& p : phrasebook()) {
    if (std::string(p.key).rfind("mech.", 0) != 0) continue;
    INFO("no reading uses " << p.key);
    CHECK(used.count(p.key) == 1);
  }
}

TEST_CASE("the JSON member holds every reading as a number: the sentences' sources", "[mechanism]") {
  const std::vector<VariantCurves> vs = exercise(0.3, 0.0001);
  MechanismSetting s;
  s.dk = 64, s.keys = 21;
  const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), s);
  JsonWriter w(/*camel_case=*/true);
  w.begin_object();
  write_mechanism_member(w, r);
  w.end_object();
  const std::string json = w.str();
  INFO(json);
  const auto has = [&](const std::string& member) { return json.find(member) != std::string::npos; };
  CHECK(has("\"readings\":{\"deadDrop\":20,\"keys\":21,"));
  CHECK(has("\"rootDk\":8,"));
  CHECK(has("\"evenRowJacobian\":" + JsonWriter(false).value(std::sqrt(20.0) / 21).str()));
  // Per variant, in the answer's order; layers from 1; each seed's drop and peaks.
  const VariantMechanism& u = r.variants.at(1);
  CHECK(has("\"earlyGrad\":" + JsonWriter(false).value(u.early_grad).str()));
  CHECK(has("\"jacobianLayer\":" + std::to_string(u.jacobian_layer + 1)));
  CHECK(has("\"drop\":" + JsonWriter(false).value(u.per_run.at(2).drop).str()));
  CHECK(has("\"peakSpreadStep\":" + JsonWriter(false).value(u.peak_spread_step.at(0)).str()));
  CHECK(has("\"startTopByLayer\":[" + JsonWriter(false).value(u.start_top.at(0)).str() + ","));
}

TEST_CASE("the Jacobian note reads every variant in one layer: the one where any variant's |J|_F ends smallest",
          "[mechanism]") {
  std::vector<VariantCurves> vs = exercise(2.2, 0.01);
  for (RunCurve& r : vs[1].runs) logits_grow(r);  // unscaled's layer 1 ends near 0; scaled's layers do not
  const MechanismReading r = read_mechanism(vs, compare_runs(vs, 0.1, 200), MechanismSetting{});
  std::string note;
  for (const Message& m : r.jacobian)
    if (m.key == "mech.jacobian") note = english(Arg(m));
  INFO(note);
  CHECK(note.find("In layer 1, where unscaled's |J|_F ends smallest (the lowest of any variant's), steps 1–") != std::string::npos);
  CHECK(note.find("(layer ") == std::string::npos);  // one layer for all: no per-variant layer labels
}
