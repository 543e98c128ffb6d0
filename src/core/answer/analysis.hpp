// Reading loss curves: the definitions behind the exercise's answer, written once.  The CLI calls them
// natively and the page through WebAssembly (lab.compare); nothing else computes them.
//
// Smoothed loss        s_t = mean of the losses at steps max(1, t-w+1) .. t   (trailing window, w = 20).
// Learned              the smoothed loss went below the threshold and is below it at the run's last step.  A run
//                      that touched the threshold and ended above it (fell back) has not learned.
// Steps to threshold   for a run that learned, the first step t with s_t < threshold; "never" otherwise (a run
//                      that fell back counts as never, its touch reported beside it).
// Stall                a stretch of at least N = 50 steps in which the smoothed loss stays above the threshold
//                      and within a relative band of 25 % (its highest value <= 1.25 x its lowest): the curve is
//                      flat where it should still be falling.  A run's stall is its longest such stretch (the
//                      latest of equally long ones): where it starts, how many steps it lasts, its level (the
//                      median smoothed loss over it) and whether it lasts to the run's last step.
// Final level          the smoothed loss at the run's last finite step.
// Over seeds           medians; for steps to threshold a seed that never got there counts as slower than any.
// Pairs ahead          over every (seed of A, seed of B) pair, the share in which one variant reached the
//                      threshold strictly first (a run that never did is the slowest; a tie, or two "never"s, counts
//                      for neither): Mann-Whitney's U / (n m), the "probability of superiority".  Unlike "every seed
//                      of A ahead of every seed of B", it gets easier, not harder, to meet as seeds are added, and it
//                      is the same rule at 3 seeds, where 0.9 needs all 9 pairs.
// Clear difference     one variant ahead in at least 90 % of the pairs and the medians at least 1.25x apart.
//                      Fewer pairs: within the spread of the seeds.  Enough pairs but less than 1.25x: small but
//                      consistent.  One seed per variant: no spread to judge.
//
// Why a 25 % band over 50 steps: a curve that is still learning falls faster than that, so it never stays 50 steps
// within 25 %, while the flat stretches a learner sees on the chart (unscaled stuck under Adam, near ln 10 under
// SGD) are found whole; a wider band starts those stalls inside the first fall, a narrower one cuts a slowly
// drifting stall in pieces.  tests/cpp/test_analysis.cpp pins the wording on synthetic curves; the scenarios'
// measured outcomes are in claims_table.cpp (written by scripts/measure-claims.sh).
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/arith/median.hpp"
#include "core/settings/config.hpp"
#include "core/text/number_text.hpp"
#include "core/text/phrasebook.hpp"

