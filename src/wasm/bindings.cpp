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

#include "core/analysis.hpp"
#include "core/config.hpp"
#include "core/gemm.hpp"
#include "core/softmax_stats.hpp"
#include "core/trainer.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {
namespace {

using emscripten::val;

val error_result(const std::string& message) {
  val out = val::object();
  out.set("error", message);
  return out;
}

template <typename T>
val typed_copy(const char* type, const std::vector<T>& data) {
  // Constructing a typed array from a memory view copies it out of the heap.
  return val::global(type).new_(emscripten::typed_memory_view(data.size(), data.data()));
}

// ---- configuration ----------------------------------------------------------------------------

const std::initializer_list<const char*> kConfigFields = {
    "layers", "dModel", "heads", "dFf", "scale", "alpha", "init", "copyLength", "symbols", "batch",
    "evalBatch", "optimizer", "lr", "momentum", "beta1", "beta2", "eps", "clipNorm", "seed", "evalEvery"};

// Reads a JS config object over the canonical defaults; "" or the first problem.
std::string read_config(const val& object, TrainConfig& c) {
  JsFields f(object, "config", kConfigFields);
  c.model.n_layers = f.integer("layers", c.model.n_layers);
  c.model.d_model = f.integer("dModel", c.model.d_model);
  c.model.n_heads = f.integer("heads", c.model.n_heads);
  c.model.d_ff = f.integer("dFf", c.model.d_ff);
  const std::string scale = f.text("scale", "scaled");
  c.model.alpha = f.number("alpha", c.model.alpha);
  const std::string init = f.text("init", "xavier");
  c.task.copy_length = f.integer("copyLength", c.task.copy_length);
  c.task.n_symbols = f.integer("symbols", c.task.n_symbols);
  c.task.batch = f.integer("batch", c.task.batch);
  c.task.eval_batch = f.integer("evalBatch", c.task.eval_batch);
  const std::string optimizer = f.text("optimizer", "adam");
  c.optim.lr = f.number("lr", optimizer == "sgd" ? kSgdDefaultLr : c.optim.lr);
  c.optim.momentum = f.number("momentum", c.optim.momentum);
  c.optim.beta1 = f.number("beta1", c.optim.beta1);
  c.optim.beta2 = f.number("beta2", c.optim.beta2);
  c.optim.eps = f.number("eps", c.optim.eps);
  c.optim.clip_norm = f.number("clipNorm", c.optim.clip_norm);
  c.seed = f.seed("seed", c.seed);
  c.eval_every = f.integer("evalEvery", c.eval_every);
  if (!f.ok()) return f.error();
  if (scale == "scaled") c.model.scale = ScaleMode::scaled;
  else if (scale == "unscaled") c.model.scale = ScaleMode::unscaled;
  else if (scale == "alpha") c.model.scale = ScaleMode::alpha;
  else if (scale == "qknorm") c.model.scale = ScaleMode::qknorm;
  else return "config.scale must be one of scaled, unscaled, alpha, qknorm";
  if (init == "xavier") c.model.init = InitScheme::xavier;
  else if (init == "torch") c.model.init = InitScheme::torch;
  else if (init == "gpt") c.model.init = InitScheme::gpt;
  else return "config.init must be one of xavier, torch, gpt";
  if (optimizer == "adam") c.optim.optimizer = Optimizer::adam;
  else if (optimizer == "sgd") c.optim.optimizer = Optimizer::sgd;
  else return "config.optimizer must be one of adam, sgd";
  const std::string problem = validate(c);
  return problem.empty() ? "" : "config: " + problem;
}

val config_to_js(const TrainConfig& c) {
  val o = val::object();
  o.set("layers", c.model.n_layers);
  o.set("dModel", c.model.d_model);
  o.set("heads", c.model.n_heads);
  o.set("dFf", c.model.d_ff);  // 0 means 4 * dModel, so {...defaults(), dModel: 32} gets dFf 128
  o.set("scale", std::string(to_string(c.model.scale)));
  o.set("alpha", c.model.alpha);
  o.set("init", std::string(to_string(c.model.init)));
  o.set("copyLength", c.task.copy_length);
  o.set("symbols", c.task.n_symbols);
  o.set("batch", c.task.batch);
  o.set("evalBatch", c.task.eval_batch);
  o.set("optimizer", std::string(to_string(c.optim.optimizer)));
  o.set("lr", c.optim.lr);
  o.set("momentum", c.optim.momentum);
  o.set("beta1", c.optim.beta1);
  o.set("beta2", c.optim.beta2);
  o.set("eps", c.optim.eps);
  o.set("clipNorm", c.optim.clip_norm);
  o.set("seed", static_cast<double>(c.seed));
  o.set("evalEvery", c.eval_every);
  return o;
}

val defaults() { return config_to_js(TrainConfig{}); }

std::string check_memory(const TrainConfig& c);

// The same checks createTrainer makes, the free wasm memory included.
std::string validate_config(val object) {
  TrainConfig c;
  const std::string problem = read_config(object, c);
  return problem.empty() ? check_memory(c) : problem;
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

double heap_bytes() { return static_cast<double>(emscripten::val::module_property("HEAPU8")["length"].as<double>()); }

std::string gemm_backend() { return gemm_backend_name(); }

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
// abort the module).  The estimate is conservative (config.cpp).
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
  emscripten::function("validateConfig", &validate_config);
  emscripten::function("predictedLogitStd", &predicted_logit_std_js);
  emscripten::function("softmaxDemo", &softmax_demo_js);
  emscripten::function("sweep", &sweep_js);
  emscripten::function("histogram", &histogram_js);
  emscripten::function("heapBytes", &heap_bytes);
  emscripten::function("gemmBackend", &gemm_backend);
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
