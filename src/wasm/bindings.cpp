// The explorer's Embind surface (the softmax demo, the sweep, the histogram), the range tables (the explorer's
// and an exercise run's settings) and the module's facts (heap,
// product backend, fingerprint); the configuration is in config_bindings.cpp, the trainer in
// trainer_bindings.cpp.  Plain JS objects in, plain objects and typed arrays (copies) out.
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

#include "core/train/fingerprint.hpp"
#include "core/settings/config.hpp"
#include "core/settings/explorer_settings.hpp"
#include "core/settings/run_settings.hpp"
#include "core/arith/gemm.hpp"
#include "core/settings/settings.hpp"
#include "core/lesson/draw_set.hpp"
#include "core/lesson/softmax_stats.hpp"
#include "core/train/trainer.hpp"
#include "core/nn/valid_config.hpp"
#include "wasm/config_js.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {
namespace {

using emscripten::val;

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

// RangeSetting rows for JavaScript: [{name, type: 'integer'|'real', default, min, max, doc}], in table order.
val range_schema(const std::vector<const RangeSetting*>& table) {
  val rows = val::array();
  for (const RangeSetting* s : table) {
    val row = val::object();
    row.set("name", std::string(s->name));
    row.set("type", std::string(s->integer ? "integer" : "real"));
    row.set("default", s->value);
    row.set("min", s->lo);
    row.set("max", s->hi);
    row.set("doc", std::string(s->doc));
    rows.call<void>("push", row);
  }
  return rows;
}

// The explorer's settings (explorer_settings.hpp; top's max is the number of keys).
val explorer_schema() { return range_schema(explorer_settings()); }

// An exercise run's settings: seeds, steps, threshold (run_settings.hpp).
val run_schema() { return range_schema(run_settings()); }

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

// The options of many draws (sweep and histogram), their defaults the params' (explorer_settings.hpp).
template <typename Params>
void read_draws(JsFields& f, Params& p) {
  p.keys = f.integer("keys", p.keys);
  p.draws = f.integer("draws", p.draws);
  p.seed = f.seed("seed", p.seed);
  p.alpha = f.number("alpha", p.alpha);
}

val sweep_js(val options) {
  SweepParams p;
  JsFields f(options, "options", {"dks", "keys", "draws", "seed", "alpha"});
  p.dks = f.integers("dks", p.dks);
  read_draws(f, p);
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
  o.set("evenRowJacobianNorm", even_row_jacobian_norm(p.keys));  // |J|_F of a row of `keys` even weights
  return o;
}

// The explorer's fixed set of draws (draw_set.hpp), each array indexed by seed.
val draw_set_js(val options) {
  DrawSetParams p;
  JsFields f(options, "options", {"dk", "keys", "alpha", "seeds"});
  p.dk = f.integer("dk", p.dk);
  p.keys = f.integer("keys", p.keys);
  p.alpha = f.number("alpha", p.alpha);
  p.seeds = f.integer("seeds", p.seeds);
  if (!f.ok()) return error_result(f.error());
  const std::string problem = validate(p);
  if (!problem.empty()) return error_result("options: " + problem);
  const DrawSet set = draw_set(p);
  val o = val::object();
  o.set("rawTop", typed_copy("Float64Array", set.raw_top));
  o.set("rawJacobian", typed_copy("Float64Array", set.raw_jacobian));
  o.set("scaledJacobian", typed_copy("Float64Array", set.scaled_jacobian));
  o.set("rawTopQuartiles", quartiles_js(set.raw_top_quartiles));
  return o;
}

val histogram_js(val options) {
  HistogramParams p;
  JsFields f(options, "options", {"dk", "keys", "draws", "seed", "alpha", "bins", "halfWidth"});
  p.dk = f.integer("dk", p.dk);
  read_draws(f, p);
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

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_lab) {
  emscripten::function("explorerSchema", &explorer_schema);
  emscripten::function("runSchema", &run_schema);
  emscripten::function("softmaxDemo", &softmax_demo_js);
  emscripten::function("drawSet", &draw_set_js);
  emscripten::function("sweep", &sweep_js);
  emscripten::function("histogram", &histogram_js);
  emscripten::function("heapBytes", &heap_bytes);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("gemmBackend", &gemm_backend);
  emscripten::function("fingerprint", &fingerprint_js);
}

}  // namespace sqrtdk::wasm
