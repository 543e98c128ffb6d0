// The structured answer as one JSON document, for `sqrtdk compare --json` and (parsed) lab.compare.
//
// {threshold, steps, ready, final, outcome, ratio, steps_earlier,        (variants[1] against variants[0])
//  definitions: {window, stall_band, stall_min_steps, clear_ratio, clear_share, saturated_top_weight, text: {smoothed_loss, steps_to_threshold,
//                stall, final_level, clear_difference}},
//  variants: [{name, label, outcome, ratio, steps_earlier, median_steps_to_threshold, median_never,
//              median_final_loss, median_stall: {start, length, level, to_end} | null, runs_reaching, runs_stalled,
//              runs_diverged, runs_pending, runs_fell_back, stalls_to_end, pairs, pairs_ahead, cells: {median, seeds, relation, stall, final_loss},
//              runs: [{seed, steps, stopped, steps_to_threshold | null, touched_step | null, stall: {...} | null, final_loss,
//                      sequence_accuracy | null, diverged, diverged_step | null,
//                      cells: {steps_to_threshold, stall, final_loss}}]}],
//  sentences: [...],
//  runs_headline: "Your seeds 0–2: ..." (the runs in the claims' form, learned_headline.hpp; "" until final),
//  messages: {sentences: [message], runs_headline: message | null,                        (with_messages only)
//             definitions: {smoothed_loss: message, ...},
//             variants: [{label: arg, cells: {median, seeds, relation, stall, final_loss: arg},
//                         runs: [{steps_to_threshold, stall, final_loss: arg}]}]}}
// Keys are written once, in snake_case; camelCase is derived (steps_to_threshold -> stepsToThreshold).
// messages holds every text above as what it is made of (src/core/text/phrasebook.hpp), in the same places:
//   message  {key, plural?: the count argument picking key.one/key.other, args: {name: arg}}
//   arg      message | {count: n} | {value: x | null} | {text: "..."} | {list: [arg], join: key}
#include <cmath>

#include "core/lesson/saturation.hpp"
#include "core/lesson/softmax_stats.hpp"  // even_row_jacobian_norm
#include "core/answer/analysis.hpp"
#include "core/answer/learned_headline.hpp"
#include "core/answer/mechanism_reading.hpp"
#include "core/text/json.hpp"

