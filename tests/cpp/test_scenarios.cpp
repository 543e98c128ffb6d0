// Each scenario's claim, checked natively over seeds 0-2 on exactly the settings the page applies: the test
// parses the scenario's settings string (the page's URL-hash keys), so the preset and its test cannot drift.
//
// The claims were measured first with `sqrtdk compare --scenario <id>` and `sqrtdk train` on seeds 0-4 (numbers
// in each test's comment); only what held for every seed measured is pinned here, with a margin.  To keep the
// runtime modest a run stops as soon as its claim is decided (e.g. once it reached the threshold).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "core/analysis.hpp"
#include "core/mechanism.hpp"
#include "core/scenarios.hpp"
#include "core/trainer.hpp"

using namespace sqrtdk;

namespace {

ExerciseSettings settings_of(const char* id) {
  const Scenario* scenario = find_scenario(id);
  REQUIRE(scenario != nullptr);
  return parse_exercise_settings(scenario->settings);
}

struct Run {
  TrainLog log;
  int reached = -1;  // steps to threshold, -1 never
  double final_loss = 0;
  Trainer* trainer = nullptr;
};

// Trains `variant` on the scenario's seed `index` for its steps, or until the smoothed loss reached the threshold
// when `stop_when_reached`.  The trainer stays alive in `keep` for evaluations afterwards.
Run train(const ExerciseSettings& s, const std::string& variant, int index, bool stop_when_reached,
          std::unique_ptr<Trainer>& keep) {
  TrainConfig c = s.base;
  parse_scale(variant, c.model);
  c.seed = s.base.seed + static_cast<uint64_t>(index);
  c.eval_every = 1000000;  // no evaluations during the run: the claims read the loss curve
  keep = std::make_unique<Trainer>(c);
  Run r;
  while (keep->steps_done() < s.steps && !keep->diverged()) {
    r.log.extend(keep->run(std::min(10, s.steps - keep->steps_done())));
    if (stop_when_reached && steps_to_threshold(r.log.loss, s.threshold) > 0) break;
  }
  r.reached = steps_to_threshold(r.log.loss, s.threshold);
  r.final_loss = smoothed_loss(r.log.loss, CurveDefinitions{}.window).back();
  r.trainer = keep.get();
  return r;
}

Run train(const ExerciseSettings& s, const std::string& variant, int index, bool stop_when_reached) {
  std::unique_ptr<Trainer> keep;
  return train(s, variant, index, stop_when_reached, keep);
}

}  // namespace

TEST_CASE("scenario settings parse with the page's keys, over the page's defaults", "[scenarios]") {
  REQUIRE(scenarios().size() == 6);
  for (const Scenario& s : scenarios()) {
    CAPTURE(s.id);
    CHECK_NOTHROW(parse_exercise_settings(s.settings));
    CHECK(std::string(s.title).size() > 0);
    CHECK(std::string(s.caption).size() > 40);
  }
  const ExerciseSettings sgd = settings_of("sgd");
  CHECK(sgd.base.optim.optimizer == Optimizer::sgd);
  CHECK(sgd.base.optim.lr == 0.1);
  CHECK(sgd.base.optim.momentum == 0.9);
  CHECK(sgd.variants == std::vector<std::string>{"scaled", "unscaled"});
  CHECK(sgd.seeds == 3);
  CHECK(sgd.steps == 600);
  const ExerciseSettings d = parse_exercise_settings("");
  CHECK(d.steps == 400);
  CHECK(d.seeds == 3);
  CHECK(d.threshold == 0.1);
  CHECK(d.base.optim.lr == 1e-3);
  CHECK(parse_exercise_settings("optimizer=sgd").base.optim.lr == kSgdDefaultLr);
  CHECK(parse_exercise_settings("optimizer=sgd&lr=0.03").base.optim.lr == 0.03);
  CHECK(parse_exercise_settings("variants=alpha,qknorm&trainAlpha=0.25").variants ==
        std::vector<std::string>{"alpha=0.25", "qknorm"});
  CHECK(parse_exercise_settings("dModel=256&heads=4&init=gpt&trainSeed=7").base.model.d_k() == 64);
  CHECK_THROWS_WITH(parse_exercise_settings("lr=abc"), "setting lr: 'abc' is not a finite number");
  CHECK_THROWS_WITH(parse_exercise_settings("colour=red"), "unknown setting 'colour'");
  CHECK_THROWS_WITH(parse_exercise_settings("momentum=1"), "momentum must be a finite number in [0, 1), got 1");
  CHECK_THROWS_WITH(parse_exercise_settings("optimizer=lion"), "optimizer must be one of adam, sgd, got 'lion'");
  CHECK_THROWS_WITH(parse_exercise_settings("variants=scaled,big"),
                    "setting variants: 'big' is not scaled, unscaled, alpha or qknorm");
  CHECK(find_scenario("nope") == nullptr);
}

