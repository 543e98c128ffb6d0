// lab.scenarios(): the one-click presets of src/core/claims/scenarios.hpp as plain JS objects {id, title, caption,
// settings}, settings in the page's URL-hash vocabulary.  Takes no input, so nothing here can fail.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "core/claims/claims.hpp"
#include "core/claims/scenarios.hpp"

namespace sqrtdk::wasm {
namespace {

emscripten::val scenarios_js() {
  emscripten::val out = emscripten::val::array();
  for (const Scenario& s : scenarios()) {
    emscripten::val o = emscripten::val::object();
    o.set("id", std::string(s.id));
    o.set("title", std::string(s.title));
    o.set("caption", scenario_caption(s));
    o.set("settings", std::string(s.settings));
    out.call<void>("push", o);
  }
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(sqrtdk_scenarios) { emscripten::function("scenarios", &scenarios_js); }

}  // namespace sqrtdk::wasm
