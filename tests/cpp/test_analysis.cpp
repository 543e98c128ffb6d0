// The definitions that answer the exercise, on curves whose answers are known: every kind of outcome and
// its exact wording.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <set>

#include "core/answer/analysis.hpp"
#include "core/answer/learned_headline.hpp"

using namespace sqrtdk;
using Catch::Matchers::Contains;

namespace {

// Falls exponentially from 2 to 0.2 over steps 1..k-1 (never 50 steps within 25 %) and is 0.01 from step k
// on: with window 1, below 0.1 first at step k.  k <= 0: it never gets there (after falling to 0.2 by step 76
// it alternates between 0.3 and 0.15 every 20 steps, never flat; it ends at 0.3).
std::vector<float> reach_at(int steps, int k) {
  std::vector<float> c(steps);
  const int fall = k > 0 ? k - 1 : 75;
  for (int t = 0; t < steps; ++t) {
    if (t < fall) c[t] = 2.0f * std::pow(0.1f, float(t) / float(fall));
    else c[t] = k > 0 ? 0.01f : (t / 20) % 2 ? 0.3f : 0.15f;
  }
  return c;
}

// Like reach_at(steps, k) up to step k + 9, then `level` from step k + 10 on: it touched 0.1 and fell back.
std::vector<float> fell_back(int steps, int k, float level) {
  std::vector<float> c = reach_at(steps, k);
  for (int t = k + 9; t < steps; ++t) c[t] = level;
  return c;
}

VariantCurves variant(const std::string& name, ScaleMode scale, std::vector<std::vector<float>> curves);

// Curves that reach 0.1 at each of the steps in ks (0: never), as `name`.
VariantCurves reaching(const std::string& name, ScaleMode scale, const std::vector<int>& ks, int steps = 400) {
  std::vector<std::vector<float>> c;
  for (int k : ks) c.push_back(reach_at(steps, k));
  return variant(name, scale, c);
}

// 3 x level for 40 steps, then flat at `level` from step 41 to step `until`, then 0.01.
std::vector<float> stuck(int steps, float level, int until) {
  std::vector<float> c(steps);
  for (int t = 0; t < steps; ++t) c[t] = t < 40 ? 3.0f * level : t < until ? level : 0.01f;
  return c;
}

CurveDefinitions window1() {
  CurveDefinitions d;
  d.window = 1;
  return d;
}

VariantCurves variant(const std::string& name, ScaleMode scale, std::vector<std::vector<float>> curves) {
  VariantCurves v{name, variant_label(scale, 1.0), {}, variant_label_message(scale, 1.0)};
  for (std::size_t i = 0; i < curves.size(); ++i) {
    RunCurve r;
    r.seed = i;
    r.loss = curves[i];
    r.sequence_accuracy = 1.0;
    v.runs.push_back(r);
  }
  return v;
}

VariantCurves scaled(std::initializer_list<int> ks, int steps = 400) {
  std::vector<std::vector<float>> c;
  for (int k : ks) c.push_back(reach_at(steps, k));
  return variant("scaled", ScaleMode::scaled, c);
}
VariantCurves unscaled(std::initializer_list<int> ks, int steps = 400) {
  std::vector<std::vector<float>> c;
  for (int k : ks) c.push_back(reach_at(steps, k));
  return variant("unscaled", ScaleMode::unscaled, c);
}

Answer answer_of(std::vector<VariantCurves> v, int steps = 400) { return compare_runs(v, 0.1, steps, window1()); }

}  // namespace

TEST_CASE("smoothed loss is the trailing mean over the window", "[analysis]") {
  CHECK(smoothed_loss({4, 2, 0, 2}, 2) == std::vector<double>{4, 3, 1, 1});
}

TEST_CASE("steps to threshold is the first step whose smoothed loss is below it", "[analysis]") {
  CHECK(steps_to_threshold(reach_at(400, 152), 0.1, window1()) == 152);
  CHECK(steps_to_threshold(reach_at(400, 0), 0.1, window1()) == -1);
  CHECK(steps_to_threshold(reach_at(400, 152), 0.1) > 152);  // the default window of 20 lags
}