// Measured (sqrtdk compare --scenario adam, 600 steps, seeds 0-4): scaled reaches 0.1 at 61-67 steps, unscaled at
// 198, 118, 101, 105 and never for seed 4 (stalls near 0.24).  Step 1's q/k gradient: unscaled ~1.9, scaled ~0.35.
TEST_CASE("scenario adam: both learn on seeds 0-2, unscaled later on each, and its step-1 q/k gradient is larger",
          "[scenarios][slow]") {
  const ExerciseSettings s = settings_of("adam");
  REQUIRE(s.base.optim.optimizer == Optimizer::adam);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Run scaled = train(s, "scaled", i, true), unscaled = train(s, "unscaled", i, true);
    CHECK(scaled.reached > 0);
    CHECK(scaled.reached <= 100);
    CHECK(unscaled.reached > 0);
    CHECK(unscaled.reached >= 1.3 * scaled.reached);
    CHECK(unscaled.log.qk_grad_norm[0] > 2 * scaled.log.qk_grad_norm[0]);
    // Why Adam still learns: over steps 1-50 the unscaled q/k gradient is several times scaled's, yet Adam's
    // update of those weights is no larger (measured, seeds 0-2: gradient 3.28-3.33x, update 0.45-0.50x).
    auto median_50 = [](const std::vector<float>& per_layer) {  // all-layer norm, 2 layers
      std::vector<double> all;
      for (std::size_t t = 0; t < 50; ++t) all.push_back(std::hypot(per_layer[2 * t], per_layer[2 * t + 1]));
      std::nth_element(all.begin(), all.begin() + 25, all.end());
      return all[25];
    };
    const double grad_ratio = median_50(unscaled.log.qk_grad_norm) / median_50(scaled.log.qk_grad_norm);
    const double update_ratio = median_50(unscaled.log.qk_update_norm) / median_50(scaled.log.qk_update_norm);
    CAPTURE(grad_ratio, update_ratio);
    CHECK(grad_ratio > 2);
    CHECK(update_ratio < 1.2);
  }
}

// Measured (sqrtdk train --optimizer sgd --lr 0.1 --momentum 0.9 --steps 600, seeds 0-4): scaled reaches 0.1 at
// 43-51 steps; unscaled never, final smoothed loss 1.9-2.31 (ln 10 = 2.30 is the uniform guess over symbols);
// its smoothed q/k gradient ends 0.006 %, 1.0 %, 1.5 %, 0.2 %, 9.1 % of its peak; layer 0's mean softmax Jacobian
// norm over the last 50 steps is below 2e-4 (scaled: 0.12-0.31) and its logit spread above 1e4 (scaled: 1.4-9.2).
TEST_CASE("scenario sgd: scaled learns, unscaled fails on seeds 0-2 with a saturated softmax and a dead q/k gradient",
          "[scenarios][slow]") {
  const ExerciseSettings s = settings_of("sgd");
  REQUIRE(s.base.optim.optimizer == Optimizer::sgd);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Run scaled = train(s, "scaled", i, true);
    CHECK(scaled.reached > 0);
    CHECK(scaled.reached <= 80);
    const Run unscaled = train(s, "unscaled", i, false);
    CHECK(unscaled.reached < 0);
    CHECK(unscaled.log.size() == static_cast<std::size_t>(s.steps));
    CHECK(unscaled.final_loss > 1.5);
    const GradientDrop drop = qk_gradient_drop(unscaled.log);
    CAPTURE(drop.peak, drop.peak_step, drop.final);
    CHECK(drop.final < 0.05 * drop.peak);
    double jacobian = 0;  // layer 0, last 50 steps
    for (std::size_t t = unscaled.log.size() - 50; t < unscaled.log.size(); ++t)
      jacobian += unscaled.log.jacobian_norm[t * 2] / 50.0;
    CHECK(jacobian < 1e-3);
    double spread = 0;  // layer 0, last 50 steps (measured 1.4e4 to 9.7e5)
    for (std::size_t t = unscaled.log.size() - 50; t < unscaled.log.size(); ++t)
      spread += unscaled.log.logit_spread[t * 2] / 50.0;
    CHECK(spread > 100);
  }
}

// Measured (sqrtdk compare --scenario adam-high-lr, seeds 0-4): scaled reaches 0.1 at 31-41 steps; unscaled never
// on seeds 0-3 (final smoothed loss 2.03, 1.01, 0.25, 0.83; sequence accuracy 0-0.125), at 77 on seed 4.
TEST_CASE("scenario adam-high-lr: scaled learns fast, unscaled never reaches the threshold on seeds 0-2",
          "[scenarios][slow]") {
  const ExerciseSettings s = settings_of("adam-high-lr");
  REQUIRE(s.base.optim.lr == 0.01);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Run scaled = train(s, "scaled", i, true);
    CHECK(scaled.reached > 0);
    CHECK(scaled.reached <= 60);
    std::unique_ptr<Trainer> trainer;
    const Run unscaled = train(s, "unscaled", i, false, trainer);
    CHECK(unscaled.reached < 0);
    CHECK(unscaled.final_loss > 0.2);
    CHECK(trainer->evaluate().sequence_accuracy < 0.5);
  }
}

