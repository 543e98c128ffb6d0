// lab.compare(request): the exercise's answer from loss curves, by the one analysis (src/core/answer/analysis.hpp).
//
// request = {threshold, steps, messages?, variants: [{name?, scale, alpha?, runs: [{seed, loss, sequenceAccuracy?,
//            divergedStep?, stopped?}]}]}
//   threshold        number, run::threshold's range (src/core/settings/run_settings.hpp)
//   steps            integer, run::steps's range: the steps every run is planned for
//   messages         boolean (default false): the result also holds every text as a message, for the page to
//                    render in the learner's language (`messages`, shape in src/core/answer/analysis_json.cpp)
//   variants         1..kMaxVariants (run_settings.hpp); the first is the reference.  scale: scaled |
//                    unscaled | alpha | qknorm; alpha (for scale alpha) in [0, 2]; name (<= 64 characters) is echoed back, default the scale
//   runs             1..run::seeds.hi per variant; loss: Float32Array, Float64Array or array of numbers (<= run::steps.hi,
//                    non-finite values allowed: a diverged run ends with them); sequenceAccuracy: number in
//                    [0, 1], NaN or null (none yet); divergedStep: integer >= 0 (0 = did not diverge);
//                    stopped: boolean (default true): finished, diverged or failed; mechanism (optional):
//                    {qkGradNorm, qkUpdateNorm, logitSpread, topWeight: whole-model curves, jacobianNormByLayer:
//                    [one curve per layer]}, for the mechanism readings (src/core/answer/mechanism_reading.hpp)
//   mechanism        optional {config}: the runs' TrainConfig (lab.createTrainer's), for the mechanism readings
// Returns the structured answer (analysis_json.cpp, camelCase keys), with a member `mechanism` when runs carried
// mechanism curves, or {error} naming the first bad field.
//
// lab.glossary({threshold?, steps?}): {quote: {claim, footnote, source: message, link}, entries: [{id, term, text: message}]},
// the glossary (src/core/answer/glossary.hpp) as messages, its definitions at that threshold and steps (run::'s
// ranges and defaults), or {error} naming the field.
//
// lab.phrasebook(): the English templates of those messages, {key: template} in the table's order
// (src/core/text/phrasebook.cpp); web/core-tables.mjs copies it into web/src/core-tables.js for the page.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/answer/analysis.hpp"
#include "core/answer/glossary.hpp"
#include "core/text/json.hpp"
#include "core/answer/mechanism.hpp"
#include "core/answer/mechanism_reading.hpp"
#include "core/settings/run_settings.hpp"
#include "core/settings/settings.hpp"
#include "wasm/config_js.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {
namespace {

using emscripten::val;

constexpr int kMaxRuns = static_cast<int>(run::seeds.hi);
constexpr int kMaxSteps = static_cast<int>(run::steps.hi);
constexpr double kMaxPoints = 20e6;  // all curves together: 80 MB of floats

bool is_array(const val& v) { return val::global("Array").call<bool>("isArray", v); }

// The length of `v` if it is an array of 1..max items, else -1.
int array_length(const val& v, int max) {
  if (!is_array(v)) return -1;
  const int n = v["length"].as<int>();
  return n >= 1 && n <= max ? n : -1;
}

// Copies a loss curve into `out`; "" or the problem.
std::string read_loss(const val& v, const std::string& what, std::vector<float>& out) {
  const bool typed = v.instanceof(val::global("Float32Array")) || v.instanceof(val::global("Float64Array"));
  if (!typed && !is_array(v)) return what + " must be a Float32Array, a Float64Array or an array of numbers";
  const double n = v["length"].as<double>();
  if (n > kMaxSteps) return what + " has more than " + std::to_string(kMaxSteps) + " steps";
  out.resize(static_cast<std::size_t>(n));
  if (!typed) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const val x = v[i];
      if (x.typeOf().as<std::string>() != "number") return what + "[" + std::to_string(i) + "] must be a number";
      out[i] = static_cast<float>(x.as<double>());
    }
    return "";
  }
  // TypedArray.prototype.set copies (and converts Float64 to Float32) straight into the heap.
  val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", v);
  return "";
}

