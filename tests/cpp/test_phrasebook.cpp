// The phrasebook and its English renderer: templates filled by name, plural forms, nested messages and
// lists, numbers as the CLI has always printed them.  (That every key is used and every used key exists:
// the answers of every kind in tests/cpp/test_analysis.cpp.)
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

#include "core/answer/analysis.hpp"
#include "core/text/number_text.hpp"
#include "core/text/phrasebook.hpp"

using namespace sqrtdk;

TEST_CASE("the phrasebook: unique keys, well-formed placeholders, plural keys in pairs", "[phrasebook]") {
  std::set<std::string> keys;
  for (const Phrase& p : phrasebook()) {
    INFO(p.key);
    CHECK(keys.insert(p.key).second);
    const std::string text = p.text;
    int depth = 0;
    for (const char c : text) {
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      CHECK((depth == 0 || depth == 1));
    }
    CHECK(depth == 0);
  }
  for (const std::string& key : keys) {
    const auto ends = [&key](const std::string& s) { return key.size() > s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0; };
    if (ends(".one")) CHECK(keys.count(key.substr(0, key.size() - 4) + ".other") == 1);
  }
}

TEST_CASE("messages render in English: arguments by name, nested, plural, lists", "[phrasebook]") {
  CHECK(english(Message("seeds").plural_by("n", 1)) == "1 seed");
  CHECK(english(Message("seeds").plural_by("n", 3)) == "3 seeds");
  CHECK(english_key(Message("seeds").plural_by("n", 0)) == "seeds.other");
  const Message later = Message("difference.later").plural_by("steps", 57).with("times", Message("times.short").with("ratio", Arg::value(1.93)));
  CHECK(english(later) == "57 steps later (1.93×)");
  CHECK(english(Arg::list("join.dot", {Arg::count(61), Message("pending"), Message("never")})) == "61 · … · never");
  CHECK(english(Message("steps_range.never").with("low", Arg::count(103)).with("never", Arg::count(2))) == "103 steps or more; 2 never reached it");
  CHECK(english(Message("variant.alpha").with("alpha", Arg::value(0.35000000000000003))) == "1/d_k^α, α=0.35");
  CHECK(english(Arg::verbatim("alpha=0.25")) == "alpha=0.25");
  SECTION("what is missing shows as such, so a test sees it") {
    CHECK(english(Message("no.such.key")) == "{no.such.key}");
    CHECK(english(Message("at.step")) == "at step {steps}");
    CHECK(english(Arg::list("join.none", {Arg::count(1), Arg::count(2)})) == "1{join.none}2");
  }
}

TEST_CASE("numbers: counts as whole numbers or halves, values with 3 significant digits as %.3g", "[phrasebook]") {
  CHECK(english(Arg::count(61)) == "61");
  CHECK(english(Arg::count(119.5)) == "119.5");
  CHECK(english(Arg::count(1000000)) == "1000000");
  // The cases where %.3g and a plain "3 significant digits" differ: web/src/ui/format.js (formatValue)
  // follows these (tests/node/phrasebook.test.mjs checks the same list).
  CHECK(english(Arg::value(0.248)) == "0.248");
  CHECK(english(Arg::value(1e-5)) == "10⁻⁵");
  CHECK(english(Arg::value(2.0345e-5)) == "2.03×10⁻⁵");
  CHECK(english(Arg::value(0.0001)) == "0.0001");
  CHECK(english(Arg::value(0.00012345)) == "0.000123");
  CHECK(english(Arg::value(999.4)) == "999");
  CHECK(english(Arg::value(999.5)) == "10³");
  CHECK(english(Arg::value(123456)) == "1.23×10⁵");
  CHECK(english(Arg::value(-4.77e4)) == "-4.77×10⁴");
  CHECK(english(Arg::value(1.08e-23)) == "1.08×10⁻²³");
  CHECK(english(Arg::value(1.125)) == "1.12");  // an exact tie rounds to even
  CHECK(english(Arg::value(1.375)) == "1.38");
  CHECK(english(Arg::value(0.1235)) == "0.123");  // not a tie: the double is just below 0.1235
  CHECK(english(Arg::value(100.5)) == "100");
  CHECK(english(Arg::value(-0.5)) == "-0.5");
  CHECK(english(Arg::value(2)) == "2");
  CHECK(english(Arg::value(1e-9)) == "10⁻⁹");
  CHECK(english(Arg::value(std::numeric_limits<double>::quiet_NaN())) == "–");
  CHECK(english(Arg::value(std::numeric_limits<double>::infinity())) == "∞");
  CHECK(english(Arg::value(-std::numeric_limits<double>::infinity())) == "-∞");
}

TEST_CASE("a value beside another keeps its 3 significant digits: 0.200 beside 0.0739, not 0.2", "[phrasebook]") {
  // web/src/ui/format.js formatSignificant follows these (tests/node/phrasebook.test.mjs checks the same list).
  CHECK(format_significant(0.19996) == "0.200");
  CHECK(format_significant(0.0739) == "0.0739");
  CHECK(format_significant(1) == "1.00");
  CHECK(format_significant(100.5) == "100");
  CHECK(format_significant(999.5) == "1.00×10³");
  CHECK(format_significant(1e-5) == "1.00×10⁻⁵");
  CHECK(format_significant(2.0345e-5) == "2.03×10⁻⁵");
  CHECK(format_significant(1.125) == "1.12");
  CHECK(format_significant(0) == "0");
  CHECK(format_significant(std::numeric_limits<double>::quiet_NaN()) == "–");
}
