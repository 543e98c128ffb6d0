// libFuzzer target: configuration validation and construction.  Arbitrary field values (NaN, infinities,
// negative and huge sizes) must either be refused by validate() with a message, or build a trainer that
// runs a step without crashing; a refused one must throw from the constructor with the same message.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/settings/config.hpp"
#include "core/train/trainer.hpp"
#include "core/nn/valid_config.hpp"

namespace {
// Reads fixed-size fields from the input; zeros once it runs out.
class Reader {
 public:
  Reader(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  template <typename T>
  T next() {
    T value{};
    const std::size_t n = std::min(sizeof(T), size_ - std::min(pos_, size_));
    if (n > 0) std::memcpy(&value, data_ + pos_, n);
    pos_ += sizeof(T);
    return value;
  }
  // A small integer most of the time (so valid configurations are found), anything sometimes.
  int size_like() {
    const uint8_t mode = next<uint8_t>();
    const int32_t raw = next<int32_t>();
    return mode % 4 == 0 ? raw : static_cast<int>(static_cast<uint32_t>(raw) % 70) - 2;
  }

 private:
  const uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  Reader in(data, size);
  sqrtdk::TrainConfig c;
  c.model.n_layers = in.size_like() % 4;
  c.model.d_model = in.size_like();
  c.model.n_heads = in.size_like() % 9;
  c.model.d_ff = in.size_like();
  c.model.scale = static_cast<sqrtdk::ScaleMode>(in.next<uint8_t>() % 5);
  c.model.alpha = in.next<double>();
  c.model.init = static_cast<sqrtdk::InitScheme>(in.next<uint8_t>() % 4);
  c.task.copy_length = in.size_like() % 12;
  c.task.n_symbols = in.size_like();
  c.task.batch = in.size_like() % 9;
  c.task.eval_batch = in.size_like() % 9;
  c.optim.lr = in.next<double>();
  c.optim.beta1 = in.next<double>();
  c.optim.beta2 = in.next<double>();
  c.optim.eps = in.next<double>();
  c.optim.clip_norm = in.next<double>();
  c.seed = in.next<uint64_t>();
  c.eval_every = in.size_like();

  const std::string problem = sqrtdk::validate(c);
  if (!problem.empty()) {
    if (problem.find('\n') != std::string::npos) std::abort();
    try {
      sqrtdk::Trainer refused(c);
      std::abort();  // an invalid configuration was constructed
    } catch (const sqrtdk::ConfigError& e) {
      if (problem != e.what()) std::abort();
    }
    return 0;
  }
  sqrtdk::Trainer trainer(c);
  trainer.step();
  if (!trainer.diverged() && !std::isfinite(trainer.last().loss)) std::abort();
  return 0;
}
