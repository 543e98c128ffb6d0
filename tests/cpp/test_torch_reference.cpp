// The C++ model's loss and gradients against an independent PyTorch implementation
// (tests/reference/torch_model.py: torch ops and autograd in float64), on fixtures written by
// tests/reference/make_fixtures.py into SQRTDK_FIXTURE_DIR/torch_<name>.txt.
//
// Fixture format (details in tests/reference/fixture_format.py): one record per line, fields separated
// by spaces, reals written with %.17g, '#' lines are comments.
//   config KEY VALUE              n_layers d_model n_heads d_ff copy_length n_symbols batch scale alpha
//   inputs v... / targets v...    B*T token ids, row-major (B, T)
//   loss v
//   param NAME NDIM D0.. values...
//   param_uniform NAME NDIM D0.. CENTER HALFWIDTH SEED   value i = CENTER + HALFWIDTH * u_i, u_i from
//                                                        SplitMix64(SEED): ((next() >> 40) - 2^23) * 2^-23
//   grad NAME NDIM D0.. values...
//   grad_sampled NAME NDIM D0.. STRIDE SUM L2 values...  flat elements 0, STRIDE, ... plus the whole
//                                                        tensor's SUM and L2 norm
//
// Error measure.  For each gradient tensor, max |cpp - torch| / scale, where scale is the tensor's
// largest reference |gradient|, floored at kScaleFloor times the largest of the whole model: some
// gradients are zero in exact arithmetic (the key bias's, because softmax ignores a shift shared by a
// row) and are rounding noise on both sides.  A sampled tensor also compares its SUM, as
// |error| / (sqrt(n) scale), and its L2 norm, as |error| / scale.  The loss is compared relatively.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/settings/attention_scale.hpp"
#include "core/settings/config.hpp"
#include "core/nn/model.hpp"

namespace {

// Tolerances, with the worst errors measured over the five fixtures (tests/reference/README.md has the
// table).  Each leaves a margin of 20x or more over what rounding produces, and each is far below what a
// wrong formula produces (1e-3 and up; a gradient off by a millionth of its scale fails, see the last test).
// double: loss measured <= 2e-16 relative, gradients <= 9e-15.
constexpr double kDoubleLossTolerance = 1e-13;
constexpr double kDoubleGradTolerance = 1e-11;
// float: parameters rounded to float, every op in float32 (the GELU's tanh a rational approximation within 4e-7):
// float's 6e-8 relative rounding compounds over the layers, and a gradient summed over 672 rows gathers more.
constexpr double kFloatLossTolerance = 1e-6;
constexpr double kFloatGradTolerance = 1e-4;
// Below the smallest largest-|gradient| of any tensor that is not zero in exact arithmetic (1.2e-2 of
// the model's largest, over the fixtures).
constexpr double kScaleFloor = 1e-2;

struct Tensor {
  std::string name;
  std::vector<int> shape;
  std::vector<double> values;
};

// A large gradient: some of its elements and two summaries of all of them.
struct SampledGradient {
  Tensor samples;  // shape is the full tensor's; values are flat elements 0, stride, 2 * stride, ...
  long stride = 1;
  double sum = 0, l2 = 0;
};

struct Fixture {
  std::string name;
  sqrtdk::TrainConfig config;
  std::vector<int> inputs, targets;
  double loss = 0;
  std::vector<Tensor> params;
  std::vector<Tensor> grads;
  std::vector<SampledGradient> sampled;
};

long element_count(const std::vector<int>& shape) {
  long n = 1;
  for (int d : shape) n *= d;
  return n;
}

// The generator behind param_uniform lines, kept here so that the fixtures do not depend on sqrtdk::Rng.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// HALFWIDTH is a power of two and u has 24 bits, so the product is exact and only the sum rounds,
// as in Python.
std::vector<double> uniform_values(long n, double center, double halfwidth, uint64_t seed) {
  SplitMix64 rng{seed};
  std::vector<double> values(n);
  for (double& v : values) {
    const double u = (static_cast<double>(rng.next() >> 40) - 8388608.0) * 0x1.0p-23;
    v = center + halfwidth * u;
  }
  return values;
}

// "NAME NDIM D0 .." at the start of a tensor record.
Tensor read_tensor_header(std::istringstream& fields) {
  Tensor t;
  int ndim = 0;
  fields >> t.name >> ndim;
  t.shape.resize(ndim);
  for (int& d : t.shape) fields >> d;
  return t;
}

template <typename V>
std::vector<V> read_rest(std::istringstream& fields) {
  std::vector<V> values;
  V v;
  while (fields >> v) values.push_back(v);
  return values;
}

sqrtdk::TrainConfig make_config(const std::map<std::string, std::string>& kv) {
  sqrtdk::TrainConfig c;
  c.model.n_layers = std::stoi(kv.at("n_layers"));
  c.model.d_model = std::stoi(kv.at("d_model"));
  c.model.n_heads = std::stoi(kv.at("n_heads"));
  c.model.d_ff = std::stoi(kv.at("d_ff"));
  sqrtdk::parse_scale(kv.at("scale"), c.model);
  c.model.alpha = std::stod(kv.at("alpha"));  // read by scale alpha only
  c.task.copy_length = std::stoi(kv.at("copy_length"));
  c.task.n_symbols = std::stoi(kv.at("n_symbols"));
  c.task.batch = std::stoi(kv.at("batch"));
  return c;
}

Fixture load_fixture(const std::string& name) {
  const std::string path = std::string(SQRTDK_FIXTURE_DIR) + "/torch_" + name + ".txt";
  std::ifstream in(path);
  INFO("fixture " << path);
  REQUIRE(in.good());
  Fixture f;
  f.name = name;
  std::map<std::string, std::string> config;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind;
    if (!(fields >> kind) || kind[0] == '#' || kind == "format") continue;
    if (kind == "config") {
      std::string key, value;
      fields >> key >> value;
      config[key] = value;
    } else if (kind == "inputs") {
      f.inputs = read_rest<int>(fields);
    } else if (kind == "targets") {
      f.targets = read_rest<int>(fields);
    } else if (kind == "loss") {
      fields >> f.loss;
    } else if (kind == "param" || kind == "grad") {
      Tensor t = read_tensor_header(fields);
      t.values = read_rest<double>(fields);
      REQUIRE(static_cast<long>(t.values.size()) == element_count(t.shape));
      (kind == "param" ? f.params : f.grads).push_back(std::move(t));
    } else if (kind == "param_uniform") {
      Tensor t = read_tensor_header(fields);
      double center = 0, halfwidth = 0;
      uint64_t seed = 0;
      fields >> center >> halfwidth >> seed;
      t.values = uniform_values(element_count(t.shape), center, halfwidth, seed);
      f.params.push_back(std::move(t));
    } else if (kind == "grad_sampled") {
      SampledGradient s;
      s.samples = read_tensor_header(fields);
      fields >> s.stride >> s.sum >> s.l2;
      s.samples.values = read_rest<double>(fields);
      REQUIRE(static_cast<long>(s.samples.values.size()) == (element_count(s.samples.shape) + s.stride - 1) / s.stride);
      f.sampled.push_back(std::move(s));
    } else {
      FAIL("unknown record '" << kind << "' in " << path);
    }
  }
  f.config = make_config(config);
  const long tokens = static_cast<long>(f.config.task.batch) * f.config.task.seq_len();
  REQUIRE(static_cast<long>(f.inputs.size()) == tokens);
  REQUIRE(static_cast<long>(f.targets.size()) == tokens);
  return f;
}

