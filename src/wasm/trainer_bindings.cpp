// The trainer's Embind surface: lab.createTrainer's object (configure, step, evaluate, attention maps, reset,
// status) and the per-step metrics table (lab.metrics()).  A step chunk holds every metric of the table
// (metrics.hpp) under its JS key, as typed arrays (copies), and under `wholeModel` each combined metric's one value
// per step for the whole model (mechanism.hpp whole_model: the page draws and analyses the core's combination, not
// a copy of its rule).  Invalid input returns {error} or a message.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "core/answer/mechanism.hpp"  // whole_model
#include "core/train/metrics.hpp"
#include "core/arith/rng.hpp"  // kMaxSeed
#include "core/train/trainer.hpp"
#include "wasm/config_js.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {
namespace {

using emscripten::val;

val eval_js(const EvalMetrics& e) {
  val o = val::object();
  o.set("step", e.step);
  for (const EvalColumn& c : eval_columns()) o.set(camel_case(c.field), e.*c.value);
  return o;
}

constexpr int kMaxStepsPerCall = 100000;

class WasmTrainer {
 public:
  // "" or the first problem with `config`; on a problem the trainer keeps its previous state.
  std::string configure(val config) {
    TrainConfig c;
    const std::string problem = read_config(config, c);
    if (!problem.empty()) return problem;
    const std::string memory = check_memory(c);
    if (!memory.empty()) return memory;
    trainer_.reset();  // free the old trainer before allocating its replacement
    trainer_ = std::make_unique<Trainer>(c);
    return "";
  }

  val step(val k) {
    if (!trainer_) return error_result("trainer is not configured");
    const std::string problem = check_integer(k, "steps", 1, kMaxStepsPerCall);
    if (!problem.empty()) return error_result(problem);
    const TrainLog log = trainer_->run(k.as<int>());
    val o = status();
    o.set("steps", typed_copy("Int32Array", log.step));
    val whole = val::object();
    for (const Metric& m : metrics()) {
      o.set(camel_case(m.name), typed_copy("Float32Array", log.*m.series));
      if (m.combine != LayerCombine::none) whole.set(camel_case(m.name), typed_copy("Float32Array", whole_model(log, m)));
    }
    o.set("wholeModel", whole);
    val evals = val::array();
    for (const EvalMetrics& e : log.evals) evals.call<void>("push", eval_js(e));
    o.set("evals", evals);
    return o;
  }

  val evaluate() {
    if (!trainer_) return error_result("trainer is not configured");
    return eval_js(trainer_->evaluate());
  }

  val attention_map(val example, val layer, val head) {
    if (!trainer_) return error_result("trainer is not configured");
    const TrainConfig& c = trainer_->config();
    std::string problem = check_integer(example, "example", 0, c.task.eval_batch - 1);
    if (problem.empty()) problem = check_integer(layer, "layer", 0, c.model.n_layers - 1);
    if (problem.empty()) problem = check_integer(head, "head", 0, c.model.n_heads - 1);
    if (!problem.empty()) return error_result(problem);
    const std::vector<float> map = trainer_->attention_map(example.as<int>(), layer.as<int>(), head.as<int>());
    // The positions the page labels and the guide it draws (a copying query's key), from the one layout.
    const CopyLayout layout{c.task.copy_length};
    val guide = val::array();
    for (const int query : {layout.first_scored(), layout.last_scored()}) {
      val cell = val::object();
      cell.set("query", query);
      cell.set("key", layout.source_of(query));
      guide.call<void>("push", cell);
    }
    val positions = val::object();
    positions.set("bos", layout.bos_position());
    positions.set("sep", layout.sep_position());
    positions.set("guide", guide);
    val o = val::object();
    o.set("data", typed_copy("Float32Array", map));
    o.set("rows", layout.positions());
    o.set("cols", layout.positions());
    o.set("layout", positions);
    return o;
  }

  std::string reset(val seed) {
    if (!trainer_) return "trainer is not configured";
    const std::string problem = check_integer(seed, "seed", 0, static_cast<double>(kMaxSeed));
    if (!problem.empty()) return problem;
    trainer_->reset(static_cast<uint64_t>(seed.as<double>()));
    return "";
  }

  val measured_logit_std() {
    if (!trainer_) return error_result("trainer is not configured");
    val o = val::object();
    o.set("value", trainer_->measured_logit_std());
    return o;
  }

  // Configuration, steps done and divergence.
  val status() const {
    if (!trainer_) return error_result("trainer is not configured");
    val o = val::object();
    o.set("config", config_to_js(trainer_->config()));
    o.set("stepsDone", trainer_->steps_done());
    o.set("diverged", trainer_->diverged());
    o.set("divergedStep", trainer_->diverged_step());
    o.set("layers", trainer_->config().model.n_layers);
    o.set("heads", trainer_->config().model.n_heads);
    return o;
  }

 private:
  std::unique_ptr<Trainer> trainer_;
};

// The metrics table for JavaScript: [{name, jsKey, shape, combine, unit, doc}] in table order, and the
// evaluation's columns [{name (CSV), jsKey, doc}].
val metrics_js() {
  val o = val::object();
  val rows = val::array();
  for (const Metric& m : metrics()) {
    val row = val::object();
    row.set("name", std::string(m.name));
    row.set("jsKey", camel_case(m.name));
    row.set("shape", std::string(to_string(m.shape)));
    row.set("combine", std::string(to_string(m.combine)));
    row.set("unit", std::string(m.unit));
    row.set("doc", std::string(m.doc));
    rows.call<void>("push", row);
  }
  o.set("perStep", rows);
  val evals = val::array();
  for (const EvalColumn& e : eval_columns()) {
    val row = val::object();
    row.set("name", std::string(e.csv_name));
    row.set("jsKey", camel_case(e.field));
    row.set("doc", std::string(e.doc));
    evals.call<void>("push", row);
  }
  o.set("eval", evals);
  return o;
}

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_trainer) {
  emscripten::function("metrics", &metrics_js);
  emscripten::class_<WasmTrainer>("Trainer")
      .constructor<>()
      .function("configure", &WasmTrainer::configure)
      .function("step", &WasmTrainer::step)
      .function("evaluate", &WasmTrainer::evaluate)
      .function("attentionMap", &WasmTrainer::attention_map)
      .function("reset", &WasmTrainer::reset)
      .function("measuredLogitStd", &WasmTrainer::measured_logit_std)
      .function("status", &WasmTrainer::status);
}

}  // namespace sqrtdk::wasm