// A run's mechanism curves (optional): {qkGradNorm, qkUpdateNorm, logitSpread} for the whole model,
// jacobianNormByLayer and topWeightByLayer: one curve per layer (1..12).
std::string read_mechanism_curves(const val& object, const std::string& what, MechanismCurves& m) {
  if (object.isUndefined()) return "";
  if (object.isNull() || object.typeOf().as<std::string>() != "object") return what + " must be an object";
  JsFields f(object, what.c_str(), {"qkGradNorm", "qkUpdateNorm", "jacobianNormByLayer", "logitSpread", "topWeightByLayer"});
  if (!f.ok()) return f.error();
  const std::pair<const char*, std::vector<float>*> curves[] = {{"qkGradNorm", &m.qk_grad}, {"qkUpdateNorm", &m.qk_update},
      {"logitSpread", &m.spread}};
  for (const auto& [name, into] : curves) {
    const std::string problem = read_loss(object[name], what + "." + name, *into);
    if (!problem.empty()) return problem;
  }
  const int max_layers = static_cast<int>(find_setting("layers")->hi);
  for (const auto& [name, into] : {std::pair{"jacobianNormByLayer", &m.jacobian}, std::pair{"topWeightByLayer", &m.top_weight}}) {
    const val layers = object[name];
    const int n = array_length(layers, max_layers);
    if (n < 0) return what + "." + name + " must be an array of 1 to " + std::to_string(max_layers) + " curves";
    into->resize(static_cast<std::size_t>(n));
    for (int l = 0; l < n; ++l) {
      const std::string problem = read_loss(layers[l], what + "." + name + "[" + std::to_string(l) + "]", (*into)[l]);
      if (!problem.empty()) return problem;
    }
  }
  if (m.top_weight.size() != m.jacobian.size()) return what + ".topWeightByLayer must have a curve per layer, as jacobianNormByLayer";
  return "";
}

std::string read_run(const val& object, const std::string& what, RunCurve& run) {
  if (object.isNull() || object.isUndefined()) return what + " must be an object";
  JsFields f(object, what.c_str(), {"seed", "loss", "sequenceAccuracy", "divergedStep", "stopped", "mechanism"});
  run.seed = f.seed("seed", 0);
  run.diverged_step = f.integer("divergedStep", 0);
  if (!f.ok()) return f.error();
  if (run.diverged_step < 0) return what + ".divergedStep must be >= 0";
  if (object["seed"].isUndefined()) return what + ".seed is required";
  const val accuracy = object["sequenceAccuracy"];
  if (!accuracy.isUndefined() && !accuracy.isNull()) {
    if (accuracy.typeOf().as<std::string>() != "number") return what + ".sequenceAccuracy must be a number or null";
    run.sequence_accuracy = accuracy.as<double>();
    if (std::isfinite(run.sequence_accuracy) && (run.sequence_accuracy < 0 || run.sequence_accuracy > 1))
      return what + ".sequenceAccuracy must be in [0, 1] (or NaN/null: none yet)";
    if (std::isinf(run.sequence_accuracy)) return what + ".sequenceAccuracy must be in [0, 1] (or NaN/null: none yet)";
  }
  const val stopped = object["stopped"];
  if (!stopped.isUndefined()) {
    if (stopped.typeOf().as<std::string>() != "boolean") return what + ".stopped must be a boolean";
    run.stopped = stopped.as<bool>();
  }
  const std::string problem = read_mechanism_curves(object["mechanism"], what + ".mechanism", run.mechanism);
  if (!problem.empty()) return problem;
  return read_loss(object["loss"], what + ".loss", run.loss);
}

// The request's optional mechanism setting: {config}, the runs' training configuration (as lab.createTrainer
// takes it); the readings take the optimizer, lr, d_k and sequence length from it.
std::string read_mechanism_setting(const val& object, MechanismSetting& s) {
  if (object.isUndefined()) return "";
  JsFields f(object, "request.mechanism", {"config"});
  if (!f.ok()) return f.error();
  TrainConfig c;
  const std::string problem = read_config(object["config"], c);
  if (!problem.empty()) return "request.mechanism." + problem;
  s = mechanism_setting(c);
  return "";
}

