// Every setting of the model, the copy task, the optimizer and the trainer, with the canonical
// defaults of the lesson's exercise, and the one validation function every entry point calls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/settings/copy_layout.hpp"

namespace sqrtdk {

// How attention scores are scaled: score = scale * q.k (see attention_scale()).
enum class ScaleMode {
  scaled,    // 1 / sqrt(d_k)            (Vaswani et al.)
  unscaled,  // 1                         (what the lesson warns against)
  alpha,     // 1 / d_k^alpha             (alpha 0 = unscaled, 0.5 = scaled, 1 = muP's 1/d)
  qknorm,    // g * (q/|q|).(k/|k|), g a learned gain per head, initialised to sqrt(d_k) so that the
             // initial logit std (~1) equals the scaled variant's: the comparison then isolates the norm.
};

// The update rule.  adam is the default (and the lesson's exercise); sgd is plain SGD with momentum, where the
// unscaled model can fail to learn entirely because its step is proportional to the (dying) gradient.
enum class Optimizer { adam, sgd };

// Weight initialisation of every Linear (Q, K, V, O, MLP, head); biases are zero unless noted.
enum class InitScheme {
  xavier,  // U(+-sqrt(6/(in+out))): q, k components of unit variance (the footnote's assumption)
  torch,   // PyTorch's nn.Linear default: W and b ~ U(+-1/sqrt(in)); embeddings N(0, 1)
  gpt,     // N(0, 0.02²) weights and embeddings (standard deviation 0.02)
};

// The largest exponent of scale alpha (score = q.k / d_k^alpha) anywhere: 2 is far past muP's 1.
inline constexpr double kMaxAlpha = 2;

struct ModelConfig {
  int n_layers = 2;
  int d_model = 64;
  int n_heads = 1;          // d_k = d_model / n_heads
  int d_ff = 0;             // 0 means 4 * d_model
  ScaleMode scale = ScaleMode::scaled;
  double alpha = 0.5;       // used by ScaleMode::alpha only
  InitScheme init = InitScheme::xavier;

  int d_k() const { return n_heads > 0 ? d_model / n_heads : 0; }
  int ff() const { return d_ff > 0 ? d_ff : 4 * d_model; }
};

// The copy task; its token layout is copy_layout.hpp's.
struct TaskConfig {
  int copy_length = 10;     // L
  int n_symbols = 10;       // symbols drawn uniformly for x1..xL
  int batch = 32;
  int eval_batch = 64;      // fixed evaluation batch, drawn once per seed

  int vocab() const { return CopyLayout::vocab(n_symbols); }      // BOS, SEP, symbols
  int seq_len() const { return CopyLayout{copy_length}.positions(); }  // model positions T
};

struct OptimConfig {
  Optimizer optimizer = Optimizer::adam;
  double lr = 1e-3;         // the default is Adam's; see kSgdDefaultLr
  double beta1 = 0.9;       // adam only
  double beta2 = 0.98;      // adam only
  double eps = 1e-9;        // adam only
  double momentum = 0.9;    // sgd only, in [0, 1): v = momentum v + g; w -= lr v (PyTorch's convention)
  double clip_norm = 0.0;   // global gradient-norm clipping; 0 = off (it would hide the lesson's effect)
};

// SGD's step is lr times the (momentum-accumulated) gradient, not a normalised one, so Adam's 1e-3 would
// barely move it.  At 0.1 with momentum 0.9 the scaled model learns the copy task in ~50 steps and the
// unscaled one saturates and stalls: the lesson's contrast.  Used when sgd is chosen and lr is not set.
constexpr double kSgdDefaultLr = 0.1;

struct TrainConfig {
  ModelConfig model;
  TaskConfig task;
  OptimConfig optim;
  uint64_t seed = 0;
  int eval_every = 50;      // evaluate (greedy decoding on the fixed batch) every this many steps
};

// Limits that keep every configuration inside a documented memory budget.
struct Limits {
  static constexpr int max_layers = 12;
  static constexpr int max_d_model = 1024;
  static constexpr int max_heads = 64;
  static constexpr int max_d_ff = 8192;
  static constexpr int max_copy_length = 64;
  static constexpr int max_symbols = 1000;
  static constexpr int max_batch = 1024;
  static constexpr int max_eval_batch = 1024;
  // Parameters (x4: weights, grads, Adam m, v) plus activations (train and eval workspaces), in bytes.
  static constexpr std::size_t max_bytes = std::size_t(512) << 20;
};

// Thrown for any invalid configuration or argument; the message names the field and the rule.
class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// "" if every setting is in its range and the sizes fit together, otherwise a one-line message such as
// "d_model must be in [1, 1024], got 0" or "d_model (65) must be divisible by heads (2)".  Ranges and choices
// come from the settings table (settings.hpp).  The memory cap is checked on top of this by validate()
// (nn/valid_config.hpp), which needs the network's memory plan.
std::string validate_settings(const TrainConfig& config);

// Names of the enum values, in enum order: to_string and the settings table's choices.
inline constexpr const char* kScaleNames[] = {"scaled", "unscaled", "alpha", "qknorm"};
inline constexpr const char* kInitNames[] = {"xavier", "torch", "gpt"};
inline constexpr const char* kOptimizerNames[] = {"adam", "sgd"};

const char* to_string(ScaleMode mode);
const char* to_string(InitScheme init);
const char* to_string(Optimizer optimizer);
}  // namespace sqrtdk
