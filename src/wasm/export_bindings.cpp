// lab.exportTorch(request): the exercise as a PyTorch script or notebook (src/core/export/torch_export.hpp), the
// text `sqrtdk export-torch` writes for the same settings.
//
// request = {variants?, trainAlpha?, seeds?, steps?, threshold?, config?, format?}
//   variants     1..kMaxVariants scale names (scaled, unscaled, alpha, qknorm), the first the reference; alpha takes
//                trainAlpha (run::alpha_variant's range); default the exercise's (scaled, unscaled)
//   seeds, steps, threshold   run_settings.hpp's rows; default theirs
//   config       a TrainConfig as lab.createTrainer takes it (its scale and alpha are the variants'); the first seed
//                is its seed
//   format       'script' (default) or 'notebook'
// Returns {text}, or {error} naming the first bad field.  Nothing here throws: every value is checked before the
// core sees it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "core/claims/scenarios.hpp"
#include "core/export/torch_export.hpp"
#include "core/settings/run_settings.hpp"
#include "core/settings/settings.hpp"
#include "wasm/config_js.hpp"
#include "wasm/js_fields.hpp"

namespace sqrtdk::wasm {
namespace {

using emscripten::val;

// The variants as parse_scale names; "" or the problem.
std::string read_variants(const val& list, double train_alpha, std::vector<std::string>& out) {
  if (list.isUndefined()) return "";
  if (!val::global("Array").call<bool>("isArray", list)) return "request.variants must be an array of scale names";
  const int n = list["length"].as<int>();
  if (n < 1 || n > kMaxVariants)
    return "request.variants must have 1 to " + std::to_string(kMaxVariants) + " variants";
  const Setting& scale = *find_setting("scale");
  out.clear();
  for (int i = 0; i < n; ++i) {
    const val item = list[i];
    const std::string what = "request.variants[" + std::to_string(i) + "]";
    if (item.typeOf().as<std::string>() != "string") return what + " must be a string";
    const std::string name = item.as<std::string>();
    if (choice_index(scale, name) < 0) return what + ": " + choice_error(scale, name.substr(0, 40));
    out.push_back(name == "alpha" ? name + "=" + format_value(*find_setting("alpha"), train_alpha) : name);
  }
  return "";
}

val export_torch_js(val request) {
  JsFields f(request, "request", {"variants", "trainAlpha", "seeds", "steps", "threshold", "config", "format"});
  ExerciseSettings e;
  const double train_alpha = f.number("trainAlpha", run::alpha_variant.value);
  e.seeds = f.integer("seeds", e.seeds);
  e.steps = f.integer("steps", e.steps);
  e.threshold = f.number("threshold", e.threshold);
  const std::string format = f.text("format", "script");
  if (!f.ok()) return error_result(f.error());
  const std::pair<const RangeSetting*, double> runs[] = {{&run::alpha_variant, train_alpha},
      {&run::seeds, e.seeds}, {&run::steps, e.steps}, {&run::threshold, e.threshold}};
  for (const auto& [setting, value] : runs) {
    const std::string problem = check_range(*setting, value);
    if (!problem.empty()) return error_result("request." + problem);
  }
  if (format != "script" && format != "notebook")
    return error_result("request.format must be 'script' or 'notebook', got '" + format.substr(0, 40) + "'");
  std::string problem = read_variants(request["variants"], train_alpha, e.variants);
  if (!problem.empty()) return error_result(problem);
  problem = read_config(request["config"], e.base);
  if (!problem.empty()) return error_result("request." + problem);
  val out = val::object();
  out.set("text", torch_export(e, format == "notebook" ? TorchFormat::notebook : TorchFormat::script));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_export) { emscripten::function("exportTorch", &export_torch_js); }

}  // namespace sqrtdk::wasm
