// The Embind surface of the lab: plain JS objects in, plain objects and typed arrays (copies) out.
//
// Nothing here throws into JS: every input is validated first and an invalid one returns {error: message}
// (the JS wrapper web/src/wasm-api.js turns that into an Error), so the module never aborts on user input
// and stays usable.  The core is built without C++ exception support; validation runs before any core call
// that could throw.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <memory>
#include <string>
#include <vector>

#include "core/fingerprint.hpp"
#include "core/config.hpp"
#include "core/gemm.hpp"
#include "core/settings.hpp"
#include "core/softmax_stats.hpp"
#include "core/trainer.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {
namespace {

using emscripten::val;

template <typename T>
val typed_copy(const char* type, const std::vector<T>& data) {
  // Constructing a typed array from a memory view copies it out of the heap.
  return val::global(type).new_(emscripten::typed_memory_view(data.size(), data.data()));
}

// ---- configuration ----------------------------------------------------------------------------

// JS keys of the settings table (dModel, copyLength, ...): the only fields a config object may have.
const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const Setting& s : settings()) out.push_back(js_key(s));
    return out;
  }();
  return keys;
}

// Reads a JS config object over the canonical defaults (settings.hpp); "" or the first problem.  Types are
// checked first ("config.dModel must be an integer, got string"), then the core checks values ("config: ...").
std::string read_config(const val& object, TrainConfig& c) {
  JsFields f(object, "config", config_keys());
  std::vector<GivenSetting> given;
  std::vector<std::string> texts;  // a choice's name, for each entry of `given` (empty for numbers)
  for (const Setting& s : settings()) {
    const std::string key = js_key(s);
    if (!f.has(key.c_str())) continue;
    const bool is_choice = s.type == SettingType::choice;
    texts.push_back(is_choice ? f.text(key.c_str(), "") : "");
    const double value = is_choice ? 0 : s.type == SettingType::real ? f.number(key.c_str(), 0) : f.whole(key.c_str(), 0);
    given.push_back({&s, value});
  }
  if (!f.ok()) return f.error();
  for (std::size_t i = 0; i < given.size(); ++i) {
    const Setting& s = *given[i].setting;
    if (s.type != SettingType::choice) continue;
    const int index = choice_index(s, texts[i]);
    if (index < 0) return "config: " + choice_error(s, texts[i]);
    given[i].value = index;
  }
  const std::string problem = apply_settings(given, c);
  return problem.empty() ? "" : "config: " + problem;
}

// A setting's value as JS sees it: a choice's name, otherwise the number.
val setting_to_js(const Setting& s, double value) {
  return s.type == SettingType::choice ? val(format_value(s, value)) : val(value);
}

val config_to_js(const TrainConfig& c) {
  val o = val::object();
  for (const Setting& s : settings()) o.set(js_key(s), setting_to_js(s, s.get(c)));
  return o;
}

const char* type_name(SettingType type) {
  switch (type) {
    case SettingType::integer: return "integer";
    case SettingType::seed: return "seed";
    case SettingType::real: return "real";
    case SettingType::choice: return "choice";
  }
  return "?";
}

// The settings table for JavaScript: [{name, jsKey, cliFlag, group, type, default, min, max, minOpen, maxOpen,
// choices, unit, doc}], in table order; lr also carries sgdDefault (kSgdDefaultLr).
val schema() {
  val rows = val::array();
  for (const Setting& s : settings()) {
    val row = val::object();
    row.set("name", std::string(s.name));
    row.set("jsKey", js_key(s));
    row.set("cliFlag", "--" + cli_flag(s));
    row.set("group", std::string(s.group));
    row.set("type", std::string(type_name(s.type)));
    row.set("default", setting_to_js(s, default_value(s)));
    if (s.type == SettingType::choice) {
      val choices = val::array();
      for (const char* name : s.choices) choices.call<void>("push", std::string(name));
      row.set("choices", choices);
    } else {
      row.set("min", s.lo);
      row.set("max", s.hi);
      row.set("minOpen", s.lo_open);
      row.set("maxOpen", s.hi_open);
    }
    row.set("unit", std::string(s.unit));
    row.set("doc", std::string(s.doc));
    if (std::string(s.name) == "lr") row.set("sgdDefault", kSgdDefaultLr);
    rows.call<void>("push", row);
  }
  return rows;
}

