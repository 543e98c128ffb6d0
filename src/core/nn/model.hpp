// The tiny decoder-only Transformer: parameters as one contiguous block with named views, a
// workspace of activations allocated once per (B, T), and a forward/backward pair that allocate nothing.
//
// Architecture (pre-LayerNorm, causal, GELU MLP):
//   x0 = wte[token] + wpe[position]                                    (N, C)
//   for each layer:  x += Wo . attention(LN1(x))    x += W2 . gelu(W1 . LN2(x))
//   logits = LNf(x) head_w + head_b                                     (N, V)
// Past its attention scores the last layer computes only the rows the loss scores (head_rows.hpp): the logits
// are (R, V), R = B * copy_length.  Workspace(..., LastLayerRows::all) computes every row (the tests' reference).
//
// Parameter names, shapes and layout: the tables kModelTensors and kBlockTensors below, in block order
// (row-major; Linear weights are (in, out), i.e. PyTorch's weight transposed).  They are the contract of
// `sqrtdk dump` and tests/reference/torch_model.py:
//   wte (V, C)  wpe (T, C)  blocks.{l}.<block tensors>  lnf.weight (C)  lnf.bias (C)  head.w (C, V)  head.b (V)
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/settings/config.hpp"
#include "core/arith/rng.hpp"
#include "core/nn/head_rows.hpp"

namespace sqrtdk {

// The standard deviations of initialize()'s normal draws: the embeddings' (nn.Embedding's default) and every
// weight's under InitScheme::gpt (its embeddings' too).
inline constexpr double kEmbeddingInitStd = 1.0;
inline constexpr double kGptInitStd = 0.02;

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
  bool qknorm() const { return qknorm_; }  // the blocks have attn.qk_gain

 private:
  void add(const std::string& name, std::vector<int> shape);
  std::vector<ParamInfo> entries_;
  std::vector<std::pair<std::size_t, std::size_t>> layer_ranges_;
  std::size_t total_ = 0;
  bool qknorm_ = false;
};

template <typename T>
struct LayerView {
  T *ln1_g, *ln1_b, *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo, *qk_gain, *ln2_g, *ln2_b, *w1, *b1, *w2, *b2;
};

// Named pointers into a parameter-shaped block (weights, gradients or optimizer state alike).
template <typename T>
struct ParamView {
  T *wte, *wpe;
  std::vector<LayerView<T>> layers;
  T *lnf_g, *lnf_b, *head_w, *head_b;
  ParamView(const ParamLayout& layout, T* base, int n_layers);
};

// The sizes a shape is made of: d_model, d_ff, heads, vocabulary, positions; none ends a shape.
enum class Dim : char { none, C, F, H, V, T };

// One row of the layout tables: a tensor's name, shape and view member.
template <typename T>
struct BlockTensor {
  const char* name;  // after "blocks.{l}."
  Dim rows, cols;
  T* LayerView<T>::*member;
  bool qknorm_only;  // present only when scale = qknorm
};
template <typename T>
struct ModelTensor {
  const char* name;
  Dim rows, cols;
  T* ParamView<T>::*member;
  bool after_blocks;  // lnf, head: after the blocks; wte, wpe: before
};

// The tensors of one block, in layout order.  The only place a block's parameter names are written.
template <typename T>
inline const BlockTensor<T> kBlockTensors[] = {
    {"ln1.weight", Dim::C, Dim::none, &LayerView<T>::ln1_g, false},
    {"ln1.bias", Dim::C, Dim::none, &LayerView<T>::ln1_b, false},
    {"attn.wq", Dim::C, Dim::C, &LayerView<T>::wq, false},
    {"attn.bq", Dim::C, Dim::none, &LayerView<T>::bq, false},
    {"attn.wk", Dim::C, Dim::C, &LayerView<T>::wk, false},
    {"attn.bk", Dim::C, Dim::none, &LayerView<T>::bk, false},
    {"attn.wv", Dim::C, Dim::C, &LayerView<T>::wv, false},
    {"attn.bv", Dim::C, Dim::none, &LayerView<T>::bv, false},
    {"attn.wo", Dim::C, Dim::C, &LayerView<T>::wo, false},
    {"attn.bo", Dim::C, Dim::none, &LayerView<T>::bo, false},
    {"attn.qk_gain", Dim::H, Dim::none, &LayerView<T>::qk_gain, true},
    {"ln2.weight", Dim::C, Dim::none, &LayerView<T>::ln2_g, false},
    {"ln2.bias", Dim::C, Dim::none, &LayerView<T>::ln2_b, false},
    {"mlp.w1", Dim::C, Dim::F, &LayerView<T>::w1, false},
    {"mlp.b1", Dim::F, Dim::none, &LayerView<T>::b1, false},
    {"mlp.w2", Dim::F, Dim::C, &LayerView<T>::w2, false},
    {"mlp.b2", Dim::C, Dim::none, &LayerView<T>::b2, false},
};

