// The answer in words: its sentences, as messages (templates in phrasebook.cpp) and in English.  Every front
// end shows these texts, so the CLI and the page say the same thing; the page in the learner's language.
// Display names, numbers, table cells and the definitions: analysis_cells.cpp.
#include <algorithm>
#include <cmath>

#include "core/answer/analysis.hpp"
#include "core/answer/analysis_words.hpp"

namespace sqrtdk {

namespace {

// The seeds that finished without learning (a run still training is not one of them).
int runs_never(const VariantResult& v) {
  return static_cast<int>(std::count_if(v.runs.begin(), v.runs.end(), [](const RunSummary& r) {
    return r.steps_to_threshold <= 0 && !r.pending();
  }));
}

// "at a median of 61 steps" (several seeds) or "at step 61" (one).
// With seeds that never got there: "at a median of 121 steps over its 3 seeds (1 never got there and counts as the
// slowest)", so that the median beside "121 · 121 · never" says what it is taken over.
Message reached_at(const VariantResult& v, bool say_never = true) {
  const std::size_t n = v.runs.size();
  const int missing = runs_never(v);
  if (say_never && n > 1 && missing > 0) {
    Message m("at.median.never");
    return m.plural_by("missing", missing).with("steps", Arg::count(v.median_steps_to_threshold))
        .with("seeds", Arg::count(static_cast<double>(n)));
  }
  return Message(n == 1 ? "at.step" : "at.median").with("steps", Arg::count(v.median_steps_to_threshold));
}

// The seeds' steps to threshold as a range with its unit: "58–72 steps", "103 steps or more; 1 never reached it"
// (a seed that never got there is the slowest), "61 steps", "never".
Arg seed_range(const VariantResult& v) {
  double lo = kNever, hi = 0;
  for (const RunSummary& r : v.runs) {
    const double s = r.steps_to_threshold > 0 ? r.steps_to_threshold : kNever;
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  if (std::isinf(lo)) return Message("never");
  if (lo == hi) return Message("steps_range.single").with("steps", Arg::count(lo));
  if (std::isinf(hi)) return Message("steps_range.never").with("low", Arg::count(lo)).with("never", Arg::count(runs_never(v)));
  return Message("steps_range").with("low", Arg::count(lo)).with("high", Arg::count(hi));
}

// "; 1 of them touched it at step 62 and ended above it, at 2.27" after the runs that did not learn.
Message with_fell_back(const Message& missed, const VariantResult& v) {
  std::vector<Arg> steps, levels;
  for (const RunSummary& r : v.runs)
    if (r.fell_back() && !r.pending()) {
      steps.push_back(Arg::count(r.touched_step));
      levels.push_back(Arg::value(r.final_loss));
    }
  if (steps.empty()) return missed;
  const Message fell = Message("fell_back")
                           .plural_by("count", static_cast<double>(steps.size()))
                           .with("steps", Arg::list("join.comma", steps))
                           .with("levels", Arg::list("join.comma", levels));
  return Message("missed.fell_back").with("missed", missed).with("fell", fell);
}

Message missed_only(const VariantResult& v, const Answer& a, const char* key, std::size_t n, std::size_t missing) {
  Message m(key);
  m.with("label", variant_label_arg(v)).with("threshold", Arg::value(a.threshold)).with("steps", Arg::count(a.steps));
  if (n == 1) return m;
  m.with("seeds", seeds_message(n));
  if (missing == n) return m;
  std::vector<Arg> others;
  for (const RunSummary& r : v.runs)
    if (r.steps_to_threshold > 0) others.push_back(Arg::count(r.steps_to_threshold));
  return m.with("missing", Arg::count(static_cast<double>(missing)))
      .with("others", Arg::list("join.comma", others))
      .plural_by("reaching", v.runs_reaching);
}

// "... did not reach smoothed loss 0.1 in 400 steps [for any of 3 seeds | for 2 of 3 seeds (the other at step 61)]"
Message missed(const VariantResult& v, const Answer& a) {
  const std::size_t n = v.runs.size();
  const std::size_t missing = n - static_cast<std::size_t>(v.runs_reaching);
  const char* key = n == 1 ? "missed" : missing == n ? "missed.all" : "missed.some";
  return with_fell_back(missed_only(v, a, key, n, missing), v);
}

// How the reference (or a variant) reached it, for the second half of a "never" sentence.
Message reached(const VariantResult& v) {
  const bool some = static_cast<std::size_t>(v.runs_reaching) < v.runs.size();
  Message m(some ? "reached.some" : "reached");
  m.with("label", variant_label_arg(v)).with("at", reached_at(v, /*say_never=*/false));
  if (some) m.with("reaching", Arg::count(v.runs_reaching)).with("seeds", seeds_message(v.runs.size()));
  return m;
}

// A sentence followed by the one-seed note.
Message one_seed_noted(const Message& sentence) { return Message("noted").with("sentence", sentence).with("note", Message("one_seed")); }

Message comparison_sentence(const VariantResult& v, const VariantResult& ref, const Answer& a) {
  const bool one_seed = v.runs.size() == 1;
  switch (v.outcome) {
    case Outcome::never:
    case Outcome::reference_never: {
      const bool mine = v.outcome == Outcome::never;
      const Message s = Message("compare.never").with("missed", missed(mine ? v : ref, a)).with("reached", reached(mine ? ref : v));
      return one_seed ? one_seed_noted(s) : s;
    }
    case Outcome::neither:
      return Message(one_seed ? "compare.neither" : "compare.neither.seeds")
          .with("label", variant_label_arg(v))
          .with("ref", variant_label_arg(ref))
          .with("threshold", Arg::value(a.threshold))
          .with("steps", Arg::count(a.steps))
          .with("level", Arg::value(v.median_final_loss))
          .with("refLevel", Arg::value(ref.median_final_loss));
    default: break;
  }
  // Written from the reference's side, as the question asks it: "scaled reached ... at a median of 63 steps, 58
  // steps earlier than unscaled, which reached it at a median of 121 steps; unscaled took 1.92× as many steps as
  // scaled."  The ratio names the variant that took more steps, so it is never below 1 ("0.967× as many").
  // v.steps_earlier > 0: the variant's median is later (the sign reference_gap reads too); v.ratio: the variant's
  // median over the reference's.
  const bool variant_slower = v.steps_earlier > 0;
  const Message result = Message(v.steps_earlier == 0 ? "compare.result.same" : "compare.result")
                             .with("ref", variant_label_arg(ref))
                             .with("threshold", Arg::value(a.threshold))
                             .with("refAt", reached_at(ref))
                             .with("gap", reference_gap(v))
                             .with("at", reached_at(v))
                             .with("slower", variant_label_arg(variant_slower ? v : ref))
                             .with("faster", variant_label_arg(variant_slower ? ref : v))
                             .with("ratio", Arg::value(variant_slower ? v.ratio : 1 / v.ratio));
  // The counts from the same side: the reference first.  v.steps_earlier > 0: the variant's median is later.
  const char* slower_or_faster = v.steps_earlier > 0 ? ".faster" : ".slower";
  // Every pair ordered: "every seed of A was faster than every seed of B: all 9 pairs of seeds"; most: "in 99
  // of the 100 pairs".  Counts, never a verdict word: three seeds make 9 pairs, not a certainty.
  const char* every_or_most = v.pairs_ahead == v.pairs ? "" : ".most";
  // "over 3 seeds each", "over 3 and 10 seeds": what the verdict rests on.
  const Message over = Message(v.runs.size() == ref.runs.size() ? "over.each" : "over.both")
                           .with("seeds", Arg::count(static_cast<double>(ref.runs.size())))
                           .with("refSeeds", Arg::count(static_cast<double>(v.runs.size())));
  const auto verdict = [&](const std::string& key) {
    return Message(key)
        .with("result", result)
        .with("subject", variant_label_arg(ref))
        .with("subjectRange", seed_range(ref))
        .with("other", variant_label_arg(v))
        .with("otherRange", seed_range(v))
        .with("ahead", Arg::count(v.pairs_ahead))
        .with("pairs", Arg::count(v.pairs))
        .with("over", over);
  };
  switch (v.outcome) {
    case Outcome::clear:
      return verdict(std::string("compare.clear") + slower_or_faster + every_or_most)
          .with("share", Arg::value(100 * a.defs.clear_share)).with("clearRatio", Arg::value(a.defs.clear_ratio));
    case Outcome::within_spread:  // the pairs counted are those where the variant with the lower median was first
      return verdict("compare.spread").with("share", Arg::value(100 * a.defs.clear_share))
          .with("first", variant_label_arg(v.steps_earlier > 0 ? ref : v));
    case Outcome::small:
      return verdict(std::string("compare.small") + slower_or_faster + every_or_most)
          .with("clearRatio", Arg::value(a.defs.clear_ratio));
    case Outcome::one_seed: return one_seed_noted(result);
    default: return result;
  }
}

Message single_sentence(const VariantResult& v, const Answer& a) {
  if (std::isinf(v.median_steps_to_threshold)) return Message("single.never").with("missed", missed(v, a));
  Message m(v.runs.size() > 1 ? "single.seeds" : "single");
  m.with("label", variant_label_arg(v)).with("threshold", Arg::value(a.threshold)).with("at", reached_at(v));
  if (v.runs.size() > 1) m.with("seeds", seeds_message(v.runs.size())).with("range", seed_range(v));
  return m;
}

Message stall_sentence(const Answer& a) {
  const bool any = std::any_of(a.variants.begin(), a.variants.end(), [](const VariantResult& v) { return v.runs_stalled > 0; });
  Message m(any ? "stalls" : "stalls.none");
  m.with("band", Arg::value(100 * a.defs.stall_band))
      .with("minSteps", Arg::count(a.defs.stall_min_steps))
      .with("threshold", Arg::value(a.threshold));
  if (!any) return m;
  std::vector<Arg> items;
  for (const VariantResult& v : a.variants)
    items.push_back(Message("stalls.item").with("label", variant_label_arg(v)).with("stalls", variant_stall_arg(v)));
  return m.with("list", Arg::list("join.semicolon", items));
}

// "Diverged: unscaled in 1 of 2 seeds (at step 121)."; no message when nothing diverged.
std::vector<Message> diverged_sentence(const Answer& a) {
  std::vector<Arg> items;
  for (const VariantResult& v : a.variants) {
    if (v.runs_diverged == 0) continue;
    std::vector<Arg> at;
    for (const RunSummary& r : v.runs)
      if (r.diverged) at.push_back(Arg::count(r.diverged_step));
    items.push_back(Message("diverged.item")
                        .with("label", variant_label_arg(v))
                        .plural_by("diverged", v.runs_diverged)
                        .with("seeds", seeds_message(v.runs.size()))
                        .with("steps", Arg::list("join.comma", at)));
  }
  if (items.empty()) return {};
  return {Message("diverged").with("list", Arg::list("join.semicolon", items))};
}

Message final_sentence(const Answer& a) {
  const bool several = std::any_of(a.variants.begin(), a.variants.end(), [](const VariantResult& v) { return v.runs.size() > 1; });
  std::vector<Arg> items;
  for (const VariantResult& v : a.variants)
    items.push_back(Message("final.item").with("label", variant_label_arg(v)).with("level", Arg::value(v.median_final_loss)));
  return Message(several ? "final.median" : "final").with("list", Arg::list("join.comma", items));
}

}  // namespace

std::vector<Message> answer_messages(const Answer& a) {
  std::vector<Message> out;
  if (!a.ready || a.variants.empty()) return out;
  const VariantResult& ref = a.variants.front();
  if (a.variants.size() == 1) out.push_back(single_sentence(ref, a));
  for (std::size_t i = 1; i < a.variants.size(); ++i) out.push_back(comparison_sentence(a.variants[i], ref, a));
  for (const Message& m : diverged_sentence(a)) out.push_back(m);
  out.push_back(stall_sentence(a));
  if (a.final) out.push_back(final_sentence(a));
  return out;
}

std::vector<std::string> answer_sentences(const Answer& a) {
  std::vector<std::string> out;
  for (const Message& m : answer_messages(a)) out.push_back(english(m));
  return out;
}

}  // namespace sqrtdk