// The C++ model's loss and gradients (as double, in layout order) on a fixture's parameters and batch.
struct CppResult {
  double loss = 0;
  std::vector<double> grads;
};

template <typename T>
CppResult run_model(const Fixture& f) {
  sqrtdk::Model<T> model(f.config);
  const sqrtdk::ParamLayout& layout = model.layout();
  std::set<std::string> given;
  for (const Tensor& p : f.params) {
    const sqrtdk::ParamInfo& info = layout.find(p.name);
    INFO("parameter " << p.name);
    REQUIRE(info.shape == p.shape);
    REQUIRE(given.insert(p.name).second);
    std::transform(p.values.begin(), p.values.end(), model.params().begin() + info.offset,
                   [](double v) { return static_cast<T>(v); });
  }
  REQUIRE(given.size() == layout.entries().size());  // every parameter set, none left at zero

  sqrtdk::Workspace<T> ws(f.config, f.config.task.batch);
  CppResult r;
  r.loss = model.forward(ws, f.inputs.data(), f.targets.data());
  model.zero_grad();
  model.backward(ws);
  r.grads.assign(model.grads().begin(), model.grads().end());
  return r;
}

struct Errors {
  double loss = 0;      // |cpp - torch| / |torch|
  double grad = 0;      // worst normalised gradient error over the model (see the top of the file)
  std::string worst;    // where it occurred
  std::size_t tensors = 0;
};

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

void note(Errors& e, double error, const std::string& where) {
  if (error > e.grad || e.worst.empty()) {
    e.grad = std::max(e.grad, error);
    e.worst = where;
  }
}

