#include "core/train/fingerprint.hpp"
#include "core/train/metrics.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/train/trainer.hpp"

namespace sqrtdk {
namespace {

class Fnv1a {
 public:
  void add(const void* data, std::size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) hash_ = (hash_ ^ p[i]) * 0x100000001B3ull;
  }
  void add(const std::vector<float>& v) { add(v.data(), v.size() * sizeof(float)); }
  void add(const std::vector<int>& v) { add(v.data(), v.size() * sizeof(int)); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xCBF29CE484222325ull;
};

// The runs: canonical scaled and unscaled (Adam), unscaled under SGD, QK-norm with heads, alpha with GPT init on a
// short task, PyTorch's init on one layer of many heads.  30 steps each, evaluating every 10.
std::vector<TrainConfig> configurations() {
  std::vector<TrainConfig> out;
  TrainConfig c;
  c.eval_every = 10;
  c.model.scale = ScaleMode::scaled;
  out.push_back(c);
  c.model.scale = ScaleMode::unscaled;
  c.seed = 1;
  out.push_back(c);
  TrainConfig sgd = c;
  sgd.optim.optimizer = Optimizer::sgd;
  sgd.optim.lr = kSgdDefaultLr;
  sgd.seed = 2;
  out.push_back(sgd);
  TrainConfig qk = c;
  qk.model.scale = ScaleMode::qknorm;
  qk.model.d_model = 32;
  qk.model.n_heads = 2;
  qk.optim.lr = 0.01;
  qk.seed = 3;
  out.push_back(qk);
  TrainConfig alpha = c;
  alpha.model.scale = ScaleMode::alpha;
  alpha.model.alpha = 0.25;
  alpha.model.init = InitScheme::gpt;
  alpha.task.copy_length = 6;
  alpha.task.batch = 8;
  alpha.seed = 4;
  out.push_back(alpha);
  TrainConfig torch = c;
  torch.model.init = InitScheme::torch;
  torch.model.n_layers = 1;
  torch.model.d_model = 16;
  torch.model.n_heads = 4;
  torch.seed = 5;
  out.push_back(torch);
  return out;
}

}  // namespace

uint64_t curves_fingerprint() {
  Fnv1a h;
  for (const TrainConfig& c : configurations()) {
    Trainer trainer(c);
    const TrainLog log = trainer.run(30);
    h.add(log.step);
    for (const Metric& m : metrics()) h.add(log.*m.series);
    for (const EvalMetrics& e : log.evals) {
      h.add(&e.step, sizeof e.step);
      h.add(&e.loss, sizeof e.loss);
      h.add(&e.token_accuracy, sizeof e.token_accuracy);
      h.add(&e.sequence_accuracy, sizeof e.sequence_accuracy);
    }
    h.add(trainer.attention_map(0, 0, 0));
  }
  return h.value();
}

std::string fingerprint_hex(uint64_t fingerprint) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fingerprint));
  return buf;
}

}  // namespace sqrtdk