TEST_CASE("a stall is a flat stretch above the threshold: its start, length and level", "[analysis]") {
  const Stall s = find_stall(smoothed_loss(stuck(400, 0.25f, 200), 1), 0.1);
  CHECK(s.start == 41);
  CHECK(s.length == 160);
  CHECK(s.level == Approx(0.25));
  CHECK_FALSE(s.to_end);

  SECTION("stuck to the end") {
    const Stall e = find_stall(smoothed_loss(stuck(400, 1.1f, 1000), 1), 0.1);
    CHECK(e.start == 41);
    CHECK(e.length == 360);
    CHECK(e.to_end);
  }
  SECTION("a curve still falling by 20 % every 20 steps is not a stall, whatever the threshold") {
    std::vector<float> falling(400);
    for (int t = 0; t < 400; ++t) falling[t] = 3.0f * std::pow(0.8f, float(t) / 20.0f);
    CHECK_FALSE(find_stall(smoothed_loss(falling, 20), 1e-9).found());
  }
  SECTION("flat below the threshold, or for fewer than 50 steps, is not a stall") {
    CHECK_FALSE(find_stall(smoothed_loss(stuck(400, 0.05f, 1000), 1), 0.1).found());
    CHECK_FALSE(find_stall(smoothed_loss(stuck(400, 0.25f, 89), 1), 0.1).found());
    CHECK(find_stall(smoothed_loss(stuck(400, 0.25f, 90), 1), 0.1).length == 50);
  }
  SECTION("noise inside the band does not break it; the longest of two stalls is reported") {
    std::vector<float> c = stuck(400, 0.5f, 1000);
    for (int t = 40; t < 400; ++t) c[t] = t < 120 ? 0.5f * (1.0f + 0.24f * float(t % 2)) : t < 150 ? 0.2f : 1.0f;
    const Stall n = find_stall(smoothed_loss(c, 1), 0.1);
    CHECK(n.start == 151);
    CHECK(n.length == 250);
    CHECK(n.level == Approx(1.0));
  }
  SECTION("of equally long stalls the later one counts, so a slowly drifting stuck curve stalls to the end") {
    std::vector<float> c(200, 2.0f);
    for (int t = 100; t < 200; ++t) c[t] = 0.5f;
    const Stall tie = find_stall(smoothed_loss(c, 1), 0.1);
    CHECK(tie.start == 101);
    CHECK(tie.length == 100);
    CHECK(tie.to_end);
    std::vector<float> drift(400);
    for (int t = 0; t < 400; ++t) drift[t] = 2.4f - 0.4f * float(t) / 399.0f;  // 2.4 -> 2.0: 20 % over the run
    const Stall d = find_stall(smoothed_loss(drift, 1), 0.1);
    CHECK(d.start == 1);
    CHECK(d.length == 400);
    CHECK(d.to_end);
  }
}

TEST_CASE("a run is summarised on its finite part and within its budget", "[analysis]") {
  std::vector<float> c = reach_at(100, 0);
  c.push_back(std::numeric_limits<float>::quiet_NaN());
  const RunSummary r = summarize_run(c, 0.1, 0.0, 101);
  CHECK(r.diverged);
  CHECK(r.diverged_step == 101);
  CHECK(r.steps == 100);
  CHECK(std::isfinite(r.final_loss));
  CHECK(r.steps_to_threshold == -1);

  RunCurve longer;
  longer.loss = reach_at(500, 450);
  longer.stopped = false;
  const RunSummary cut = summarize_run(longer, 0.1, 400, window1());
  CHECK(cut.steps == 400);
  CHECK(cut.stopped);  // it has its budget's steps
  CHECK(cut.steps_to_threshold == -1);
  CHECK(run_steps_cell(cut, 400) == "never (in 400 steps)");

  RunCurve running;
  running.loss = reach_at(100, 0);
  running.stopped = false;
  const RunSummary live = summarize_run(running, 0.1, 400, window1());
  CHECK(live.pending());
  CHECK(run_steps_cell(live, 400) == "not yet");
}

TEST_CASE("display names are the page's, one function", "[analysis]") {
  CHECK(variant_label(ScaleMode::scaled, 0.5) == "scaled 1/√d_k");
  CHECK(variant_label(ScaleMode::unscaled, 0.5) == "unscaled");
  CHECK(variant_label(ScaleMode::alpha, 1.0) == "1/d_k^α, α=1");
  CHECK(variant_label(ScaleMode::alpha, 0.25) == "1/d_k^α, α=0.25");
  CHECK(variant_label(ScaleMode::alpha, 0.35000000000000003) == "1/d_k^α, α=0.35");
  CHECK(variant_label(ScaleMode::qknorm, 0.5) == "QK-norm");
}

