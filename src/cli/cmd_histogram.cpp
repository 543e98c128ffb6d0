// sqrtdk histogram: the distribution of q.k (and of the scaled q.k) at one d_k, on shared bin edges.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/range_flags.hpp"
#include "cli/csv.hpp"
#include "core/text/json.hpp"
#include "cli/output.hpp"
#include "core/text/number_text.hpp"
#include "core/lesson/softmax_stats.hpp"

namespace sqrtdk {
namespace {

std::string usage() {
  using namespace explorer;
  return "usage: sqrtdk histogram " + range_synopsis({&dk, &keys, &draws, &seed, &alpha}) + " [--method fast|exact]\n"
    "                        " + range_synopsis({&bins}) + " [--range R] [--json | --csv]\n"
    "\n"
    "Histogram of the draws x keys dot products q.k at one d_k (the same draws as 'sqrtdk sweep' at that d_k),\n"
    "and of the scaled q.k / dk^alpha on the same bin edges, over [-R, R); R defaults to 4 sqrt(dk), four\n"
    "standard deviations of q.k. Values outside the range are counted as below / above.\n"
    "\n"
    + range_usage({&dk, &keys, &draws, &seed, &alpha}) +
    "  --method M    fast (default) or exact, as in 'sqrtdk sweep --help'\n"
    + range_usage({&bins}) +
    "  --range R     half width of the range, 0..1e9; 0 means 4 sqrt(dk) (default)\n"
    "  --json        {\"dk\",\"keys\",\"draws\",\"seed\",\"alpha\",\"method\",\"half_width\",\"dot_variance\",\n"
    "                \"total\",\"edges\":[bins+1],\"raw\":{\"counts\":[bins],\"below\",\"above\"},\"scaled\":{...}}\n"
    "  --csv         lo,hi,raw,scaled: one row per bin, then the out-of-range rows (empty lo or hi = unbounded)\n";
}

constexpr int kBarWidth = 30;

void write_side(JsonWriter& json, const std::vector<int64_t>& counts, int64_t below, int64_t above) {
  json.begin_object().key("counts").array(counts).field("below", below).field("above", above).end_object();
}

std::string to_json(const HistogramParams& params, const DotHistogram& h) {
  JsonWriter json;
  json.begin_object();
  json.field("dk", h.dk).field("keys", params.keys).field("draws", params.draws).field("seed", params.seed);
  json.field("alpha", params.alpha).field("method", to_string(params.method));
  json.field("half_width", h.edges.back()).field("dot_variance", h.dot_variance).field("total", h.total);
  json.key("edges").array(h.edges);
  write_side(json.key("raw"), h.raw_counts, h.raw_below, h.raw_above);
  write_side(json.key("scaled"), h.scaled_counts, h.scaled_below, h.scaled_above);
  json.end_object();
  return json.str() + "\n";
}

std::string to_csv(const DotHistogram& h) {
  CsvWriter csv;
  csv.cell("lo").cell("hi").cell("raw").cell("scaled").end_row();
  for (size_t b = 0; b < h.raw_counts.size(); ++b) {
    csv.cell(h.edges[b]).cell(h.edges[b + 1]).cell(h.raw_counts[b]).cell(h.scaled_counts[b]).end_row();
  }
  csv.cell("").cell(h.edges.front()).cell(h.raw_below).cell(h.scaled_below).end_row();
  csv.cell(h.edges.back()).cell("").cell(h.raw_above).cell(h.scaled_above).end_row();
  return csv.str();
}

std::string bar(int64_t count, int64_t largest) {
  const int length = largest > 0 ? static_cast<int>(std::lround(kBarWidth * static_cast<double>(count) / largest)) : 0;
  return std::string(static_cast<size_t>(length), '#');
}

std::string to_text(const HistogramParams& params, const DotHistogram& h) {
  std::string text;
  appendf(text, "q.k at d_k = %d: %d draws x %d keys = %lld samples, seed %llu, %s draws\n", h.dk, params.draws,
          params.keys, static_cast<long long>(h.total), static_cast<unsigned long long>(params.seed),
          to_string(params.method));
  appendf(text, "sample variance of q.k %.2f (expected d_k = %d); scaled = q.k / d_k^%g\n\n", h.dot_variance, h.dk,
          params.alpha);
  const int64_t raw_max = *std::max_element(h.raw_counts.begin(), h.raw_counts.end());
  const int64_t scaled_max = *std::max_element(h.scaled_counts.begin(), h.scaled_counts.end());
  appendf(text, "%-22s %-*s   %s\n", "bin", kBarWidth + 10, "raw q.k", "scaled");
  appendf(text, "%-22s %8lld  %-*s   %8lld\n", "below", static_cast<long long>(h.raw_below), kBarWidth, "",
          static_cast<long long>(h.scaled_below));
  for (size_t b = 0; b < h.raw_counts.size(); ++b) {
    std::string label;
    appendf(label, "[%s, %s)", format_number(h.edges[b]).c_str(), format_number(h.edges[b + 1]).c_str());
    std::string line;
    appendf(line, "%-22s %8lld  %-*s   %8lld  %s", label.c_str(), static_cast<long long>(h.raw_counts[b]), kBarWidth,
            bar(h.raw_counts[b], raw_max).c_str(), static_cast<long long>(h.scaled_counts[b]),
            bar(h.scaled_counts[b], scaled_max).c_str());
    text += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  appendf(text, "%-22s %8lld  %-*s   %8lld\n", "above", static_cast<long long>(h.raw_above), kBarWidth, "",
          static_cast<long long>(h.scaled_above));
  return text;
}

}  // namespace

int run_histogram(const Args& args) {
  if (args.wants_help()) return emit(usage());
  args.accept({"dk", "keys", "draws", "seed", "alpha", "method", "bins", "range", "json", "csv"});
  HistogramParams params;
  params.dk = range_int(args, explorer::dk);
  read_draw_flags(args, params);
  params.bins = range_int(args, explorer::bins);
  params.half_width = args.get_double("range", 0.0, 0.0, 1e9);
  const bool json = args.get_switch("json");
  const bool csv = args.get_switch("csv");
  if (json && csv) throw UsageError("--json and --csv exclude each other");

  const DotHistogram histogram = dot_histogram(params);
  return emit(json ? to_json(params, histogram) : csv ? to_csv(histogram) : to_text(params, histogram));
}

}  // namespace sqrtdk
