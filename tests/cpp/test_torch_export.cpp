// The PyTorch export (src/core/export/torch_export.hpp): what the program is built from.  Whether the program is
// the lab's experiment is tests/torch_export/check.py's question (it runs the scripts); here: every setting and
// every constant comes from the core, the preset is named, the notebook is the script's code in cells, bad
// settings are refused.
#include <catch2/catch.hpp>

#include <string>

#include "core/answer/analysis.hpp"
#include "core/claims/claims.hpp"
#include "core/claims/scenarios.hpp"
#include "core/export/torch_export.hpp"
#include "core/nn/layers.hpp"
#include "core/nn/model.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/settings/config.hpp"
#include "core/settings/copy_layout.hpp"
#include "core/settings/settings.hpp"
#include "core/text/json.hpp"

using namespace sqrtdk;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {

// An exercise far from the defaults in every setting the program reads.
ExerciseSettings unusual() {
  ExerciseSettings e;
  TrainConfig& c = e.base;
  c.model.n_layers = 3;
  c.model.d_model = 32;
  c.model.n_heads = 2;
  c.model.d_ff = 48;
  c.model.init = InitScheme::gpt;
  c.task.copy_length = 6;
  c.task.n_symbols = 7;
  c.task.batch = 16;
  c.task.eval_batch = 20;
  c.optim.optimizer = Optimizer::sgd;
  c.optim.lr = 0.0123;
  c.optim.momentum = 0.8;
  c.optim.clip_norm = 2.5;
  c.seed = 7;
  e.variants = {"qknorm", "alpha=0.25", "unscaled"};
  e.seeds = 4;
  e.steps = 123;
  e.threshold = 0.07;
  return e;
}

}  // namespace

TEST_CASE("torch export: the script carries every setting of the table the program reads, with its value", "[export]") {
  const ExerciseSettings e = unusual();
  const std::string text = torch_export(e, TorchFormat::script);
  for (const Setting& s : settings()) {
    CAPTURE(s.name);
    const std::string name = s.name;
    if (name == "scale" || name == "alpha" || name == "seed" || name == "eval_every") continue;
    const double value = s.get(e.base);
    const std::string literal = s.type == SettingType::choice ? json_quote(format_value(s, value))
                                : s.type == SettingType::real ? format_roundtrip(value)
                                                              : std::to_string(static_cast<long long>(value));
    CHECK_THAT(text, Contains("    \"" + name + "\": " + literal + ",\n"));
  }
  CHECK_THAT(text, Contains("SEEDS = list(range(7, 11))\n"));
  CHECK_THAT(text, Contains("STEPS = 123\n"));
  CHECK_THAT(text, Contains("THRESHOLD = 0.07\n"));
  CHECK_THAT(text, Contains("D_FF = 48 "));
  CHECK_THAT(text, Contains("D_K = 16 "));
}

TEST_CASE("torch export: the script's constants and definitions are the core's", "[export]") {
  ExerciseSettings e = unusual();
  const std::string text = torch_export(e, TorchFormat::script);
  const CurveDefinitions defs;
  const CopyLayout layout{e.base.task.copy_length};
  CHECK_THAT(text, Contains("WINDOW = " + format_roundtrip(defs.window) + " "));
  CHECK_THAT(text, Contains("CLEAR_SHARE = " + format_roundtrip(defs.clear_share) + " "));
  CHECK_THAT(text, Contains("CLEAR_RATIO = " + format_roundtrip(defs.clear_ratio) + " "));
  CHECK_THAT(text, Contains("FIRST_SCORED = " + std::to_string(layout.first_scored()) + " "));
  CHECK_THAT(text, Contains("POSITIONS = " + std::to_string(layout.positions()) + " "));
  CHECK_THAT(text, Contains("VOCAB = " + std::to_string(e.base.task.vocab()) + " "));
  CHECK_THAT(text, Contains("LAYERNORM_EPS = " + format_roundtrip(kLayerNormEps) + "\n"));
  CHECK_THAT(text, Contains("HEADNORM_EPS = " + format_roundtrip(kHeadNormEps) + " "));
  CHECK_THAT(text, Contains("GPT_INIT_STD = " + format_roundtrip(kGptInitStd) + "\n"));
  CHECK_THAT(text, Contains("QK_GAIN = " + format_roundtrip(initial_qk_gain(e.base.model)) + " "));
  // Each variant's factor on q.k is the core's attention_scale.
  for (const std::string& name : e.variants) {
    ModelConfig model = e.base.model;
    parse_scale(name, model);
    CAPTURE(name);
    CHECK_THAT(text, Contains("{\"name\": " + json_quote(scale_label(model)) + ", \"label\": " +
                              json_quote(variant_label(model.scale, model.alpha)) + ", \"scale\": " +
                              json_quote(to_string(model.scale)) + ", \"factor\": " +
                              format_roundtrip(attention_scale(model)) + "}"));
  }
  // The answer's definitions, as the lab writes them (the program does not look for stalls).
  for (const DefinitionText& d : definition_texts(defs, e.threshold, e.steps))
    if (std::string(d.key) != "stall") CHECK_THAT(text, Contains(d.text.substr(0, 60)));
}