val defaults() { return config_to_js(TrainConfig{}); }

std::string check_memory(const TrainConfig& c);

// The same checks createTrainer makes, the free wasm memory included.
std::string validate_config(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  return problem.empty() ? check_memory(c) : problem;
}

// Bytes a trainer for the config allocates (memory.hpp), for a valid config.
val estimated_bytes_js(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  if (!problem.empty()) return error_result(problem);
  val out = val::object();
  out.set("value", static_cast<double>(estimated_bytes(c)));
  return out;
}

val predicted_logit_std_js(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  if (!problem.empty()) return error_result(problem);
  val out = val::object();
  out.set("value", predicted_logit_std(c.model));
  return out;
}

// ---- saturation statistics --------------------------------------------------------------------

val weight_stats_js(const WeightStats& s) {
  val o = val::object();
  o.set("max", s.max_weight);
  o.set("entropy", s.entropy);
  o.set("effectiveKeys", s.effective_keys);
  o.set("jacobianNorm", s.jacobian_norm);
  return o;
}

val softmax_view_js(const SoftmaxView& v) {
  val o = weight_stats_js(v.stats);
  o.set("scale", v.scale);
  o.set("scores", typed_copy("Float64Array", v.scores));
  o.set("weights", typed_copy("Float64Array", v.weights));
  o.set("top", typed_copy("Float64Array", v.top));
  return o;
}

val softmax_demo_js(val options) {
  DemoParams p;
  JsFields f(options, "options", {"dk", "keys", "seed", "alpha", "top"});
  p.dk = f.integer("dk", p.dk);
  p.keys = f.integer("keys", p.keys);
  p.seed = f.seed("seed", p.seed);
  p.alpha = f.number("alpha", p.alpha);
  p.top = f.integer("top", std::min(p.top, p.keys));
  if (!f.ok()) return error_result(f.error());
  const std::string problem = validate(p);
  if (!problem.empty()) return error_result("options: " + problem);
  const SoftmaxDemo demo = softmax_demo(p);
  val o = val::object();
  o.set("dk", p.dk);
  o.set("keys", p.keys);
  o.set("seed", static_cast<double>(p.seed));
  o.set("alpha", p.alpha);
  o.set("dots", typed_copy("Float64Array", demo.dots));
  o.set("raw", softmax_view_js(demo.raw));
  o.set("scaled", softmax_view_js(demo.scaled));
  return o;
}

val quartiles_js(const Quartiles& q) {
  val o = val::object();
  o.set("q1", q.q1);
  o.set("median", q.median);
  o.set("q3", q.q3);
  return o;
}

val sweep_stats_js(const SweepStats& s) {
  val o = val::object();
  o.set("maxWeight", quartiles_js(s.max_weight));
  o.set("entropy", quartiles_js(s.entropy));
  o.set("jacobianNorm", quartiles_js(s.jacobian_norm));
  return o;
}

val sweep_js(val options) {
  SweepParams p;
  JsFields f(options, "options", {"dks", "keys", "draws", "seed", "alpha"});
  p.dks = f.integers("dks", p.dks);
  p.keys = f.integer("keys", p.keys);
  p.draws = f.integer("draws", p.draws);
  p.seed = f.seed("seed", p.seed);
  p.alpha = f.number("alpha", p.alpha);
  if (!f.ok()) return error_result(f.error());
  const std::string problem = validate(p);
  if (!problem.empty()) return error_result("options: " + problem);
  val rows = val::array();
  for (const SweepRow& r : sweep(p)) {
    val row = val::object();
    row.set("dk", r.dk);
    row.set("dotVariance", r.dot_variance);
    row.set("raw", sweep_stats_js(r.raw));
    row.set("scaled", sweep_stats_js(r.scaled));
    rows.call<void>("push", row);
  }
  val o = val::object();
  o.set("rows", rows);
  return o;
}

