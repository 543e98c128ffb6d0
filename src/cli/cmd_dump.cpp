// sqrtdk dump: everything another framework needs to check our loss and gradients for one batch.
#include <fstream>
#include <string>

#include "cli/commands.hpp"
#include "core/text/json.hpp"
#include "cli/output.hpp"
#include "cli/train_flags.hpp"
#include "core/train/copy_task.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk {
namespace {

const std::string kUsage = std::string(
    "usage: sqrtdk dump --out FILE.json [--seed 0] [--scale scaled] [model, task flags]\n"
    "\n"
    "Writes the configuration, the seed's first training batch (inputs and targets, B x T), every parameter at\n"
    "initialisation (name, shape, row-major values; names and layouts in src/core/nn/model.hpp), the loss and every\n"
    "gradient.  Loss and gradients are computed in double precision from the float32 initial parameters, so a\n"
    "reference implementation can compare at ~1e-12.  tests/reference/check_dump.py does that with PyTorch.\n\n") +
    train_flags_usage();

void write_block(JsonWriter& w, const ParamLayout& layout, const std::vector<double>& block) {
  w.begin_array();
  for (const ParamInfo& info : layout.entries()) {
    w.begin_object().field("name", info.name).key("shape").array(info.shape).key("values").begin_array();
    for (std::size_t i = info.offset; i < info.offset + info.size; ++i) w.value(block[i]);
    w.end_array().end_object();
  }
  w.end_array();
}

void write_tokens(JsonWriter& w, const std::vector<int32_t>& tokens, int B, int TT) {
  w.begin_array();
  for (int b = 0; b < B; ++b) {
    w.begin_array();
    for (int t = 0; t < TT; ++t) w.value(tokens[static_cast<std::size_t>(b) * TT + t]);
    w.end_array();
  }
  w.end_array();
}

}  // namespace

int run_dump(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept(train_flag_names({"scale", "out"}));
  const TrainConfig config = read_train_config(args);
  if (!args.has("out")) throw UsageError("--out FILE.json is required");
  const std::string path = args.get_string("out", "");

  const Trainer trainer(config);  // parameters at initialisation for this seed
  CopyBatch batch;
  batch.resize(config.task.batch, config.task.seq_len());
  Rng data = Rng::derive(config.seed, static_cast<uint64_t>(Stream::data));
  sample_copy_batch(config.task, data, batch);  // the batch the first training step sees

  Model<double> model(config);
  const std::vector<float>& p32 = trainer.model().params();
  std::copy(p32.begin(), p32.end(), model.params().begin());
  Workspace<double> ws(config, config.task.batch);
  const double loss = model.forward(ws, batch.inputs.data(), batch.targets.data());
  model.zero_grad();
  model.backward(ws);

  JsonWriter w;
  w.begin_object().key("config").begin_object();
  w.field("n_layers", config.model.n_layers).field("d_model", config.model.d_model);
  w.field("n_heads", config.model.n_heads).field("d_ff", config.model.ff());
  w.field("copy_length", config.task.copy_length).field("n_symbols", config.task.n_symbols);
  w.field("batch", config.task.batch).field("scale", std::string(to_string(config.model.scale)));
  w.field("alpha", config.model.alpha).field("init", to_string(config.model.init)).field("seed", config.seed);
  w.end_object();
  w.key("inputs");
  write_tokens(w, batch.inputs, batch.batch, batch.positions);
  w.key("targets");
  write_tokens(w, batch.targets, batch.batch, batch.positions);
  w.field("loss", loss).key("params");
  write_block(w, model.layout(), model.params());
  w.key("grads");
  write_block(w, model.layout(), model.grads());
  w.end_object();

  std::ofstream file(path, std::ios::binary);
  file << w.str() << "\n";
  if (!file) throw UsageError("--out: cannot write '" + path + "'");
  std::string text;
  appendf(text, "wrote %s: %zu parameters in %zu tensors, loss %.17g\n", path.c_str(), model.params().size(),
          model.layout().entries().size(), loss);
  return emit(text);
}

}  // namespace sqrtdk
