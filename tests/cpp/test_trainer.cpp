// The trainer: it learns the copy task, deterministically, without allocating, and stops cleanly on divergence.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "alloc_counter.hpp"
#include "core/answer/analysis.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/nn/layers.hpp"
#include "core/answer/mechanism.hpp"
#include "core/train/trainer.hpp"

using namespace sqrtdk;
using Catch::Matchers::WithinAbs;
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
  const auto optimizer = GENERATE(Optimizer::adam, Optimizer::sgd);
  CAPTURE(scale, to_string(optimizer));
  TrainConfig config;
  parse_scale(scale, config.model);
  config.optim.optimizer = optimizer;
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
  Workspace<float> ws(config, B, LastLayerRows::all);  // every row: the reference computes more than it needs
  std::copy(eval.inputs.begin(), eval.inputs.end(), ws.inputs.begin());
  std::copy(eval.targets.begin(), eval.targets.end(), ws.targets.begin());
  int tokens = 0, sequences = 0;
  std::vector<int> right(B, 1);
  for (int p = layout.first_scored(); p < TT; ++p) {
    trainer.model().forward(ws);
    for (int b = 0; b < B; ++b) {
      const float* l = ws.logits_at(b, p);
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

namespace {
// Sum of squares of `block` over the tensors W_q, b_q, W_k, b_k of layer l.
double qk_sum_squares(const ParamLayout& layout, const std::vector<float>& block, int l) {
  double s = 0;
  for (const char* name : {"attn.wq", "attn.bq", "attn.wk", "attn.bk"}) {
    const ParamInfo& p = layout.find("blocks." + std::to_string(l) + "." + name);
    for (std::size_t i = p.offset; i < p.offset + p.size; ++i) s += double(block[i]) * block[i];
  }
  return s;
}
}  // namespace

TEST_CASE("qk_grad_norm is the norm of the W_q, b_q, W_k, b_k gradient views of each layer", "[trainer][mechanism]") {
  const auto scale = GENERATE(as<std::string>{}, "scaled", "unscaled", "qknorm");
  CAPTURE(scale);
  TrainConfig config;
  parse_scale(scale, config.model);
  config.model.n_heads = 2;
  Trainer trainer(config);
  for (int i = 0; i < 3; ++i) trainer.step();  // the gradient of the last step stays in grads() until the next
  const std::vector<float>& g = trainer.model().grads();
  for (int l = 0; l < config.model.n_layers; ++l) {
    CAPTURE(l);
    const double expected = std::sqrt(qk_sum_squares(trainer.model().layout(), g, l));
    CHECK(expected > 0);
    CHECK_THAT(trainer.last().qk_grad_norm[l], WithinRel(expected, 1e-5));
    CHECK(trainer.last().qk_grad_norm[l] <= trainer.last().layer_grad_norm[l]);
  }
}

TEST_CASE("qk_update_norm for SGD is lr |v| with v = momentum v + g, and is the parameter change",
          "[trainer][mechanism]") {
  TrainConfig config;
  config.optim.optimizer = Optimizer::sgd;
  config.optim.lr = 0.05;
  config.optim.momentum = 0.9;
  Trainer trainer(config);
  const ParamLayout& layout = trainer.model().layout();
  const std::vector<float> p0 = trainer.model().params();
  trainer.step();
  const std::vector<float> g1 = trainer.model().grads();
  const std::vector<float> p1 = trainer.model().params();
  trainer.step();
  const std::vector<float> g2 = trainer.model().grads();
  const std::vector<float> p2 = trainer.model().params();
  std::vector<float> v2(g2.size()), moved(g2.size());
  for (std::size_t i = 0; i < g2.size(); ++i) {
    v2[i] = 0.9f * g1[i] + g2[i];
    moved[i] = p2[i] - p1[i];
  }
  for (int l = 0; l < config.model.n_layers; ++l) {
    CAPTURE(l);
    // Step 1: v = g, so the update is lr |g|; step 2: lr |0.9 g1 + g2|.
    CHECK_THAT(trainer.last().qk_update_norm[l], WithinRel(0.05 * std::sqrt(qk_sum_squares(layout, v2, l)), 1e-5));
    CHECK_THAT(trainer.last().qk_update_norm[l], WithinRel(std::sqrt(qk_sum_squares(layout, moved, l)), 1e-3));
  }
  trainer.reset(0);
  CHECK(trainer.model().params() == p0);
  trainer.step();
  for (int l = 0; l < config.model.n_layers; ++l)
    CHECK_THAT(trainer.last().qk_update_norm[l], WithinRel(0.05 * trainer.last().qk_grad_norm[l], 1e-5));
}

TEST_CASE("qk_update_norm for Adam is the parameter change of W_q, b_q, W_k, b_k", "[trainer][mechanism]") {
  TrainConfig config;
  Trainer trainer(config);
  trainer.run(5);
  const std::vector<float> before = trainer.model().params();
  trainer.step();
  std::vector<float> moved(before.size());
  for (std::size_t i = 0; i < moved.size(); ++i) moved[i] = trainer.model().params()[i] - before[i];
  for (int l = 0; l < config.model.n_layers; ++l)
    CHECK_THAT(trainer.last().qk_update_norm[l],
               WithinRel(std::sqrt(qk_sum_squares(trainer.model().layout(), moved, l)), 1e-3));
}

TEST_CASE("logit_spread and jacobian_norm equal a direct computation from q and k (double)", "[trainer][mechanism]") {
  const auto scale = GENERATE(as<std::string>{}, "scaled", "unscaled", "qknorm");
  CAPTURE(scale);
  TrainConfig config;
  config.model.d_model = 8;
  config.model.n_heads = 2;
  config.model.d_ff = 12;
  parse_scale(scale, config.model);
  config.task.copy_length = 3;
  config.task.n_symbols = 4;
  config.task.batch = 3;
  Model<double> model(config);
  Rng rng(5);
  model.initialize(rng);
  for (double& p : model.params()) p += 0.3 * rng.normal();  // spread the logits beyond their init
  Workspace<double> ws(config, config.task.batch);
  CopyBatch batch;
  batch.resize(config.task.batch, config.task.seq_len());
  Rng data(6);
  sample_copy_batch(config.task, data, batch);
  model.forward(ws, batch.inputs.data(), batch.targets.data());
  const int B = config.task.batch, TT = config.task.seq_len(), H = 2, D = 4, C = 8;
  const bool qk = config.model.scale == ScaleMode::qknorm;
  for (int l = 0; l < config.model.n_layers; ++l) {
    CAPTURE(l);
    const Workspace<double>::Layer& A = ws.layers[l];
    const std::string gain_name = "blocks." + std::to_string(l) + ".attn.qk_gain";
    const double* gain = qk ? model.params().data() + model.layout().find(gain_name).offset : nullptr;
    double spread = 0, jacobian = 0;
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h)
        for (int i = 0; i < TT; ++i) {
          std::vector<double> s(i + 1), p(i + 1);
          for (int j = 0; j <= i; ++j) {
            double dot = 0;
            for (int d = 0; d < D; ++d) {
              const long qi = (static_cast<long>(b) * TT + i) * C + h * D + d;
              const long kj = (static_cast<long>(b) * TT + j) * C + h * D + d;
              dot += qk ? A.qhat[qi] * A.khat[kj] : A.q[qi] * A.k[kj];
            }
            s[j] = dot * (qk ? gain[h] : attention_scale(config.model));
          }
          double mx = s[0], mean = 0, z = 0;
          for (double x : s) { mx = std::max(mx, x); mean += x / (i + 1); }
          spread += mx - mean;
          for (int j = 0; j <= i; ++j) z += p[j] = std::exp(s[j] - mx);
          for (double& x : p) x /= z;
          double f2 = 0;  // |diag(p) - p p^T|_F^2, entry by entry
          for (int j = 0; j <= i; ++j)
            for (int k = 0; k <= i; ++k) {
              const double e = (j == k ? p[j] : 0.0) - p[j] * p[k];
              f2 += e * e;
            }
          jacobian += std::sqrt(f2);
        }
    const double rows = double(B) * H * TT;
    CHECK(spread / rows > 0.1);
    CHECK_THAT(A.logit_spread, WithinRel(spread / rows, 1e-10));
    CHECK_THAT(A.jacobian_norm, WithinRel(jacobian / rows, 1e-10));
  }
}

TEST_CASE("the trainer logs the mechanism metrics of every step and layer", "[trainer][mechanism]") {
  TrainConfig config;
  config.model.scale = ScaleMode::unscaled;
  Trainer trainer(config);
  const TrainLog log = trainer.run(4);
  const TrainLog more = trainer.run(3);
  TrainLog all = log;
  all.extend(more);
  REQUIRE(all.size() == 7);
  for (const auto* v : {&all.qk_grad_norm, &all.qk_update_norm, &all.logit_spread, &all.jacobian_norm}) {
    REQUIRE(v->size() == 7 * 2);
    for (float x : *v) CHECK((std::isfinite(x) && x > 0));
  }
  // At init the unscaled logits are ~N(0, 8^2): the row spread is several units and the Jacobian is small.
  CHECK(all.logit_spread[0] > 5);
  for (float j : all.jacobian_norm) CHECK(j < 0.5f);  // |J|_F of a softmax row is at most 1/2
  CHECK(all.qk_grad_norm[2 * 4] == more.qk_grad_norm[0]);
  // The q/k gradient drop: peak and final of the smoothed all-layer norm.
  const std::vector<float> qk = qk_gradient(all);
  CHECK_THAT(qk[0], WithinRel(std::hypot(double(all.qk_grad_norm[0]), double(all.qk_grad_norm[1])), 1e-6));
  const GradientDrop drop = qk_gradient_drop(all, 2);
  CHECK(drop.peak >= drop.final);
  CHECK(drop.peak_step >= 1);
  CHECK(drop.peak_step <= 7);
  CHECK_THAT(drop.final, WithinRel((qk[5] + qk[6]) / 2.0, 1e-6));
}