TEST_CASE("a clear difference: the reference N steps earlier, the ratio, the pairs of seeds counted and the definition they meet", "[analysis]") {
  const Answer a = answer_of({scaled({50, 60, 70}), unscaled({100, 120, 140})});
  CHECK(a.ready);
  CHECK(a.final);
  CHECK(a.outcome == Outcome::clear);
  CHECK(a.ratio == 2.0);
  CHECK(a.steps_earlier == 60.0);
  CHECK(a.sentences.at(0) ==
        "scaled 1/√d_k reached smoothed loss 0.1 at a median of 60 steps, 60 steps earlier than unscaled, which reached "
        "it at a median of 120 steps; unscaled took 2× as many steps as scaled 1/√d_k. Counted over 3 seeds each, "
        "every seed of scaled 1/√d_k (50–70 "
        "steps) was faster than every seed of unscaled (100–140 steps): all 9 pairs of seeds; a clear difference (at "
        "least 90 % of the pairs, medians at least 1.25× apart).");
  CHECK(a.sentences.at(1) ==
        "No stalls: no smoothed loss stayed within 25 % for at least 50 steps above 0.1.");
  CHECK(a.sentences.at(2) == "Final smoothed loss (median over seeds): scaled 1/√d_k 0.01, unscaled 0.01.");
  CHECK(variant_relation_cell(a.variants[1], 400) == "60 steps later (2×), in 9 of 9 pairs of seeds");
  CHECK(variant_seeds_cell(a.variants[1], 400) == "100 · 120 · 140");
  CHECK(variant_median_cell(a.variants[1], 400) == "120");
  CHECK(variant_relation_cell(a.variants[0], 400) == "reference");

  const Answer earlier = answer_of({unscaled({100, 120, 140}), scaled({50, 60, 70})});
  CHECK(earlier.outcome == Outcome::clear);
  CHECK_THAT(earlier.sentences.at(0), Contains("unscaled reached smoothed loss 0.1 at a median of 120 steps, 60 steps later "
                                               "than scaled 1/√d_k, which reached it at a median of 60 steps; unscaled "
                                               "took 2× as many steps as scaled 1/√d_k. Counted over 3 seeds each, every seed of unscaled (100–140 steps) was slower"));
}

TEST_CASE("seeds that overlap: within the spread of the seeds", "[analysis]") {
  const Answer a = answer_of({scaled({50, 80, 110}), unscaled({70, 100, 130})});
  CHECK(a.outcome == Outcome::within_spread);
  CHECK(a.sentences.at(0) ==
        "scaled 1/√d_k reached smoothed loss 0.1 at a median of 80 steps, 20 steps earlier than unscaled, which reached "
        "it at a median of 100 steps; unscaled took 1.25× as many steps as scaled 1/√d_k. Within the spread of the seeds (over 3 seeds each): scaled "
        "1/√d_k took 50–110 steps and unscaled 70–130 steps; scaled 1/√d_k, the one with the lower median, got there "
        "first in 6 of the 9 pairs of seeds, fewer than the 90 % a clear difference needs.");
  CHECK(variant_relation_cell(a.variants[1], 400) == "20 steps later (1.25×), in only 6 of 9 pairs of seeds");
}

TEST_CASE("seeds apart but medians close: the pairs counted and the medians' distance, no verdict",
          "[analysis]") {
  const Answer a = answer_of({scaled({88, 90, 92}), unscaled({85, 87, 86})});
  CHECK(a.outcome == Outcome::small);
  CHECK(a.sentences.at(0) ==
        "scaled 1/√d_k reached smoothed loss 0.1 at a median of 90 steps, 4 steps later than unscaled, which reached it "
        "at a median of 86 steps; scaled 1/√d_k took 1.05× as many steps as unscaled. Counted over 3 seeds each, every seed of scaled 1/√d_k (88–92 "
        "steps) was slower than every seed of unscaled (85–87 steps), all 9 pairs of seeds, but the medians are less "
        "than 1.25× apart.");
  CHECK_THAT(a.sentences.at(0), !Contains("equally fast"));
  CHECK_THAT(a.sentences.at(0), !Contains("no clear difference"));
}

TEST_CASE("one seed: no spread to judge", "[analysis]") {
  const Answer a = answer_of({scaled({81}), unscaled({259})});
  CHECK(a.outcome == Outcome::one_seed);
  CHECK(a.sentences.at(0) ==
        "scaled 1/√d_k reached smoothed loss 0.1 at step 81, 178 steps earlier than unscaled, which reached it at step "
        "259; unscaled took 3.2× as many steps as scaled 1/√d_k. One seed: no spread to judge whether the difference is clear.");
  CHECK(a.sentences.back() == "Final smoothed loss: scaled 1/√d_k 0.01, unscaled 0.01.");
}

