#include "core/export/torch_export.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/answer/analysis.hpp"
#include "core/answer/glossary.hpp"
#include "core/arith/det_math.hpp"
#include "core/claims/claims.hpp"
#include "core/nn/layers.hpp"
#include "core/nn/model.hpp"
#include "core/nn/valid_config.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/settings/copy_layout.hpp"
#include "core/settings/run_settings.hpp"
#include "core/settings/settings.hpp"
#include "core/text/json.hpp"
#include "core/text/number_text.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk {
namespace {

// The settings the program does not take from the table: the variants set the scale and alpha, the seeds come
// from the exercise, and it evaluates once, at the end of a run, not every eval_every steps.
bool program_setting(const Setting& s) {
  for (const char* name : {"scale", "alpha", "seed", "eval_every"})
    if (std::string(name) == s.name) return false;
  return true;
}

// A value as a Python literal: a choice as its quoted name, an integer exactly, a real so that it reads back
// exactly.
std::string py_value(const Setting& s, double value) {
  if (s.type == SettingType::choice) return json_quote(format_value(s, value));
  if (s.type == SettingType::real) return format_roundtrip(value);
  return std::to_string(static_cast<long long>(value));
}
std::string py(double x) { return format_roundtrip(x); }
std::string py(int x) { return std::to_string(x); }

struct Variant {
  std::string name, label, scale;
  double factor;  // the fixed factor on q.k (1 for qknorm, whose gain is learned)
};

std::vector<Variant> variants_of(const ExerciseSettings& e) {
  std::vector<Variant> out;
  for (const std::string& name : e.variants) {
    ModelConfig model = e.base.model;
    parse_scale(name, model);
    out.push_back({scale_label(model), variant_label(model.scale, model.alpha), to_string(model.scale),
                   attention_scale(model)});
  }
  return out;
}

std::string seed_range(const ExerciseSettings& e) {
  const unsigned long long first = e.base.seed, last = first + static_cast<unsigned long long>(e.seeds) - 1;
  return e.seeds == 1 ? "seed " + std::to_string(first)
                      : "seeds " + std::to_string(first) + "-" + std::to_string(last);
}

// ---- the program's parts ------------------------------------------------------------------------
struct Cell {
  bool code;
  std::string text;  // lines ending in "\n"; markdown in a notebook, comments in a script
};

std::string header(const ExerciseSettings& e) {
  std::string labels;
  for (const Variant& v : variants_of(e)) labels += (labels.empty() ? "" : ", ") + v.label;
  std::string text =
      "# The sqrtdk lab's exercise in PyTorch: why attention divides by √d_k\n"
      "\n"
      "The exercise: " + labels + " (the first is the reference), each trained on " + seed_range(e) +
      " for " + std::to_string(e.steps) + " steps; the answer measures the steps until the smoothed loss is below " +
      format_number(e.threshold) + ".\n"
      "\n"
      "Written by the lab from these settings (this command writes the same file):\n"
      "\n"
      "    " + torch_export_command(e) + "\n";
  if (const Scenario* preset = preset_of(e)) {
    const std::string measured = measured_sentences(*preset);
    text += "\nThese are the settings of the lab's preset '" + std::string(preset->id) + "'.";
    if (!measured.empty()) text += " " + measured;
    text += "\n";
  }
  text +=
      "\n"
      "PyTorch draws its own random numbers (the initialisation and the batches), not the lab's: seed 0 here is not "
      "the lab's seed 0, and a chaotic run follows its own path, so single seeds differ from the lab's. Rates over "
      "seeds agree: how many seeds learn, which variant is slower, how often. Compare those, over many seeds "
      "(change SEEDS below).\n"
      "\n"
      "The model, the task and the optimizer are the lab's: a decoder-only Transformer (pre-LayerNorm blocks, causal "
      "attention with separate q, k, v, o projections, a tanh-GELU MLP, learned positions) learns to copy "
      "`BOS x1..xL SEP` -> `x1..xL`, with the loss on the copy half only. Run it with `python3` (needs torch and "
      "matplotlib); it prints each run, the answer in the lab's definitions, and draws the loss curves.\n";
  return text;
}

std::string settings_cell(const ExerciseSettings& e) {
  const TrainConfig& c = e.base;
  const CopyLayout layout{c.task.copy_length};
  const CurveDefinitions defs;
  std::string text =
      "import math\n"
      "import time\n"
      "\n"
      "import torch\n"
      "import torch.nn.functional as F\n"
      "\n"
      "# The exercise: every variant on every seed, STEPS steps each.  The first variant is the reference; factor is\n"
      "# the factor on q.k (QK-norm's is a learned gain per head instead).\n"
      "VARIANTS = [\n";
  for (const Variant& v : variants_of(e))
    text += "    {\"name\": " + json_quote(v.name) + ", \"label\": " + json_quote(v.label) + ", \"scale\": " +
            json_quote(v.scale) + ", \"factor\": " + py(v.factor) + "},\n";
  text += "]\n"
          "SEEDS = list(range(" + std::to_string(c.seed) + ", " + std::to_string(c.seed + e.seeds) + "))\n"
          "STEPS = " + py(e.steps) + "\n"
          "THRESHOLD = " + py(e.threshold) + "\n"
          "\n"
          "# Every setting of the model, the task and the optimizer, under its name in the lab (`sqrtdk compare --help`).\n"
          "SETTINGS = {\n";
  for (const Setting& s : settings())
    if (program_setting(s)) text += "    " + json_quote(s.name) + ": " + py_value(s, s.get(c)) + ",\n";
  text += "}\n"
          "\n"
          "# What the lab derives from them, and its constants.\n"
          "D_K = " + py(c.model.d_k()) + "  # d_model / heads\n"
          "D_FF = " + py(c.model.ff()) + "  # the MLP's width (d_ff 0 means 4 d_model)\n"
          "VOCAB = " + py(c.task.vocab()) + "  # BOS, SEP and the symbols\n"
          "POSITIONS = " + py(layout.positions()) + "  # the model's input length, 2 L + 1\n"
          "BOS, SEP, FIRST_SYMBOL = " + py(CopyLayout::bos) + ", " + py(CopyLayout::sep) + ", " +
          py(CopyLayout::first_symbol) + "  # token ids\n"
          "FIRST_SCORED = " + py(layout.first_scored()) +
          "  # the first position whose target is x1: the loss is over positions FIRST_SCORED ..\n"
          "QK_GAIN = " + py(initial_qk_gain(c.model)) + "  # QK-norm's gain at initialisation, sqrt(d_k)\n"
          "LAYERNORM_EPS = " + py(kLayerNormEps) + "\n"
          "HEADNORM_EPS = " + py(kHeadNormEps) + "  # QK-norm: x / sqrt(|x|^2 + eps) per head\n"
          "EMBEDDING_INIT_STD = " + py(kEmbeddingInitStd) + "\n"
          "GPT_INIT_STD = " + py(kGptInitStd) + "\n"
          "DIVERGENCE_LOSS = " + py(kDivergenceFactor * det::log(static_cast<double>(c.task.vocab()))) + "  # " +
          format_number(kDivergenceFactor) + " ln(vocab): a run above it (or not finite) stops as diverged\n"
          "\n"
          "# The lab's definitions of the answer (src/core/answer/analysis.hpp).\n"
          "WINDOW = " + py(defs.window) + "  # the smoothed loss: the mean of the last WINDOW losses\n"
          "CLEAR_SHARE = " + py(defs.clear_share) + "  # a clear difference: one variant first in this share of the seed pairs\n"
          "CLEAR_RATIO = " + py(defs.clear_ratio) + "  # ... and the medians at least this many times apart\n";
  return text;
}

const char kModelIntro[] =
    "## The model\n"
    "\n"
    "The lab's network under its parameter names and layouts (a Linear is `y = x @ W + b` with `W` of shape "
    "(in, out)), initialised by its scheme: `xavier` U(±√(6/(in+out))) with zero biases (q and k components of unit "
    "variance, the footnote's assumption), `torch` PyTorch's Linear default, `gpt` N(0, 0.02²) (standard deviation 0.02). The embeddings are "
    "N(0, 1) (N(0, 0.02²) under `gpt`), LayerNorms start at weight 1 and bias 0.\n";

const char kModel[] = R"PY(def new_parameters(variant):
    """Fresh parameters of the lab's model for `variant`, drawn from torch's random numbers."""
    C, init = SETTINGS["d_model"], SETTINGS["init"]
    embedding_std = GPT_INIT_STD if init == "gpt" else EMBEDDING_INIT_STD
    p = {"wte": torch.randn(VOCAB, C) * embedding_std, "wpe": torch.randn(POSITIONS, C) * embedding_std}

