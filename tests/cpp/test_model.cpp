// The whole model's gradients against finite differences, for every scale mode and init scheme,
// plus the parameter layout contract.
#include <catch2/catch.hpp>

#include <set>

#include "core/settings/attention_scale.hpp"
#include "core/train/copy_task.hpp"
#include "core/nn/model.hpp"
#include "gradcheck.hpp"

using namespace sqrtdk;
using namespace sqrtdk::testing;

namespace {
TrainConfig small_config(const std::string& scale, InitScheme init) {
  TrainConfig c;
  c.model.n_layers = 2;
  c.model.d_model = 8;
  c.model.n_heads = 2;
  c.model.d_ff = 12;
  c.model.init = init;
  parse_scale(scale, c.model);
  c.task.copy_length = 3;
  c.task.n_symbols = 4;
  c.task.batch = 2;
  c.task.eval_batch = 2;
  return c;
}
}  // namespace

TEST_CASE("model gradients match finite differences for every scale mode and init", "[model][grad]") {
  const auto scale = GENERATE(as<std::string>{}, "scaled", "unscaled", "alpha=0.25", "alpha=1", "qknorm");
  const auto init = GENERATE(InitScheme::xavier, InitScheme::torch, InitScheme::gpt);
  CAPTURE(scale, to_string(init));
  const TrainConfig config = small_config(scale, init);
  Model<double> model(config);
  Rng rng(11);
  model.initialize(rng);
  // Init puts zeros (biases) and ones (LN gains) in places; nudge every parameter so no path is trivially zero.
  for (double& p : model.params()) p += 0.05 * rng.normal();
  Workspace<double> ws(config, config.task.batch);
  CopyBatch batch;
  batch.resize(config.task.batch, config.task.seq_len());
  Rng data(12);
  sample_copy_batch(config.task, data, batch);
  auto loss = [&] { return model.forward(ws, batch.inputs.data(), batch.targets.data()); };
  loss();
  model.zero_grad();
  model.backward(ws);
  const std::vector<double> analytic = model.grads();
  const std::vector<double> numeric = numeric_gradient(model.params(), loss);
  // Per parameter, so a failure names the culprit; errors relative to the largest gradient of the model,
  // because some tensors' true gradient is zero (a key bias shifts every score of a row equally).
  double global_scale = 0;
  for (double g : numeric) global_scale = std::max(global_scale, std::abs(g));
  REQUIRE(global_scale > 1e-3);
  for (const ParamInfo& info : model.layout().entries()) {
    CAPTURE(info.name);
    double err = 0;
    for (std::size_t i = info.offset; i < info.offset + info.size; ++i)
      err = std::max(err, std::abs(analytic[i] - numeric[i]));
    CHECK(err / global_scale < kTolerance);
  }
}

TEST_CASE("parameter layout names every tensor once, contiguously, in the documented order", "[model]") {
  TrainConfig c;
  c.model.scale = ScaleMode::qknorm;
  const ParamLayout layout(c.model, c.task);
  std::size_t expected_offset = 0;
  for (const ParamInfo& e : layout.entries()) {
    CHECK(e.offset == expected_offset);
    expected_offset += e.size;
  }
  CHECK(layout.total() == expected_offset);
  CHECK(layout.entries().front().name == "wte");
  CHECK(layout.entries().back().name == "head.b");
  CHECK(layout.find("blocks.1.mlp.w1").shape == std::vector<int>{64, 256});
  CHECK(layout.find("blocks.0.attn.qk_gain").size == 1);
  CHECK_THROWS_WITH(layout.find("nope"), "no parameter named 'nope'");
  TrainConfig scaled;
  const ParamLayout plain(scaled.model, scaled.task);
  CHECK_THROWS(plain.find("blocks.0.attn.qk_gain"));
  // Canonical model: 2 * (4*64 LN + 4*(64*64+64) + 64*256+256 + 256*64+64) + 12*64 + 21*64 + 128 + 64*12 + 12
  CHECK(plain.total() == 2u * (256 + 4 * (4096 + 64) + 16384 + 256 + 16384 + 64) + 768 + 1344 + 128 + 768 + 12);
}

TEST_CASE("the same seed gives the same parameters, a different seed different ones", "[model]") {
  TrainConfig c;
  Model<float> a(c), b(c), d(c);
  Rng ra(5), rb(5), rd(6);
  a.initialize(ra);
  b.initialize(rb);
  d.initialize(rd);
  CHECK(a.params() == b.params());
  CHECK(a.params() != d.params());
}

TEST_CASE("an invalid configuration constructs no model and says why", "[model][config]") {
  TrainConfig c;
  c.model.d_model = 65;
  c.model.n_heads = 2;
  CHECK_THROWS_WITH(Model<float>(c), "d_model (65) must be divisible by heads (2)");
}