// Measured (sqrtdk compare --scenario gpt-init, seeds 0-4): scaled reaches 0.1 at 90-94 steps, unscaled at 87-90.
// Predicted unscaled logit std at init: 0.2 (Xavier: 8).
TEST_CASE("scenario gpt-init: the logits start small and unscaled learns as fast as scaled on seeds 0-2",
          "[scenarios][slow]") {
  const ExerciseSettings s = settings_of("gpt-init");
  REQUIRE(s.base.model.init == InitScheme::gpt);
  ModelConfig unscaled_model = s.base.model;
  unscaled_model.scale = ScaleMode::unscaled;
  CHECK(predicted_logit_std(unscaled_model) < 0.25);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    std::unique_ptr<Trainer> trainer;
    const Run scaled = train(s, "scaled", i, true);
    TrainConfig c = s.base;
    c.model.scale = ScaleMode::unscaled;
    c.seed = s.base.seed + static_cast<uint64_t>(i);
    CHECK(Trainer(c).measured_logit_std() < 0.5);
    const Run unscaled = train(s, "unscaled", i, true);
    CHECK(scaled.reached > 0);
    CHECK(unscaled.reached > 0);
    const double ratio = double(unscaled.reached) / scaled.reached;
    CHECK(ratio > 0.85);
    CHECK(ratio < 1.15);
  }
}

// Measured (sqrtdk compare --variants scaled,unscaled,qknorm --lr 0.01 --steps 400, seeds 0-4): qknorm reaches 0.1
// at 32-39 steps, scaled at 31-41; unscaled never on seeds 0-3.
TEST_CASE("scenario qknorm: at Adam lr 0.01 QK-norm learns as fast as scaled, its logits bounded by the gain",
          "[scenarios][slow]") {
  const ExerciseSettings s = settings_of("qknorm");
  REQUIRE(s.variants == std::vector<std::string>{"scaled", "unscaled", "qknorm"});
  // Its unscaled runs are adam-high-lr's (same configuration and seeds), whose failure that scenario's test checks.
  const ExerciseSettings high = settings_of("adam-high-lr");
  CHECK(s.base.optim.optimizer == high.base.optim.optimizer);
  CHECK(s.base.optim.lr == high.base.optim.lr);
  CHECK(s.base.model.init == high.base.model.init);
  CHECK(s.base.model.d_model == high.base.model.d_model);
  CHECK(s.base.model.n_heads == high.base.model.n_heads);
  CHECK(s.base.seed == high.base.seed);
  CHECK(s.steps == high.steps);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    std::unique_ptr<Trainer> trainer;
    const Run qk = train(s, "qknorm", i, true, trainer);
    CHECK(qk.reached > 0);
    CHECK(qk.reached <= 60);
    const ParamLayout& layout = trainer->model().layout();
    for (int l = 0; l < s.base.model.n_layers; ++l) {
      const float gain = trainer->model().params()[layout.find("blocks." + std::to_string(l) + ".attn.qk_gain").offset];
      // |logit| <= gain since |q/|q| . k/|k|| <= 1, so max - mean <= 2 gain (the last step used nearly this gain)
      CHECK(qk.log.logit_spread[(qk.log.size() - 1) * 2 + l] <= 2.02f * std::abs(gain));
    }
  }
}

// Measured (sqrtdk train --d-model 256 --steps 400, seeds 0-2): scaled reaches 0.1 at 30-32 steps, unscaled at 202,
// 89 and 203 (2.97-6.5x later; at d_k 64 it was 1.7-3.2x).  Step 1, layer 0: entropy 0.16-0.18 nats unscaled vs
// 1.82-1.87 scaled, Jacobian norm 0.087-0.095 vs 0.32.  A d_model 256 step costs ~16 canonical ones, so this test
// checks the cheaper point that decides the claim: unscaled has not reached the threshold at twice scaled's step.
TEST_CASE("scenario large-dk: unscaled attention starts one-hot and needs more than twice scaled's steps on seeds 0-2",
          "[scenarios][slow]") {
  const ExerciseSettings s = settings_of("large-dk");
  REQUIRE(s.base.model.d_k() == 256);
  ModelConfig unscaled_model = s.base.model;
  unscaled_model.scale = ScaleMode::unscaled;
  CHECK(predicted_logit_std(unscaled_model) == Approx(16.0));
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Run scaled = train(s, "scaled", i, true);
    REQUIRE(scaled.reached > 0);
    CHECK(scaled.reached <= 50);
    ExerciseSettings shorter = s;
    shorter.steps = 2 * scaled.reached;
    const Run unscaled = train(shorter, "unscaled", i, false);
    CHECK(unscaled.reached < 0);
    CHECK(unscaled.log.entropy[0] < 0.5);
    CHECK(scaled.log.entropy[0] > 1.5);
    CHECK(unscaled.log.jacobian_norm[0] < 0.5 * scaled.log.jacobian_norm[0]);
  }
}
