// sqrtdk sweep: how saturated softmax is, raw vs scaled, as d_k grows (quartiles over many random draws).
#include <initializer_list>
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

// The default d_k list as usage writes it: "1,2,4,...,1024".
std::string default_dks_text() {
  const std::vector<int> dks = default_sweep_dks();
  std::string text;
  for (std::size_t i = 0; i < dks.size() && i < 3; ++i) text += (i ? "," : "") + std::to_string(dks[i]);
  if (dks.size() > 3) text += ",...," + std::to_string(dks.back());
  return text;
}

std::string usage() {
  using namespace explorer;
  return "usage: sqrtdk sweep [--dk " + default_dks_text() + "] " + range_synopsis({&keys, &draws, &seed, &alpha}) + "\n"
    "                    [--method fast|exact] [--json | --csv]\n"
    "\n"
    "For each d_k, many draws of q and keys ~ N(0, I): median and quartiles over draws of the max softmax\n"
    "weight, the entropy (nats) and the softmax Jacobian's Frobenius norm, raw (q.k) and scaled (q.k / dk^alpha),\n"
    "and the sample variance of q.k (expected: d_k). Each d_k starts from Rng(seed).\n"
    "\n"
    "  --dk LIST     comma-separated d_k values, " + range_text(dk) + ", at most " +
    std::to_string(SoftmaxLimits::max_sweep_dks) + " (default " + default_dks_text() + ")\n"
    + range_usage({&keys, &draws, &seed, &alpha}) +
    "  --method M    fast: q.k_i = |q| z_i, the same distribution with dk + keys normals per draw (default);\n"
    "                exact: explicit keys, dk * (keys + 1) normals per draw (slow for large dk)\n"
    "  --json        {\"keys\",\"draws\",\"seed\",\"alpha\",\"method\",\"rows\":[{\"dk\",\"dot_variance\",\n"
    "                \"raw\":{\"max_weight\":{\"median\",\"q1\",\"q3\"},\"entropy\":{...},\"jacobian_norm\":{...}},\n"
    "                \"scaled\":{...}}]}\n"
    "  --csv         one row per d_k: dk, dot_variance, then <side>_<stat>_<median|q1|q3> for side raw, scaled\n"
    "                and stat max_weight, entropy, jacobian_norm\n";
}

struct NamedQuartiles {
  const char* name;
  const Quartiles* value;
};

std::vector<NamedQuartiles> named(const SweepStats& stats) {
  return {{"max_weight", &stats.max_weight}, {"entropy", &stats.entropy}, {"jacobian_norm", &stats.jacobian_norm}};
}

std::string to_json(const SweepParams& params, const std::vector<SweepRow>& rows) {
  JsonWriter json;
  json.begin_object();
  json.field("keys", params.keys).field("draws", params.draws).field("seed", params.seed);
  json.field("alpha", params.alpha).field("method", to_string(params.method));
  json.key("rows").begin_array();
  for (const SweepRow& row : rows) {
    json.begin_object().field("dk", row.dk).field("dot_variance", row.dot_variance);
    for (const SweepStats* stats : {&row.raw, &row.scaled}) {
      json.key(stats == &row.raw ? "raw" : "scaled").begin_object();
      for (const NamedQuartiles& stat : named(*stats)) {
        json.key(stat.name).begin_object();
        json.field("median", stat.value->median).field("q1", stat.value->q1).field("q3", stat.value->q3);
        json.end_object();
      }
      json.end_object();
    }
    json.end_object();
  }
  json.end_array().end_object();
  return json.str() + "\n";
}

std::string to_csv(const std::vector<SweepRow>& rows) {
  CsvWriter csv;
  csv.cell("dk").cell("dot_variance");
  for (const char* side : {"raw", "scaled"}) {
    for (const char* stat : {"max_weight", "entropy", "jacobian_norm"}) {
      for (const char* quantile : {"median", "q1", "q3"}) {
        csv.cell(std::string(side) + "_" + stat + "_" + quantile);
      }
    }
  }
  csv.end_row();
  for (const SweepRow& row : rows) {
    csv.cell(row.dk).cell(row.dot_variance);
    for (const SweepStats* stats : {&row.raw, &row.scaled}) {
      for (const NamedQuartiles& stat : named(*stats)) {
        csv.cell(stat.value->median).cell(stat.value->q1).cell(stat.value->q3);
      }
    }
    csv.end_row();
  }
  return csv.str();
}

std::string to_text(const SweepParams& params, const std::vector<SweepRow>& rows) {
  std::string text;
  appendf(text, "%d keys, %d draws per d_k, seed %llu, %s draws; scaled = q.k / d_k^%g\n", params.keys, params.draws,
          static_cast<unsigned long long>(params.seed), to_string(params.method), params.alpha);
  appendf(text, "medians over draws (quartiles: --json or --csv); entropy in nats, max ln %d\n\n", params.keys);
  appendf(text, "%6s %10s   %s   %s\n", "", "", "------------- raw ------------", "----------- scaled -----------");
  appendf(text, "%6s %10s   %-9s %-9s %-10s   %-9s %-9s %s\n", "d_k", "var(q.k)", "max w", "entropy", "|J|_F", "max w",
          "entropy", "|J|_F");
  for (const SweepRow& row : rows) {
    appendf(text, "%6d %10.2f   %-9.4f %-9.3f %-10s   %-9.4f %-9.3f %s\n", row.dk, row.dot_variance,
            row.raw.max_weight.median, row.raw.entropy.median, format_number(row.raw.jacobian_norm.median).c_str(),
            row.scaled.max_weight.median, row.scaled.entropy.median, format_number(row.scaled.jacobian_norm.median).c_str());
  }
  return text;
}

}  // namespace

int run_sweep(const Args& args) {
  if (args.wants_help()) return emit(usage());
  args.accept({"dk", "keys", "draws", "seed", "alpha", "method", "json", "csv"});
  SweepParams params;
  const RangeSetting& dk = explorer::dk;
  params.dks = args.get_int_list("dk", params.dks, static_cast<int>(dk.lo), static_cast<int>(dk.hi),
                                 SoftmaxLimits::max_sweep_dks);
  read_draw_flags(args, params);
  const bool json = args.get_switch("json");
  const bool csv = args.get_switch("csv");
  if (json && csv) throw UsageError("--json and --csv exclude each other");

  const std::vector<SweepRow> rows = sweep(params);
  return emit(json ? to_json(params, rows) : csv ? to_csv(rows) : to_text(params, rows));
}

}  // namespace sqrtdk