namespace sqrtdk {

class JsonWriter;  // core/text/json.hpp

struct CurveDefinitions {
  int window = 20;
  double stall_band = 0.25;
  int stall_min_steps = 50;
  double clear_ratio = 1.25;
  double clear_share = 0.9;  // of the (seed, seed) pairs
};

// The one definition of "learned" (see above): first step below the threshold (-1 never) and the final level.
bool learned(int first_step_below, double final_loss, double threshold);

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNever = std::numeric_limits<double>::infinity();  // steps to a threshold never reached

std::vector<double> smoothed_loss(const std::vector<float>& loss, int window);
// 1-based step, or -1 if the smoothed loss never goes below threshold.
int steps_to_threshold(const std::vector<float>& loss, double threshold, const CurveDefinitions& defs = {});

struct Stall {
  int start = 0;        // 1-based first step; 0 = no stall
  int length = 0;       // steps
  double level = 0;     // median smoothed loss over the stall
  bool to_end = false;  // lasts to the last step analysed
  bool found() const { return length > 0; }
};

// The run's stall (see above) on its smoothed curve, or a Stall with length 0.
Stall find_stall(const std::vector<double>& smoothed, double threshold, const CurveDefinitions& defs = {});

// A run's whole-model mechanism curves, per step (mechanism.hpp whole_model; empty when not given).
struct MechanismCurves {
  std::vector<float> qk_grad;     // q/k gradient norm, all layers
  std::vector<float> qk_update;   // the optimizer's change of W_q, W_k, b_q, b_k
  std::vector<std::vector<float>> jacobian;  // (layers, steps) mean softmax Jacobian norm of each layer's rows
  std::vector<float> spread;      // mean logit spread (row max - row mean)
  std::vector<std::vector<float>> top_weight;  // (layers, steps) mean top weight of each layer's rows
  bool given() const { return !qk_grad.empty(); }
};

// One training run as the comparison receives it.
struct RunCurve {
  uint64_t seed = 0;
  std::vector<float> loss;         // per step; a diverged run may end with non-finite values
  double sequence_accuracy = kNaN; // last evaluation; NaN if none yet
  int diverged_step = 0;           // 0: did not diverge
  bool stopped = true;             // finished, diverged or failed: the curve will not grow any more
  MechanismCurves mechanism;       // optional: the mechanism readings (mechanism_reading.hpp) need them
};

struct RunSummary {
  uint64_t seed = 0;
  int steps = 0;                   // steps analysed: the finite part of the curve, at most the budget
  int steps_to_threshold = -1;     // -1: never (so far), or fell back above the threshold
  int touched_step = -1;           // first step below the threshold, whether or not the run stayed there
  Stall stall;
  double final_loss = kNaN;        // smoothed loss at the last step analysed
  double sequence_accuracy = kNaN;
  bool diverged = false;
  int diverged_step = 0;
  bool stopped = true;
  // Still training and not below the threshold yet: its steps to threshold are not known.
  bool pending() const { return !stopped && steps_to_threshold < 0; }
  // Touched the threshold and is above it again at the end (of the curve so far).
  bool fell_back() const { return touched_step > 0 && steps_to_threshold < 0; }
};

// `budget` = the run's planned steps; losses past it are not analysed (0 = analyse all).
RunSummary summarize_run(const RunCurve& run, double threshold, int budget, const CurveDefinitions& defs = {});
RunSummary summarize_run(const std::vector<float>& loss, double threshold, double sequence_accuracy,
                         int diverged_step, const CurveDefinitions& defs = {});

// How a variant compares with the reference (the first variant).  Names as in to_string().
enum class Outcome {
  pending,          // some run has neither reached the threshold nor stopped
  reference,        // this is the reference
  single,           // only one variant: nothing to compare (the top-level outcome only)
  clear,            // seeds apart and medians >= clear_ratio apart
  within_spread,    // seeds overlap
  small,            // seeds apart but medians < clear_ratio apart: small but consistent
  one_seed,         // both reached it; one seed, no spread to judge
  never,            // this variant's median is "never", the reference's is not
  reference_never,  // the reference's median is "never", this variant's is not
  neither,          // both medians are "never"
};
const char* to_string(Outcome outcome);  // "pending", "reference", ..., "within-spread", "one-seed", ...

struct VariantCurves {
  std::string name;   // as the caller knows it ("scaled", "alpha=0.25", "alpha")
  std::string label;  // display name, from variant_label()
  std::vector<RunCurve> runs;
  Message label_message;  // the display name as a message (variant_label_message); no key: label as it is
};

struct VariantResult {
  std::string name, label;
  Message label_message;
  std::vector<RunSummary> runs;
  int runs_reaching = 0, runs_stalled = 0, runs_diverged = 0, runs_pending = 0, stalls_to_end = 0, runs_fell_back = 0;
  double median_steps_to_threshold = kNaN;  // kNever: never; NaN: not known yet (pending)
  double median_final_loss = kNaN;
  Stall median_stall;                       // medians of start, length, level over the stalled runs
  Outcome outcome = Outcome::pending;       // against the reference
  double ratio = kNaN;                      // median / reference median, when both are finite
  double steps_earlier = kNaN;              // median - reference median: steps the reference was earlier
  int pairs = 0;                            // (seed, reference seed) pairs compared
  int pairs_ahead = 0;                      // of them, where the variant on the medians' side was strictly first
};

struct Answer {
  double threshold = 0.1;
  int steps = 0;                 // the budget every run was planned for
  bool ready = false;            // every run reached the threshold or stopped: the medians are known
  bool final = false;            // every run stopped: final levels and stalls are final
  CurveDefinitions defs;
  std::vector<VariantResult> variants;
  // variants[1] against variants[0] (the two-variant exercise); single with one variant.
  Outcome outcome = Outcome::pending;
  double ratio = kNaN;
  double steps_earlier = kNaN;
  std::vector<std::string> sentences;  // the answer in words (empty while pending)
};

// Every variant against the first.  `steps` is the planned steps per run.
Answer compare_runs(const std::vector<VariantCurves>& variants, double threshold, int steps,
                    const CurveDefinitions& defs = {});

// ---- words (analysis_text.cpp, analysis_cells.cpp; the templates in phrasebook.cpp) ------------
// Each text is built as a message (or, for a table cell, an argument: a number or a message), which the
// page renders in the learner's language; the functions returning strings give its English.

// The display name of a variant, the same everywhere: "scaled 1/√d_k", "unscaled", "1/d_k^α, α=0.25", "QK-norm".
Message variant_label_message(ScaleMode scale, double alpha);
std::string variant_label(ScaleMode scale, double alpha);
// A variant's display name as an argument: its message, or its label as it is when it has none.
Arg variant_label_arg(const VariantResult& v);
// The answer's sentences (compare_runs fills Answer::sentences with them).
std::vector<Message> answer_messages(const Answer& answer);
std::vector<std::string> answer_sentences(const Answer& answer);

// The definitions as a learner reads them under the table, with this run's numbers.
struct DefinitionMessage {
  const char* key;  // smoothed_loss, steps_to_threshold, stall, final_level, clear_difference
  Message term;     // term.<key>: "Smoothed loss"
  Message text;     // definition.<key> with its numbers: "the mean of the last 20 steps' losses ..."
  Message message;  // definition.line: "{term}: {text}", as the answer shows it
};
std::vector<DefinitionMessage> definition_messages(const CurveDefinitions& defs, double threshold, int steps);
struct DefinitionText {
  const char* key;
  std::string text;
};
std::vector<DefinitionText> definition_texts(const CurveDefinitions& defs, double threshold, int steps);

// Table cells, worded like the sentences: as arguments, and in English.
Arg run_steps_arg(const RunSummary& run, int steps);
Arg run_stall_arg(const RunSummary& run);
Arg variant_median_arg(const VariantResult& v, int steps);
Arg variant_seeds_arg(const VariantResult& v);
Arg variant_relation_arg(const VariantResult& v, int steps);
Arg variant_stall_arg(const VariantResult& v);
std::string run_steps_cell(const RunSummary& run, int steps);  // "61", "never (in 400 steps)", "not yet"
std::string run_stall_cell(const RunSummary& run);             // "none", "from step 118, 69 steps at 0.248", ...
std::string variant_median_cell(const VariantResult& v, int steps);
std::string variant_seeds_cell(const VariantResult& v, int steps);  // "61 · 72 · 58"
std::string variant_relation_cell(const VariantResult& v, int steps);
std::string variant_stall_cell(const VariantResult& v);

// ---- the structured result (analysis_json.cpp) --------------------------------------------------

// The answer as JSON: the same document for `sqrtdk compare --json` (snake_case keys) and lab.compare
// (camelCase keys, derived from the snake_case ones).  Numbers round-trip exactly; NaN and never are null.
// with_messages: also every text as its message (lab.compare on request; shape in analysis_json.cpp).
std::string answer_json(const Answer& answer, bool camel_case, bool with_messages = false);
// The same members, written into an object the caller has open (sqrtdk compare --json puts its configuration first).
void write_answer_members(JsonWriter& w, const Answer& answer, bool with_messages = false);
// One message or argument as JSON (the shape at the top of analysis_json.cpp).
void write_message(JsonWriter& w, const Message& m);
void write_arg(JsonWriter& w, const Arg& arg);

}  // namespace sqrtdk
