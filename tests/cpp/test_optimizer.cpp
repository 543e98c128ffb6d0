// The optimizers: SGD with momentum against a hand-computed example, the settings that choose them, and the
// update-size metric every optimizer reports.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/nn/adam.hpp"
#include "core/settings/config.hpp"
#include "core/settings/settings.hpp"
#include "core/nn/sgd.hpp"
#include "core/train/trainer.hpp"
#include "core/nn/valid_config.hpp"

using namespace sqrtdk;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {
OptimConfig sgd_config(double lr, double momentum) {
  OptimConfig o;
  o.optimizer = Optimizer::sgd;
  o.lr = lr;
  o.momentum = momentum;
  return o;
}
}  // namespace

TEST_CASE("SGD with momentum takes the two hand-computed steps", "[optimizer]") {
  // lr 0.1, momentum 0.9.
  // step 1: g = (0.5, -1, 2)   v = g                 = (0.5, -1, 2)       w = (1, -2, 0.5) - 0.1 v = (0.95, -1.9, 0.3)
  // step 2: g = (1, 0, -2)     v = 0.9 v + g         = (1.45, -0.9, -0.2) w - 0.1 v             = (0.805, -1.81, 0.32)
  Sgd sgd(sgd_config(0.1, 0.9), 3);
  std::vector<float> w{1.0f, -2.0f, 0.5f};
  const std::vector<float> g1{0.5f, -1.0f, 2.0f}, g2{1.0f, 0.0f, -2.0f};
  sgd.step(w.data(), g1.data(), 0.0);
  CHECK_THAT(w[0], WithinAbs(0.95, 1e-6));
  CHECK_THAT(w[1], WithinAbs(-1.9, 1e-6));
  CHECK_THAT(w[2], WithinAbs(0.3, 1e-6));
  CHECK_THAT(sgd.update_sum_squares(0, 3), WithinRel(0.01 * (0.25 + 1 + 4), 1e-6));
  sgd.step(w.data(), g2.data(), 0.0);
  CHECK_THAT(sgd.velocity()[0], WithinAbs(1.45, 1e-6));
  CHECK_THAT(sgd.velocity()[1], WithinAbs(-0.9, 1e-6));
  CHECK_THAT(sgd.velocity()[2], WithinAbs(-0.2, 1e-6));
  CHECK_THAT(w[0], WithinAbs(0.805, 1e-6));
  CHECK_THAT(w[1], WithinAbs(-1.81, 1e-6));
  CHECK_THAT(w[2], WithinAbs(0.32, 1e-6));
  // The update size is lr |v|: 0.1 * sqrt(1.45^2 + 0.9^2 + 0.2^2); over a sub-range, only those entries.
  CHECK_THAT(sgd.update_sum_squares(0, 3), WithinRel(0.01 * 2.9525, 1e-6));
  CHECK_THAT(sgd.update_sum_squares(1, 2), WithinRel(0.01 * 0.81, 1e-6));
  CHECK(sgd.steps() == 2);
  sgd.reset();
  CHECK(sgd.steps() == 0);
  CHECK(sgd.velocity() == std::vector<float>(3, 0.0f));
}

TEST_CASE("SGD with momentum 0 is plain gradient descent, and clipping scales the gradient first", "[optimizer]") {
  OptimConfig o = sgd_config(0.5, 0.0);
  o.clip_norm = 1.0;
  Sgd sgd(o, 2);
  std::vector<float> w{0.0f, 0.0f};
  const std::vector<float> g{3.0f, 4.0f};  // norm 5: clipped to norm 1, i.e. (0.6, 0.8)
  sgd.step(w.data(), g.data(), 5.0);
  CHECK_THAT(w[0], WithinAbs(-0.3, 1e-7));
  CHECK_THAT(w[1], WithinAbs(-0.4, 1e-7));
  sgd.step(w.data(), g.data(), 5.0);  // no momentum: the same step again
  CHECK_THAT(w[0], WithinAbs(-0.6, 1e-7));
  CHECK_THAT(w[1], WithinAbs(-0.8, 1e-7));
}

TEST_CASE("Adam reports the size of the update it applied", "[optimizer]") {
  // First Adam step: mhat = g, vhat = g^2, so each entry moves by lr * g / (|g| + eps) ~ lr.
  OptimConfig o;
  o.lr = 0.01;
  Adam adam(o, 3);
  CHECK(adam.update_sum_squares(0, 3) == 0.0);
  std::vector<float> w{1.0f, 2.0f, 3.0f};
  const std::vector<float> before = w;
  const std::vector<float> g{0.5f, -2.0f, 1e-3f};
  adam.step(w.data(), g.data(), 0.0);
  double moved = 0;
  for (int i = 0; i < 3; ++i) moved += double(w[i] - before[i]) * (w[i] - before[i]);
  CHECK_THAT(adam.update_sum_squares(0, 3), WithinRel(3 * 0.01 * 0.01, 1e-5));
  CHECK_THAT(adam.update_sum_squares(0, 3), WithinRel(moved, 1e-4));
}

TEST_CASE("make_update_rule builds the chosen optimizer", "[optimizer]") {
  OptimConfig o;
  CHECK(dynamic_cast<Adam*>(make_update_rule(o, 4).get()) != nullptr);
  o.optimizer = Optimizer::sgd;
  CHECK(dynamic_cast<Sgd*>(make_update_rule(o, 4).get()) != nullptr);
}

TEST_CASE("optimizer names parse, momentum must be at least 0 and below 1, and SGD's default lr is documented", "[optimizer][config]") {
  const Setting& optimizer = *find_setting("optimizer");  // names and their parsing: the settings table
  CHECK(choice_index(optimizer, "adam") == static_cast<int>(Optimizer::adam));
  CHECK(choice_index(optimizer, "sgd") == static_cast<int>(Optimizer::sgd));
  CHECK(std::string(to_string(Optimizer::sgd)) == "sgd");
  CHECK(choice_index(optimizer, "SGD") == -1);
  CHECK(choice_error(optimizer, "rmsprop") == "optimizer must be one of adam, sgd, got 'rmsprop'");
  CHECK(TrainConfig{}.optim.optimizer == Optimizer::adam);
  CHECK(TrainConfig{}.optim.momentum == 0.9);
  CHECK(kSgdDefaultLr == 0.1);
  struct Case {
    double momentum;
    const char* message;
  };
  const Case cases[] = {
      {1.0, "momentum must be a finite number in [0, 1), got 1"},
      {-0.1, "momentum must be a finite number in [0, 1), got -0.1"},
      {std::numeric_limits<double>::quiet_NaN(), "momentum must be a finite number in [0, 1), got nan"},
      {std::numeric_limits<double>::infinity(), "momentum must be a finite number in [0, 1), got ∞"},
  };
  for (const Case& k : cases) {
    TrainConfig c;
    c.optim.optimizer = Optimizer::sgd;
    c.optim.momentum = k.momentum;
    CHECK(validate(c) == k.message);
    CHECK_THROWS_WITH(Trainer(c), k.message);
  }
  TrainConfig c;
  c.optim.optimizer = Optimizer::sgd;
  c.optim.momentum = 0.0;
  CHECK(validate(c).empty());
  c.optim.lr = 0.0;
  CHECK(validate(c) == "lr must be a finite number in (0, 100], got 0");
  c.optim.lr = 1000;
  CHECK(validate(c) == "lr must be a finite number in (0, 100], got 1000");
  c.optim.lr = 0.1;
  c.optim.optimizer = static_cast<Optimizer>(7);
  CHECK(validate(c) == "optimizer must be one of adam, sgd, got 7");
}
