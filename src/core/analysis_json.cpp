// The structured answer as one JSON document, for `sqrtdk compare --json` and (parsed) lab.compare.
//
// {threshold, steps, ready, final, outcome, ratio, steps_earlier,        (variants[1] against variants[0])
//  definitions: {window, stall_band, stall_min_steps, clear_ratio, clear_share, text: {smoothed_loss, steps_to_threshold,
//                stall, final_level, clear_difference}},
//  variants: [{name, label, outcome, ratio, steps_earlier, median_steps_to_threshold, median_never,
//              median_final_loss, median_stall: {start, length, level, to_end} | null, runs_reaching, runs_stalled,
//              runs_diverged, runs_pending, runs_fell_back, stalls_to_end, pairs, pairs_ahead, cells: {median, seeds, relation, stall, final_loss},
//              runs: [{seed, steps, stopped, steps_to_threshold | null, touched_step | null, stall: {...} | null, final_loss,
//                      sequence_accuracy | null, diverged, diverged_step | null,
//                      cells: {steps_to_threshold, stall, final_loss}}]}],
//  sentences: [...],
//  messages: {sentences: [message], definitions: {smoothed_loss: message, ...},          (with_messages only)
//             variants: [{label: arg, cells: {median, seeds, relation, stall, final_loss: arg},
//                         runs: [{steps_to_threshold, stall, final_loss: arg}]}]}}
// Keys are written once, in snake_case; camelCase is derived (steps_to_threshold -> stepsToThreshold).
// messages holds every text above as what it is made of (src/core/phrasebook.hpp), in the same places:
//   message  {key, plural?: the count argument picking key.one/key.other, args: {name: arg}}
//   arg      message | {count: n} | {value: x | null} | {text: "..."} | {list: [arg], join: key}
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/analysis.hpp"

namespace sqrtdk {
namespace {

class Writer {
 public:
  explicit Writer(bool camel) : camel_(camel) {}

  Writer& open(char c) {
    comma();
    out_ += c;
    first_ = true;
    return *this;
  }
  Writer& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  Writer& key(const char* snake) {
    comma();
    std::string name;
    for (const char* p = snake; *p; ++p) {
      if (camel_ && *p == '_' && p[1]) name += static_cast<char>(std::toupper(static_cast<unsigned char>(*++p)));
      else name += *p;
    }
    out_ += quote(name) + ":";
    first_ = true;  // the value that follows needs no comma
    return *this;
  }
  Writer& number(double x) { return token(std::isfinite(x) ? roundtrip(x) : "null"); }
  Writer& integer(long long x) { return token(std::to_string(x)); }
  Writer& count(int x) { return integer(x); }
  Writer& steps_or_null(int x) { return x > 0 ? integer(x) : token("null"); }
  Writer& boolean(bool b) { return token(b ? "true" : "false"); }
  Writer& text(const std::string& s) { return token(quote(s)); }
  Writer& null() { return token("null"); }
  const std::string& str() const { return out_; }

 private:
  Writer& token(const std::string& t) {
    comma();
    out_ += t;
    return *this;
  }
  void comma() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  static std::string quote(const std::string& s) {
    std::string q = "\"";
    for (const char c : s) {
      if (c == '"' || c == '\\') {
        q += '\\';
        q += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        q += buf;
      } else {
        q += c;
      }
    }
    return q + "\"";
  }
  static std::string roundtrip(double x) {
    char buf[32];
    for (int precision = 15; precision <= 17; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*g", precision, x);
      if (std::strtod(buf, nullptr) == x) break;
    }
    return buf;
  }