TEST_CASE("torch export: the file says where it came from and that PyTorch's random numbers differ", "[export]") {
  const ExerciseSettings e = unusual();
  const std::string text = torch_export(e, TorchFormat::script);
  CHECK(torch_export_command(e) ==
        "sqrtdk export-torch --variants qknorm,alpha=0.25,unscaled --seeds 4 --steps 123 --threshold 0.07 --seed 7"
        " --layers 3 --d-model 32 --heads 2 --d-ff 48 --init gpt --copy-length 6 --symbols 7 --batch 16"
        " --eval-batch 20 --optimizer sgd --lr 0.0123 --momentum 0.8 --clip-norm 2.5");
  CHECK_THAT(text, Contains("#     " + torch_export_command(e) + "\n"));
  CHECK_THAT(text, Contains("PyTorch draws its own random numbers"));
  CHECK_THAT(text, Contains("so single seeds differ from the lab's. Rates over"));
  CHECK(preset_of(e) == nullptr);
  CHECK_THAT(text, !Contains("preset '"));
  CHECK(torch_export_command(ExerciseSettings{}) ==
        "sqrtdk export-torch --variants scaled,unscaled --seeds 3 --steps 400 --threshold 0.1");
}

TEST_CASE("torch export: a preset's settings name the preset and quote its claims, whatever the seeds", "[export]") {
  for (const Scenario& s : scenarios()) {
    CAPTURE(s.id);
    ExerciseSettings e = parse_exercise_settings(s.settings);
    REQUIRE(preset_of(e) == &s);
    e.seeds = 10;
    e.base.seed = 100;
    REQUIRE(preset_of(e) == &s);
    const std::string text = torch_export(e, TorchFormat::script);
    CHECK_THAT(text, Contains("preset '" + std::string(s.id) + "'"));
    const std::string measured = measured_sentences(s);
    if (!measured.empty()) CHECK_THAT(text, Contains(measured.substr(0, 40)));
    e.threshold *= 2;  // another setting: no longer the preset
    CHECK(preset_of(e) == nullptr);
  }
}

TEST_CASE("torch export: the notebook is nbformat 4 with the script's code, cell by cell", "[export]") {
  const ExerciseSettings e = unusual();
  const std::string script = torch_export(e, TorchFormat::script);
  const std::string notebook = torch_export(e, TorchFormat::notebook);
  CHECK_THAT(notebook, StartsWith("{\"cells\":[{\"cell_type\":\"markdown\",\"metadata\":{},\"source\":["));
  CHECK_THAT(notebook, EndsWith(",\"nbformat\":4,\"nbformat_minor\":4}\n"));
  CHECK_THAT(notebook, Contains("{\"cell_type\":\"code\",\"execution_count\":null,\"metadata\":{},\"outputs\":[],"));
  // Every line of code in the script is a line of a code cell (as its JSON string).
  std::size_t start = script.find("\nimport math\n") + 1;
  int lines = 0;
  while (start < script.size()) {
    const std::size_t end = script.find('\n', start);
    const std::string line = script.substr(start, end - start + 1);
    start = end + 1;
    if (line == "\n" || line[0] == '#') continue;
    ++lines;
    CAPTURE(line);
    std::string quoted = json_quote(line.substr(0, line.size() - 1));  // the cell's last line has no newline
    quoted.pop_back();
    CHECK_THAT(notebook, Contains(quoted));
  }
  CHECK(lines > 100);
}

TEST_CASE("torch export: bad settings are refused with the setting's name", "[export]") {
  ExerciseSettings e;
  e.variants = {"scaled", "sqrt"};
  CHECK_THROWS_AS(torch_export(e, TorchFormat::script), ConfigError);
  e = ExerciseSettings{};
  e.variants.clear();
  CHECK_THROWS_WITH(torch_export(e, TorchFormat::script), Contains("variants"));
  e = ExerciseSettings{};
  e.seeds = 0;
  CHECK_THROWS_WITH(torch_export(e, TorchFormat::script), Contains("seeds"));
  e = ExerciseSettings{};
  e.threshold = 0;
  CHECK_THROWS_WITH(torch_export(e, TorchFormat::script), Contains("threshold"));
  e = ExerciseSettings{};
  e.base.model.d_model = 65;
  e.base.model.n_heads = 2;
  CHECK_THROWS_WITH(torch_export(e, TorchFormat::script), Contains("d_model"));
}
