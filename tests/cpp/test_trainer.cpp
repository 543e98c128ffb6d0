// The trainer: it learns the copy task, deterministically, without allocating, and stops cleanly on divergence.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "alloc_counter.hpp"
#include "core/analysis.hpp"
#include "core/trainer.hpp"

using namespace sqrtdk;
using Catch::Matchers::WithinRel;

TEST_CASE("scaled attention learns the canonical copy task within 1500 steps for seeds 0, 1, 2", "[trainer][slow]") {
  const uint64_t seed = GENERATE(0, 1, 2);
  CAPTURE(seed);
  TrainConfig config;  // canonical: 2 layers, d_model 64, 1 head, d_ff 256, L 10 over 10 symbols, batch 32
  config.seed = seed;
  Trainer trainer(config);
  std::vector<float> curve;
  EvalMetrics eval;
  bool reached = false;
  while (trainer.steps_done() < 1500 && !reached) {
    const TrainLog chunk = trainer.run(50);
    curve.insert(curve.end(), chunk.loss.begin(), chunk.loss.end());
    eval = chunk.evals.back();
    const double smoothed = smoothed_loss(curve, 20).back();
    reached = smoothed < 0.05 && eval.sequence_accuracy >= 0.95;
  }
  INFO("stopped at step " << trainer.steps_done() << ", sequence accuracy " << eval.sequence_accuracy);
  CHECK(reached);
  CHECK_FALSE(trainer.diverged());
}

TEST_CASE("the same seed gives an identical loss curve, also after reset", "[trainer]") {
  TrainConfig config;
  config.seed = 7;
  Trainer a(config), b(config);
  const TrainLog la = a.run(30), lb = b.run(30);
  CHECK(la.loss == lb.loss);
  CHECK(la.entropy == lb.entropy);
  a.reset(7);
  CHECK(a.run(30).loss == la.loss);
  a.reset(8);
  CHECK(a.run(30).loss != la.loss);
}

TEST_CASE("a training step performs no heap allocation", "[trainer][alloc]") {
  if (!testing::CountAllocations::available()) {
    WARN("allocation counting is off in sanitizer builds; the release build runs this test");
    return;
  }
  const auto scale = GENERATE(as<std::string>{}, "scaled", "qknorm");
  TrainConfig config;
  parse_scale(scale, config.model);
  config.model.n_heads = 2;
  config.optim.clip_norm = 1.0;
  Trainer trainer(config);
  trainer.step();  // warm-up outside the counted scope
  testing::CountAllocations counter;
  for (int i = 0; i < 5; ++i) trainer.step();
  CHECK(counter.count() == 0);
}

TEST_CASE("unscaled attention with learning rate 10 is marked diverged with its step and stops", "[trainer]") {
  TrainConfig config;
  config.model.scale = ScaleMode::unscaled;
  config.optim.lr = 10;
  Trainer trainer(config);
  const TrainLog log = trainer.run(300);
  REQUIRE(trainer.diverged());
  CHECK(trainer.diverged_step() == static_cast<int>(log.size()));
  CHECK(!(log.loss.back() <= trainer.divergence_loss()));  // above the bound, or NaN
  CHECK(log.size() < 300);
  CHECK(trainer.run(10).size() == 0);
  CHECK_FALSE(trainer.step());
  trainer.reset(0);
  CHECK_FALSE(trainer.diverged());
}

TEST_CASE("metrics per step have one value per layer and head and sensible ranges", "[trainer]") {
  TrainConfig config;
  config.model.n_heads = 4;
  config.eval_every = 5;
  Trainer trainer(config);
  const TrainLog log = trainer.run(10);
  REQUIRE(log.size() == 10);
  CHECK(log.layer_grad_norm.size() == 10 * 2);
  CHECK(log.entropy.size() == 10 * 2 * 4);
  CHECK(log.max_logit.size() == 10 * 2);
  CHECK(log.evals.size() == 2);
  CHECK(log.evals[1].step == 10);
  for (float e : log.entropy) CHECK((e >= 0 && e <= std::log(21.0f)));
  for (float w : log.top_weight) CHECK((w > 0 && w <= 1));
  const double layers_sq = log.layer_grad_norm[0] * log.layer_grad_norm[0] + log.layer_grad_norm[1] * log.layer_grad_norm[1];
  CHECK(std::sqrt(layers_sq) <= log.grad_norm[0] * (1 + 1e-5));
}

