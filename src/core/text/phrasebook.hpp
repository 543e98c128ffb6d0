// The answer's wording as messages: a key into the phrasebook (one template per key, English, written once
// in phrasebook.cpp) and named arguments.  The CLI renders them in English here; the page gets the same
// messages from lab.compare and renders them with the phrasebook of the learner's language
// (web/src/analysis/render-message.js, phrases from web/src/ui/strings.js), so a translation is one file.
//
// Template   "{label} reached smoothed loss {threshold} {at} vs {refSteps} for {ref}: {difference}."
//            {name} is replaced by the argument `name` (camelCase names: they travel as JSON keys).
// Plural     a message with `plural` set names the count argument that picks the form: key.one or key.other
//            (English: one for exactly 1; the page asks Intl.PluralRules, falling back to key.other, so a
//            language with more forms adds key.few, key.many, ...).
// Arguments  count    a whole number or a half (steps, seeds): "61", "119.5"; no digit grouping
//            value    3 significant digits as printf's %.3g: "0.248", "1.93", "2.03e-05", "1.23e+05"; NaN "–"
//            text     shown as it is
//            message  a nested message
//            list     arguments joined by the phrase under the key `join` (", ", "; ", " · ")
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sqrtdk {

struct Message;

struct Arg {
  enum class Kind { count, value, text, message, list };
  Kind kind = Kind::text;
  double number = 0;                       // count, value
  std::string text;                        // text; list: the key of the joining phrase
  std::shared_ptr<const Message> message;  // message
  std::vector<Arg> items;                  // list

  Arg(const Message& m);  // implicit: a message is an argument
  static Arg count(double n);
  static Arg value(double x);
  static Arg verbatim(std::string s);
  static Arg list(const char* join, std::vector<Arg> items);

 private:
  Arg() = default;
};

struct Message {
  std::string key;
  std::string plural;  // the count argument choosing key.one / key.other; "" = no plural forms
  std::vector<std::pair<std::string, Arg>> args;

  Message() = default;
  explicit Message(std::string k) : key(std::move(k)) {}
  // Out of line: the builders are called in many places, and each inlined copy would grow the wasm.
  Message& with(const char* name, Arg arg);
  // with(name, Arg::count(n)), and this count picks the plural form.
  Message& plural_by(const char* name, double n);
};

struct Phrase {
  const char* key;
  const char* text;  // the English template
};
// Every template, in the order a translator reads them.
const std::vector<Phrase>& phrasebook();
// The English template of `key` (static storage), "" when the phrasebook has no such key.
const char* english_phrase(const std::string& key);

// The key a message uses in the English phrasebook: key, or key.one / key.other for a plural.
std::string english_key(const Message& m);
// English text.  A key missing from the phrasebook renders as "{key}", an argument missing as "{name}"
// (tests/cpp/test_analysis.cpp checks neither happens in answers of every kind).
std::string english(const Arg& arg);

}  // namespace sqrtdk
