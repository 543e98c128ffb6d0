// The glossary's entries and their numbers (glossary.hpp); the wording is the phrasebook's.
#include "core/answer/glossary.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/answer/mechanism_reading.hpp"
#include "core/lesson/saturation.hpp"
#include "core/settings/config.hpp"

namespace sqrtdk {

std::vector<GlossaryEntry> glossary(double threshold, int steps, const CurveDefinitions& defs) {
  const TaskConfig task;
  const OptimConfig optim;
  const auto entry = [](const char* id, Message text = Message()) {
    if (text.key.empty()) text = Message(std::string("glossary.") + id);
    return GlossaryEntry{id, Message(std::string("term.") + id), text};
  };
  std::vector<GlossaryEntry> out = {
      entry("d_k"),
      entry("softmax"),
      entry("logit"),
      entry("top_weight"),
      entry("one_hot"),
      entry("saturated", Message("glossary.saturated").with("bar", Arg::value(kSaturatedTopWeight))),
      entry("entropy"),
      entry("effective_keys"),
      entry("jacobian_norm"),
      entry("median"),
      entry("seed"),
      entry("model_size"),
      entry("copy_task"),
      entry("loss", Message("glossary.loss")
                        .with("symbols", Arg::count(task.n_symbols))
                        .with("chance", Arg::value(std::log(static_cast<double>(task.n_symbols))))
                        .with("threshold", Arg::value(threshold))
                        .with("thresholdProbability", Arg::value(std::exp(-threshold)))
                        .with("oneProbability", Arg::value(std::exp(-1.0)))),
      entry("accuracy"),
  };
  for (const DefinitionMessage& d : definition_messages(defs, threshold, steps)) out.push_back({d.key, d.term, d.text});
  // The dying gradient as the q/k sentences test for it (mechanism_reading.cpp): far below its own peak.
  out.push_back(entry("qk_gradient", Message("glossary.qk_gradient").with("deadDrop", Arg::value(kDeadDrop))));
  for (const char* id : {"logit_spread", "adam"}) out.push_back(entry(id));
  out.push_back(entry("sgd", Message("glossary.sgd").with("momentum", Arg::value(optim.momentum))));
  for (const char* id : {"learning_rate", "init", "logit_std", "qk_norm", "reference", "alpha", "normal", "worker"})
    out.push_back(entry(id));
  return out;
}

Message glossary_line(const GlossaryEntry& entry) {
  return Message("definition.line").with("term", entry.term).with("text", entry.text);
}

Message glossary_line_of(const char* id, double threshold, int steps, const CurveDefinitions& defs) {
  for (const GlossaryEntry& entry : glossary(threshold, steps, defs))
    if (std::string(entry.id) == id) return glossary_line(entry);
  throw std::out_of_range(std::string("no glossary entry '") + id + "'");
}

LessonQuote lesson_quote() {
  return {Message("lesson.claim"), Message("lesson.footnote"), Message("lesson.source"),
          "https://arxiv.org/abs/1706.03762"};
}

}  // namespace sqrtdk