    def linear(prefix, n_in, n_out, w="w", b="b"):
        weight, bias = torch.empty(n_in, n_out), torch.zeros(n_out)
        if init == "xavier":
            bound = math.sqrt(6 / (n_in + n_out))
            weight.uniform_(-bound, bound)
        elif init == "torch":
            bound = 1 / math.sqrt(n_in)
            weight.uniform_(-bound, bound)
            bias.uniform_(-bound, bound)
        else:
            weight.normal_(0, GPT_INIT_STD)
        p[prefix + w], p[prefix + b] = weight, bias

    for layer in range(SETTINGS["layers"]):
        block = f"blocks.{layer}."
        p[block + "ln1.weight"], p[block + "ln1.bias"] = torch.ones(C), torch.zeros(C)
        for x in "qkvo":
            linear(block + "attn.", C, C, "w" + x, "b" + x)
        if variant["scale"] == "qknorm":
            p[block + "attn.qk_gain"] = torch.full((SETTINGS["heads"],), float(QK_GAIN))
        p[block + "ln2.weight"], p[block + "ln2.bias"] = torch.ones(C), torch.zeros(C)
        linear(block + "mlp.", C, D_FF, "w1", "b1")
        linear(block + "mlp.", D_FF, C, "w2", "b2")
    p["lnf.weight"], p["lnf.bias"] = torch.ones(C), torch.zeros(C)
    linear("head.", C, VOCAB)
    return {name: t.requires_grad_(True) for name, t in p.items()}


def layer_norm(x, p, name):
    return F.layer_norm(x, x.shape[-1:], p[name + ".weight"], p[name + ".bias"], LAYERNORM_EPS)


def head_normalize(x):
    # Not F.normalize, which divides by max(|x|, eps): the lab divides by sqrt(|x|^2 + eps).
    return x / torch.sqrt((x * x).sum(dim=-1, keepdim=True) + HEADNORM_EPS)


def attention(x, p, name, variant):
    """Causal multi-head self-attention, (B, T, C) -> (B, T, C); scores = factor * q.k."""
    B, T, C = x.shape
    H = SETTINGS["heads"]

