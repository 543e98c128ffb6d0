// The tiny decoder-only Transformer: parameters as one contiguous block with named views, a
// workspace of activations allocated once per (B, T), and a forward/backward pair that allocate nothing.
//
// Architecture (pre-LayerNorm, causal, GELU MLP):
//   x0 = wte[token] + wpe[position]                                    (N, C)
//   for each layer:  x += Wo . attention(LN1(x))    x += W2 . gelu(W1 . LN2(x))
//   logits = LNf(x) head_w + head_b                                     (N, V)
//
// Parameter names, shapes and layout (row-major; Linear weights are (in, out), i.e. PyTorch's weight
// transposed; this table is the contract of `sqrtdk dump` and tests/reference/torch_model.py):
//   wte (V, C)  wpe (T, C)
//   blocks.{l}.ln1.weight (C)  blocks.{l}.ln1.bias (C)
//   blocks.{l}.attn.wq (C, C)  .bq (C)  .wk (C, C)  .bk (C)  .wv (C, C)  .bv (C)  .wo (C, C)  .bo (C)
//   blocks.{l}.attn.qk_gain (H)          only when scale = qknorm
//   blocks.{l}.ln2.weight (C)  blocks.{l}.ln2.bias (C)
//   blocks.{l}.mlp.w1 (C, F)  .b1 (F)  .w2 (F, C)  .b2 (C)
//   lnf.weight (C)  lnf.bias (C)  head.w (C, V)  head.b (V)
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/rng.hpp"

namespace sqrtdk {

struct ParamInfo {
  std::string name;
  std::vector<int> shape;
  std::size_t offset = 0;  // in elements from the start of the block
  std::size_t size = 0;
};

// Where every named parameter lives in the flat block, for a configuration.
class ParamLayout {
 public:
  ParamLayout(const ModelConfig& model, const TaskConfig& task);
  const std::vector<ParamInfo>& entries() const { return entries_; }
  std::size_t total() const { return total_; }
  const ParamInfo& find(const std::string& name) const;    // throws ConfigError if absent
  const ParamInfo* lookup(const std::string& name) const;  // nullptr if absent
  std::size_t layer_begin(int l) const { return layer_ranges_[l].first; }
  std::size_t layer_end(int l) const { return layer_ranges_[l].second; }

 private:
  void add(const std::string& name, std::vector<int> shape);
  std::vector<ParamInfo> entries_;
  std::vector<std::pair<std::size_t, std::size_t>> layer_ranges_;
  std::size_t total_ = 0;
};

template <typename T>
struct LayerView {
  T *ln1_g, *ln1_b, *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo, *qk_gain, *ln2_g, *ln2_b, *w1, *b1, *w2, *b2;
};

// Named pointers into a parameter-shaped block (weights, gradients or Adam moments alike).
template <typename T>
struct ParamView {
  T *wte, *wpe;
  std::vector<LayerView<T>> layers;
  T *lnf_g, *lnf_b, *head_w, *head_b;
  ParamView(const ParamLayout& layout, T* base, int n_layers);
};

// Elements of a workspace's storage by what they hold (memory.hpp names the settings behind each).
struct WorkspaceSize {
  uint64_t activations = 0;  // (N, C), (N, F), (N), (N, H) and (H) buffers
  uint64_t attention = 0;    // (B, H, T, T) softmax weights per layer and (T, T) scratch
  uint64_t logits = 0;       // (N, V) logits, probabilities and their gradient
  uint64_t total() const { return activations + attention + logits; }
};

// Activations for one (B, T), allocated once; forward stores what backward needs.
template <typename T>
struct Workspace {
  struct Layer {
    T *x_in;                        // (N, C) residual stream entering the layer
    T *ln1, *ln1_mean, *ln1_rstd;   // (N, C), (N), (N)
    T *q, *k, *v;                   // (N, C) projections
    T *qhat, *khat, *q_rnorm, *k_rnorm;  // (N, C), (N, H): QK-norm only
    T *att;                         // (B, H, T, T) softmax weights
    T *att_y;                       // (N, C) heads concatenated, before Wo
    T *x_mid;                       // (N, C) residual after attention
    T *ln2, *ln2_mean, *ln2_rstd;
    T *h_pre, *h;                   // (N, F) before and after GELU
    T *x_out;                       // (N, C) residual after the MLP: the next layer's x_in
    T *entropy;                     // (H) mean attention entropy of this forward, nats
    T top_weight, max_logit;
    T logit_spread, jacobian_norm;  // AttentionStats of this forward
  };
  int B = 0, TT = 0;
  std::vector<T> storage;
  std::vector<Layer> layers;
  T *x0, *lnf, *lnf_mean, *lnf_rstd, *logits, *probs;  // x0: (N, C) embeddings; logits, probs: (N, V)
  // backward scratch
  T *d_x, *d_ln, *d_att_y, *d_q, *d_k, *d_v, *d_qhat, *d_khat, *d_h, *d_logits, *scratch_a, *scratch_b;
  std::vector<unsigned char> loss_mask;  // (N) 1 where the copy half is scored
  std::vector<int> inputs, targets;      // (N)

  Workspace(const TrainConfig& config, int batch);

  // The storage this constructor would allocate, by the same layout pass (no allocation but `layers`).
  static WorkspaceSize size(const TrainConfig& config, int batch);
  // Every byte the constructor allocates: storage, layers, tokens and mask.
  static uint64_t bytes(const TrainConfig& config, int batch);

 private:
  Workspace() = default;
  // Hands every buffer its range: take(n, &WorkspaceSize::kind) returns the next n elements (or null when
  // only counting).  The one place the workspace's layout is written.
  template <typename Take>
  void lay_out(const TrainConfig& config, Take&& take);
};

template <typename T>
class Model {
 public:
  explicit Model(const TrainConfig& config);  // validates; throws ConfigError before allocating
  Model(const Model&) = delete;  // the views point into this object's blocks
  Model& operator=(const Model&) = delete;

  const TrainConfig& config() const { return config_; }
  const ParamLayout& layout() const { return layout_; }
  std::vector<T>& params() { return params_; }
  const std::vector<T>& params() const { return params_; }
  std::vector<T>& grads() { return grads_; }
  const std::vector<T>& grads() const { return grads_; }

  // Draw every parameter from the configured init scheme (a pure function of rng's state).
  void initialize(Rng& rng);

  // Copy tokens into ws (N inputs and targets), run the forward pass, return the mean copy loss.
  T forward(Workspace<T>& ws, const int* inputs, const int* targets) const;
  // Forward on the tokens already in ws (used by greedy decoding, which edits ws.inputs in place).
  T forward(Workspace<T>& ws) const;
  // grads += d(loss)/d(params) for the last forward on ws.
  void backward(Workspace<T>& ws);
  void zero_grad();

 private:
  TrainConfig config_;
  ParamLayout layout_;
  std::vector<T> params_, grads_;
  ParamView<T> p_, g_;
  std::vector<T> fixed_scale_;  // (H) the attention factor when it is not learned
};

}  // namespace sqrtdk