val histogram_js(val options) {
  HistogramParams p;
  JsFields f(options, "options", {"dk", "keys", "draws", "seed", "alpha", "bins", "halfWidth"});
  p.dk = f.integer("dk", p.dk);
  p.keys = f.integer("keys", p.keys);
  p.draws = f.integer("draws", p.draws);
  p.seed = f.seed("seed", p.seed);
  p.alpha = f.number("alpha", p.alpha);
  p.bins = f.integer("bins", p.bins);
  p.half_width = f.number("halfWidth", p.half_width);
  if (!f.ok()) return error_result(f.error());
  const std::string problem = validate(p);
  if (!problem.empty()) return error_result("options: " + problem);
  const DotHistogram h = dot_histogram(p);
  const std::vector<double> raw(h.raw_counts.begin(), h.raw_counts.end());
  const std::vector<double> scaled(h.scaled_counts.begin(), h.scaled_counts.end());
  val o = val::object();
  o.set("dk", h.dk);
  o.set("dotVariance", h.dot_variance);
  o.set("edges", typed_copy("Float64Array", h.edges));
  o.set("raw", typed_copy("Float64Array", raw));
  o.set("scaled", typed_copy("Float64Array", scaled));
  o.set("total", static_cast<double>(h.total));
  o.set("rawOutside", static_cast<double>(h.raw_below + h.raw_above));
  o.set("scaledOutside", static_cast<double>(h.scaled_below + h.scaled_above));
  return o;
}

double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

double heap_bytes() { return static_cast<double>(emscripten::val::module_property("HEAPU8")["length"].as<double>()); }

std::string gemm_backend() { return gemm_backend_name(); }
std::string fingerprint_js() { return fingerprint_hex(curves_fingerprint()); }

// ---- trainer ----------------------------------------------------------------------------------

val eval_js(const EvalMetrics& e) {
  val o = val::object();
  o.set("step", e.step);
  o.set("loss", e.loss);
  o.set("tokenAccuracy", e.token_accuracy);
  o.set("sequenceAccuracy", e.sequence_accuracy);
  return o;
}

constexpr int kMaxStepsPerCall = 100000;

// Refuses a trainer that could not fit in what the heap may still grow to (an allocation failure would
// abort the module).  The estimate is what the trainer allocates (memory.hpp).
std::string check_memory(const TrainConfig& c) {
  const double in_use = static_cast<double>(mallinfo().uordblks);
  const double room = static_cast<double>(emscripten_get_heap_max()) - in_use - (16 << 20);  // keep 16 MiB spare
  const double need = static_cast<double>(estimated_bytes(c));
  if (need <= room) return "";
  return "not enough WebAssembly memory for this configuration: it needs about " +
         std::to_string(static_cast<long long>(need / (1 << 20))) + " MiB and " +
         std::to_string(static_cast<long long>(room > 0 ? room / (1 << 20) : 0)) +
         " MiB are free (delete other trainers or make it smaller)";
}

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
    o.set("loss", typed_copy("Float32Array", log.loss));
    o.set("gradNorm", typed_copy("Float32Array", log.grad_norm));
    o.set("layerGradNorm", typed_copy("Float32Array", log.layer_grad_norm));
    o.set("entropy", typed_copy("Float32Array", log.entropy));
    o.set("maxLogit", typed_copy("Float32Array", log.max_logit));
    o.set("topWeight", typed_copy("Float32Array", log.top_weight));
    o.set("qkGradNorm", typed_copy("Float32Array", log.qk_grad_norm));
    o.set("qkUpdateNorm", typed_copy("Float32Array", log.qk_update_norm));
    o.set("logitSpread", typed_copy("Float32Array", log.logit_spread));
    o.set("jacobianNorm", typed_copy("Float32Array", log.jacobian_norm));
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
    val o = val::object();
    o.set("data", typed_copy("Float32Array", map));
    o.set("rows", c.task.seq_len());
    o.set("cols", c.task.seq_len());
    return o;
  }

  std::string reset(val seed) {
    if (!trainer_) return "trainer is not configured";
    const std::string problem = check_integer(seed, "seed", 0, 9007199254740991.0);
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

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_lab) {
  emscripten::function("defaults", &defaults);
  emscripten::function("schema", &schema);
  emscripten::function("validateConfig", &validate_config);
  emscripten::function("predictedLogitStd", &predicted_logit_std_js);
  emscripten::function("softmaxDemo", &softmax_demo_js);
  emscripten::function("sweep", &sweep_js);
  emscripten::function("histogram", &histogram_js);
  emscripten::function("heapBytes", &heap_bytes);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("estimatedBytes", &estimated_bytes_js);
  emscripten::function("gemmBackend", &gemm_backend);
  emscripten::function("fingerprint", &fingerprint_js);
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