    def heads(t):  # (B, T, C) -> (B, H, T, D_K): head h owns columns h*D_K .. h*D_K+D_K-1
        return t.reshape(B, T, H, D_K).transpose(1, 2)

    q = heads(x @ p[name + ".wq"] + p[name + ".bq"])
    k = heads(x @ p[name + ".wk"] + p[name + ".bk"])
    v = heads(x @ p[name + ".wv"] + p[name + ".bv"])
    if variant["scale"] == "qknorm":
        q, k = head_normalize(q), head_normalize(k)
        factor = p[name + ".qk_gain"].reshape(1, H, 1, 1)
    else:
        factor = variant["factor"]
    scores = factor * (q @ k.transpose(-2, -1))
    future = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)
    weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    y = (weights @ v).transpose(1, 2).reshape(B, T, C)
    return y @ p[name + ".wo"] + p[name + ".bo"]


def logits(p, variant, inputs):
    """(B, T, VOCAB) logits for token ids (B, T): pre-LayerNorm blocks, then a final LayerNorm and the head."""
    x = p["wte"][inputs] + p["wpe"][:inputs.shape[1]]
    for layer in range(SETTINGS["layers"]):
        block = f"blocks.{layer}."
        x = x + attention(layer_norm(x, p, block + "ln1"), p, block + "attn", variant)
        h = F.gelu(layer_norm(x, p, block + "ln2") @ p[block + "mlp.w1"] + p[block + "mlp.b1"], approximate="tanh")
        x = x + h @ p[block + "mlp.w2"] + p[block + "mlp.b2"]
    return layer_norm(x, p, "lnf") @ p["head.w"] + p["head.b"]


