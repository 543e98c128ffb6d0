// Validation: every invalid configuration is refused with a message naming the field, before allocating.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/settings/attention_scale.hpp"
#include "core/settings/config.hpp"
#include "core/train/trainer.hpp"
#include "core/nn/valid_config.hpp"

using namespace sqrtdk;

TEST_CASE("the canonical configuration is valid and is the default", "[config]") {
  const TrainConfig c;
  CHECK(validate(c).empty());
  CHECK(c.model.n_layers == 2);
  CHECK(c.model.d_model == 64);
  CHECK(c.model.d_k() == 64);
  CHECK(c.model.ff() == 256);
  CHECK(c.task.copy_length == 10);
  CHECK(c.task.n_symbols == 10);
  CHECK(c.task.batch == 32);
  CHECK(c.optim.lr == 1e-3);
  CHECK(c.optim.clip_norm == 0.0);
  CHECK(c.model.init == InitScheme::xavier);
}

TEST_CASE("invalid configurations fail with their message", "[config]") {
  struct Case {
    const char* message;
    void (*edit)(TrainConfig&);
  };
  const Case cases[] = {
      {"d_model (65) must be divisible by heads (2)", [](TrainConfig& c) { c.model.d_model = 65; c.model.n_heads = 2; }},
      {"d_model must be in [1, 1024], got 0", [](TrainConfig& c) { c.model.d_model = 0; }},
      {"layers must be in [1, 12], got -1", [](TrainConfig& c) { c.model.n_layers = -1; }},
      {"heads must be in [1, 64], got 0", [](TrainConfig& c) { c.model.n_heads = 0; }},
      {"batch must be in [1, 1024], got 0", [](TrainConfig& c) { c.task.batch = 0; }},
      {"copy_length must be in [1, 64], got 100", [](TrainConfig& c) { c.task.copy_length = 100; }},
      {"symbols must be in [2, 1000], got 1", [](TrainConfig& c) { c.task.n_symbols = 1; }},
      {"lr must be a finite number in (0, 100], got nan",
       [](TrainConfig& c) { c.optim.lr = std::numeric_limits<double>::quiet_NaN(); }},
      {"lr must be a finite number in (0, 100], got -0.001", [](TrainConfig& c) { c.optim.lr = -1e-3; }},
      {"lr must be a finite number in (0, 100], got ∞",
       [](TrainConfig& c) { c.optim.lr = std::numeric_limits<double>::infinity(); }},
      {"beta2 must be a finite number in [0, 1), got 1", [](TrainConfig& c) { c.optim.beta2 = 1.0; }},
      {"momentum must be a finite number in [0, 1), got 1", [](TrainConfig& c) { c.optim.momentum = 1.0; }},
      {"momentum must be a finite number in [0, 1), got nan",
       [](TrainConfig& c) { c.optim.momentum = std::numeric_limits<double>::quiet_NaN(); }},
      {"optimizer must be one of adam, sgd, got 2", [](TrainConfig& c) { c.optim.optimizer = static_cast<Optimizer>(2); }},
      {"alpha must be a finite number in [0, 2], got 3", [](TrainConfig& c) { c.model.alpha = 3; }},
  };
  for (const Case& k : cases) {
    TrainConfig c;
    k.edit(c);
    CHECK(validate(c) == k.message);
    CHECK_THROWS_WITH(Trainer(c), k.message);
  }
}

TEST_CASE("a configuration past the memory cap is refused before anything is allocated", "[config]") {
  TrainConfig c;
  c.model.d_model = 1024;
  c.model.d_ff = 8192;
  c.model.n_layers = 12;
  c.task.batch = 1024;
  c.task.copy_length = 64;
  const std::string message = validate(c);
  CHECK_THAT(message, Catch::Matchers::StartsWith("configuration needs about"));
  CHECK_THAT(message, Catch::Matchers::Contains("over the cap of 512 MiB"));
  CHECK(estimated_bytes(c) > Limits::max_bytes);
  CHECK(estimated_bytes(TrainConfig{}) < (std::size_t(25) << 20));  // the canonical trainer: about 24 MiB
}

TEST_CASE("scale and init names parse, and anything else is refused", "[config]") {
  ModelConfig m;
  parse_scale("alpha=0.25", m);
  CHECK(m.scale == ScaleMode::alpha);
  CHECK(m.alpha == 0.25);
  CHECK(scale_label(m) == "alpha=0.25");
  CHECK(attention_scale(m) == Approx(std::pow(64.0, -0.25)));
  parse_scale("qknorm", m);
  CHECK(scale_label(m) == "qknorm");
  CHECK(initial_qk_gain(m) == 8.0);
  CHECK_THROWS_WITH(parse_scale("alpha=x", m), "scale alpha=x: alpha must be a number, got 'x'");
  CHECK_THROWS_WITH(parse_scale("alpha=3", m), "scale alpha=3: alpha must be a finite number in [0, 2], got 3");
  CHECK_THROWS_WITH(parse_scale("Scaled", m), "scale must be scaled, unscaled, alpha, qknorm or alpha=<number>, got 'Scaled'");
}
