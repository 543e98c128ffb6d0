// sqrtdk softmax: the lesson demo. One draw of q and the keys; softmax of the raw and the scaled dot products.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "cli/commands.hpp"
#include "cli/range_flags.hpp"
#include "core/text/json.hpp"
#include "cli/output.hpp"
#include "core/text/number_text.hpp"
#include "core/lesson/softmax_stats.hpp"

namespace sqrtdk {
namespace {

std::string usage() {
  using namespace explorer;
  return "usage: sqrtdk softmax " + range_synopsis({&dk, &keys, &seed, &alpha, &top}) + " [--json]\n"
         "\n"
         "One draw of q and the keys, all ~ N(0, I_dk) from Rng(seed) (q first, then the keys row by row), and the\n"
         "softmax of their dot products raw (q.k) and scaled (q.k / dk^alpha): the largest weights, the max weight,\n"
         "the entropy in nats with exp(entropy) as the effective number of keys, and the Frobenius norm of the\n"
         "softmax Jacobian diag(p) - p p^T.\n"
         "\n" + range_usage({&dk, &keys, &seed, &alpha, &top}) +
         "  --json        one JSON object: {\"dk\",\"keys\",\"seed\",\"alpha\",\"raw\":{\"top5\":[...],\"max\",\"entropy\",\n"
         "                \"effective_keys\",\"jacobian_norm\"},\"scaled\":{...}}; the key is \"top<K>\" for --top K\n";
}

void write_side(JsonWriter& json, const SoftmaxView& view, const std::string& top_key) {
  json.begin_object();
  json.key(top_key).array(view.top);
  json.field("max", view.stats.max_weight);
  json.field("entropy", view.stats.entropy);
  json.field("effective_keys", view.stats.effective_keys);
  json.field("jacobian_norm", view.stats.jacobian_norm);
  json.end_object();
}

std::string to_json(const SoftmaxDemo& demo) {
  const std::string top_key = "top" + std::to_string(demo.params.top);
  JsonWriter json;
  json.begin_object();
  json.field("dk", demo.params.dk).field("keys", demo.params.keys).field("seed", demo.params.seed);
  json.field("alpha", demo.params.alpha);
  write_side(json.key("raw"), demo.raw, top_key);
  write_side(json.key("scaled"), demo.scaled, top_key);
  json.end_object();
  return json.str() + "\n";
}

std::string to_text(const SoftmaxDemo& demo) {
  const DemoParams& params = demo.params;
  std::string text;
  appendf(text, "one draw: q and %d keys ~ N(0, I) in d_k = %d, seed %llu\n", params.keys, params.dk,
          static_cast<unsigned long long>(params.seed));
  appendf(text, "raw = softmax(q.k), scaled = softmax(q.k / %d^%g)\n\n", params.dk, params.alpha);

  const std::string top_title = "top " + std::to_string(params.top) + " weights";
  const int top_width = std::max(static_cast<int>(top_title.size()), 7 * params.top - 1);
  appendf(text, "%-8s %-*s   %-7s  %-8s  %-13s  %s\n", "", top_width, top_title.c_str(), "max", "entropy", "eff. keys",
          "|J|_F");
  for (const SoftmaxView* view : {&demo.raw, &demo.scaled}) {
    std::string top, effective;
    for (const double w : view->top) appendf(top, "%s%.4f", top.empty() ? "" : " ", w);
    appendf(effective, "%.2f / %d", view->stats.effective_keys, params.keys);
    appendf(text, "%-8s %-*s   %.4f   %-8.3f  %-13s  %s\n", view == &demo.raw ? "raw" : "scaled", top_width,
            top.c_str(), view->stats.max_weight, view->stats.entropy, effective.c_str(),
            format_significant(view->stats.jacobian_norm).c_str());
  }
  appendf(text, "\nentropy in nats (uniform over %d keys: ln %d = %.3f); |J|_F = ||diag(p) - p p^T||_F\n", params.keys,
          params.keys, std::log(static_cast<double>(params.keys)));
  return text;
}

}  // namespace

int run_softmax(const Args& args) {
  if (args.wants_help()) return emit(usage());
  args.accept({"dk", "keys", "seed", "alpha", "top", "json"});
  DemoParams params;
  params.dk = range_int(args, explorer::dk);
  params.keys = range_int(args, explorer::keys);
  params.seed = explorer_seed(args);
  params.alpha = range_real(args, explorer::alpha);
  params.top = args.get_int("top", std::min(params.top, params.keys), 1, params.keys);  // its range ends at keys
  const bool json = args.get_switch("json");

  const SoftmaxDemo demo = softmax_demo(params);
  return emit(json ? to_json(demo) : to_text(demo));
}

}  // namespace sqrtdk