def copy_loss(p, variant, inputs, targets):
    """The mean cross-entropy over the copy half (positions FIRST_SCORED ..) of every sequence."""
    z = logits(p, variant, inputs)[:, FIRST_SCORED:]
    return F.cross_entropy(z.reshape(-1, VOCAB), targets[:, FIRST_SCORED:].reshape(-1))
)PY";

const char kTaskIntro[] =
    "## The copy task\n"
    "\n"
    "A sequence is `BOS x1 .. xL SEP x1 .. xL` with symbols drawn uniformly; the model's input drops its last "
    "token, the target its first, and only the copy half is scored (the first half is random). The fixed "
    "evaluation batch decodes greedily: `BOS x SEP` in, then each prediction fed back.\n";

const char kTask[] = R"PY(def copy_batch(size):
    """Inputs and targets (size, POSITIONS) of fresh random sequences."""
    x = torch.randint(SETTINGS["symbols"], (size, SETTINGS["copy_length"])) + FIRST_SYMBOL
    sequence = torch.cat([torch.full((size, 1), BOS), x, torch.full((size, 1), SEP), x], dim=1)
    return sequence[:, :-1], sequence[:, 1:]


@torch.no_grad()
def sequence_accuracy(p, variant, inputs, targets):
    """The share of sequences copied exactly by greedy decoding."""
    tokens = inputs.clone()
    predicted = torch.empty_like(targets[:, FIRST_SCORED:])
    for i, position in enumerate(range(FIRST_SCORED, POSITIONS)):
        predicted[:, i] = logits(p, variant, tokens[:, :position + 1])[:, position].argmax(-1)
        if position + 1 < POSITIONS:
            tokens[:, position + 1] = predicted[:, i]
    return (predicted == targets[:, FIRST_SCORED:]).all(dim=1).float().mean().item()
)PY";

const char kTrainIntro[] =
    "## Training\n"
    "\n"
    "Each run starts from `torch.manual_seed(seed)`: fresh parameters and batches. Adam (betas, eps) or SGD with "
    "momentum in PyTorch's convention (`v = momentum v + g; w -= lr v`), as the lab steps them; a run whose loss is "
    "not finite or above DIVERGENCE_LOSS stops there, as in the lab.\n";

const char kTrain[] = R"PY(def train(variant, seed):
    """One run: its loss at every step, and the sequence accuracy at the end."""
    torch.manual_seed(seed)
    p = new_parameters(variant)
    tensors = list(p.values())
    if SETTINGS["optimizer"] == "adam":
        optimizer = torch.optim.Adam(tensors, lr=SETTINGS["lr"], betas=(SETTINGS["beta1"], SETTINGS["beta2"]),
                                     eps=SETTINGS["eps"])
    else:
        optimizer = torch.optim.SGD(tensors, lr=SETTINGS["lr"], momentum=SETTINGS["momentum"])
    eval_inputs, eval_targets = copy_batch(SETTINGS["eval_batch"])  # fixed: drawn once per seed
    loss_curve, diverged_step = [], 0
    for step in range(1, STEPS + 1):
        inputs, targets = copy_batch(SETTINGS["batch"])
        optimizer.zero_grad()
        loss = copy_loss(p, variant, inputs, targets)
        loss.backward()
        loss_curve.append(loss.item())
        grad_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(t.grad) for t in tensors])).item()
        if not (math.isfinite(loss_curve[-1]) and math.isfinite(grad_norm)) or loss_curve[-1] > DIVERGENCE_LOSS:
            diverged_step = step
            break
        if 0 < SETTINGS["clip_norm"] < grad_norm:  # global gradient-norm clipping (0: off)
            for t in tensors:
                t.grad.mul_(SETTINGS["clip_norm"] / grad_norm)
        optimizer.step()
    accuracy = 0.0 if diverged_step else sequence_accuracy(p, variant, eval_inputs, eval_targets)
    return {"seed": seed, "loss": loss_curve, "diverged_step": diverged_step, "sequence_accuracy": accuracy}


RESULTS = {}  # variant name -> its runs, one per seed
started = time.time()
for variant in VARIANTS:
    RESULTS[variant["name"]] = []
    for seed in SEEDS:
        run = train(variant, seed)
        RESULTS[variant["name"]].append(run)
        print(f"{variant['label']}, seed {seed}: {len(run['loss'])} steps, last loss {run['loss'][-1]:.3g}"
              + (f", diverged at step {run['diverged_step']}" if run["diverged_step"] else ""), flush=True)
