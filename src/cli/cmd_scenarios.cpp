// sqrtdk scenarios: the one-click presets of the page, with their settings and the command that runs each.
#include <string>

#include "cli/commands.hpp"
#include "core/text/json.hpp"
#include "cli/output.hpp"
#include "core/claims/claims.hpp"
#include "core/claims/scenarios.hpp"

namespace sqrtdk {
namespace {

const char kUsage[] =
    "usage: sqrtdk scenarios [--json]\n"
    "\n"
    "Lists the scenarios (one-click presets of the web page): id, title, caption (a headline and its details)\n"
    "and settings (the page's URL-hash keys).  'sqrtdk compare --scenario <id>' runs one exactly as the page does.\n";

}  // namespace

int run_scenarios(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept({"json"});
  const bool json = args.get_switch("json");
  if (json) {
    JsonWriter w;
    w.begin_array();
    for (const Scenario& s : scenarios()) write_scenario(w, s);
    w.end_array();
    return emit(w.str() + "\n");
  }
  std::string text;
  for (const Scenario& s : scenarios())
    appendf(text, "%s: %s\n  %s\n  settings: %s\n  run: sqrtdk compare --scenario %s\n\n", s.id, s.title,
            scenario_caption(s).c_str(), s.settings, s.id);
  return emit(text);
}

}  // namespace sqrtdk