  bool camel_;
  bool first_ = true;
  std::string out_;
};

void write_stall(Writer& w, const Stall& s) {
  if (!s.found()) {
    w.null();
    return;
  }
  w.open('{').key("start").count(s.start).key("length").count(s.length).key("level").number(s.level);
  w.key("to_end").boolean(s.to_end).close('}');
}

void write_run(Writer& w, const RunSummary& r, int steps) {
  w.open('{').key("seed").integer(static_cast<long long>(r.seed)).key("steps").count(r.steps);
  w.key("stopped").boolean(r.stopped).key("steps_to_threshold").steps_or_null(r.steps_to_threshold);
  w.key("touched_step").steps_or_null(r.touched_step);
  w.key("stall");
  write_stall(w, r.stall);
  w.key("final_loss").number(r.final_loss).key("sequence_accuracy").number(r.sequence_accuracy);
  w.key("diverged").boolean(r.diverged).key("diverged_step").steps_or_null(r.diverged_step);
  w.key("cells").open('{').key("steps_to_threshold").text(run_steps_cell(r, steps));
  w.key("stall").text(run_stall_cell(r)).key("final_loss").text(format_number(r.final_loss)).close('}');
  w.close('}');
}

void write_arg(Writer& w, const Arg& arg);

void write_message(Writer& w, const Message& m) {
  w.open('{').key("key").text(m.key);
  if (!m.plural.empty()) w.key("plural").text(m.plural);
  w.key("args").open('{');
  // Argument names are camelCase already (they are the templates' placeholders): key() leaves them as they are.
  for (const auto& [name, arg] : m.args) {
    w.key(name.c_str());
    write_arg(w, arg);
  }
  w.close('}').close('}');
}

void write_arg(Writer& w, const Arg& arg) {
  switch (arg.kind) {
    case Arg::Kind::count: w.open('{').key("count").number(arg.number).close('}'); return;
    case Arg::Kind::value: w.open('{').key("value").number(arg.number).close('}'); return;
    case Arg::Kind::text: w.open('{').key("text").text(arg.text).close('}'); return;
    case Arg::Kind::message: write_message(w, *arg.message); return;
    case Arg::Kind::list:
      w.open('{').key("list").open('[');
      for (const Arg& item : arg.items) write_arg(w, item);
      w.close(']').key("join").text(arg.text).close('}');
      return;
  }
}

void write_messages(Writer& w, const Answer& a) {
  w.key("messages").open('{').key("sentences").open('[');
  for (const Message& m : answer_messages(a)) write_message(w, m);
  w.close(']').key("definitions").open('{');
  for (const DefinitionMessage& d : definition_messages(a.defs, a.threshold, a.steps)) {
    w.key(d.key);
    write_message(w, d.message);
  }
  w.close('}').key("variants").open('[');
  for (const VariantResult& v : a.variants) {
    w.open('{').key("label");
    write_arg(w, variant_label_arg(v));
    w.key("cells").open('{').key("median");
    write_arg(w, variant_median_arg(v, a.steps));
    w.key("seeds");
    write_arg(w, variant_seeds_arg(v));
    w.key("relation");
    write_arg(w, variant_relation_arg(v, a.steps));
    w.key("stall");
    write_arg(w, variant_stall_arg(v));
    w.key("final_loss");
    write_arg(w, Arg::value(v.median_final_loss));
    w.close('}').key("runs").open('[');
    for (const RunSummary& r : v.runs) {
      w.open('{').key("steps_to_threshold");
      write_arg(w, run_steps_arg(r, a.steps));
      w.key("stall");
      write_arg(w, run_stall_arg(r));
      w.key("final_loss");
      write_arg(w, Arg::value(r.final_loss));
      w.close('}');
    }
    w.close(']').close('}');
  }
  w.close(']').close('}');
}

void write_variant(Writer& w, const VariantResult& v, int steps) {
  w.open('{').key("name").text(v.name).key("label").text(v.label).key("outcome").text(to_string(v.outcome));
  w.key("ratio").number(v.ratio).key("steps_earlier").number(v.steps_earlier);
  w.key("median_steps_to_threshold").number(v.median_steps_to_threshold);
  w.key("median_never").boolean(std::isinf(v.median_steps_to_threshold));
  w.key("median_final_loss").number(v.median_final_loss).key("median_stall");
  write_stall(w, v.median_stall);
  w.key("runs_reaching").count(v.runs_reaching).key("runs_stalled").count(v.runs_stalled);
  w.key("runs_diverged").count(v.runs_diverged).key("runs_pending").count(v.runs_pending);
  w.key("runs_fell_back").count(v.runs_fell_back).key("stalls_to_end").count(v.stalls_to_end);
  w.key("pairs").count(v.pairs).key("pairs_ahead").count(v.pairs_ahead);
  w.key("cells").open('{').key("median").text(variant_median_cell(v, steps));
  w.key("seeds").text(variant_seeds_cell(v, steps)).key("relation").text(variant_relation_cell(v, steps));
  w.key("stall").text(variant_stall_cell(v)).key("final_loss").text(format_number(v.median_final_loss)).close('}');
  w.key("runs").open('[');
  for (const RunSummary& r : v.runs) write_run(w, r, steps);
  w.close(']').close('}');
}

}  // namespace

std::string answer_json(const Answer& a, bool camel_case, bool with_messages) {
  Writer w(camel_case);
  w.open('{').key("threshold").number(a.threshold).key("steps").count(a.steps);
  w.key("ready").boolean(a.ready).key("final").boolean(a.final);
  w.key("outcome").text(to_string(a.outcome)).key("ratio").number(a.ratio).key("steps_earlier").number(a.steps_earlier);
  const CurveDefinitions& d = a.defs;
  w.key("definitions").open('{').key("window").count(d.window).key("stall_band").number(d.stall_band);
  w.key("stall_min_steps").count(d.stall_min_steps).key("clear_ratio").number(d.clear_ratio);
  w.key("clear_share").number(d.clear_share);
  w.key("text").open('{');
  for (const DefinitionText& t : definition_texts(d, a.threshold, a.steps)) w.key(t.key).text(t.text);
  w.close('}').close('}');
  w.key("variants").open('[');
  for (const VariantResult& v : a.variants) write_variant(w, v, a.steps);
  w.close(']').key("sentences").open('[');
  for (const std::string& s : a.sentences) w.text(s);
  w.close(']');
  if (with_messages) write_messages(w, a);
  w.close('}');
  return w.str();
}

}  // namespace sqrtdk
