// The English phrasebook (every template of the answer, once) and the English renderer.
#include "core/text/phrasebook.hpp"

#include "core/text/number_text.hpp"

namespace sqrtdk {

const std::vector<Phrase>& phrasebook() {
  static const std::vector<Phrase> table = {
      // display names of the variants
      {"variant.scaled", "scaled 1/√d_k"},
      {"variant.unscaled", "unscaled"},
      {"variant.alpha", "1/d_k^α, α={alpha}"},
      {"variant.qknorm", "QK-norm"},

      // the answer with one variant
      {"single", "{label} reached smoothed loss {threshold} {at}."},
      {"single.seeds", "{label} reached smoothed loss {threshold} {at} ({seeds}: {range})."},
      {"single.never", "{missed}."},

      // a variant against the reference: {result}, then what the seeds say
      {"compare.result", "{label} reached smoothed loss {threshold} {at} vs {refSteps} for {ref}: {difference}."},
      {"compare.clear.slower",
       "{result} A clear difference {over}: every seed of {label} ({range} steps) was slower than every seed of {ref} "
       "({refRange})."},
      {"compare.clear.slower.most",
       "{result} A clear difference {over}: in {ahead} of the {pairs} pairs of seeds {label} got "
       "there later than {ref} ({label}: {range} steps; {ref}: {refRange})."},
      {"compare.clear.faster.most",
       "{result} A clear difference {over}: in {ahead} of the {pairs} pairs of seeds {label} got "
       "there sooner than {ref} ({label}: {range} steps; {ref}: {refRange})."},
      {"compare.clear.faster",
       "{result} A clear difference {over}: every seed of {label} ({range} steps) was faster than every seed of {ref} "
       "({refRange})."},
      {"compare.spread",
       "{result} Within the spread of the seeds ({over}): {label} took {range} steps and {ref} {refRange}; one got "
       "there first in only {ahead} of the {pairs} pairs of seeds, fewer than the {share} % a clear difference needs, "
       "so there is no clear difference."},
      {"compare.small.slower",
       "{result} Small but consistent {over}: every seed of {label} ({range} steps) was slower than every seed of {ref} "
       "({refRange}), by less than the {clearRatio}× a clear difference needs, so the two are about equally fast."},
      {"compare.small.slower.most",
       "{result} Small but consistent {over}: in {ahead} of the {pairs} pairs of seeds {label} got "
       "there later than {ref} ({label}: {range} steps; {ref}: {refRange}), by less than the {clearRatio}× a clear "
       "difference needs, so the two are about equally fast."},
      {"compare.small.faster.most",
       "{result} Small but consistent {over}: in {ahead} of the {pairs} pairs of seeds {label} got "
       "there sooner than {ref} ({label}: {range} steps; {ref}: {refRange}), by less than the {clearRatio}× a clear "
       "difference needs, so the two are about equally fast."},
      {"compare.small.faster",
       "{result} Small but consistent {over}: every seed of {label} ({range} steps) was faster than every seed of {ref} "
       "({refRange}), by less than the {clearRatio}× a clear difference needs, so the two are about equally fast."},
      {"compare.never", "{missed}; {reached}."},
      {"compare.neither",
       "Neither {label} nor {ref} reached smoothed loss {threshold} in {steps} steps, so this run cannot say which "
       "gets there sooner; their final levels: {label} {level}, {ref} {refLevel}."},
      {"compare.neither.seeds",
       "Neither {label} nor {ref} reached smoothed loss {threshold} in {steps} steps for most seeds, so this run "
       "cannot say which gets there sooner; their final levels: {label} {level}, {ref} {refLevel}."},
      {"one_seed", "One seed: no spread to judge whether the difference is clear."},
      {"noted", "{sentence} {note}"},
      {"over.each", "over {seeds} seeds each"},
      {"over.both", "over {seeds} and {refSeeds} seeds"},

      // parts of those sentences
      {"at.step", "at step {steps}"},
      {"at.median", "at a median of {steps} steps"},
      {"missed", "{label} did not reach smoothed loss {threshold} and stay below it in {steps} steps"},
      {"missed.all", "{label} did not reach smoothed loss {threshold} and stay below it in {steps} steps for any of {seeds}"},
      {"missed.some.one",
       "{label} did not reach smoothed loss {threshold} and stay below it in {steps} steps for {missing} of {seeds} (the other at step "
       "{others})"},
      {"missed.some.other",
       "{label} did not reach smoothed loss {threshold} and stay below it in {steps} steps for {missing} of {seeds} (the others at "
       "steps {others})"},
      {"missed.fell_back", "{missed}; {fell}"},
      {"fell_back.one", "{count} of them touched it at step {steps} and ended above it, at {levels}"},
      {"fell_back.other", "{count} of them touched it (at steps {steps}) and ended above it (at {levels})"},
      {"reached", "{label} reached it {at}"},
      {"reached.some", "{label} reached it {at} ({reaching} of {seeds} got there)"},
      {"difference.same", "in the same number of steps ({times})"},
      {"difference.later.one", "{steps} step later ({times})"},
      {"difference.later.other", "{steps} steps later ({times})"},
      {"difference.earlier.one", "{steps} step earlier ({times})"},
      {"difference.earlier.other", "{steps} steps earlier ({times})"},
      {"times", "{ratio}× as many steps"},
      {"times.short", "{ratio}×"},
      {"range", "{low}–{high}"},
      {"never", "never"},
      {"pending", "…"},
      {"seeds.one", "{n} seed"},
      {"seeds.other", "{n} seeds"},

      // stalls, diverged runs, final levels
      {"stalls", "Stalls, where the smoothed loss stayed within {band} % for at least {minSteps} steps above {threshold}: {list}."},
      {"stalls.none", "No stalls: no smoothed loss stayed within {band} % for at least {minSteps} steps above {threshold}."},
      {"stalls.item", "{label} {stalls}"},
      {"stall.none", "none"},
      {"stall.in", "in {stalled} of {seeds}, {stall}"},
      {"stall.span", "from step {start}, {length} steps at {level}"},
      {"stall.so_far", "from step {start}, {length} steps so far at {level}"},
      {"stall.to_end", "from step {start} to the end ({length} steps) at {level}"},
      {"stall.median", "median from step {start}, {length} steps at {level}"},
      {"stall.median.all_end", "median from step {start}, {length} steps at {level}, all to the end"},
      {"stall.median.some_end", "median from step {start}, {length} steps at {level}, {ended} to the end"},
      {"diverged", "Diverged: {list}."},
      {"diverged.item.one", "{label} in {diverged} of {seeds} (at step {steps})"},
      {"diverged.item.other", "{label} in {diverged} of {seeds} (at steps {steps})"},
      {"final", "Final smoothed loss: {list}."},
      {"final.median", "Final smoothed loss (median over seeds): {list}."},
      {"final.item", "{label} {level}"},

      // table cells
      {"cell.never", "never (in {steps} steps)"},
      {"cell.diverged", "never (diverged at step {step})"},
      {"cell.fell_back", "never (touched it at step {step}, ended at {level})"},
      {"cell.not_yet", "not yet"},
      {"relation.reference", "reference"},
      {"relation.reference_never", "reached it; the reference never did"},
      {"relation.neither", "neither reached it"},
      {"relation.clear", "{difference}: clear"},
      {"relation.spread", "{difference}: within the seeds' spread"},
      {"relation.small", "{difference}: small but consistent"},
      {"relation.one_seed", "{difference}: one seed, no spread to judge"},

      // the definitions under the table
      {"definition.smoothed_loss", "Smoothed loss: the mean of the last {window} steps' losses (fewer at the start)."},
      {"definition.steps_to_threshold",
       "Steps to threshold: the first step whose smoothed loss is below {threshold}, for a run that learned (its "
       "smoothed loss is still below {threshold} at its last step); \"{never}\" if the run does not get there, or "
       "touched it and ended above it. Over seeds: the median, a seed that never got there counting as slower than "
       "any."},
      {"definition.stall",
       "Stall: at least {minSteps} steps in which the smoothed loss stays above {threshold} and within {band} % (its "
       "highest at most {highest}× its lowest): the curve is flat where it should be falling. Shown: a run's longest "
       "one, where it starts, how long it lasts and its level (median)."},
      {"definition.final_level", "Final level: the smoothed loss at the run's last step."},
      {"definition.clear_difference",
       "Clear difference: in at least {share} % of the pairs (a seed of one variant, a seed of the other) one "
       "variant reached the threshold strictly first, a seed that never got there counting as the slowest, and the "
       "medians are at least {clearRatio}× apart. Fewer pairs: within the spread of the seeds. One seed: no spread to "
       "judge."},

      // the mechanism: the sentence under each mechanism chart and the "why" box (mechanism_reading.hpp)
      {"mech.larger", "{times}× larger"},
      {"mech.smaller", "{times}× smaller"},
      {"mech.item", "{label} {value}"},
      {"mech.item.layer", "{label} {value} (layer {layer})"},
      {"mech.qk.start",
       "Steps 1–{window}: {label}'s q/k gradient is {grad}, {ref}'s {refGrad} ({relation})."},
      {"mech.qk.larger_why",
       "It starts larger because unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}: its logits, and their "
       "derivative with respect to W_q and W_k, are {root}× larger; its sharper softmax passes less of it (|J|_F "
       "{jacobian} vs {refJacobian}), not enough to cancel that. The lesson's dying gradient is a later thing: a "
       "gradient that is small while the loss is still high."},
      {"mech.qk.larger_why_not_sharper",
       "It starts larger because unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}: its logits, and their "
       "derivative with respect to W_q and W_k, are {root}× larger, and here its softmax is not sharper (|J|_F "
       "{jacobian} vs {refJacobian}), so nothing cancels that. The lesson's dying gradient is a later thing: a "
       "gradient that is small while the loss is still high."},
      {"mech.qk.smaller_why",
       "Unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}, which makes its logits {root}× larger, but its "
       "saturated softmax passes so much less (|J|_F {jacobian} vs {refJacobian}) that its q/k gradient is smaller "
       "anyway."},
      {"mech.qk.died",
       "{label}: the q/k gradient fell {drop}× from its peak at step {peak} while the loss is still {loss}: small "
       "while the loss is still high, the lesson's dying gradient."},
      {"mech.qk.done",
       "{label}: the q/k gradient fell {drop}× from its peak at step {peak} as the loss fell to {loss}: little is "
       "left to learn, so a small gradient here is not a dead one."},
      {"mech.qk.alive",
       "{label}: the loss is still {loss} but the q/k gradient is {grad}, only {drop}× below its peak at step "
       "{peak}: the gradient did not die."},
      {"mech.jacobian",
       "The softmax Jacobian's norm |J|_F, the mean over a layer's attention rows: 0 when one key takes all the "
       "weight, √(n−1)/n (about 1/√n) when n keys share it evenly, so it shrinks as rows get longer (the rows here "
       "have 1 to {keys} keys; {keys} even keys give {uniform}). In each variant's layer whose |J|_F ends smallest, steps 1–{window}: {early}; the last {window} steps: "
       "{late}."},
      {"mech.saturated",
       "{label}'s attention starts saturated: mean top weight {top} in those first steps (saturated: at least "
       "{bar})."},
      {"mech.not_saturated",
       "{label}'s attention does not start saturated: mean top weight {top} in those first steps (saturated: at "
       "least {bar})."},
      {"mech.spread",
       "The logit spread (row max − row mean of the logits the softmax sees), steps 1–{window}: {early}; the last "
       "{window} steps: {late}."},
      {"mech.why.title.adam.learns", "Why does {label} still learn under Adam?"},
      {"mech.why.title.adam.fails", "Why does {label} fail under Adam here?"},
      {"mech.why.title.sgd.learns", "Why does {label} learn under SGD here?"},
      {"mech.why.title.sgd.fails", "Why does {label} stay stuck under SGD?"},
      {"mech.why.title.adam.slow", "Why is {label} slower under Adam?"},
      {"mech.why.title.sgd.slow", "Why is {label} slower under SGD?"},
      {"mech.why.adam.slow",
       "Adam divides each step by the running size of its own gradient. In steps 1–{window}, {label}'s q/k gradient "
       "is {grad} than {ref}'s, while the change Adam made to its W_q and W_k is {update}: the size of the gradient "
       "does not set the size of the step, and {label} keeps moving. Its loss is {loss} and still falling after {budget} steps ({ref}: {refSteps} "
       "steps to the threshold): more steps would tell whether it gets there."},
      {"mech.why.sgd.slow",
       "SGD's step is the learning rate times the gradient. In layer {layer}, {label}'s |J|_F goes from {jacobian} to "
       "{jacobianEnd} and its q/k gradient fell {drop}× from its peak, but its loss is {loss} and still falling after {budget} steps "
       "({ref}: {refSteps} steps to the threshold): more steps would tell whether it learns or gets stuck."},
      {"mech.why.adam.learns",
       "Adam divides each step by the running size of its own gradient. In steps 1–{window}, {label}'s q/k gradient "
       "is {grad} than {ref}'s, while the change Adam made to its W_q and W_k is {update}: the size of the gradient "
       "does not set the size of the step. Even a sharp softmax passes a direction, and the normalised step follows "
       "it at full size, so {label} learns: median {steps} steps to the threshold, {ref} {refSteps}."},
      {"mech.why.adam.fails",
       "Adam divides each step by the running size of its own gradient, so the step stays full size whatever the "
       "gradient. At lr {lr}, {label}'s logit spread goes from {spread} to {spreadEnd} and its rows saturate "
       "(|J|_F {jacobianEnd} in layer {layer} in the last {window} steps, {ref} {refJacobianEnd}); its loss ends at {loss} and "
       "{missed} of {seeds} seeds never reached {threshold}: the normalised step does not undo the saturation."},
      {"mech.why.sgd.learns",
       "SGD's step is the learning rate times the gradient, and {label}'s gradient stays large enough here: "
       "|J|_F {jacobianEnd} in layer {layer} in the last {window} steps, median {steps} steps to the threshold ({ref} {refSteps})."},
      {"mech.why.sgd.fails",
       "SGD's step is the learning rate times the gradient, not a normalised one. In layer {layer}, {label}'s |J|_F "
       "goes from {jacobian} to {jacobianEnd} as its rows saturate, its q/k gradient falls {drop}× from its peak while the "
       "loss is still {loss}, and its step falls with it: the run stays stuck ({missed} of {seeds} seeds never "
       "reached {threshold})."},

      // joining the items of a list
      {"join.comma", ", "},
      {"join.semicolon", "; "},
      {"join.dot", " · "},
  };
  return table;
}

Arg::Arg(const Message& m) : kind(Kind::message), message(std::make_shared<const Message>(m)) {}

Arg Arg::count(double n) {
  Arg a;
  a.kind = Kind::count;
  a.number = n;
  return a;
}

Arg Arg::value(double x) {
  Arg a;
  a.kind = Kind::value;
  a.number = x;
  return a;
}

Arg Arg::verbatim(std::string s) {
  Arg a;
  a.kind = Kind::text;
  a.text = std::move(s);
  return a;
}

Arg Arg::list(const char* join, std::vector<Arg> items) {
  Arg a;
  a.kind = Kind::list;
  a.text = join;
  a.items = std::move(items);
  return a;
}

Message& Message::with(const char* name, Arg arg) {
  args.emplace_back(name, std::move(arg));
  return *this;
}

Message& Message::plural_by(const char* name, double n) {
  plural = name;
  return with(name, Arg::count(n));
}

std::string english_key(const Message& m) {
  if (m.plural.empty()) return m.key;
  for (const auto& [name, arg] : m.args)
    if (name == m.plural) return m.key + (arg.number == 1 ? ".one" : ".other");
  return m.key + ".other";
}

namespace {

// A look-up in a table of ~80 rows, a few hundred times per answer: a scan is fast enough and small in wasm.
const char* english_template(const std::string& key) {
  for (const Phrase& p : phrasebook())
    if (key == p.key) return p.text;
  return nullptr;
}

std::string render(const Message& m) {
  const std::string key = english_key(m);
  const char* found = english_template(key);
  if (!found) return "{" + key + "}";
  const std::string text = found;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t open = text.find('{', i);
    const std::size_t close = open == std::string::npos ? open : text.find('}', open);
    if (close == std::string::npos) {
      out.append(text, i, std::string::npos);
      break;
    }
    out.append(text, i, open - i);
    const std::string name = text.substr(open + 1, close - open - 1);
    const Arg* arg = nullptr;
    for (const auto& [n, a] : m.args)
      if (n == name) arg = &a;
    out += arg ? english(*arg) : "{" + name + "}";
    i = close + 1;
  }
  return out;
}

}  // namespace

std::string english(const Arg& arg) {
  switch (arg.kind) {
    case Arg::Kind::count: return format_steps(arg.number);
    case Arg::Kind::value: return format_number(arg.number);
    case Arg::Kind::text: return arg.text;
    case Arg::Kind::message: return render(*arg.message);
    case Arg::Kind::list: {
      const char* found = english_template(arg.text);
      const std::string join = found ? found : "{" + arg.text + "}";
      std::string out;
      for (std::size_t i = 0; i < arg.items.size(); ++i) out += (i ? join : "") + english(arg.items[i]);
      return out;
    }
  }
  return "";
}

}  // namespace sqrtdk