print(f"{len(VARIANTS) * len(SEEDS)} runs in {time.time() - started:.0f} s")
)PY";

std::string answer_intro(const ExerciseSettings& e) {
  std::string text = "## The answer, in the lab's definitions\n\n";
  const std::vector<DefinitionText> definitions = definition_texts(CurveDefinitions{}, e.threshold, e.steps);
  for (const DefinitionText& d : definitions) {
    const std::string key = d.key;
    if (key != "stall") text += "- " + d.text + "\n";  // this program does not look for stalls
  }
  text += "- " + english(glossary_line_of("accuracy", e.threshold, e.steps)) + "\n";  // the table's last column
  return text + "\nA run that touched the threshold and ended above it (fell back) has not learned.\n";
}

const char kAnswer[] = R"PY(def finite_part(loss):
    """The curve up to its first non-finite loss (a diverged run may end with one)."""
    return loss[:next((t for t, x in enumerate(loss) if not math.isfinite(x)), len(loss))]


def smoothed(loss):
    """s_t = the mean of the losses at steps max(1, t - WINDOW + 1) .. t."""
    return [sum(loss[max(0, t - WINDOW + 1):t + 1]) / (t + 1 - max(0, t - WINDOW + 1)) for t in range(len(loss))]


def summarize(run):
    s = smoothed(finite_part(run["loss"]))
    touched = next((t + 1 for t, x in enumerate(s) if x < THRESHOLD), None)
    final = s[-1] if s else math.nan
    learned = touched is not None and final < THRESHOLD
    return {"learned": learned, "steps_to_threshold": touched if learned else None, "touched_step": touched,
            "final_loss": final}


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def steps_or_never(run):
    return run["summary"]["steps_to_threshold"] if run["summary"]["learned"] else math.inf


def steps_text(steps):
    return "never" if math.isinf(steps) else f"{steps:g}"


def verdict(variant, reference):
    """The variant against the reference, as the lab compares them: medians over seeds, then the seed pairs."""
    name, ref = variant["label"], reference["label"]
    mine = [steps_or_never(r) for r in RESULTS[variant["name"]]]
    theirs = [steps_or_never(r) for r in RESULTS[reference["name"]]]
    m, r = median(mine), median(theirs)
    reach = f"smoothed loss {THRESHOLD:g}"
    if math.isinf(m) and math.isinf(r):
        return f"Neither {name} nor {ref} reached {reach} on most seeds (both medians: never)."
    if math.isinf(m):
        return f"{name} did not reach {reach} on most seeds (median: never); {ref} reached it at a median of {r:g} steps."
    if math.isinf(r):
        return f"{ref} did not reach {reach} on most seeds (median: never); {name} reached it at a median of {m:g} steps."
    slower = m > r
    pairs = len(mine) * len(theirs)
    ahead = sum((a > b) if slower else (a < b) for a in mine for b in theirs)
    side = "later" if slower else "earlier"
    text = (f"{name} reached {reach} at a median of {m:g} steps vs {r:g} for {ref} ({m / r:.3g}x as many steps); "
            f"over the {pairs} seed pairs {name} was {side} in {ahead}. ")
    if len(mine) < 2 or len(theirs) < 2:
        return text + "One seed: no spread to judge."
    if ahead < CLEAR_SHARE * pairs:
        return text + f"Within the spread of the seeds (a clear difference needs {CLEAR_SHARE:.0%} of the pairs)."
    if CLEAR_RATIO > m / r > 1 / CLEAR_RATIO:
        return text + f"Small but consistent: the medians are less than {CLEAR_RATIO:g}x apart."
    return text + "A clear difference."


for name, runs in RESULTS.items():
    for run in runs:
        run["summary"] = summarize(run)

print(f"{'variant':<18}{'seed':<6}{'steps to ' + format(THRESHOLD, 'g'):<44}{'final':<10}sequence accuracy")
for variant in VARIANTS:
    for run in RESULTS[variant["name"]]:
        s = run["summary"]
        if s["learned"]:
            steps = str(s["steps_to_threshold"])
        elif s["touched_step"]:
            steps = f"never (touched it at step {s['touched_step']}, ended at {s['final_loss']:.3g})"
        else:
            steps = f"never (in {STEPS} steps)"
        print(f"{variant['label']:<18}{run['seed']:<6}{steps:<44}{s['final_loss']:<10.3g}{run['sequence_accuracy']:.3f}")