TEST_CASE("a variant that never reaches the threshold: never (in N steps), and the sentence says so", "[analysis]") {
  const Answer all = answer_of({scaled({40, 51, 60}), unscaled({0, 0, 0})}, 600);
  CHECK(all.outcome == Outcome::never);
  CHECK(std::isnan(all.ratio));
  CHECK(all.sentences.at(0) ==
        "unscaled did not reach smoothed loss 0.1 and stay below it in 600 steps for any of 3 seeds; scaled 1/√d_k "
        "reached it at a median of 51 steps.");
  CHECK(variant_median_cell(all.variants[1], 600) == "never (in 600 steps)");
  CHECK(variant_relation_cell(all.variants[1], 600) == "never (in 600 steps)");
  CHECK(variant_seeds_cell(all.variants[1], 600) == "never · never · never");

  const Answer some = answer_of({scaled({40, 51, 0}), unscaled({350, 0, 0})});
  CHECK(some.outcome == Outcome::never);
  CHECK(some.sentences.at(0) ==
        "unscaled did not reach smoothed loss 0.1 and stay below it in 400 steps for 2 of 3 seeds (the other at step 350); scaled 1/√d_k "
        "reached it at a median of 51 steps (2 of 3 seeds got there).");

  const Answer one = answer_of({scaled({81}), unscaled({0})});
  CHECK(one.outcome == Outcome::never);
  CHECK(one.sentences.at(0) ==
        "unscaled did not reach smoothed loss 0.1 and stay below it in 400 steps; scaled 1/√d_k reached it at step 81. One seed: no "
        "spread to judge whether the difference is clear.");
}

TEST_CASE("the reference never reaches it, or neither does", "[analysis]") {
  const Answer ref = answer_of({scaled({0, 0, 0}), unscaled({40, 50, 60})});
  CHECK(ref.outcome == Outcome::reference_never);
  CHECK(ref.sentences.at(0) ==
        "scaled 1/√d_k did not reach smoothed loss 0.1 and stay below it in 400 steps for any of 3 seeds; unscaled reached it at a "
        "median of 50 steps.");
  CHECK(variant_relation_cell(ref.variants[1], 400) == "reached it; the reference never did");

  const Answer neither = answer_of({scaled({0, 0, 0}), unscaled({0, 0, 0})});
  CHECK(neither.outcome == Outcome::neither);
  CHECK(neither.sentences.at(0) ==
        "Neither unscaled nor scaled 1/√d_k reached smoothed loss 0.1 in 400 steps for most seeds, so this run cannot "
        "say which gets there sooner; their final levels: unscaled 0.3, scaled 1/√d_k 0.3.");
}

TEST_CASE("a stall after the run first got below the threshold reads as a climb back, not as a wait to learn",
          "[analysis]") {
  std::vector<float> relapse(400);  // below 0.1 at step 41, back at 0.4 for steps 91-190, below again to the end
  for (int t = 0; t < 400; ++t) relapse[t] = t < 40 ? 1.0f : t < 90 ? 0.05f : t < 190 ? 0.4f : 0.01f;
  const Answer a = answer_of({scaled({60, 61, 62}), variant("unscaled", ScaleMode::unscaled, {relapse})});
  const RunSummary& run = a.variants[1].runs[0];
  CHECK(run.steps_to_threshold == 41);  // it learned: the steps column alone would hide the climb
  CHECK(run_stall_cell(run) == "after first getting below the threshold at step 41, rose back above it: from step 91, 100 steps at 0.4");
  CHECK(a.sentences.at(1).find("unscaled after first getting below the threshold at step 41, rose back above it: from step 91") !=
        std::string::npos);
}

TEST_CASE("stalls are reported with start, length and level, the final level once every run stopped", "[analysis]") {
  VariantCurves s = scaled({60, 61, 62});
  VariantCurves u = variant("unscaled", ScaleMode::unscaled, {stuck(400, 0.25f, 200), stuck(400, 1.1f, 1000), stuck(400, 2.0f, 1000)});
  const Answer a = answer_of({s, u});
  CHECK(a.outcome == Outcome::never);
  CHECK(a.variants[1].runs_stalled == 3);
  CHECK(a.variants[1].stalls_to_end == 2);
  CHECK(a.variants[1].median_stall.start == 41);
  CHECK(a.variants[1].median_stall.level == Approx(1.1));
  CHECK(a.sentences.at(1) ==
        "Stalls, where the smoothed loss stayed within 25 % for at least 50 steps above 0.1: scaled 1/√d_k none; "
        "unscaled in 3 of 3 seeds, median start step 41, median length 360 steps, median level 1.1, 2 to the end.");
  CHECK(a.sentences.at(2) == "Final smoothed loss (median over seeds): scaled 1/√d_k 0.01, unscaled 1.1.");
  CHECK(run_stall_cell(a.variants[1].runs[0]) == "from step 41, 160 steps at 0.25");
  CHECK(run_stall_cell(a.variants[1].runs[1]) == "from step 41 to the end (360 steps) at 1.1");
  CHECK(run_stall_cell(a.variants[0].runs[0]) == "none");

  SECTION("while a stalled run is still training, its stall lasts so far and the answer waits for it") {
    u.runs[1].loss.resize(300);
    u.runs[1].stopped = false;
    const Answer live = answer_of({s, u});
    CHECK_FALSE(live.ready);
    CHECK(live.sentences.empty());
    CHECK(run_stall_cell(live.variants[1].runs[1]) == "from step 41, 260 steps so far at 1.1");
  }
  SECTION("runs that reached the threshold but still train: ready, not final, no final level yet") {
    u.runs[0].loss.resize(300);
    u.runs[0].stopped = false;
    const Answer live = answer_of({s, u});
    CHECK(live.ready);
    CHECK_FALSE(live.final);
    CHECK_THAT(live.sentences.back(), Contains("Stalls"));
  }
}