std::string read_variant(const val& object, const std::string& what, VariantCurves& v, double& points) {
  if (object.isNull() || object.isUndefined()) return what + " must be an object";
  JsFields f(object, what.c_str(), {"name", "scale", "alpha", "runs"});
  const std::string scale = f.text("scale", "");
  const double alpha = f.number("alpha", ModelConfig{}.alpha);
  v.name = f.text("name", scale);
  if (!f.ok()) return f.error();
  ScaleMode mode{};
  bool known = false;
  for (ScaleMode m : {ScaleMode::scaled, ScaleMode::unscaled, ScaleMode::alpha, ScaleMode::qknorm}) {
    if (scale == to_string(m)) {
      mode = m;
      known = true;
    }
  }
  if (!known) return what + ".scale must be one of scaled, unscaled, alpha, qknorm";
  if (alpha < 0 || alpha > 2) return what + ".alpha must be in [0, 2]";
  if (v.name.empty() || v.name.size() > 64) return what + ".name must have 1 to 64 characters";
  v.label_message = variant_label_message(mode, alpha);
  v.label = english(v.label_message);
  const val runs = object["runs"];
  const int n = array_length(runs, kMaxRuns);
  if (n < 0) return what + ".runs must be an array of 1 to " + std::to_string(kMaxRuns) + " runs";
  v.runs.resize(n);
  for (int i = 0; i < n; ++i) {
    const std::string problem = read_run(runs[i], what + ".runs[" + std::to_string(i) + "]", v.runs[i]);
    if (!problem.empty()) return problem;
    points += static_cast<double>(v.runs[i].loss.size());
    if (points > kMaxPoints) return "request: more than 20,000,000 loss values in all";
  }
  return "";
}

val compare_js(val request) {
  JsFields f(request, "request", {"threshold", "steps", "messages", "variants", "mechanism"});
  const double threshold = f.number("threshold", run::threshold.value);
  const int steps = f.integer("steps", 0);
  if (!f.ok()) return error_result(f.error());
  for (const auto& [setting, value] : {std::pair{&run::threshold, threshold}, std::pair{&run::steps, double(steps)}}) {
    const std::string problem = check_range(*setting, value);
    if (!problem.empty()) return error_result("request." + problem);
  }
  const val messages = request["messages"];
  if (!messages.isUndefined() && messages.typeOf().as<std::string>() != "boolean")
    return error_result("request.messages must be a boolean");
  const bool with_messages = !messages.isUndefined() && messages.as<bool>();
  const val list = request["variants"];
  const int n = array_length(list, kMaxVariants);
  if (n < 0) return error_result("request.variants must be an array of 1 to 8 variants");
  std::vector<VariantCurves> variants(n);
  double points = 0;
  for (int i = 0; i < n; ++i) {
    const std::string problem = read_variant(list[i], "request.variants[" + std::to_string(i) + "]", variants[i], points);
    if (!problem.empty()) return error_result(problem);
  }
  MechanismSetting setting;
  const std::string problem = read_mechanism_setting(request["mechanism"], setting);
  if (!problem.empty()) return error_result(problem);
  const Answer answer = compare_runs(variants, threshold, steps);
  JsonWriter w(/*camel_case=*/true);
  w.begin_object();
  write_answer_members(w, answer, with_messages);
  write_mechanism_member(w, read_mechanism(variants, answer, setting));
  w.end_object();
  return val::global("JSON").call<val>("parse", w.str());
}

val glossary_js(val request) {
  JsFields f(request, "request", {"threshold", "steps"});
  const double threshold = f.number("threshold", run::threshold.value);
  const int steps = f.integer("steps", static_cast<int>(run::steps.value));
  if (!f.ok()) return error_result(f.error());
  for (const auto& [setting, value] : {std::pair{&run::threshold, threshold}, std::pair{&run::steps, double(steps)}}) {
    const std::string problem = check_range(*setting, value);
    if (!problem.empty()) return error_result("request." + problem);
  }
  JsonWriter w(/*camel_case=*/true);
  const LessonQuote quote = lesson_quote();
  w.begin_object().key("quote").begin_object().key("claim");
  write_message(w, quote.claim);
  w.key("footnote");
  write_message(w, quote.footnote);
  w.key("source");
  write_message(w, quote.source);
  w.key("link").value(quote.link).end_object().key("entries").begin_array();
  for (const GlossaryEntry& entry : glossary(threshold, steps)) {
    w.begin_object().key("id").value(entry.id).key("term");
    write_message(w, entry.term);
    w.key("text");
    write_message(w, entry.text);
    w.end_object();
  }
  w.end_array().end_object();
  return val::global("JSON").call<val>("parse", w.str());
}

val phrasebook_js() {
  val out = val::object();
  for (const Phrase& p : phrasebook()) out.set(p.key, std::string(p.text));  // std::string: UTF-8
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_analysis) {
  emscripten::function("compare", &compare_js);
  emscripten::function("phrasebook", &phrasebook_js);
  emscripten::function("glossary", &glossary_js);
}

}  // namespace sqrtdk::wasm