namespace sqrtdk {

void write_message(JsonWriter& w, const Message& m) {
  w.begin_object().key("key").value(m.key);
  if (!m.plural.empty()) w.key("plural").value(m.plural);
  w.key("args").begin_object();
  // Argument names are camelCase already (they are the templates' placeholders): key() leaves them as they are.
  for (const auto& [name, arg] : m.args) {
    w.key(name.c_str());
    write_arg(w, arg);
  }
  w.end_object().end_object();
}

void write_arg(JsonWriter& w, const Arg& arg) {
  switch (arg.kind) {
    case Arg::Kind::count: w.begin_object().key("count").value(arg.number).end_object(); return;
    case Arg::Kind::value: w.begin_object().key("value").value(arg.number).end_object(); return;
    case Arg::Kind::text: w.begin_object().key("text").value(arg.text).end_object(); return;
    case Arg::Kind::message: write_message(w, *arg.message); return;
    case Arg::Kind::list:
      w.begin_object().key("list").begin_array();
      for (const Arg& item : arg.items) write_arg(w, item);
      w.end_array().key("join").value(arg.text).end_object();
      return;
  }
}

namespace {

// A positive step number, or null (0 or -1: none).
JsonWriter& step_or_null(JsonWriter& w, int step) { return step > 0 ? w.value(step) : w.null(); }

void write_stall(JsonWriter& w, const Stall& s) {
  if (!s.found()) {
    w.null();
    return;
  }
  w.begin_object().key("start").value(s.start).key("length").value(s.length).key("level").value(s.level);
  w.key("to_end").value(s.to_end).end_object();
}

void write_run(JsonWriter& w, const RunSummary& r, int steps) {
  w.begin_object().key("seed").value(r.seed).key("steps").value(r.steps);
  step_or_null(w.key("stopped").value(r.stopped).key("steps_to_threshold"), r.steps_to_threshold);
  step_or_null(w.key("touched_step"), r.touched_step);
  w.key("stall");
  write_stall(w, r.stall);
  w.key("final_loss").value(r.final_loss).key("sequence_accuracy").value(r.sequence_accuracy);
  step_or_null(w.key("diverged").value(r.diverged).key("diverged_step"), r.diverged_step);
  w.key("cells").begin_object().key("steps_to_threshold").value(run_steps_cell(r, steps));
  w.key("stall").value(run_stall_cell(r)).key("final_loss").value(format_number(r.final_loss)).end_object();
  w.end_object();
}

void write_messages(JsonWriter& w, const Answer& a) {
  w.key("messages").begin_object().key("sentences").begin_array();
  for (const Message& m : answer_messages(a)) write_message(w, m);
  const Message headline = runs_headline(a);
  w.end_array().key("runs_headline");
  if (headline.key.empty()) w.null();
  else write_message(w, headline);
  w.key("definitions").begin_object();
  for (const DefinitionMessage& d : definition_messages(a.defs, a.threshold, a.steps)) {
    w.key(d.key);
    write_message(w, d.message);
  }
  w.end_object().key("variants").begin_array();
  for (const VariantResult& v : a.variants) {
    w.begin_object().key("label");
    write_arg(w, variant_label_arg(v));
    w.key("cells").begin_object().key("median");
    write_arg(w, variant_median_arg(v, a.steps));
    w.key("seeds");
    write_arg(w, variant_seeds_arg(v));
    w.key("relation");
    write_arg(w, variant_relation_arg(v, a.steps));
    w.key("stall");
    write_arg(w, variant_stall_arg(v));
    w.key("final_loss");
    write_arg(w, Arg::value(v.median_final_loss));
    w.end_object().key("runs").begin_array();
    for (const RunSummary& r : v.runs) {
      w.begin_object().key("steps_to_threshold");
      write_arg(w, run_steps_arg(r, a.steps));
      w.key("stall");
      write_arg(w, run_stall_arg(r));
      w.key("final_loss");
      write_arg(w, Arg::value(r.final_loss));
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

void write_variant(JsonWriter& w, const VariantResult& v, int steps) {
  w.begin_object().key("name").value(v.name).key("label").value(v.label).key("outcome").value(to_string(v.outcome));
  w.key("ratio").value(v.ratio).key("steps_earlier").value(v.steps_earlier);
  w.key("median_steps_to_threshold").value(v.median_steps_to_threshold);
  w.key("median_never").value(std::isinf(v.median_steps_to_threshold));
  w.key("median_final_loss").value(v.median_final_loss).key("median_stall");
  write_stall(w, v.median_stall);
  w.key("runs_reaching").value(v.runs_reaching).key("runs_stalled").value(v.runs_stalled);
  w.key("runs_diverged").value(v.runs_diverged).key("runs_pending").value(v.runs_pending);
  w.key("runs_fell_back").value(v.runs_fell_back).key("stalls_to_end").value(v.stalls_to_end);
  w.key("pairs").value(v.pairs).key("pairs_ahead").value(v.pairs_ahead);
  w.key("cells").begin_object().key("median").value(variant_median_cell(v, steps));
  w.key("seeds").value(variant_seeds_cell(v, steps)).key("relation").value(variant_relation_cell(v, steps));
  w.key("stall").value(variant_stall_cell(v)).key("final_loss").value(format_number(v.median_final_loss)).end_object();
  w.key("runs").begin_array();
  for (const RunSummary& r : v.runs) write_run(w, r, steps);
  w.end_array().end_object();
}

}  // namespace

void write_answer_members(JsonWriter& w, const Answer& a, bool with_messages) {
  w.key("threshold").value(a.threshold).key("steps").value(a.steps);
  w.key("ready").value(a.ready).key("final").value(a.final);
  w.key("outcome").value(to_string(a.outcome)).key("ratio").value(a.ratio).key("steps_earlier").value(a.steps_earlier);
  const CurveDefinitions& d = a.defs;
  w.key("definitions").begin_object().key("window").value(d.window).key("stall_band").value(d.stall_band);
  w.key("stall_min_steps").value(d.stall_min_steps).key("clear_ratio").value(d.clear_ratio);
  w.key("clear_share").value(d.clear_share).key("saturated_top_weight").value(kSaturatedTopWeight);
  w.key("text").begin_object();
  for (const DefinitionText& t : definition_texts(d, a.threshold, a.steps)) w.key(t.key).value(t.text);
  w.end_object().end_object();
  w.key("variants").begin_array();
  for (const VariantResult& v : a.variants) write_variant(w, v, a.steps);
  w.end_array().key("sentences").begin_array();
  for (const std::string& s : a.sentences) w.value(s);
  const Message headline = runs_headline(a);
  w.end_array().key("runs_headline").value(headline.key.empty() ? std::string() : english(headline));
  if (with_messages) write_messages(w, a);
}

namespace {

// The numbers behind the sentences (mechanism_reading.hpp): per variant its medians over seeds, per layer where
// they are read per layer, and each run's q/k drop and logit-spread peak; then the setting's numbers they cite.
void write_readings(JsonWriter& w, const MechanismReading& r) {
  const MechanismSetting& s = r.setting;
  w.key("readings").begin_object();
  w.field("dead_drop", kDeadDrop).field("keys", s.keys).field("even_row_jacobian", even_row_jacobian_norm(s.keys));
  w.field("dk", s.dk).field("root_dk", std::sqrt(static_cast<double>(s.dk))).field("lr", s.lr);
  w.key("variants").begin_array();
  for (const VariantMechanism& v : r.variants) {
    w.begin_object().field("runs", v.runs).field("early_grad", v.early_grad).field("late_grad", v.late_grad);
    w.field("early_update", v.early_update).field("early_spread", v.early_spread).field("late_spread", v.late_spread);
    w.field("jacobian_layer", v.jacobian_layer + 1).field("early_jacobian", v.early_jacobian);
    w.field("late_jacobian", v.late_jacobian).field("drop", v.drop).field("peak_step", v.peak_step);
    w.key("early_jacobian_by_layer").array(v.early_jacobian_by_layer);
    w.key("late_jacobian_by_layer").array(v.late_jacobian_by_layer);
    w.key("start_top_by_layer").array(v.start_top).key("late_top_by_layer").array(v.late_top);
    w.key("per_run").begin_array();
    for (std::size_t i = 0; i < v.per_run.size(); ++i) {
      const RunMechanism& run = v.per_run[i];
      w.begin_object().field("seed", static_cast<double>(run.seed)).field("drop", run.drop);
      w.field("peak_step", run.peak_step).field("late_grad", run.late_grad);
      if (i < v.peak_spread.size())
        w.field("peak_spread", v.peak_spread[i]).field("peak_spread_step", v.peak_spread_step[i]);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

}  // namespace

void write_mechanism_member(JsonWriter& w, const MechanismReading& r) {
  if (!r.given) return;
  const std::pair<const char*, const std::vector<Message>*> parts[] = {
      {"qk", &r.qk}, {"jacobian", &r.jacobian}, {"spread", &r.spread}, {"why", &r.why}};
  w.key("mechanism").begin_object();
  for (const auto& [name, ms] : parts) {
    w.key(name).begin_array();
    for (const Message& m : *ms) w.value(english(m));
    w.end_array();
  }
  w.key("why_title");
  r.why_title.key.empty() ? w.null() : w.value(english(r.why_title));
  w.key("messages").begin_object();
  for (const auto& [name, ms] : parts) {
    w.key(name).begin_array();
    for (const Message& m : *ms) write_message(w, m);
    w.end_array();
  }
  w.key("why_title");
  if (r.why_title.key.empty()) w.null();
  else write_message(w, r.why_title);
  w.end_object();
  write_readings(w, r);
  w.end_object();
}

std::string answer_json(const Answer& a, bool camel_case, bool with_messages) {
  JsonWriter w(camel_case);
  w.begin_object();
  write_answer_members(w, a, with_messages);
  w.end_object();
  return w.str();
}

}  // namespace sqrtdk
