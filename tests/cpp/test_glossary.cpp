// The glossary: every entry renders with its numbers filled in, ids are unique, the answer's definitions are its
// entries for their terms word for word, and the lesson's claim is quoted with its source.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "core/answer/glossary.hpp"
#include "core/lesson/saturation.hpp"
#include "core/text/number_text.hpp"

namespace sqrtdk {

TEST_CASE("the glossary: unique ids, every entry rendered whole, each a term and what it is", "[glossary]") {
  std::set<std::string> ids;
  for (const GlossaryEntry& entry : glossary(0.1, 400)) {
    INFO(entry.id);
    CHECK(ids.insert(entry.id).second);
    const std::string term = english(entry.term), text = english(entry.text);
    CHECK(term.find('{') == std::string::npos);  // no template key or argument left unfilled
    CHECK(text.find('{') == std::string::npos);
    CHECK(term.size() < 30);                     // a term names, the text explains
    CHECK(text.size() < 500);                    // short enough to read where it is linked from
    CHECK(english(glossary_line(entry)) == term + ": " + text);
  }
  for (const char* id : {"jacobian_norm", "entropy", "effective_keys", "logit_spread", "init", "copy_task", "qk_norm",
                         "smoothed_loss", "stall", "saturated", "worker"})
    CHECK(ids.count(id) == 1);
  // One entry's line by its id, as the CLI's table and the PyTorch script print "sequence accuracy"; an unknown id throws.
  CHECK(english(glossary_line_of("accuracy", 0.1, 400)).rfind("Sequence accuracy: ", 0) == 0);
  CHECK_THROWS_AS(glossary_line_of("no_such_term", 0.1, 400), std::out_of_range);
}

TEST_CASE("the glossary uses every glossary, term and lesson template of the phrasebook", "[glossary][phrasebook]") {
  std::set<std::string> used;
  for (const GlossaryEntry& entry : glossary(0.1, 400))
    for (const Message* m : {&entry.term, &entry.text}) used.insert(m->key);
  const LessonQuote q = lesson_quote();
  for (const Message* m : {&q.claim, &q.footnote, &q.source}) used.insert(m->key);
  for (const Phrase& p : phrasebook()) {
    const std::string key = p.key;
    if (key.rfind("glossary.", 0) != 0 && key.rfind("lesson.", 0) != 0 && key.rfind("term.", 0) != 0) continue;
    INFO(key);
    CHECK(used.count(key) == 1);
  }
}

TEST_CASE("the glossary's numbers come from their definitions", "[glossary]") {
  std::string saturated, loss;
  for (const GlossaryEntry& entry : glossary(0.1, 400)) {
    if (std::string(entry.id) == "saturated") saturated = english(entry.text);
    if (std::string(entry.id) == "loss") loss = english(entry.text);
  }
  CHECK(saturated.find("at least " + format_number(kSaturatedTopWeight)) != std::string::npos);
  CHECK(loss.find("with the default 10 symbols, ln 10 = 2.3.") != std::string::npos);
}

TEST_CASE("the answer's definitions are the glossary's entries for their terms, at the glossary's threshold", "[glossary]") {
  for (double threshold : {0.1, 0.05}) {
    int found = 0;
    for (const DefinitionText& d : definition_texts(CurveDefinitions{}, threshold, 300)) {
      for (const GlossaryEntry& entry : glossary(threshold, 300)) {
        if (d.key != std::string(entry.id)) continue;
        CHECK(english(glossary_line(entry)) == d.text);
        ++found;
      }
    }
    CHECK(found == 5);  // smoothed loss, steps to threshold, stall, final level, clear difference
  }
}

TEST_CASE("the lesson's claim is quoted with its source and a link", "[glossary]") {
  const LessonQuote q = lesson_quote();
  CHECK(english(q.claim).find("extremely small gradients") != std::string::npos);
  CHECK(english(q.footnote).find("variance d_k") != std::string::npos);
  CHECK(english(q.source).find("Vaswani et al. (2017)") != std::string::npos);
  CHECK(std::string(q.link) == "https://arxiv.org/abs/1706.03762");
}

}  // namespace sqrtdk