TEST_CASE("while a run has neither reached the threshold nor stopped, the answer is pending", "[analysis]") {
  VariantCurves u = unscaled({0});
  u.runs[0].loss.resize(100);
  u.runs[0].stopped = false;
  const Answer a = answer_of({scaled({50}), u});
  CHECK_FALSE(a.ready);
  CHECK(a.outcome == Outcome::pending);
  CHECK(a.sentences.empty());
  CHECK(variant_median_cell(a.variants[1], 400) == "…");
  CHECK(variant_seeds_cell(a.variants[1], 400) == "…");
  CHECK(variant_median_cell(a.variants[0], 400) == "50");
}

TEST_CASE("one variant alone is summarised, diverged runs are named", "[analysis]") {
  const Answer single = answer_of({scaled({50, 60, 70})});
  CHECK(single.outcome == Outcome::single);
  CHECK(single.sentences.at(0) == "scaled 1/√d_k reached smoothed loss 0.1 at a median of 60 steps (3 seeds: 50–70 steps).");

  VariantCurves u = unscaled({0, 0});
  u.runs[0].loss.resize(120);
  u.runs[0].loss.push_back(std::numeric_limits<float>::infinity());
  u.runs[0].diverged_step = 121;
  const Answer d = answer_of({scaled({50, 60}), u});
  CHECK(d.variants[1].runs_diverged == 1);
  CHECK(d.sentences.at(1) == "Diverged: unscaled in 1 of 2 seeds (at step 121).");
  CHECK(run_steps_cell(d.variants[1].runs[0], 400) == "never (diverged at step 121)");
}

TEST_CASE("the structured answer as JSON: snake_case for the CLI, camelCase for the page", "[analysis]") {
  const Answer a = answer_of({scaled({50, 60, 70}), unscaled({0, 0, 0})});
  const std::string snake = answer_json(a, false);
  const std::string camel = answer_json(a, true);
  CHECK_THAT(snake, Contains("\"outcome\":\"never\",\"ratio\":null,\"steps_earlier\":null"));
  CHECK_THAT(snake, Contains("\"median_steps_to_threshold\":60,\"median_never\":false"));
  CHECK_THAT(snake, Contains("\"median_steps_to_threshold\":null,\"median_never\":true"));
  CHECK_THAT(camel, Contains("\"medianStepsToThreshold\":60,\"medianNever\":false"));
  CHECK_THAT(camel, Contains("\"stepsToThreshold\":null,\"touchedStep\":null,\"stall\":null,\"finalLoss\":0.3"));
  CHECK_THAT(camel, Contains("\"cells\":{\"median\":\"never (in 400 steps)\""));
  CHECK_THAT(camel, Contains("\"definitions\":{\"window\":1,\"stallBand\":0.25,\"stallMinSteps\":50,\"clearRatio\":1.25"));
  CHECK_THAT(camel, Contains("\"sentences\":[\"unscaled did not reach"));
  CHECK(camel.front() == '{');
  CHECK(camel.back() == '}');
}

