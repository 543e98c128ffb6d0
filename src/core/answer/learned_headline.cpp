// The claims' form of a count of learned seeds (learned_headline.hpp).
#include "core/answer/learned_headline.hpp"

#include <algorithm>

#include "core/arith/median.hpp"

namespace sqrtdk {

Message learned_item(const Arg& label, double threshold, int learned, int n, double median_of_learned, bool first) {
  return Message(first ? "claims.headline.first" : "claims.headline.next")
      .with("label", label)
      .with("threshold", Arg::value(threshold))
      .with("learned", Arg::count(learned))
      .with("n", Arg::count(n))
      .with("median", learned > 1    ? Message("claims.headline.median").with("steps", Arg::count(median_of_learned))
                      : learned == 1 ? Message("claims.headline.at").with("steps", Arg::count(median_of_learned))
                                     : Message("claims.empty"));
}

namespace {

// "0–2" when the seeds are consecutive, else "0, 4, 7".
Arg seeds_arg(std::vector<uint64_t> seeds) {
  std::sort(seeds.begin(), seeds.end());
  const bool consecutive = seeds.back() - seeds.front() + 1 == seeds.size();
  if (consecutive && seeds.size() > 1)
    return Message("range").with("low", Arg::count(static_cast<double>(seeds.front())))
        .with("high", Arg::count(static_cast<double>(seeds.back())));
  std::vector<Arg> items;
  for (uint64_t seed : seeds) items.push_back(Arg::count(static_cast<double>(seed)));
  return Arg::list("join.comma", items);
}

}  // namespace

Message runs_headline(const Answer& a) {
  if (!a.final || a.variants.empty() || a.variants.front().runs.empty()) return Message();
  std::vector<Arg> items;
  for (const VariantResult& v : a.variants) {
    std::vector<double> steps;
    for (const RunSummary& r : v.runs)
      if (r.steps_to_threshold > 0) steps.push_back(r.steps_to_threshold);
    items.push_back(learned_item(variant_label_arg(v), a.threshold, static_cast<int>(steps.size()),
                                 static_cast<int>(v.runs.size()), median(steps), items.empty()));
  }
  std::vector<uint64_t> seeds;
  for (const RunSummary& r : a.variants.front().runs) seeds.push_back(r.seed);
  return Message("runs_headline")
      .plural_by("runs", static_cast<double>(seeds.size()))
      .with("seeds", seeds_arg(seeds))
      .with("items", Arg::list("join.comma", items));
}

}  // namespace sqrtdk