TEST_CASE("every view points where the layout's entry of that name lies, and no name repeats", "[model]") {
  for (const char* scale : {"scaled", "qknorm"}) {
    CAPTURE(scale);
    const TrainConfig c = small_config(scale, InitScheme::xavier);
    const Model<float> model(c);
    const ParamLayout& layout = model.layout();
    const float* base = model.params().data();
    const ParamView<float>& view = model.weights();
    std::set<std::string> names;
    for (const ParamInfo& e : layout.entries()) names.insert(e.name);
    CHECK(names.size() == layout.entries().size());
    for (const ModelTensor<float>& t : kModelTensors<float>) CHECK(view.*t.member == base + layout.find(t.name).offset);
    for (int l = 0; l < c.model.n_layers; ++l)
      for (const BlockTensor<float>& t : kBlockTensors<float>) {
        const ParamInfo* e = layout.lookup("blocks." + std::to_string(l) + "." + t.name);
        CHECK((e != nullptr) == (!t.qknorm_only || layout.qknorm()));
        CHECK(view.layers[l].*t.member == (e ? base + e->offset : nullptr));
      }
  }
}

namespace {
// Loss and gradients of one forward and backward on a workspace of the given last-layer rows.
template <typename T>
std::pair<T, std::vector<T>> loss_and_grads(Model<T>& model, const CopyBatch& batch, LastLayerRows rows) {
  Workspace<T> ws(model.config(), model.config().task.batch, rows);
  const T loss = model.forward(ws, batch.inputs.data(), batch.targets.data());
  model.zero_grad();
  model.backward(ws);
  return {loss, model.grads()};
}

// The largest |a - b| of each tensor in units of `unit` times the tensor's largest |b| (floored at a thousandth of
// the model's largest gradient: some tensors' true gradient is 0 but for rounding, a key bias's for one).
template <typename T>
void check_same_gradients(const ParamLayout& layout, const std::vector<T>& a, const std::vector<T>& b, double unit,
                          double within) {
  double model_max = 0;
  for (T g : b) model_max = std::max(model_max, std::abs(double(g)));
  REQUIRE(model_max > 0);
  for (const ParamInfo& info : layout.entries()) {
    double err = 0, scale = 1e-3 * model_max;
    for (std::size_t i = info.offset; i < info.offset + info.size; ++i) {
      err = std::max(err, std::abs(double(a[i]) - double(b[i])));
      scale = std::max(scale, std::abs(double(b[i])));
    }
    CAPTURE(info.name, err / (unit * scale));
    CHECK(err <= within * unit * scale);
  }
}

TrainConfig head_rows_config(const std::string& scale, int layers) {
  TrainConfig c;  // canonical but for these
  parse_scale(scale, c.model);
  c.model.n_layers = layers;
  if (c.model.scale == ScaleMode::qknorm) c.model.n_heads = 2;
  return c;
}
}  // namespace

// The last layer computes past its scores only the rows the loss scores; every row is the reference.
TEST_CASE("the rows the last layer skips change neither the loss nor any gradient", "[model][grad]") {
  const auto scale = GENERATE(as<std::string>{}, "scaled", "unscaled", "qknorm");
  const int layers = GENERATE(1, 2);
  CAPTURE(scale, layers);
  const TrainConfig config = head_rows_config(scale, layers);
  CopyBatch batch;
  batch.resize(config.task.batch, config.task.seq_len());
  Rng data(5);
  sample_copy_batch(config.task, data, batch);

  SECTION("in double, to 1e-12") {
    Model<double> model(config);
    Rng rng(3);
    model.initialize(rng);
    for (double& p : model.params()) p += 0.05 * rng.normal();  // no gradient trivially zero
    const auto [loss, grads] = loss_and_grads(model, batch, LastLayerRows::scored);
    const auto [ref_loss, ref_grads] = loss_and_grads(model, batch, LastLayerRows::all);
    CHECK(std::abs(loss - ref_loss) <= 1e-12 * std::abs(ref_loss));
    check_same_gradients(model.layout(), grads, ref_grads, 1e-12, 1.0);
  }
  SECTION("in float, to a few ulps") {
    Model<float> model(config);
    Rng rng(3);
    model.initialize(rng);
    for (float& p : model.params()) p += static_cast<float>(0.05 * rng.normal());
    const auto [loss, grads] = loss_and_grads(model, batch, LastLayerRows::scored);
    const auto [ref_loss, ref_grads] = loss_and_grads(model, batch, LastLayerRows::all);
    // The same rows in the same order: the loss to the bit.  A gradient differs only where a sum over rows
    // drops the skipped rows' zeros and is blocked differently (the last layer's weights).
    CHECK(loss == ref_loss);
    check_same_gradients(model.layout(), grads, ref_grads, std::numeric_limits<float>::epsilon(), 4.0);
  }
}
