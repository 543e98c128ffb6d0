// The glossary: every term a learner meets on the page or in the CLI's text, defined once.  Each entry is two
// messages of the phrasebook, the term (term.<id>) and what it is (glossary.<id>), filled with the numbers it names
// from the definitions they come from (the saturation bar, the smoothing window, the defaults); the answer's own
// definitions (smoothed loss, steps to threshold, stall, final level, clear difference) are the entries for those
// terms, the same messages as under the answer's table.  The lesson's claim (Vaswani et al. 2017, section 3.2.1 and its footnote 4) is
// quoted by lesson_quote(), so that the page quotes it before anything refers to it.
#pragma once
#include <string>
#include <vector>

#include "core/answer/analysis.hpp"
#include "core/text/phrasebook.hpp"

namespace sqrtdk {

struct GlossaryEntry {
  const char* id;  // snake_case, stable: the page links to an entry by it ("jacobian_norm")
  Message term;    // "|J|_F (Jacobian norm)"
  Message text;    // "how much gradient the softmax passes back to its logits, ..."
};

// "term: text", as the CLI prints an entry (the answer's definition.line).
Message glossary_line(const GlossaryEntry& entry);

// In the order a learner meets the terms.  threshold and steps: the run the definitions speak of.
std::vector<GlossaryEntry> glossary(double threshold, int steps, const CurveDefinitions& defs = {});

// One entry's "term: text" line (glossary_line), for a text that uses one term beyond its own definitions (the
// CLI's table and the PyTorch script use "sequence accuracy").  Throws std::out_of_range for an unknown id.
Message glossary_line_of(const char* id, double threshold, int steps, const CurveDefinitions& defs = {});

// The lesson's claim as the paper words it: the sentence of section 3.2.1, the footnote, and where both are.
struct LessonQuote {
  Message claim, footnote, source;
  const char* link;  // the paper's address
};
LessonQuote lesson_quote();

}  // namespace sqrtdk
