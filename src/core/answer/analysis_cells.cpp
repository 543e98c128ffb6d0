// The answer's smaller words: display names, numbers, table cells and the definitions under the table, as
// messages or arguments (templates in phrasebook.cpp) and in English.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/answer/analysis.hpp"
#include "core/answer/analysis_words.hpp"

namespace sqrtdk {

Message variant_label_message(ScaleMode scale, double alpha) {
  switch (scale) {
    case ScaleMode::scaled: return Message("variant.scaled");
    case ScaleMode::unscaled: return Message("variant.unscaled");
    case ScaleMode::alpha: return Message("variant.alpha").with("alpha", Arg::value(alpha));
    case ScaleMode::qknorm: break;
  }
  return Message("variant.qknorm");
}

std::string variant_label(ScaleMode scale, double alpha) { return english(variant_label_message(scale, alpha)); }

Arg variant_label_arg(const VariantResult& v) {
  return v.label_message.key.empty() ? Arg::verbatim(v.label) : Arg(v.label_message);
}

Message seeds_message(std::size_t n) { return Message("seeds").plural_by("n", static_cast<double>(n)); }

// The table's cell, from the variant's own row: "58 steps later (1.92×)".
Message difference(const VariantResult& v) {
  const double d = v.steps_earlier;
  const Message times = Message("times.short").with("ratio", Arg::value(v.ratio));
  if (d == 0) return Message("difference.same").with("times", times);
  Message m(d > 0 ? "difference.later" : "difference.earlier");
  return m.plural_by("steps", std::fabs(d)).with("times", times);
}

// The answer's sentence, from the reference's side as the question asks it: "58 steps earlier than unscaled".
Message reference_gap(const VariantResult& v) {
  const double d = v.steps_earlier;  // the variant's median minus the reference's: > 0, the reference was first
  if (d == 0) return Message("gap.same").with("label", variant_label_arg(v));
  Message m(d > 0 ? "gap.earlier" : "gap.later");
  return m.plural_by("steps", std::fabs(d)).with("label", variant_label_arg(v));
}

namespace {

// "from step 118, 69 steps at 0.248", "from step 23 to the end (378 steps) at 2.07",
// "from step 23, 120 steps so far at 2.07".
Message stall_phrase(const Stall& stall, bool stopped) {
  const char* key = stall.to_end && stopped ? "stall.to_end" : stall.to_end ? "stall.so_far" : "stall.span";
  return Message(key)
      .with("start", Arg::count(stall.start))
      .with("length", Arg::count(stall.length))
      .with("level", Arg::value(stall.level));
}

bool all_stopped(const VariantResult& v) {
  return std::all_of(v.runs.begin(), v.runs.end(), [](const RunSummary& r) { return r.stopped; });
}

Message never_in(int steps) { return Message("cell.never").with("steps", Arg::count(steps)); }

}  // namespace

std::vector<DefinitionMessage> definition_messages(const CurveDefinitions& d, double threshold, int steps) {
  const Arg t = Arg::value(threshold);
  const std::vector<std::pair<const char*, Message>> texts = {
      {"smoothed_loss", Message("definition.smoothed_loss").with("window", Arg::count(d.window))},
      {"steps_to_threshold", Message("definition.steps_to_threshold").with("threshold", t).with("never", never_in(steps))},
      {"stall", Message("definition.stall")
                    .with("minSteps", Arg::count(d.stall_min_steps))
                    .with("threshold", t)
                    .with("band", Arg::value(100 * d.stall_band))
                    .with("highest", Arg::value(1 + d.stall_band))},
      {"final_level", Message("definition.final_level")},
      {"clear_difference", Message("definition.clear_difference")
                               .with("clearRatio", Arg::value(d.clear_ratio))
                               .with("share", Arg::value(100 * d.clear_share))},
  };
  std::vector<DefinitionMessage> out;
  for (const auto& [key, text] : texts) {
    const Message term(std::string("term.") + key);
    out.push_back({key, term, text, Message("definition.line").with("term", term).with("text", text)});
  }
  return out;
}

std::vector<DefinitionText> definition_texts(const CurveDefinitions& d, double threshold, int steps) {
  std::vector<DefinitionText> out;
  for (const DefinitionMessage& m : definition_messages(d, threshold, steps)) out.push_back({m.key, english(m.message)});
  return out;
}

Arg run_steps_arg(const RunSummary& run, int steps) {
  if (run.steps_to_threshold > 0) return Arg::count(run.steps_to_threshold);
  if (run.pending()) return Message("cell.not_yet");
  if (run.diverged) return Message("cell.diverged").with("step", Arg::count(run.diverged_step));
  if (run.fell_back())
    return Message("cell.fell_back").with("step", Arg::count(run.touched_step)).with("level", Arg::value(run.final_loss));
  return never_in(steps);
}

Arg run_stall_arg(const RunSummary& run) {
  if (!run.stall.found()) return Message("stall.none");
  // A stall that starts after the run first got below the threshold is a climb back, not a wait before learning.
  if (run.touched_step > 0 && run.stall.start > run.touched_step)
    return Message("stall.after_touch").with("step", Arg::count(run.touched_step))
        .with("stall", stall_phrase(run.stall, run.stopped));
  return stall_phrase(run.stall, run.stopped);
}

Arg variant_median_arg(const VariantResult& v, int steps) {
  if (std::isnan(v.median_steps_to_threshold)) return Message("pending");
  if (std::isinf(v.median_steps_to_threshold)) return never_in(steps);
  return Arg::count(v.median_steps_to_threshold);
}

Arg variant_seeds_arg(const VariantResult& v) {
  std::vector<Arg> items;
  for (const RunSummary& r : v.runs) {
    items.push_back(r.steps_to_threshold > 0 ? Arg::count(r.steps_to_threshold)
                    : r.pending()            ? Arg(Message("pending"))
                                             : Arg(Message("never")));
  }
  return Arg::list("join.dot", items);
}

Arg variant_relation_arg(const VariantResult& v, int steps) {
  const auto judged = [&v](const char* key) {
    return Message(key).with("difference", difference(v)).with("ahead", Arg::count(v.pairs_ahead))
        .with("pairs", Arg::count(v.pairs));
  };
  switch (v.outcome) {
    case Outcome::reference: return Message("relation.reference");
    case Outcome::pending: case Outcome::single: return Message("pending");
    case Outcome::never: return never_in(steps);
    case Outcome::reference_never: return Message("relation.reference_never");
    case Outcome::neither: return Message("relation.neither");
    case Outcome::clear: return judged("relation.clear");
    case Outcome::within_spread: return judged("relation.spread");
    case Outcome::small: return judged("relation.small");
    case Outcome::one_seed: return judged("relation.one_seed");
  }
  return Arg::verbatim("");
}

// One variant's stalls: "none", "in 1 of 3 seeds, from step 118, 69 steps at 0.248" or
// "in 3 of 3 seeds, median start step 23, median length 378 steps, median level 2.07, all to the end" (each field
// its own median: the three may come from different seeds); with one seed the run's stall.
Arg variant_stall_arg(const VariantResult& v) {
  const std::size_t n = v.runs.size();
  if (v.runs_stalled == 0) return Message("stall.none");
  Message stall("stall.median");
  if (v.runs_stalled == 1) {
    for (const RunSummary& r : v.runs)
      if (r.stall.found()) stall = *run_stall_arg(r).message;  // the run's own cell
  } else {
    const bool ends = v.stalls_to_end > 0 && all_stopped(v);
    if (ends) stall.key = v.stalls_to_end == v.runs_stalled ? "stall.median.all_end" : "stall.median.some_end";
    stall.with("start", Arg::count(v.median_stall.start))
        .with("length", Arg::count(v.median_stall.length))
        .with("level", Arg::value(v.median_stall.level));
    if (ends && v.stalls_to_end < v.runs_stalled) stall.with("ended", Arg::count(v.stalls_to_end));
  }
  if (n == 1) return stall;
  return Message("stall.in").with("stalled", Arg::count(v.runs_stalled)).with("seeds", seeds_message(n)).with("stall", stall);
}

std::string run_steps_cell(const RunSummary& run, int steps) { return english(run_steps_arg(run, steps)); }
std::string run_stall_cell(const RunSummary& run) { return english(run_stall_arg(run)); }
std::string variant_median_cell(const VariantResult& v, int steps) { return english(variant_median_arg(v, steps)); }
std::string variant_seeds_cell(const VariantResult& v, int) { return english(variant_seeds_arg(v)); }
std::string variant_relation_cell(const VariantResult& v, int steps) { return english(variant_relation_arg(v, steps)); }
std::string variant_stall_cell(const VariantResult& v) { return english(variant_stall_arg(v)); }

}  // namespace sqrtdk
