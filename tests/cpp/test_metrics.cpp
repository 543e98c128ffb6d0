// The per-step metrics table: every row is filled by a step, in the shape it declares, and names its columns.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/answer/mechanism.hpp"
#include "core/train/metrics.hpp"
#include "core/train/trainer.hpp"

using namespace sqrtdk;

TEST_CASE("every metric of the table is recorded each step in its declared shape", "[metrics]") {
  TrainConfig c;
  c.model.d_model = 16;
  c.model.n_heads = 2;
  c.model.n_layers = 3;
  c.task.copy_length = 3;
  c.task.batch = 4;
  c.task.eval_batch = 4;
  Trainer trainer(c);
  const TrainLog log = trainer.run(5);
  std::set<std::string> names;
  for (const Metric& m : metrics()) {
    CAPTURE(m.name);
    CHECK(names.insert(m.name).second);
    CHECK((m.scalar == nullptr) == (m.shape != MetricShape::step));
    CHECK((m.values == nullptr) == (m.shape == MetricShape::step));
    const std::size_t width = static_cast<std::size_t>(metric_width(m, 3, 2));
    CHECK((log.*m.series).size() == 5 * width);
    for (const float v : log.*m.series) CHECK(std::isfinite(v));
    CHECK(metric_columns(m, 3, 2).size() == width);
  }
  CHECK(metric_columns(find_metric("entropy"), 3, 2).back() == "entropy_l3_h2");
  CHECK(metric_columns(find_metric("qk_grad_norm"), 3, 2).front() == "qk_grad_norm_l1");
  CHECK(camel_case("qk_grad_norm") == "qkGradNorm");
  CHECK_THROWS_AS(find_metric("no_such_metric"), std::out_of_range);
}

TEST_CASE("the CSV header is variant, seed, step, the metrics' columns, then the evaluation's", "[metrics]") {
  const std::vector<std::string> header = curves_csv_header(2, 1);
  REQUIRE(header.size() == 3 + 2 + 8 * 2 + 3);
  CHECK(header[0] == "variant");
  CHECK(header[3] == "loss");
  CHECK(header[5] == "layer_grad_norm_l1");
  CHECK(header.back() == "eval_sequence_accuracy");
}

TEST_CASE("a whole-model value combines the layers by the metric's rule", "[metrics]") {
  TrainConfig c;
  c.model.d_model = 16;
  c.model.n_layers = 2;
  c.task.copy_length = 3;
  c.task.batch = 4;
  c.task.eval_batch = 4;
  Trainer trainer(c);
  const TrainLog log = trainer.run(2);
  const std::vector<float> qk = whole_model(log, find_metric("qk_grad_norm"));
  const std::vector<float> jac = whole_model(log, find_metric("jacobian_norm"));
  for (std::size_t t = 0; t < 2; ++t) {
    const double a = log.qk_grad_norm[2 * t], b = log.qk_grad_norm[2 * t + 1];
    CHECK(qk[t] == Approx(std::sqrt(a * a + b * b)));
    CHECK(jac[t] == Approx(0.5 * (log.jacobian_norm[2 * t] + log.jacobian_norm[2 * t + 1])));
  }
}