print()
for variant in VARIANTS:
    runs = RESULTS[variant["name"]]
    learned = [r for r in runs if r["summary"]["learned"]]
    fell_back = sum(1 for r in runs if r["summary"]["touched_step"] and not r["summary"]["learned"])
    steps = sorted(steps_or_never(r) for r in learned)
    where = "" if not steps else f", at step {steps[0]}" + (f"-{steps[-1]}" if steps[-1] != steps[0] else "")
    print(f"{variant['label']} learned (reached loss {THRESHOLD:g} and ended below it) on {len(learned)} of "
          f"{len(runs)} seeds{where}" + (f"; {fell_back} touched it and fell back above it" if fell_back else "") + ".")
for variant in VARIANTS[1:]:
    print(verdict(variant, VARIANTS[0]))
)PY";

const char kPlotIntro[] =
    "## The loss curves\n"
    "\n"
    "The smoothed loss of every run (thin) and the median over the seeds of each variant (bold), on a log axis, "
    "with the threshold.\n";

const char kPlot[] = R"PY(import matplotlib.pyplot as plt

figure, axis = plt.subplots(figsize=(9, 5))
for i, variant in enumerate(VARIANTS):
    colour = f"C{i}"
    curves = [smoothed(finite_part(run["loss"])) for run in RESULTS[variant["name"]]]
    for curve in curves:
        axis.plot(range(1, len(curve) + 1), curve, color=colour, linewidth=0.7, alpha=0.35)
    longest = max(len(curve) for curve in curves)
    middle = [median([curve[t] for curve in curves if t < len(curve)]) for t in range(longest)]
    axis.plot(range(1, longest + 1), middle, color=colour, linewidth=2.2,
              label=f"{variant['label']}: " + (f"median of {len(curves)} seeds" if len(curves) > 1 else "one seed"))
axis.axhline(THRESHOLD, color="black", linestyle="--", linewidth=1, label=f"threshold {THRESHOLD:g}")
axis.set_yscale("log")
axis.set_xlabel("step")
axis.set_ylabel(f"smoothed loss (mean of the last {WINDOW} steps)")
axis.legend()
figure.tight_layout()
figure.savefig("sqrtdk-exercise-loss.png")
if "agg" not in plt.get_backend().lower():
    plt.show()
)PY";

std::vector<Cell> cells(const ExerciseSettings& e) {
  return {{false, header(e)},        {true, settings_cell(e)}, {false, kModelIntro},
          {true, kModel},            {false, kTaskIntro},      {true, kTask},
          {false, kTrainIntro},      {true, kTrain},           {false, answer_intro(e)},
          {true, kAnswer},           {false, kPlotIntro},      {true, kPlot}};
}

// Markdown as Python comments, wrapped at 110 columns (a line that starts with spaces, code, stays whole).
std::string commented(const std::string& markdown) {
  constexpr std::size_t kWidth = 110;
  std::string out;
  std::size_t start = 0;
  while (start < markdown.size()) {
    const std::size_t end = markdown.find('\n', start);
    std::string line = markdown.substr(start, end - start);
    start = end == std::string::npos ? markdown.size() : end + 1;
    if (line.empty()) {
      out += "#\n";
      continue;
    }
    if (line[0] == ' ') {
      out += "# " + line + "\n";
      continue;
    }
    if (line[0] == '#') line = line.substr(line.find_first_not_of('#')) ;  // a heading: its words
    if (line[0] == ' ') line.erase(0, 1);
    const std::string indent = line.rfind("- ", 0) == 0 ? "  " : "";
    std::string current;
    std::size_t width = 0;  // characters, not bytes (√, ±)
    std::size_t word_start = 0;
    while (word_start <= line.size()) {
      std::size_t word_end = line.find(' ', word_start);
      if (word_end == std::string::npos) word_end = line.size();
      const std::string word = line.substr(word_start, word_end - word_start);
      std::size_t chars = 0;
      for (const char ch : word) chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
      if (!current.empty() && width + 1 + chars > kWidth - 2) {
        out += "# " + current + "\n";
        current = indent + word;
        width = indent.size() + chars;
      } else {
        current += (current.empty() ? "" : " ") + word;
        width += (width == 0 ? 0 : 1) + chars;
      }
      word_start = word_end + 1;
    }
    out += "# " + current + "\n";
  }
  return out;
}