// The tensors outside the blocks, in layout order.
template <typename T>
inline const ModelTensor<T> kModelTensors[] = {
    {"wte", Dim::V, Dim::C, &ParamView<T>::wte, false},
    {"wpe", Dim::T, Dim::C, &ParamView<T>::wpe, false},
    {"lnf.weight", Dim::C, Dim::none, &ParamView<T>::lnf_g, true},
    {"lnf.bias", Dim::C, Dim::none, &ParamView<T>::lnf_b, true},
    {"head.w", Dim::C, Dim::V, &ParamView<T>::head_w, true},
    {"head.b", Dim::V, Dim::none, &ParamView<T>::head_b, true},
};

// Elements of a workspace's storage by what they hold (memory.hpp names the settings behind each).
struct WorkspaceSize {
  uint64_t activations = 0;  // (N, C), (N, F), (N), (N, H) and (H) buffers
  uint64_t attention = 0;    // (B, H, T, T) softmax weights per layer and (T, T) scratch
  uint64_t logits = 0;       // (N, V) logits, probabilities and their gradient
  uint64_t total() const { return activations + attention + logits; }
};

// Which rows the last layer computes past its attention scores: the ones the loss scores (training, evaluation),
// or every row (the reference the tests compare them to: the same loss and gradients, to rounding).
enum class LastLayerRows : char { scored, all };

// Activations for one (B, T), allocated once; forward stores what backward needs.
// R = head.count() rows: the last layer's rows past its scores (head_rows.hpp), B * copy_length when scored.
template <typename T>
struct Workspace {
  struct Layer {
    T *x_in;                        // (N, C) residual stream entering the layer
    T *ln1, *ln1_mean, *ln1_rstd;   // (N, C), (N), (N)
    T *q, *k, *v;                   // (N, C) projections
    T *qhat, *khat, *q_rnorm, *k_rnorm;  // (N, C), (N, H): QK-norm only
    T *att;                         // (B, H, T, T) softmax weights
    // att_y .. x_out: in the last layer its R head rows only, compactly (the first R rows of each buffer)
    T *att_y;                       // (N, C) heads concatenated, before Wo
    T *x_mid;                       // (N, C) residual after attention
    T *ln2, *ln2_mean, *ln2_rstd;
    T *h_pre, *h;                   // (N, F) before and after GELU
    T *x_out;                       // (N, C) residual after the MLP: the next layer's x_in
    T *entropy;                     // (H) mean attention entropy of this forward, nats
    T top_weight, max_logit;
    T logit_spread, jacobian_norm;  // AttentionStats of this forward
  };
  int B = 0, TT = 0, vocab = 0;
  HeadRows head;  // the last layer's rows past its scores
  std::vector<T> storage;
  std::vector<Layer> layers;
  T *x0, *lnf, *lnf_mean, *lnf_rstd, *logits, *probs;  // x0: (N, C) embeddings; the rest (R, C) and (R, V)
  // backward scratch
  T *d_x, *d_ln, *d_att_y, *d_q, *d_k, *d_v, *d_qhat, *d_khat, *d_h, *d_logits, *scratch_a, *scratch_b;
  std::vector<unsigned char> loss_mask;  // (N) 1 where the copy half is scored
  std::vector<int> inputs, targets;      // (N)
  std::vector<int> head_targets;         // (R) the head rows' targets when they are the scored rows, else empty

  Workspace(const TrainConfig& config, int batch, LastLayerRows rows = LastLayerRows::scored);

  // The logits (V) of position p of sequence b, for a position the last layer computed (any, or a scored one).
  const T* logits_at(int b, int p) const { return logits + head.row(b, p) * vocab; }

  // The storage this constructor would allocate, by the same layout pass (no allocation but `layers`): the same
  // for either LastLayerRows.
  static WorkspaceSize size(const TrainConfig& config, int batch);
  // Bytes of the token vectors (inputs, targets, mask, head targets) of a workspace of the scored rows.
  static uint64_t token_bytes(const TrainConfig& config, int batch);
  // Every byte the constructor allocates for the scored rows: storage, layers and token vectors.
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
  const ParamView<T>& weights() const { return p_; }  // named pointers into params()

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