TEST_CASE("the measured attention logit std at init matches the prediction for each init and scale", "[trainer]") {
  const auto init = GENERATE(InitScheme::xavier, InitScheme::torch, InitScheme::gpt);
  const auto scale = GENERATE(as<std::string>{}, "scaled", "unscaled", "qknorm");
  CAPTURE(to_string(init), scale);
  TrainConfig config;
  config.model.init = init;
  parse_scale(scale, config.model);
  config.task.eval_batch = 256;
  Trainer trainer(config);
  CHECK_THAT(trainer.measured_logit_std(), WithinRel(predicted_logit_std(config.model), 0.2));
}

TEST_CASE("unscaled xavier logits at d_k 64 have std near 8, scaled near 1", "[trainer]") {
  ModelConfig m;
  m.scale = ScaleMode::unscaled;
  CHECK_THAT(predicted_logit_std(m), WithinRel(8.0, 1e-12));
  m.scale = ScaleMode::scaled;
  CHECK_THAT(predicted_logit_std(m), WithinRel(1.0, 1e-12));
  m.init = InitScheme::gpt;
  m.scale = ScaleMode::unscaled;
  CHECK_THAT(predicted_logit_std(m), WithinRel(0.2048, 1e-9));
}

TEST_CASE("attention maps are T x T, causal, row-stochastic, and bad indices are refused", "[trainer]") {
  TrainConfig config;
  config.model.n_heads = 2;
  Trainer trainer(config);
  const int TT = config.task.seq_len();
  const std::vector<float> map = trainer.attention_map(3, 1, 1);
  REQUIRE(map.size() == static_cast<std::size_t>(TT * TT));
  for (int i = 0; i < TT; ++i) {
    float sum = 0;
    for (int j = 0; j < TT; ++j) sum += map[i * TT + j];
    CHECK_THAT(sum, WithinRel(1.0f, 1e-5f));
    CHECK(map[i * TT + TT - 1] == (i == TT - 1 ? map[i * TT + TT - 1] : 0.0f));
  }
  CHECK_THROWS_WITH(trainer.attention_map(64, 0, 0), "example must be in [0, 63]");
  CHECK_THROWS_WITH(trainer.attention_map(0, 2, 0), "layer must be in [0, 1]");
  CHECK_THROWS_WITH(trainer.attention_map(0, 0, -1), "head must be in [0, 1]");
}

TEST_CASE("an untrained model copies at about chance level", "[trainer]") {
  TrainConfig config;
  config.task.eval_batch = 256;
  Trainer trainer(config);
  const EvalMetrics e = trainer.evaluate();
  CHECK(e.token_accuracy < 0.3);
  CHECK(e.sequence_accuracy < 0.01);
  CHECK(e.step == 0);
}

TEST_CASE("evaluation equals naive greedy decoding, token by token", "[trainer]") {
  // Reference: feed BOS x SEP, then at every scored position take the argmax as the next input.
  const int steps = GENERATE(0, 40, 120);
  CAPTURE(steps);
  TrainConfig config;
  config.task.eval_batch = 16;
  Trainer trainer(config);
  trainer.run(steps);
  const EvalMetrics fast = trainer.evaluate();

  const int B = config.task.eval_batch, TT = config.task.seq_len(), V = config.task.vocab();
  const CopyLayout layout{config.task.copy_length};
  CopyBatch eval;
  eval.resize(B, TT);
  Rng rng = Rng::derive(config.seed, static_cast<uint64_t>(Stream::eval));
  sample_copy_batch(config.task, rng, eval);
  Workspace<float> ws(config, B);
  std::copy(eval.inputs.begin(), eval.inputs.end(), ws.inputs.begin());
  std::copy(eval.targets.begin(), eval.targets.end(), ws.targets.begin());
  int tokens = 0, sequences = 0;
  std::vector<int> right(B, 1);
  for (int p = layout.first_scored(); p < TT; ++p) {
    trainer.model().forward(ws);
    for (int b = 0; b < B; ++b) {
      const float* l = ws.logits + (static_cast<long>(b) * TT + p) * V;
      const int next = static_cast<int>(std::max_element(l, l + V) - l);
      const bool ok = next == eval.targets[b * TT + p];
      tokens += ok;
      right[b] &= ok;
      if (p + 1 < TT) ws.inputs[b * TT + p + 1] = next;
    }
  }
  for (int r : right) sequences += r;
  CHECK(fast.token_accuracy == static_cast<float>(tokens) / (B * config.task.copy_length));
  CHECK(fast.sequence_accuracy == static_cast<float>(sequences) / B);
}