Errors measure(const Fixture& f, const CppResult& cpp, const sqrtdk::ParamLayout& layout) {
  Errors e;
  e.loss = std::abs(cpp.loss - f.loss) / std::abs(f.loss);
  double model_scale = 0;
  for (const Tensor& g : f.grads) model_scale = std::max(model_scale, max_abs(g.values));
  for (const SampledGradient& s : f.sampled) model_scale = std::max(model_scale, max_abs(s.samples.values));
  const double floor = kScaleFloor * model_scale;

  for (const Tensor& g : f.grads) {
    const sqrtdk::ParamInfo& info = layout.find(g.name);
    REQUIRE(info.shape == g.shape);
    const double scale = std::max(max_abs(g.values), floor);
    for (std::size_t i = 0; i < g.values.size(); ++i)
      note(e, std::abs(cpp.grads[info.offset + i] - g.values[i]) / scale, g.name + "[" + std::to_string(i) + "]");
    ++e.tensors;
  }
  for (const SampledGradient& s : f.sampled) {
    const sqrtdk::ParamInfo& info = layout.find(s.samples.name);
    REQUIRE(info.shape == s.samples.shape);
    const double scale = std::max(max_abs(s.samples.values), floor);
    const double* g = cpp.grads.data() + info.offset;
    for (std::size_t i = 0; i < s.samples.values.size(); ++i)
      note(e, std::abs(g[i * s.stride] - s.samples.values[i]) / scale,
           s.samples.name + "[" + std::to_string(i * s.stride) + "]");
    double sum = 0, sum_sq = 0;
    for (std::size_t i = 0; i < info.size; ++i) {
      sum += g[i];
      sum_sq += g[i] * g[i];
    }
    note(e, std::abs(sum - s.sum) / (std::sqrt(static_cast<double>(info.size)) * scale), s.samples.name + " sum");
    note(e, std::abs(std::sqrt(sum_sq) - s.l2) / scale, s.samples.name + " L2");
    ++e.tensors;
  }
  return e;
}

template <typename T>
Errors compare(const Fixture& f) {
  const CppResult cpp = run_model<T>(f);
  const sqrtdk::ParamLayout layout(f.config.model, f.config.task);
  Errors e = measure(f, cpp, layout);
  REQUIRE(e.tensors == layout.entries().size());  // every gradient compared
  return e;
}

void check_fixture(const std::string& name) {
  const Fixture f = load_fixture(name);
  SECTION("in double, to rounding") {
    const Errors e = compare<double>(f);
    INFO(name << " double: loss relative error " << e.loss << ", worst gradient error " << e.grad << " at "
              << e.worst);
    CHECK(e.loss <= kDoubleLossTolerance);
    CHECK(e.grad <= kDoubleGradTolerance);
  }
  SECTION("in float, within float rounding") {
    const Errors e = compare<float>(f);
    INFO(name << " float: loss relative error " << e.loss << ", worst gradient error " << e.grad << " at "
              << e.worst);
    CHECK(e.loss <= kFloatLossTolerance);
    CHECK(e.grad <= kFloatGradTolerance);
  }
}

}  // namespace

TEST_CASE("loss and gradients match PyTorch for the scaled fixture", "[torch_reference]") {
  check_fixture("scaled");
}

TEST_CASE("loss and gradients match PyTorch for the unscaled fixture", "[torch_reference]") {
  check_fixture("unscaled");
}

TEST_CASE("loss and gradients match PyTorch for the alpha=0.25 fixture", "[torch_reference]") {
  check_fixture("alpha");
}

TEST_CASE("loss and gradients match PyTorch for the qknorm fixture", "[torch_reference]") {
  check_fixture("qknorm");
}

TEST_CASE("loss and gradients match PyTorch for the canonical-size fixture", "[torch_reference]") {
  check_fixture("canonical");
}

TEST_CASE("the PyTorch comparison flags a gradient off by a millionth of its scale", "[torch_reference]") {
  SECTION("in a gradient written in full") {
    const Fixture f = load_fixture("qknorm");
    CppResult cpp = run_model<double>(f);
    const sqrtdk::ParamLayout layout(f.config.model, f.config.task);
    const auto wq = std::find_if(f.grads.begin(), f.grads.end(),
                                 [](const Tensor& g) { return g.name == "blocks.1.attn.wq"; });
    REQUIRE(wq != f.grads.end());
    cpp.grads[layout.find(wq->name).offset + 5] += 1e-6 * max_abs(wq->values);
    CHECK(measure(f, cpp, layout).grad > kDoubleGradTolerance);
  }
  SECTION("in a sampled gradient, at an element that is not sampled") {
    const Fixture f = load_fixture("canonical");
    CppResult cpp = run_model<double>(f);
    const sqrtdk::ParamLayout layout(f.config.model, f.config.task);
    const SampledGradient& s = f.sampled.front();
    REQUIRE(s.stride > 1);
    cpp.grads[layout.find(s.samples.name).offset + 1] += 1e-6 * max_abs(s.samples.values);
    CHECK(measure(f, cpp, layout).grad > kDoubleGradTolerance);
  }
}
