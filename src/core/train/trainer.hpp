// The copy-task trainer: one object owns a model, its workspaces, the optimizer and the data streams of a seed.
//
// Randomness per seed (Rng::derive labels): 0 = parameter init, 1 = training batches, 2 = the fixed
// evaluation batch.  So a seed fixes the whole run, natively and in WebAssembly alike.
#pragma once
#include <cstdint>
#include <vector>

#include <memory>
#include <utility>

#include "core/settings/config.hpp"
#include "core/train/copy_task.hpp"
#include "core/nn/model.hpp"
#include "core/nn/optimizer.hpp"

namespace sqrtdk {

// A run diverges when its loss exceeds this many times a uniform guess's loss, ln(vocab) (Trainer::step).
inline constexpr double kDivergenceFactor = 10;

// Labels of the random streams derived from a seed (Rng::derive).
enum class Stream : uint64_t { init = 0, data = 1, eval = 2 };

// Metrics of one training step (sized at construction, so a step allocates nothing).
struct StepMetrics {
  int step = 0;                        // 1-based
  float loss = 0;                      // mean cross-entropy on the copy half of this step's batch
  float grad_norm = 0;                 // global L2 norm of the gradient (before clipping)
  std::vector<float> layer_grad_norm;  // (n_layers) L2 norm of each block's gradient
  std::vector<float> entropy;          // (n_layers * n_heads) mean attention entropy, nats
  std::vector<float> max_logit;        // (n_layers) largest attention logit (after scaling)
  std::vector<float> top_weight;       // (n_layers) mean over query rows of the largest attention weight
  // The mechanism: how much gradient reaches the queries and keys, and how far the optimizer moves them.
  std::vector<float> qk_grad_norm;     // (n_layers) L2 norm of the gradient of W_q, W_k, b_q, b_k (all heads)
  std::vector<float> qk_update_norm;   // (n_layers) L2 norm of the change the optimizer applied to them
  std::vector<float> logit_spread;     // (n_layers) mean over rows of max - mean of the causal logits (scaled)
  std::vector<float> jacobian_norm;    // (n_layers) mean over rows of |diag(p) - p p^T|_F
};

// Greedy autoregressive decoding of the fixed evaluation batch.
struct EvalMetrics {
  int step = 0;
  float loss = 0;               // teacher-forced copy loss on the evaluation batch
  float token_accuracy = 0;     // fraction of copied tokens right
  float sequence_accuracy = 0;  // fraction of sequences copied without a mistake
};

// Per-step history, flat (step-major) so it maps onto typed arrays and CSV rows.
struct TrainLog {
  int n_layers = 0, n_heads = 0;
  std::vector<int> step;
  std::vector<float> loss, grad_norm;
  std::vector<float> layer_grad_norm;  // (steps, n_layers)
  std::vector<float> entropy;          // (steps, n_layers, n_heads)
  std::vector<float> max_logit;        // (steps, n_layers)
  std::vector<float> top_weight;       // (steps, n_layers)
  std::vector<float> qk_grad_norm;     // (steps, n_layers)
  std::vector<float> qk_update_norm;   // (steps, n_layers); 0 at a diverged step (no update applied)
  std::vector<float> logit_spread;     // (steps, n_layers)
  std::vector<float> jacobian_norm;    // (steps, n_layers)
  std::vector<EvalMetrics> evals;

  void append(const StepMetrics& m);
  void extend(const TrainLog& later);  // concatenate a later chunk of the same run
  std::size_t size() const { return step.size(); }
};

class Trainer {
 public:
  explicit Trainer(const TrainConfig& config);  // validates first; throws ConfigError and allocates nothing

  // Fresh parameters, optimizer state and data streams for `seed` (the configuration keeps its other values).
  void reset(uint64_t seed);

  // One step: sample a batch, forward, backward, optimizer update.  Allocates nothing.  The run is marked diverged
  // (parameters left as they were, step recorded, false returned, later calls do nothing) when the loss or
  // gradient is not finite or the loss exceeds divergence_loss(): ten times a uniform guess's loss, ln(vocab).
  // With LayerNorm everywhere an exploding run often stays finite (loss ~1e4 at lr 10), hence the bound.
  bool step();
  const StepMetrics& last() const { return last_; }
  double divergence_loss() const;

  // Up to k steps (stops early at divergence), evaluating every config.eval_every steps.
  TrainLog run(int k);

  EvalMetrics evaluate();

  // Softmax weights (T, T) of `layer`, `head` for evaluation example `example`, from a teacher-forced
  // forward on the evaluation batch with the current parameters.  Throws ConfigError on a bad index.
  std::vector<float> attention_map(int example, int layer, int head);

  // Std of the attention logits (layer 0, all heads, causal pairs) on the evaluation batch, now.
  double measured_logit_std();

  const TrainConfig& config() const { return config_; }
  const Model<float>& model() const { return model_; }
  Model<float>& model() { return model_; }
  int steps_done() const { return steps_done_; }
  bool diverged() const { return diverged_step_ > 0; }
  int diverged_step() const { return diverged_step_; }  // 0 if not diverged

 private:
  TrainConfig config_;
  Model<float> model_;
  Workspace<float> train_ws_, eval_ws_;
  std::unique_ptr<UpdateRule> optimizer_;
  std::vector<std::pair<std::size_t, std::size_t>> qk_ranges_;  // (n_layers * 4) [begin, end) of wq bq wk bk
  Rng data_rng_;
  CopyBatch batch_, eval_batch_;
  StepMetrics last_;
  int steps_done_ = 0;
  int diverged_step_ = 0;
};

}  // namespace sqrtdk