std::string script(const std::vector<Cell>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += cells[i].code ? "\n" : "\n\n";
    out += cells[i].code ? cells[i].text : commented(cells[i].text);
  }
  return out;
}

std::string notebook(const std::vector<Cell>& cells) {
  JsonWriter w;
  w.begin_object().key("cells").begin_array();
  for (const Cell& cell : cells) {
    w.begin_object().field("cell_type", cell.code ? "code" : "markdown");
    if (cell.code) w.key("execution_count").null();
    w.key("metadata").begin_object().end_object();
    if (cell.code) w.key("outputs").begin_array().end_array();
    // nbformat's source: the lines, each with its newline but the last
    w.key("source").begin_array();
    std::string text = cell.text;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = text.find('\n', start);
      if (end == std::string::npos) {
        w.value(text.substr(start));
        break;
      }
      w.value(text.substr(start, end + 1 - start));
      start = end + 1;
    }
    w.end_array().end_object();
  }
  w.end_array();
  w.key("metadata").begin_object();
  w.key("kernelspec").begin_object().field("display_name", "Python 3").field("language", "python")
      .field("name", "python3").end_object();
  w.key("language_info").begin_object().field("name", "python").end_object();
  w.end_object();
  w.field("nbformat", 4).field("nbformat_minor", 4).end_object();
  return w.str() + "\n";
}

bool same_settings(const ExerciseSettings& a, const ExerciseSettings& b) {
  if (a.variants != b.variants || a.steps != b.steps || a.threshold != b.threshold) return false;
  for (const Setting& s : settings())
    if (program_setting(s) && s.get(a.base) != s.get(b.base)) return false;
  return true;
}

}  // namespace

void check_torch_export(const ExerciseSettings& e) {
  if (e.variants.empty() || e.variants.size() > static_cast<std::size_t>(kMaxVariants))
    throw ConfigError("variants: 1 to " + std::to_string(kMaxVariants) + " variants, got " +
                      std::to_string(e.variants.size()));
  for (const std::string& name : e.variants) {
    ModelConfig model = e.base.model;
    parse_scale(name, model);
  }
  const std::pair<const RangeSetting*, double> runs[] = {
      {&run::seeds, e.seeds}, {&run::steps, e.steps}, {&run::threshold, e.threshold}};
  for (const auto& [setting, value] : runs) {
    const std::string problem = check_range(*setting, value);
    if (!problem.empty()) throw ConfigError(problem);
  }
  require_valid(e.base);
}

std::string torch_export(const ExerciseSettings& e, TorchFormat format) {
  check_torch_export(e);
  const std::vector<Cell> parts = cells(e);
  return format == TorchFormat::notebook ? notebook(parts) : script(parts);
}

std::string torch_export_command(const ExerciseSettings& e) {
  std::string variants;
  for (const Variant& v : variants_of(e)) variants += (variants.empty() ? "" : ",") + v.name;
  std::string text = "sqrtdk export-torch --variants " + variants + " --seeds " + std::to_string(e.seeds) +
                     " --steps " + std::to_string(e.steps) + " --threshold " + format_roundtrip(e.threshold);
  if (e.base.seed != 0) text += " --seed " + std::to_string(e.base.seed);
  const TrainConfig defaults;
  for (const Setting& s : settings())
    if (program_setting(s) && s.get(e.base) != s.get(defaults))
      text += " --" + cli_flag(s) + " " +
              (s.type == SettingType::real ? format_roundtrip(s.get(e.base)) : format_value(s, s.get(e.base)));
  return text;
}

const Scenario* preset_of(const ExerciseSettings& e) {
  for (const Scenario& s : scenarios())
    if (same_settings(e, parse_exercise_settings(s.settings))) return &s;
  return nullptr;
}

}  // namespace sqrtdk
