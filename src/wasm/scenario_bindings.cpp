// lab.scenarios(): the one-click presets of src/core/claims/scenarios.hpp as plain JS objects (claims.hpp's
// write_scenario: {id, title, headline, details, settings, messages}), settings in the page's URL-hash
// vocabulary, texts in English and as messages.  Takes no input, so nothing here can fail.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "core/claims/claims.hpp"
#include "core/claims/scenarios.hpp"
#include "core/text/json.hpp"

namespace sqrtdk::wasm {
namespace {

emscripten::val scenarios_js() {
  JsonWriter w(/*camel_case=*/true);
  w.begin_array();
  for (const Scenario& s : scenarios()) write_scenario(w, s);
  w.end_array();
  return emscripten::val::global("JSON").call<emscripten::val>("parse", w.str());
}

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_scenarios) { emscripten::function("scenarios", &scenarios_js); }

}  // namespace sqrtdk::wasm
