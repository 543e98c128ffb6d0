// The settings table: names and their derived spellings, ranges, defaults, and the one reader all front ends use.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <limits>
#include <set>

#include "core/settings/settings.hpp"
#include "core/train/trainer.hpp"
#include "core/nn/valid_config.hpp"

using namespace sqrtdk;

TEST_CASE("every setting has one snake_case name, and its flag and JS key are derived from it", "[settings]") {
  std::set<std::string> names, flags, keys;
  for (const Setting& s : settings()) {
    CAPTURE(s.name);
    for (const char* p = s.name; *p != '\0'; ++p) CHECK((std::islower(*p) || std::isdigit(*p) || *p == '_'));
    CHECK(*s.doc != '\0');
    names.insert(s.name);
    flags.insert(cli_flag(s));
    keys.insert(js_key(s));
  }
  CHECK(names.size() == settings().size());
  CHECK(flags.size() == settings().size());
  CHECK(keys.size() == settings().size());
  CHECK(cli_flag(*find_setting("d_model")) == "d-model");
  CHECK(js_key(*find_setting("d_model")) == "dModel");
  CHECK(js_key(*find_setting("clip_norm")) == "clipNorm");
  CHECK(cli_flag(*find_setting("clip_norm")) == "clip-norm");
  CHECK(js_key(*find_setting("beta1")) == "beta1");
  CHECK(find_setting("n_layers") == nullptr);
}

TEST_CASE("every default lies in its range, and each bound is enforced with a message naming the setting",
          "[settings]") {
  for (const Setting& s : settings()) {
    CAPTURE(s.name);
    CHECK(check_setting(s, default_value(s)).empty());
    CHECK(check_setting(s, s.lo).empty() != s.lo_open);
    CHECK(check_setting(s, s.hi).empty() != s.hi_open);
    const double below = s.type == SettingType::real ? s.lo - 1e-3 * std::max(1.0, std::fabs(s.lo)) : s.lo - 1;
    const double above = s.type == SettingType::real ? s.hi * (1 + 1e-9) + 1e-9 : s.hi + 1;
    for (const double bad : {below, above, std::numeric_limits<double>::quiet_NaN()}) {
      TrainConfig c;
      const std::string message = apply_settings({{&s, bad}}, c);
      CHECK_THAT(message, Catch::Matchers::StartsWith(std::string(s.name) + " must be"));
      CHECK(message.find('\n') == std::string::npos);
    }
  }
  CHECK(check_setting(*find_setting("d_model"), 0) == "d_model must be in [1, 1024], got 0");
  CHECK(check_setting(*find_setting("heads"), 1.5) == "heads must be an integer in [1, 64], got 1.5");
  CHECK(check_setting(*find_setting("lr"), 0) == "lr must be a finite number in (0, 100], got 0");
  CHECK(check_setting(*find_setting("optimizer"), 2) == "optimizer must be one of adam, sgd, got 2");
  CHECK(choice_error(*find_setting("optimizer"), "rmsprop") == "optimizer must be one of adam, sgd, got 'rmsprop'");
}

TEST_CASE("get and set round-trip every setting through the double encoding", "[settings]") {
  for (const Setting& s : settings()) {
    CAPTURE(s.name);
    const double value = s.type == SettingType::real ? (s.lo + s.hi) / 2 : s.hi;
    TrainConfig c;
    s.set(c, value);
    CHECK(s.get(c) == value);
    for (const Setting& other : settings())  // and touches no other field
      if (&other != &s) CHECK(other.get(c) == default_value(other));
  }
}

TEST_CASE("the defaults are the canonical configuration's", "[settings]") {
  const TrainConfig c;
  CHECK(default_value(*find_setting("layers")) == c.model.n_layers);
  CHECK(default_value(*find_setting("optimizer")) == 0);
  CHECK(format_value(*find_setting("optimizer"), 0) == "adam");
  CHECK(default_value(*find_setting("momentum")) == 0.9);
  CHECK(c.optim.optimizer == Optimizer::adam);
  CHECK(to_string(Optimizer::sgd) == std::string("sgd"));
}

TEST_CASE("sgd without an lr takes SGD's default rate, and a given lr is kept", "[settings]") {
  const Setting& optimizer = *find_setting("optimizer");
  const Setting& lr = *find_setting("lr");
  TrainConfig c;
  REQUIRE(apply_settings({{&optimizer, 1}}, c).empty());
  CHECK(c.optim.optimizer == Optimizer::sgd);
  CHECK(c.optim.lr == kSgdDefaultLr);
  TrainConfig d;
  REQUIRE(apply_settings({{&optimizer, 1}, {&lr, 0.02}}, d).empty());
  CHECK(d.optim.lr == 0.02);
  TrainConfig e;
  REQUIRE(apply_settings({}, e).empty());
  CHECK(e.optim.lr == 1e-3);
}

TEST_CASE("a refused value leaves the configuration as it was", "[settings]") {
  TrainConfig c;
  c.model.d_model = 32;
  const std::string message = apply_settings({{find_setting("layers"), 3}, {find_setting("momentum"), 1.0}}, c);
  CHECK(message == "momentum must be a finite number in [0, 1), got 1");
  CHECK(c.model.n_layers == 2);
  CHECK(c.model.d_model == 32);
}
