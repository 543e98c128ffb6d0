// sqrtdk glossary: the terms the lab uses and what each is (core/answer/glossary.hpp), and the lesson's claim quoted.
#include <string>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/answer/glossary.hpp"
#include "core/settings/run_settings.hpp"

namespace sqrtdk {

int run_glossary(const Args& args) {
  if (args.wants_help())
    return emit(
        "usage: sqrtdk glossary\n"
        "\n"
        "Prints the lesson's claim as the paper words it, then every term the lab's page and text use, one per\n"
        "paragraph, as the page's glossary shows them (at the default threshold and steps).\n");
  args.accept({});
  const LessonQuote quote = lesson_quote();
  std::string text = english(quote.claim) + "\n" + english(quote.footnote) + "\n" + english(quote.source) + ", " +
                     quote.link + "\n";
  for (const GlossaryEntry& entry : glossary(run::threshold.value, static_cast<int>(run::steps.value)))
    text += "\n" + english(glossary_line(entry)) + "\n";
  return emit(text);
}

}  // namespace sqrtdk
