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

      // a variant against the reference, said from the reference's side as the question asks it: {result}, then
      // what the seeds say ({subject}: the reference, {other}: the variant)
      {"compare.result",
       "{ref} reached smoothed loss {threshold} {refAt}, {gap}, which reached it {at}; {slower} took {ratio}× as many "
       "steps as {faster}."},
      {"compare.result.same", "{ref} reached smoothed loss {threshold} {refAt}, {gap}, which reached it {at}."},
      {"compare.clear.slower",
       "{result} Counted {over}, every seed of {subject} ({subjectRange}) was slower than every seed of {other} "
       "({otherRange}): all {pairs} pairs of seeds; a "
       "clear difference (at least {share} % of the pairs, medians at least {clearRatio}× apart)."},
      {"compare.clear.slower.most",
       "{result} Counted {over}, {subject} was slower than {other} in {ahead} of the {pairs} pairs of seeds "
       "({subject}: {subjectRange}; {other}: {otherRange}); a "
       "clear difference (at least {share} % of the pairs, medians at least {clearRatio}× apart)."},
      {"compare.clear.faster.most",
       "{result} Counted {over}, {subject} was faster than {other} in {ahead} of the {pairs} pairs of seeds "
       "({subject}: {subjectRange}; {other}: {otherRange}); a "
       "clear difference (at least {share} % of the pairs, medians at least {clearRatio}× apart)."},
      {"compare.clear.faster",
       "{result} Counted {over}, every seed of {subject} ({subjectRange}) was faster than every seed of {other} "
       "({otherRange}): all {pairs} pairs of seeds; a "
       "clear difference (at least {share} % of the pairs, medians at least {clearRatio}× apart)."},
      {"compare.spread",
       "{result} Within the spread of the seeds ({over}): {subject} took {subjectRange} and {other} {otherRange}; {first}, "
       "the one with the lower median, got there first in {ahead} of the {pairs} pairs of seeds, fewer than the "
       "{share} % a clear difference needs."},
      {"compare.small.slower",
       "{result} Counted {over}, every seed of {subject} ({subjectRange}) was slower than every seed of {other} "
       "({otherRange}), all {pairs} pairs of seeds, but the medians are less than {clearRatio}× apart."},
      {"compare.small.slower.most",
       "{result} Counted {over}, {subject} was slower than {other} in {ahead} of the {pairs} pairs of seeds "
       "({subject}: {subjectRange}; {other}: {otherRange}), but the medians are less than {clearRatio}× apart."},
      {"compare.small.faster.most",
       "{result} Counted {over}, {subject} was faster than {other} in {ahead} of the {pairs} pairs of seeds "
       "({subject}: {subjectRange}; {other}: {otherRange}), but the medians are less than {clearRatio}× apart."},
      {"compare.small.faster",
       "{result} Counted {over}, every seed of {subject} ({subjectRange}) was faster than every seed of {other} "
       "({otherRange}), all {pairs} pairs of seeds, but the medians are less than {clearRatio}× apart."},
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
      {"at.median.never.one",
       "at a median of {steps} steps over its {seeds} seeds ({missing} never got there and counts as the slowest)"},
      {"at.median.never.other",
       "at a median of {steps} steps over its {seeds} seeds ({missing} never got there and count as the slowest)"},
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
      {"gap.same", "in the same number of steps as {label}"},
      {"gap.earlier.one", "{steps} step earlier than {label}"},
      {"gap.earlier.other", "{steps} steps earlier than {label}"},
      {"gap.later.one", "{steps} step later than {label}"},
      {"gap.later.other", "{steps} steps later than {label}"},
      {"times.short", "{ratio}×"},
      {"range", "{low}–{high}"},
      {"steps_range", "{low}–{high} steps"},
      {"steps_range.never", "{low} steps or more; {never} never reached it"},
      {"steps_range.single", "{steps} steps"},
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
      {"stall.after_touch", "after first getting below the threshold at step {step}, rose back above it: {stall}"},
      {"stall.median", "median start step {start}, median length {length} steps, median level {level}"},
      {"stall.median.all_end", "median start step {start}, median length {length} steps, median level {level}, all to the end"},
      {"stall.median.some_end", "median start step {start}, median length {length} steps, median level {level}, {ended} to the end"},
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
      {"relation.clear", "{difference}, in {ahead} of {pairs} pairs of seeds"},
      {"relation.spread", "{difference}, in only {ahead} of {pairs} pairs of seeds"},
      {"relation.small", "{difference}, in {ahead} of {pairs} pairs of seeds"},
      {"relation.one_seed", "{difference}: one seed, no spread to judge"},

      // the definitions under the table: "{term}: {text}", each term's text below (the glossary shows the same two)
      {"definition.line", "{term}: {text}"},
      {"term.smoothed_loss", "Smoothed loss"},
      {"term.steps_to_threshold", "Steps to threshold"},
      {"term.stall", "Stall"},
      {"term.final_level", "Final level"},
      {"term.clear_difference", "Clear difference"},
      {"definition.smoothed_loss", "the mean of the last {window} steps' losses (fewer at the start)."},
      {"definition.steps_to_threshold",
       "the first step whose smoothed loss is below {threshold}, for a run that learned (its "
       "smoothed loss is still below {threshold} at its last step); \"{never}\" if the run does not get there, or "
       "touched it and ended above it. Over seeds: the median, a seed that never got there counting as slower than "
       "any."},
      {"definition.stall",
       "at least {minSteps} steps in which the smoothed loss stays above {threshold} and within {band} % (its "
       "highest at most {highest}× its lowest): the curve is flat where it should be falling, what the lesson calls a "
       "plateau. Shown: a run's longest "
       "one, where it starts, how long it lasts and its level (median)."},
      {"definition.final_level", "the smoothed loss at the run's last step."},
      {"definition.clear_difference",
       "in at least {share} % of the pairs (a seed of one variant, a seed of the other) the same "
       "variant reached the threshold strictly first, a seed that never got there counting as the slowest, and the "
       "medians are at least {clearRatio}× apart. If fewer of the pairs agree, the answer says the "
       "difference is within the spread of the seeds; with one seed, that there is no spread to judge. It is this page's rule for reading a few seeds, not a test of statistical significance."},

      // the glossary: a term (term.<id>) and what it is (glossary.<id>); src/core/answer/glossary.hpp.  The answer's
      // definitions above are the entries for their five terms.
      {"term.d_k", "d_k"},
      {"glossary.d_k",
       "the length of the query and key vectors q and k, the number of components each has. In the exercise's "
       "model d_k = d_model / heads."},
      {"term.softmax", "Softmax"},
      {"glossary.softmax",
       "turns scores s_1 … s_n into weights p_i = exp(s_i) / Σ_j exp(s_j), positive and summing to 1. A score a "
       "few units above the others takes most of the weight."},
      {"term.logit", "Logit (score)"},
      {"glossary.logit",
       "a number the softmax turns into a weight. In attention the logit of a key k is q·k times the scale: "
       "1/√d_k scaled, 1 unscaled."},
      {"term.top_weight", "Top weight"},
      {"glossary.top_weight",
       "the largest weight of one softmax row: 1/n when n keys share the weight evenly, 1 when one key takes all "
       "of it."},
      {"term.one_hot", "One-hot"},
      {"glossary.one_hot", "a row of weights with 1 on one key and 0 on every other."},
      {"term.saturated", "Saturated"},
      {"glossary.saturated",
       "a softmax row whose top weight is at least {bar}: one key takes almost all the weight. As the top weight "
       "nears 1 (one-hot), the gradient the softmax passes back to its logits (|J|_F) goes to 0. A layer counts as "
       "saturated when the mean top weight of all its rows (at every position, not only the copy positions) is at least {bar}. A model that has learned to copy has saturated "
       "rows too, each on the key it copies: the lesson is about rows that saturate before the model has learned "
       "which key to pick."},
      {"term.entropy", "Entropy, nats"},
      {"glossary.entropy",
       "−Σ p_i ln p_i, how evenly a row's weights are shared: 0 when one key takes all the weight, ln n when n keys "
       "share it evenly. Nats are its unit with the natural logarithm (1 nat ≈ 1.44 bits); the loss is in nats "
       "too."},
      {"term.effective_keys", "Effective keys (eff. keys)"},
      {"glossary.effective_keys",
       "exp(entropy), the number of keys that, sharing the weight evenly, would have the same entropy: 1 for one "
       "key, n for n keys evenly."},
      {"term.jacobian_norm", "|J|_F (Jacobian norm)"},
      {"glossary.jacobian_norm",
       "how much gradient the softmax passes back to its logits, the Frobenius norm (the square root of the sum "
       "of the squared entries) of its Jacobian J = diag(p) − p pᵀ, the table of how much each weight p_i moves "
       "when a logit s_j moves a little (∂p_i/∂s_j). It is 0 for a one-hot row, larger when a few "
       "keys share the weight, and √(n−1)/n when n keys share it evenly, which shrinks as n grows; so compare "
       "raw with scaled at the same number of keys."},
      {"term.median", "Median, middle half"},
      {"glossary.median",
       "the median is the middle value of a set of measurements (as many below as above; with an even count, the "
       "mean of the two middle values); the middle half runs "
       "from the value a quarter of them are below (the first quartile) to the value three quarters are below (the "
       "third quartile)."},
      {"term.seed", "Seed"},
      {"glossary.seed",
       "the number that fixes the random numbers of a draw or a run (the random vectors, the initial weights, "
       "the training batches): the same seed gives the same numbers on every computer."},
      {"term.model_size", "d_model, heads, layers"},
      {"glossary.model_size",
       "the model's size: d_model is the width of each token's vector, heads the number of attention heads per "
       "layer (each with q and k of d_k = d_model / heads components), layers the number of Transformer blocks."},
      {"term.copy_task", "Copy task, BOS, SEP"},
      {"glossary.copy_task",
       "each sequence is BOS x1 … xL SEP x1 … xL, random symbols and then their copy; BOS is the token that "
       "begins it, SEP the one that separates the two halves. The model reads the tokens in order and is scored "
       "only on predicting the copy, which it can do only by attending to the first half."},
      {"term.loss", "Loss"},
      {"glossary.loss",
       "the cross-entropy of the model's predictions of the copied symbols: −ln of the probability it gave the "
       "right symbol, in nats, averaged over the copied symbols of a batch: 0 for a model that is certain and right. Guessing evenly among n symbols gives ln n: with the default "
       "{symbols} symbols, ln {symbols} = {chance}. A loss ℓ means the model gave the right symbols a probability of e^−ℓ on "
       "(geometric) average: at the threshold {threshold}, {thresholdProbability}; at 1, {oneProbability}."},
      {"term.accuracy", "Sequence accuracy"},
      {"glossary.accuracy",
       "the share of a fixed evaluation batch (sequences the model does not train on) that the model copies "
       "without a mistake when it writes each next token as its most likely one (greedy decoding)."},
      {"term.qk_gradient", "q/k gradient"},
      {"glossary.qk_gradient",
       "the size (root sum of squares) of the loss's gradient on the query and key weights of a layer's "
       "attention (W_q, W_k and their biases), written ‖∇W_q, W_k‖ (∇: the gradient, ‖·‖: its size); for the "
       "whole model, of every layer's together. It reaches q and "
       "k only through the softmax. The lesson's dying gradient, as the page tests it: this gradient ending "
       "{deadDrop}× or more below its own peak (not the other variant's) while the loss is above the threshold."},
      {"term.logit_spread", "Logit spread"},
      {"glossary.logit_spread",
       "for one attention row, its largest logit minus the mean of its logits; shown as the mean over rows. A "
       "larger spread makes a sharper softmax."},
      {"term.adam", "Adam"},
      {"glossary.adam",
       "an optimizer that divides each weight's step by the running size of that weight's own gradient, so a "
       "small gradient can still give a step of about the learning rate."},
      {"term.sgd", "SGD with momentum"},
      {"glossary.sgd",
       "each step moves the weights against the gradient times the learning rate, plus the momentum (by default "
       "{momentum}) times the previous step; the step is in proportion to the gradient, so a small gradient gives a "
       "small step."},
      {"term.learning_rate", "Learning rate (lr)"},
      {"glossary.learning_rate", "the factor on every step of the optimizer."},
      {"term.init", "Xavier, PyTorch and GPT init"},
      {"glossary.init",
       "how the weights start. Xavier draws each weight uniformly between −√(6/(in+out)) and √(6/(in+out)) (in, out: the layer's input and "
       "output widths), which, for inputs "
       "of variance about 1, gives q and k components of variance about 1, the footnote's assumption; PyTorch's default draws uniformly between −1/√in and 1/√in; GPT init "
       "draws from N(0, 0.02²), a normal of standard deviation 0.02, so its logits start small."},
      {"term.qk_norm", "QK-norm"},
      {"glossary.qk_norm",
       "q and k are each divided by their length before the dot product, which is then multiplied by a learned "
       "gain per head (starting at √d_k): the logits stay within ± the gain whatever d_k is."},
      {"term.normal", "N(0, 1), N(0, I), σ, std"},
      {"glossary.normal",
       "N(μ, σ²) is the normal (Gaussian) distribution with mean μ and standard deviation σ (std): a typical "
       "sample lies about σ from μ, and σ² is its variance. N(0, I) is a vector whose components are independent "
       "N(0, 1) numbers, as the explorer draws q and the keys."},
      {"term.logit_std", "Logit std at init"},
      {"glossary.logit_std",
       "the standard deviation σ of the attention logits before the first training step, predicted from how "
       "the weights start and from the scale (the start note); the run table shows each run's measured value."},
      {"term.reference", "Reference"},
      {"glossary.reference",
       "the first variant in the exercise's list of variants; the answer compares every other variant with it (\"vs reference\")."},
      {"term.alpha", "1/d_k^α"},
      {"glossary.alpha",
       "a family of scales: q·k times 1/d_k^α, so α = 0 is unscaled (times 1), α = 0.5 is 1/√d_k and α = 1 "
       "is 1/d_k."},
      {"term.worker", "Worker"},
      {"glossary.worker",
       "a background thread of the browser; the lab trains its runs in workers so that the page stays "
       "responsive."},

      // the lesson's claim, quoted (glossary.hpp: lesson_quote)
      {"lesson.claim",
       "“We suspect that for large values of d_k, the dot products grow large in magnitude, pushing the softmax "
       "function into regions where it has extremely small gradients. To counteract this effect, we scale the dot "
       "products by 1/√d_k.”"},
      {"lesson.footnote",
       "Footnote 4: “To illustrate why the dot products get large, assume that the components of q and k are "
       "independent random variables with mean 0 and variance 1. Then their dot product, q · k = Σ_{i=1}^{d_k} q_i "
       "k_i, has mean 0 and variance d_k.”"},
      {"lesson.source", "Vaswani et al. (2017), Attention Is All You Need, section 3.2.1"},

      // the mechanism: the sentence under each mechanism chart and the "why" box (mechanism_reading.hpp)
      {"mech.larger", "{times} larger"},
      {"mech.smaller", "{times} smaller"},
      {"mech.smaller.share", "{percent} % smaller"},
      {"mech.item", "{label} {value}"},
      {"mech.item.layer", "{label} {value} (layer {layer})"},
      {"mech.qk.start",
       "Steps 1–{window}: {label}'s q/k gradient is {grad}, {relation} than {ref}'s {refGrad}."},
      {"mech.qk.larger_why",
       "Unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}, which makes its logits larger and, at the same "
       "weights, multiplies the gradient flowing back to q and k by the same {root}; its softmax is sharper (|J|_F in steps 1–{window}: "
       "{jacobians}) and passes less of the gradient, but in these steps not enough "
       "to make its q/k gradient smaller. The lesson's dying gradient is another thing: a gradient far below its "
       "own peak while the loss is still above the threshold."},
      {"mech.qk.larger_why_not_sharper",
       "Unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}: at the same weights its logits are {root}× "
       "larger, and so is the gradient flowing back to q and k at the same softmax weights. The softmax weights "
       "differ too, and in these steps unscaled's softmax is not sharper (|J|_F {jacobians}), so it takes none of "
       "that factor back. Over steps 1–{window} W_q and W_k differ as well (each variant takes its own updates), "
       "and so does the gradient reaching q and k from the layers after them; these readings do not measure how "
       "much each adds, so the measured ratio need not be {root}. The lesson's dying gradient is another thing: "
       "a gradient far below its own peak while the loss is still above the threshold."},
      {"mech.qk.smaller_why",
       "Unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}, which makes its logits larger and, at the same "
       "weights, multiplies the gradient flowing back to q and k by the same {root}, but its sharper softmax passes less of the gradient "
       "(|J|_F in steps 1–{window}: {jacobians}), and its q/k gradient is smaller."},
      {"mech.seeds.one", "seed {list}"},
      {"mech.seeds.other", "seeds {list}"},
      {"mech.group.one", "seed {list}"},
      {"mech.group.other", "seeds {list}"},
      {"mech.range", "between {low} and {high}"},
      {"mech.times_over", "more than {power}×"},
      {"mech.range_over", "{low} (up to {high})"},
      {"mech.at_step", "step {step}"},
      {"mech.steps_range", "steps {low}–{high}"},
      {"mech.qk.died",
       "{label}, {seeds}: the q/k gradient ended {drop} below its own peak (reached at {peak}), with the final smoothed loss "
       "{loss}, above {threshold}: small next to its own peak while the loss is still above the threshold, the "
       "lesson's dying gradient (measured against its own peak, not against the other variant's gradient)."},
      {"mech.qk.done",
       "{label}, {seeds}: the q/k gradient ended {drop} below its own peak (reached at {peak}), with the final smoothed loss "
       "{loss}, below {threshold}: it fell with the loss, which is not the lesson's dying gradient."},
      {"mech.qk.alive",
       "{label}, {seeds}: the final smoothed loss was {loss}, above {threshold}, with the q/k gradient {grad}, "
       "{drop} below its own peak (reached at {peak}; less than {deadDrop}×): this is not the lesson's dying gradient."},
      {"mech.jacobian",
       "The softmax Jacobian's norm |J|_F, the mean over a layer's attention rows: 0 when one key takes all the "
       "weight, √(n−1)/n (about 1/√n) when n keys share it evenly, so it shrinks as rows get longer (the rows here "
       "have 1 to {keys} keys; {keys} even keys give {uniform}). In layer {layer}, where {lowest}'s |J|_F ends smallest (the lowest of any variant's), steps 1–{window}: {early}; the last {window} steps: "
       "{late}."},
      {"mech.top",
       "{label}'s top weight per layer (the largest softmax weight of a row, the mean over all of the layer's rows, "
       "every position of the sequence and not only the copy positions; median over seeds): at step 1, before any update ({start}); over the last {window} steps ({end})."},
      {"mech.top.layer", "layer {layer} {value}, {verdict}"},
      {"mech.layer_value", "layer {layer} {value}"},
      {"mech.top.saturated", "saturated: at least {bar}"},
      {"mech.top.not_saturated", "not saturated: below {bar}"},
      {"mech.spread",
       "The logit spread (row max − row mean of the logits the softmax sees), steps 1–{window}: {early}; the last "
       "{window} steps: {late}."},
      {"mech.why.title.adam", "What does Adam's step do with {label}'s gradient?"},
      {"mech.why.title.sgd", "What does SGD's step do with {label}'s gradient?"},
      {"mech.why.title.gpt", "GPT init: how large are {label}'s logits at the start?"},
      {"mech.why.title.qknorm", "QK-norm: how does it bound the logits?"},
      {"mech.why.adam",
       "Adam divides each step by the running size of its own gradient. In steps 1–{window}, {label}'s q/k gradient "
       "is {grad} than {ref}'s, while the size of each step's change to {label}'s W_q and W_k (‖ΔW_q, ΔW_k‖) is {update} than {ref}'s: the size of the gradient "
       "does not set the size of the step."},
      {"mech.why.sgd",
       "SGD's step is the learning rate ({lr}) times the gradient (with momentum), so a larger gradient makes a "
       "larger step and a smaller one a smaller step. What {label} did (one number: the median over seeds; two: the "
       "range of the seeds): in steps 1–{window} its q/k gradient was {grad} than {ref}'s, the size of each step's "
       "change to its W_q and W_k (‖ΔW_q, ΔW_k‖) {update} than {ref}'s, and its logit spread {spread} ({ref}: "
       "{refSpread}); its q/k gradient peaked at {gradPeak}; its logit spread reached its largest, "
       "{peakSpread}, at {peakStep}; over the last {window} steps its spread was {spreadEnd}, its top weight "
       "({topEnd}), and |J|_F in layer {layer} was {jacobianEnd} ({ref}: {refJacobianEnd}); its q/k gradient "
       "ended {drop} below its peak."},
      {"mech.why.sgd.chain",
       "Measured at the start and at the end (not when each happened): {label}'s logits grew (logit spread {spread} "
       "in steps 1–{window}, {spreadEnd} in the last {window}); at step 1 no layer was saturated ({startTop}; "
       "{ref}: {refStartTop}), at the end layer {layer}'s softmax was saturated, with its |J|_F at {jacobianEnd}; and the q/k "
       "gradient ended {drop} below its peak while the loss ended above {threshold}, which passes the page's test "
       "for the lesson's dying gradient. These runs show these together; they do not isolate which caused which."},
      {"mech.why.adam.logits",
       "Unscaled multiplies q·k by 1 instead of 1/√d_k = 1/{root}, so at the same weights a change to W_q and W_k "
       "moves its logits {root}× as far as the same change moves {ref}'s. Measured in steps 1–{window} (median over "
       "seeds): {label}'s logit spread is {spread}, {spreadTimes} {ref}'s {refSpread} (at step 1 both start from the "
       "same weights, so there the ratio is exactly {root}). These runs measure the step and the logits of each "
       "variant; they do not test which difference makes the two variants train differently."},
      {"mech.why.gpt",
       "GPT init draws every weight from N(0, 0.02²) (standard deviation 0.02), far smaller than Xavier's, so q and k start small and so do "
       "the logits, with or without 1/√d_k. Measured: over steps 1–{window} {label}'s logit spread is {spread} "
       "({ref}: {refSpread}), and at step 1 its top weight (per layer, the mean over its rows) is {startTop} ({ref}: "
       "{refStartTop}; saturated: at least {bar})."},
      {"mech.why.qknorm",
       "QK-norm divides each q and k by its length, so q·k lies between −1 and 1, and multiplies it by a learned "
       "gain g: every logit lies between −g and g, whatever the size of q and k. Measured: {label}'s logit spread is "
       "{spread} in steps 1–{window} and {spreadEnd} in the last {window} steps ({other}: {otherSpread} and "
       "{otherSpreadEnd})."},
      {"mech.why.late",
       "Over the last {window} steps (median over seeds): {label}'s logit spread {spreadEnd} ({ref}: "
       "{refSpreadEnd}), top weight {topEnd} ({ref}: {refTopEnd}; saturated: at least {bar})."},
      {"mech.why.learned.all", "{label} learned on all {seeds} seeds: median {steps} steps to {threshold}, {ref} {refSteps}."},
      {"mech.why.learned.some",
       "{label} learned on {learned} of {seeds} seeds ({learnedSeeds}; median {steps} steps to {threshold}, {ref} "
       "{refSteps}); on {missedSeeds} its loss ended above {threshold} (the q/k gradient's sentences say how)."},
      {"mech.why.learned.none",
       "{label} learned on none of its {seeds} seeds in {budget} steps (median final loss {loss}; {ref}: median "
       "{refSteps} steps to {threshold})."},
      // the scenarios (src/core/claims/scenarios.cpp): title and what to look at
      {"scenario.adam.title", "Adam (the default)"},
      {"scenario.adam.lead",
       "Look at the q/k gradient chart at step 1 and at each seed's loss. Adam divides each step by the running size "
       "of the gradient, so the size of the gradient does not set the size of the step."},
      {"scenario.sgd.title", "SGD with momentum 0.9, lr 0.1"},
      {"scenario.sgd.lead",
       "SGD's step is the learning rate times the gradient, not a normalised one, so the step's size follows the "
       "gradient's: a larger gradient makes a larger step, a gradient far below its peak a small one. Compare the two variants' logit spread, softmax Jacobian and q/k gradient charts."},
      {"scenario.adam-high-lr.title", "Adam at lr 0.01"},
      {"scenario.adam-high-lr.lead",
       "Ten times Adam's default learning rate, everything else as in the default. Look at unscaled's logit spread "
       "and softmax Jacobian, and at how many seeds learn."},
      {"scenario.gpt-init.title", "GPT-style init"},
      {"scenario.gpt-init.lead",
       "Weights drawn from N(0, 0.02²) (standard deviation 0.02) instead of Xavier's larger ones: q and k start small, and so do the logits, "
       "with or without 1/√d_k. Compare the two variants' attention at step 1."},
      {"scenario.large-dk.title", "d_k = 128 (d_model 128, 1 head)"},
      {"scenario.large-dk.lead",
       "The d_k of the explorer's demo. Compare the two variants' attention at step 1 and the steps each seed "
       "needs; a step here takes longer than with d_model 64."},
      {"scenario.qknorm.title", "QK-norm (Adam at lr 0.01)"},
      {"scenario.qknorm.lead",
       "QK-norm divides each q and k by its length, so q·k lies between −1 and 1, and multiplies it by a learned "
       "gain g: every logit lies between −g and g. The other settings are those of Adam at lr 0.01."},

      // the scenarios' claims, counted over the claims table (src/core/claims/claims.cpp)
      {"claims.headline", "Seeds {seeds}: {items}."},
      {"claims.headline.first", "{label} reached loss {threshold} and ended below on {learned} of {n}{median}"},
      {"claims.headline.next", "{label} on {learned} of {n}{median}"},
      {"claims.headline.median", " (median {steps} steps)"},
      // the learner's runs in the claims' form, beside a preset's claim (learned_headline.hpp)
      {"runs_headline.one", "Your seed {seeds}: {items}."},
      {"runs_headline.other", "Your seeds {seeds}: {items}."},
      {"runs_headline.claim", "The preset's claim: {headline}"},
      {"runs_headline.medians",
       "In these two lines a median is over the seeds that learned; the answer's median counts a seed that never got "
       "there as the slowest."},
      {"claims.headline.at", " (at step {steps})"},
      {"claims.empty", ""},
      {"claims.measured", "Measured on seeds {seeds}:"},
      {"claims.not_measured", "(Not measured with these settings yet: run scripts/measure-claims.sh.)"},
      {"claims.count", "{k} of {n} seeds"},
      {"claims.seeds.one", "seed {list}"},
      {"claims.seeds.other", "seeds {list}"},
      {"claims.which.these", " ({seeds})"},
      {"claims.which.all_but", " (all but {seeds})"},
      {"claims.learns", "{label} learned (reached loss {threshold} and ended below it) on {count}{which}{at}."},
      {"claims.learns.at", ", at step {range} (median {median})"},
      {"claims.fails", "{label} did not learn on {count}{which}{ending}{fell}."},
      {"claims.fails.ending", ", ending at loss {range}"},
      {"claims.fails.fell_back", " ({fell} of them touched {threshold} and fell back above it)"},
      {"claims.slower",
       "{label} needed at least {times}× the steps of {ref} on the same seed (the same initial weights and batches), "
       "or did not learn, on {count}{which}; {times}× is the ratio the answer's clear difference asks of the two "
       "medians, asked here of each seed. {ratios}Median steps among the runs that learned: "
       "{label} {median}, {ref} {refMedian}."},
      {"claims.similar",
       "{label} and {ref} learned less than {times}× apart in steps (either one faster) on the same seed (the same "
       "initial weights and batches) on {count}{which}; {times}× is the ratio the answer's clear difference asks of "
       "the two medians, asked here of each seed. {ratios}Median steps among the runs "
       "that learned: {label} {median}, {ref} {refMedian}."},
      {"claims.ratios", "Seed by seed, {label} needed {range}× the steps of {ref}, on the {both} seeds where both "
       "learned. "},
      {"claims.start_sharper",
       "At step 1, before any update, layer 1's attention entropy of {label} was below that of {ref} on "
       "{count}{which} ({range} nats vs {refRange}, seed by seed lower by {gap} nats; a lower entropy is a sharper "
       "softmax)."},
      {"claims.start_gradient",
       "At step 1 the q/k gradient of {label} was larger than that of {ref} on {count}{which} ({range} vs "
       "{refRange})."},
      // how the failures look: counted over the seeds on which the variant did not learn
      {"claims.count.of_them", "{k} of them"},
      {"claims.qk_collapse",
       "Of the {failures} on which {label} did not learn, {count}{which} ended with a q/k gradient (smoothed, at the "
       "last step) at least {times}× below its own peak and the loss above {threshold}: the page's test for the "
       "lesson's dying gradient (a drop against itself, not a comparison with {ref})."},
      {"claims.dead_jacobian",
       "Of the {failures} on which {label} did not learn, {count}{which} had a layer-1 softmax |J|_F (0 when one key "
       "takes all the weight) below {bar} on average over the last {window} steps ({ref}, all {seeds}: {refRange})."},

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

const char* english_phrase(const std::string& key) {
  const char* found = english_template(key);
  return found ? found : "";
}

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