namespace {

// Answers of every kind: every outcome, one seed and several, stalls none/one/several/to the end/so far,
// diverged runs, pending cells, every variant's display name.
std::vector<Answer> every_kind_of_answer() {
  std::vector<Answer> out;
  const auto add = [&out](std::vector<VariantCurves> v, int steps = 400) { out.push_back(answer_of(std::move(v), steps)); };
  add({scaled({50, 60, 70}), unscaled({100, 120, 140})});                     // clear, slower
  add({scaled({50, 60, 70}), unscaled({100, 120, 140, 160})});                // clear, over 4 and 3 seeds
  add({scaled({50, 60, 70}), unscaled({100, 120, 0})});                       // clear, a seed never: over its seeds
  add({unscaled({100, 120, 140}), scaled({50, 60, 70})});                     // clear, faster
  add({scaled({50, 80, 110}), unscaled({70, 100, 130})});                     // within the spread
  add({scaled({88, 90, 92}), unscaled({85, 87, 86})});                        // small, faster
  add({scaled({85, 86, 87}), unscaled({88, 90, 92})});                        // small, slower
  add({scaled({81}), unscaled({259})});                                       // one seed
  add({scaled({81}), unscaled({81})});                                        // the same number of steps
  add({scaled({81}), unscaled({82})});                                        // 1 step later
  add({scaled({82}), unscaled({81})});                                        // 1 step earlier
  add({scaled({40, 51, 60}), unscaled({0, 0, 0})}, 600);                      // never, any of the seeds
  add({scaled({40, 51, 0}), unscaled({350, 0, 0})});                          // never, the other at step ...
  add({scaled({40, 51, 60}), unscaled({350, 360, 0, 0})});                    // never, the others at steps ...
  add({scaled({81}), unscaled({0})});                                         // never, one seed
  add({scaled({0, 0, 0}), unscaled({40, 50, 60})});                           // the reference never
  add({scaled({0, 0, 0}), unscaled({0, 0, 0})});                              // neither, several seeds
  add({scaled({0}), unscaled({0})});                                          // neither, one seed
  add({scaled({50, 60, 70})});                                                // one variant, several seeds
  add({variant("qknorm", ScaleMode::qknorm, {reach_at(400, 50)})});           // one variant, one seed
  add({variant("alpha", ScaleMode::alpha, {reach_at(400, 0)})});              // one variant that never gets there
  const VariantCurves s = scaled({60, 61, 62});
  add({s, variant("unscaled", ScaleMode::unscaled, {stuck(400, 0.25f, 200), reach_at(400, 60), reach_at(400, 70)})});
  add({s, variant("unscaled", ScaleMode::unscaled, {stuck(400, 0.25f, 200), stuck(400, 1.1f, 1000), stuck(400, 2.0f, 1000)})});
  add({s, variant("unscaled", ScaleMode::unscaled, {stuck(400, 1.1f, 1000), stuck(400, 2.0f, 1000)})});
  add({s, variant("unscaled", ScaleMode::unscaled, {stuck(400, 0.25f, 200), stuck(400, 0.5f, 200)})});
  add({scaled({60}), variant("unscaled", ScaleMode::unscaled, {stuck(400, 1.1f, 1000)})});
  VariantCurves running = variant("unscaled", ScaleMode::unscaled, {stuck(300, 1.1f, 1000), reach_at(100, 0)});
  for (RunCurve& r : running.runs) r.stopped = false;
  add({scaled({50}), running});                                               // so far; not yet; pending
  VariantCurves diverged = unscaled({0, 0});
  for (RunCurve& r : diverged.runs) {
    r.loss.resize(120);
    r.loss.push_back(std::numeric_limits<float>::infinity());
    r.diverged_step = 121;
  }
  add({scaled({50, 60}), diverged});                                          // 2 of 2 diverged
  diverged.runs.pop_back();
  add({scaled({50, 60}), diverged});                                          // 1 of 1 seed diverged
  add({scaled({40, 45, 50}), variant("unscaled", ScaleMode::unscaled,
                                     {fell_back(600, 62, 2.27f), reach_at(600, 0), reach_at(600, 0)})}, 600);  // fell back
  add({scaled({40, 45, 50}), variant("unscaled", ScaleMode::unscaled,
                                     {fell_back(600, 62, 2.27f), fell_back(600, 131, 2.1f), reach_at(600, 0)})}, 600);
  const std::vector<int> ten_scaled{59, 61, 62, 64, 65, 66, 68, 70, 72, 75};
  const std::vector<int> ten_unscaled{71, 98, 104, 110, 115, 118, 125, 140, 0, 0};
  add({reaching("scaled", ScaleMode::scaled, ten_scaled), reaching("unscaled", ScaleMode::unscaled, ten_unscaled)});
  add({reaching("unscaled", ScaleMode::unscaled, ten_unscaled), reaching("scaled", ScaleMode::scaled, ten_scaled)});
  const std::vector<int> close_a{80, 81, 82, 83, 84, 85, 86, 87, 88, 95}, close_b{89, 90, 91, 92, 93, 94, 96, 97, 98, 99};
  add({reaching("scaled", ScaleMode::scaled, close_a), reaching("unscaled", ScaleMode::unscaled, close_b)});
  add({reaching("scaled", ScaleMode::scaled, close_b), reaching("unscaled", ScaleMode::unscaled, close_a)});
  return out;
}

// Every message in an argument, nested ones included.
void each_message(const Arg& arg, const std::function<void(const Message&)>& f) {
  if (arg.kind == Arg::Kind::message) {
    f(*arg.message);
    for (const auto& named : arg.message->args) each_message(named.second, f);
  }
  for (const Arg& item : arg.items) each_message(item, f);
}

// Every text of an answer, as arguments.
std::vector<Arg> every_text(const Answer& a) {
  std::vector<Arg> out;
  for (const Message& m : answer_messages(a)) out.emplace_back(m);
  for (const DefinitionMessage& d : definition_messages(a.defs, a.threshold, a.steps)) out.emplace_back(d.message);
  const Message headline = runs_headline(a);
  if (!headline.key.empty()) out.emplace_back(headline);
  for (const VariantResult& v : a.variants) {
    for (Arg arg : {variant_label_arg(v), variant_median_arg(v, a.steps), variant_seeds_arg(v),
                    variant_relation_arg(v, a.steps), variant_stall_arg(v)})
      out.push_back(arg);
    for (const RunSummary& r : v.runs) {
      out.push_back(run_steps_arg(r, a.steps));
      out.push_back(run_stall_arg(r));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the phrasebook: every key the answers use is in it, and answers of every kind use all of it",
          "[analysis][phrasebook]") {
  std::set<std::string> table, used;
  for (const Phrase& p : phrasebook()) table.insert(p.key);
  for (const Answer& a : every_kind_of_answer()) {
    for (const Arg& text : every_text(a)) {
      const std::string english_text = english(text);
      INFO(english_text);
      CHECK(english_text.find('{') == std::string::npos);  // no key or argument missing
      each_message(text, [&](const Message& m) { used.insert(english_key(m)); });
      std::function<void(const Arg&)> joins = [&](const Arg& arg) {
        if (arg.kind == Arg::Kind::list) used.insert(arg.text);
        if (arg.kind == Arg::Kind::message)
          for (const auto& named : arg.message->args) joins(named.second);
        for (const Arg& item : arg.items) joins(item);
      };
      joins(text);
    }
  }
  for (const std::string& key : used) {
    INFO("used but not in the phrasebook: " << key);
    CHECK(table.count(key) == 1);
  }
  for (const std::string& key : table) {
    if (key.rfind("mech.", 0) == 0) continue;  // the mechanism readings' (test_mechanism_reading.cpp)
    if (key.rfind("claims.", 0) == 0 || key.rfind("scenario.", 0) == 0) continue;  // the captions' (test_scenarios.cpp)
    if (key.rfind("glossary.", 0) == 0 || key.rfind("lesson.", 0) == 0) continue;  // the glossary's (test_glossary.cpp)
    if (key == "runs_headline.claim" || key == "runs_headline.medians") continue;  // beside a preset (test_cli.cpp)
    if (key.rfind("term.", 0) == 0 && key != "term.smoothed_loss" && key != "term.steps_to_threshold" &&
        key != "term.stall" && key != "term.final_level" && key != "term.clear_difference")
      continue;  // a glossary term (test_glossary.cpp)
    INFO("in the phrasebook but no answer uses it: " << key);
    CHECK(used.count(key) == 1);
  }
}

TEST_CASE("learned vs touched: a run that reached the threshold and ended above it did not learn", "[analysis]") {
  const Answer a = answer_of({scaled({40, 45, 50}, 600), variant("unscaled", ScaleMode::unscaled,
                                                                {fell_back(600, 62, 2.27f), reach_at(600, 0),
                                                                 reach_at(600, 0)})},
                             600);
  CHECK(a.outcome == Outcome::never);
  const RunSummary& touched = a.variants[1].runs[0];
  CHECK(touched.touched_step == 62);
  CHECK(touched.steps_to_threshold == -1);
  CHECK(touched.fell_back());
  CHECK(a.variants[1].runs_reaching == 0);
  CHECK(a.variants[1].runs_fell_back == 1);
  CHECK(a.sentences.at(0) ==
        "unscaled did not reach smoothed loss 0.1 and stay below it in 600 steps for any of 3 seeds; 1 of them touched "
        "it at step 62 and ended above it, at 2.27; scaled 1/√d_k reached it at a median of 45 steps.");
  CHECK(run_steps_cell(touched, 600) == "never (touched it at step 62, ended at 2.27)");
  CHECK(variant_seeds_cell(a.variants[1], 600) == "never · never · never");
  CHECK(steps_to_threshold(fell_back(600, 62, 2.27f), 0.1, window1()) == -1);
  CHECK(steps_to_threshold(reach_at(600, 62), 0.1, window1()) == 62);
  // While a run is still training, a touch it fell back from leaves it pending, not reached.
  RunCurve running;
  running.loss = fell_back(200, 62, 2.27f);
  running.stopped = false;
  CHECK(summarize_run(running, 0.1, 600, window1()).pending());
}

TEST_CASE("pairs of seeds: 99 of 100 pairs ordered is a clear difference, and more seeds make it surer", "[analysis]") {
  const std::vector<int> ten_scaled{59, 61, 62, 64, 65, 66, 68, 69, 70, 75};
  const std::vector<int> ten_unscaled{71, 98, 104, 110, 115, 118, 125, 140, 0, 0};  // 71 beats one scaled seed (75)
  const Answer a = answer_of({reaching("scaled", ScaleMode::scaled, ten_scaled),
                              reaching("unscaled", ScaleMode::unscaled, ten_unscaled)});
  CHECK(a.variants[1].pairs == 100);
  CHECK(a.variants[1].pairs_ahead == 99);
  CHECK(a.outcome == Outcome::clear);
  CHECK_THAT(a.sentences.at(0), Contains("Counted over 10 seeds each, scaled 1/√d_k was faster than unscaled in 99 of "
                                         "the 100 pairs of seeds (scaled 1/√d_k: 59–75 steps; unscaled: 71 steps or more; 2 never reached it); a clear difference"));
  // The median beside "never" says what it is taken over.
  CHECK_THAT(a.sentences.at(0), Contains("at a median of 116.5 steps over its 10 seeds (2 never got there and count as "
                                         "the slowest)"));
  // The first three seeds of each alone: all 9 pairs ordered, the same verdict and the old wording.
  const Answer three = answer_of({scaled({59, 61, 62}), unscaled({98, 104, 110})});
  CHECK(three.outcome == Outcome::clear);
  CHECK_THAT(three.sentences.at(0), Contains("every seed of scaled 1/√d_k (59–62 steps) was faster than every seed of unscaled (98–110 steps)"));
  // A tie is ahead for neither: 8 of 9 pairs is within the spread, as "every seed apart" said before.
  const Answer tie = answer_of({scaled({50, 60, 70}), unscaled({70, 80, 90})});
  CHECK(tie.variants[1].pairs_ahead == 8);
  CHECK(tie.outcome == Outcome::within_spread);
  // A seed that never got there is the slowest: it orders every pair it is in.
  const Answer never = answer_of({scaled({50, 60, 70}), unscaled({100, 120, 0})});
  CHECK(never.variants[1].pairs_ahead == 9);
  CHECK(never.outcome == Outcome::clear);
  CHECK_THAT(never.sentences.at(0), Contains("60 steps earlier than unscaled, which reached it at a median of 120 steps "
                                             "over its 3 seeds (1 never got there and counts as the slowest)"));
  // Ordered pairs but medians close: small but consistent, also when not every pair is ordered.
  const Answer close = answer_of({reaching("scaled", ScaleMode::scaled, {80, 81, 82, 83, 84, 85, 86, 87, 88, 95}),
                                  reaching("unscaled", ScaleMode::unscaled, {89, 90, 91, 92, 93, 94, 96, 97, 98, 99})});
  CHECK(close.variants[1].pairs_ahead == 94);
  CHECK(close.outcome == Outcome::small);
  CHECK_THAT(close.sentences.at(0), Contains("Counted over 10 seeds each, scaled 1/√d_k was faster than unscaled in 94 of the "
                                             "100 pairs of seeds"));
  // One seed each: no spread to judge, whatever the pair says.
  CHECK(answer_of({scaled({81}), unscaled({259})}).outcome == Outcome::one_seed);
}

TEST_CASE("the runs in the claims' form: k of n learned, the median over those that learned", "[analysis]") {
  // scaled reaches 0.1 at steps 60, 68, 63; unscaled at 121, never, 94: the answer's median counts never as the
  // slowest (121), the claims' form takes the two that learned (107.5).
  const Answer a = answer_of({scaled({60, 68, 63}), unscaled({121, 0, 94})});
  REQUIRE(a.final);
  CHECK(english(runs_headline(a)) ==
        "Your seeds 0–2: scaled 1/√d_k reached loss 0.1 and ended below on 3 of 3 (median 63 steps), unscaled on 2 of 3 "
        "(median 107.5 steps).");
  CHECK(a.variants[1].median_steps_to_threshold == 121);
  CHECK(english(runs_headline(answer_of({scaled({60})}))) ==
        "Your seed 0: scaled 1/√d_k reached loss 0.1 and ended below on 1 of 1 (at step 60).");
  CHECK(english(runs_headline(answer_of({scaled({60, 0}), unscaled({0, 0})}))) ==
        "Your seeds 0–1: scaled 1/√d_k reached loss 0.1 and ended below on 1 of 2 (at step 60), unscaled on 0 of 2.");
  // Not final: no headline.
  std::vector<VariantCurves> running = {scaled({60, 68})};
  running[0].runs[1].stopped = false;
  running[0].runs[1].loss.resize(30);
  CHECK(runs_headline(compare_runs(running, 0.1, 400, window1())).key.empty());
}
