#include "core/nn/model.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/settings/attention_scale.hpp"
#include "core/settings/copy_layout.hpp"
#include "core/nn/layers.hpp"
#include "core/nn/valid_config.hpp"

namespace sqrtdk {

// ---- layout -----------------------------------------------------------------------------------

void ParamLayout::add(const std::string& name, std::vector<int> shape) {
  std::size_t size = 1;
  for (int s : shape) size *= static_cast<std::size_t>(s);
  entries_.push_back(ParamInfo{name, std::move(shape), total_, size});
  total_ += size;
}

ParamLayout::ParamLayout(const ModelConfig& m, const TaskConfig& t) : qknorm_(m.scale == ScaleMode::qknorm) {
  const bool qk = qknorm_;
  const int sizes[] = {0, m.d_model, m.ff(), m.n_heads, t.vocab(), t.seq_len()};  // by Dim
  auto shape = [&](Dim rows, Dim cols) {
    std::vector<int> out{sizes[static_cast<int>(rows)]};
    if (cols != Dim::none) out.push_back(sizes[static_cast<int>(cols)]);
    return out;
  };
  auto add_model_tensors = [&](bool after_blocks) {
    for (const ModelTensor<float>& e : kModelTensors<float>)
      if (e.after_blocks == after_blocks) add(e.name, shape(e.rows, e.cols));
  };
  std::size_t per_block = 0;
  for (const BlockTensor<float>& e : kBlockTensors<float>) per_block += !e.qknorm_only || qk;
  entries_.reserve(std::size(kModelTensors<float>) + m.n_layers * per_block);  // exact: the memory plan counts
  layer_ranges_.reserve(m.n_layers);
  add_model_tensors(false);
  for (int l = 0; l < m.n_layers; ++l) {
    const std::string prefix = "blocks." + std::to_string(l) + ".";
    const std::size_t begin = total_;
    for (const BlockTensor<float>& e : kBlockTensors<float>)
      if (!e.qknorm_only || qk) add(prefix + e.name, shape(e.rows, e.cols));
    layer_ranges_.emplace_back(begin, total_);
  }
  add_model_tensors(true);
}

const ParamInfo* ParamLayout::lookup(const std::string& name) const {
  for (const ParamInfo& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

const ParamInfo& ParamLayout::find(const std::string& name) const {
  if (const ParamInfo* info = lookup(name)) return *info;
  throw ConfigError("no parameter named '" + name + "'");
}

// Walks the layout's entries in the tables' order: entry i is the next row present.
template <typename T>
ParamView<T>::ParamView(const ParamLayout& layout, T* base, int n_layers) {
  auto entry = layout.entries().begin();
  auto next = [&] { return base + (entry++)->offset; };
  const bool qk = layout.qknorm();
  auto model_tensors = [&](bool after_blocks) {
    for (const ModelTensor<T>& e : kModelTensors<T>)
      if (e.after_blocks == after_blocks) this->*e.member = next();
  };
  model_tensors(false);
  layers.resize(n_layers);
  for (LayerView<T>& v : layers)
    for (const BlockTensor<T>& e : kBlockTensors<T>) v.*e.member = e.qknorm_only && !qk ? nullptr : next();
  model_tensors(true);
}

// ---- workspace --------------------------------------------------------------------------------

template <typename T>
template <typename Take>
void Workspace<T>::lay_out(const TrainConfig& config, Take&& take) {
  const ModelConfig& m = config.model;
  const uint64_t C = m.d_model, F = m.ff(), V = config.task.vocab(), H = m.n_heads, N = uint64_t(B) * TT;
  const uint64_t att = uint64_t(B) * H * TT * TT, tt = uint64_t(TT) * TT;
  const bool qk = m.scale == ScaleMode::qknorm;
  constexpr auto act = &WorkspaceSize::activations;
  auto opt = [&](uint64_t n) { return qk ? take(n, act) : nullptr; };  // QK-norm's buffers
  layers.assign(m.n_layers, Layer{});
  x0 = take(N * C, act);
  for (Layer& L : layers) {
    L.ln1 = take(N * C, act); L.ln1_mean = take(N, act); L.ln1_rstd = take(N, act);
    L.q = take(N * C, act); L.k = take(N * C, act); L.v = take(N * C, act);
    L.qhat = opt(N * C); L.khat = opt(N * C); L.q_rnorm = opt(N * H); L.k_rnorm = opt(N * H);
    L.att = take(att, &WorkspaceSize::attention);
    L.att_y = take(N * C, act);
    L.x_mid = take(N * C, act);
    L.ln2 = take(N * C, act); L.ln2_mean = take(N, act); L.ln2_rstd = take(N, act);
    L.h_pre = take(N * F, act); L.h = take(N * F, act);
    L.x_out = take(N * C, act);
    L.entropy = take(H, act);
  }
  lnf = take(N * C, act); lnf_mean = take(N, act); lnf_rstd = take(N, act);
  logits = take(N * V, &WorkspaceSize::logits); probs = take(N * V, &WorkspaceSize::logits);
  d_x = take(N * C, act); d_ln = take(N * C, act); d_att_y = take(N * C, act);
  d_q = take(N * C, act); d_k = take(N * C, act); d_v = take(N * C, act);
  d_qhat = opt(N * C); d_khat = opt(N * C);
  d_h = take(N * F, act); d_logits = take(N * V, &WorkspaceSize::logits);
  scratch_a = take(tt, &WorkspaceSize::attention); scratch_b = take(tt, &WorkspaceSize::attention);
}

template <typename T>
WorkspaceSize Workspace<T>::size(const TrainConfig& config, int batch) {
  Workspace probe;
  probe.B = batch;
  probe.TT = config.task.seq_len();
  WorkspaceSize size;
  probe.lay_out(config, [&](uint64_t n, uint64_t WorkspaceSize::*kind) -> T* {
    size.*kind += n;
    return nullptr;
  });
  return size;
}

template <typename T>
uint64_t Workspace<T>::token_bytes(const TrainConfig& config, int batch) {
  const uint64_t N = uint64_t(batch) * config.task.seq_len(), R = uint64_t(batch) * config.task.copy_length;
  return N * (2 * sizeof(int) + sizeof(unsigned char)) + R * sizeof(int);
}

template <typename T>
uint64_t Workspace<T>::bytes(const TrainConfig& config, int batch) {
  return size(config, batch).total() * sizeof(T) + uint64_t(config.model.n_layers) * sizeof(Layer) +
         token_bytes(config, batch);
}

template <typename T>
Workspace<T>::Workspace(const TrainConfig& config, int batch, LastLayerRows rows)
    : B(batch), TT(config.task.seq_len()), vocab(config.task.vocab()) {
  const CopyLayout layout{config.task.copy_length};
  head = HeadRows{B, TT, rows == LastLayerRows::scored ? layout.first_scored() : 0};
  storage.assign(static_cast<std::size_t>(size(config, batch).total()), T(0));
  std::size_t used = 0;
  lay_out(config, [&](uint64_t n, uint64_t WorkspaceSize::*) {
    T* p = storage.data() + used;
    used += static_cast<std::size_t>(n);
    return p;
  });
  for (int l = 0; l < config.model.n_layers; ++l) layers[l].x_in = l == 0 ? x0 : layers[l - 1].x_out;
  const std::size_t N = std::size_t(B) * TT;
  inputs.assign(N, 0);
  targets.assign(N, 0);
  loss_mask.assign(N, 0);
  if (!head.all()) head_targets.assign(static_cast<std::size_t>(head.count()), 0);
  for (std::size_t n = 0; n < N; ++n) loss_mask[n] = layout.scored(static_cast<int>(n % TT)) ? 1 : 0;
}

// ---- model ------------------------------------------------------------------------------------

namespace {
const TrainConfig& validated(const TrainConfig& config) {
  require_valid(config);
  return config;
}

// The targets and the loss mask of the head rows: the scored rows' own targets, all scored (a null mask);
// or every row's, masked.
template <typename T>
const int* head_targets(const Workspace<T>& ws) {
  return ws.head.all() ? ws.targets.data() : ws.head_targets.data();
}
template <typename T>
const unsigned char* head_mask(const Workspace<T>& ws) {
  return ws.head.all() ? ws.loss_mask.data() : nullptr;
}
}  // namespace

template <typename T>
Model<T>::Model(const TrainConfig& config)
    : config_(validated(config)),
      layout_(config.model, config.task),
      params_(layout_.total(), T(0)),
      grads_(layout_.total(), T(0)),
      p_(layout_, params_.data(), config.model.n_layers),
      g_(layout_, grads_.data(), config.model.n_layers),
      fixed_scale_(config.model.n_heads, static_cast<T>(attention_scale(config.model))) {}

template <typename T>
void Model<T>::initialize(Rng& rng) {
  const ModelConfig& m = config_.model;
  std::fill(params_.begin(), params_.end(), T(0));
  auto normal = [&](T* w, std::size_t n, double std) {
    for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<T>(std * rng.normal());
  };
  auto uniform = [&](T* w, std::size_t n, double a) {
    for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<T>(rng.uniform(-a, a));
  };
  // A Linear (in, out): weight by the scheme, bias zero except for PyTorch's default.
  auto linear = [&](T* w, T* b, int in, int out) {
    const std::size_t n = std::size_t(in) * out;
    switch (m.init) {
      case InitScheme::xavier: uniform(w, n, std::sqrt(6.0 / (in + out))); break;
      case InitScheme::torch:
        uniform(w, n, 1.0 / std::sqrt(double(in)));
        uniform(b, out, 1.0 / std::sqrt(double(in)));
        break;
      case InitScheme::gpt: normal(w, n, kGptInitStd); break;
    }
  };
  const int C = m.d_model, F = m.ff(), V = config_.task.vocab(), TT = config_.task.seq_len();
  const double embed_std = m.init == InitScheme::gpt ? kGptInitStd : kEmbeddingInitStd;
  normal(p_.wte, std::size_t(V) * C, embed_std);
  normal(p_.wpe, std::size_t(TT) * C, embed_std);
  for (LayerView<T>& L : p_.layers) {
    std::fill(L.ln1_g, L.ln1_g + C, T(1));
    linear(L.wq, L.bq, C, C);
    linear(L.wk, L.bk, C, C);
    linear(L.wv, L.bv, C, C);
    linear(L.wo, L.bo, C, C);
    if (L.qk_gain) std::fill(L.qk_gain, L.qk_gain + m.n_heads, static_cast<T>(initial_qk_gain(m)));
    std::fill(L.ln2_g, L.ln2_g + C, T(1));
    linear(L.w1, L.b1, C, F);
    linear(L.w2, L.b2, F, C);
  }
  std::fill(p_.lnf_g, p_.lnf_g + C, T(1));
  linear(p_.head_w, p_.head_b, C, V);
}

template <typename T>
T Model<T>::forward(Workspace<T>& ws, const int* inputs, const int* targets) const {
  std::copy(inputs, inputs + ws.inputs.size(), ws.inputs.begin());
  std::copy(targets, targets + ws.targets.size(), ws.targets.begin());
  return forward(ws);
}

template <typename T>
T Model<T>::forward(Workspace<T>& ws) const {
  const ModelConfig& m = config_.model;
  const int B = ws.B, TT = ws.TT, C = m.d_model, F = m.ff(), H = m.n_heads, D = m.d_k(), V = config_.task.vocab();
  const int N = B * TT;
  const bool qk = m.scale == ScaleMode::qknorm;
  // x0[n] = wte[token] + wpe[position]
  for (int n = 0; n < N; ++n) {
    const T* e = p_.wte + static_cast<long>(ws.inputs[n]) * C;
    const T* pe = p_.wpe + static_cast<long>(n % TT) * C;
    T* x = ws.x0 + static_cast<long>(n) * C;
    for (int c = 0; c < C; ++c) x[c] = e[c] + pe[c];
  }
  const HeadRows& head = ws.head;
  const T* x = ws.x0;  // layer l reads ws.layers[l].x_in, which is this pointer
  for (int l = 0; l < m.n_layers; ++l) {
    typename Workspace<T>::Layer& A = ws.layers[l];
    const LayerView<T>& P = p_.layers[l];
    // Past its scores the last layer computes the head rows only (R of N): no other row of it reaches the loss.
    // Its queries and scores stay on every row: the attention statistics and maps describe every query.
    const bool last = l == m.n_layers - 1;
    const int first = last ? head.first : 0, rows = last ? head.count() : N;
    layernorm_forward(A.ln1, A.ln1_mean, A.ln1_rstd, x, P.ln1_g, P.ln1_b, N, C);
    linear_forward(A.q, A.ln1, P.wq, P.bq, N, C, C);
    linear_forward(A.k, A.ln1, P.wk, P.bk, N, C, C);
    linear_forward(A.v, A.ln1, P.wv, P.bv, N, C, C);
    const T* q = A.q;
    const T* k = A.k;
    if (qk) {
      headnorm_forward(A.qhat, A.q_rnorm, A.q, N, H, D);
      headnorm_forward(A.khat, A.k_rnorm, A.k, N, H, D);
      q = A.qhat;
      k = A.khat;
    }
    const T* scale = qk ? P.qk_gain : fixed_scale_.data();
    attention_forward(A.att_y, A.att, q, k, A.v, scale, B, TT, H, D, ws.scratch_a,
                      AttentionStats<T>{A.entropy, &A.top_weight, &A.max_logit, &A.logit_spread, &A.jacobian_norm},
                      first);
    // x_mid = x + att_y Wo + bo  (on the head rows: x's gathered into x_mid, the product added in place)
    const T* residual = x;
    if (first > 0) {
      gather_head_rows(A.x_mid, x, head, C);
      residual = A.x_mid;
    }
    linear_forward(A.x_mid, A.att_y, P.wo, P.bo, rows, C, C, residual);
    layernorm_forward(A.ln2, A.ln2_mean, A.ln2_rstd, A.x_mid, P.ln2_g, P.ln2_b, rows, C);
    linear_forward(A.h_pre, A.ln2, P.w1, P.b1, rows, C, F);
    gelu_forward(A.h, A.h_pre, rows * F);
    // x_out = x_mid + gelu(.) W2 + b2
    linear_forward(A.x_out, A.h, P.w2, P.b2, rows, F, C, A.x_mid);
    x = A.x_out;
  }
  const int R = head.count();
  layernorm_forward(ws.lnf, ws.lnf_mean, ws.lnf_rstd, x, p_.lnf_g, p_.lnf_b, R, C);
  linear_forward(ws.logits, ws.lnf, p_.head_w, p_.head_b, R, C, V);
  if (!head.all()) gather_head_rows(ws.head_targets.data(), ws.targets.data(), head, 1);
  return cross_entropy_forward(ws.probs, ws.logits, head_targets(ws), head_mask(ws), R, V);
}

template <typename T>
void Model<T>::backward(Workspace<T>& ws) {
  const ModelConfig& m = config_.model;
  const int B = ws.B, TT = ws.TT, C = m.d_model, F = m.ff(), H = m.n_heads, D = m.d_k(), V = config_.task.vocab();
  const int N = B * TT;
  const bool qk = m.scale == ScaleMode::qknorm;
  const HeadRows& head = ws.head;
  const int R = head.count();
  const T* x_final = ws.layers.back().x_out;
  // Each line inverts the forward line named in its comment, in reverse order.
  // loss = cross_entropy(logits)
  cross_entropy_backward(ws.d_logits, ws.probs, head_targets(ws), head_mask(ws), R, V);
  // logits = lnf head_w + head_b
  linear_backward(ws.d_ln, g_.head_w, g_.head_b, ws.d_logits, ws.lnf, p_.head_w, R, C, V);
  // lnf = LNf(x_final)  (d_x accumulates: cleared first)
  std::fill(ws.d_x, ws.d_x + static_cast<long>(R) * C, T(0));
  layernorm_backward(ws.d_x, g_.lnf_g, g_.lnf_b, ws.d_ln, x_final, ws.lnf_mean, ws.lnf_rstd, p_.lnf_g, R, C);
  for (int l = m.n_layers - 1; l >= 0; --l) {
    typename Workspace<T>::Layer& A = ws.layers[l];
    const LayerView<T>& P = p_.layers[l];
    LayerView<T>& G = g_.layers[l];
    // The last layer's head rows, as in forward: d_x, d_h, d_att_y and d_q hold `rows` rows until expanded.
    const bool last = l == m.n_layers - 1;
    const int first = last ? head.first : 0, rows = last ? R : N;
    // d_x holds d(loss)/d(x_out).  x_out = x_mid + h W2 + b2  (the residual's gradient stays in d_x)
    linear_backward(ws.d_h, G.w2, G.b2, ws.d_x, A.h, P.w2, rows, F, C);
    // h = gelu(h_pre)
    gelu_backward(ws.d_h, ws.d_h, A.h_pre, rows * F, A.h);
    // h_pre = ln2 W1 + b1
    linear_backward(ws.d_ln, G.w1, G.b1, ws.d_h, A.ln2, P.w1, rows, C, F);
    // ln2 = LN2(x_mid)  (adds into d_x, which now holds d(loss)/d(x_mid))
    layernorm_backward(ws.d_x, G.ln2_g, G.ln2_b, ws.d_ln, A.x_mid, A.ln2_mean, A.ln2_rstd, P.ln2_g, rows, C);
    // x_mid = x_in + att_y Wo + bo
    linear_backward(ws.d_att_y, G.wo, G.bo, ws.d_x, A.att_y, P.wo, rows, C, C);
    // att_y = attention(q, k, v), and for QK-norm qhat, khat = headnorm(q), headnorm(k) before it
    // (d_q, d_qhat: the head rows; d_k, d_v: every row)
    if (qk) {
      attention_backward(ws.d_qhat, ws.d_khat, ws.d_v, G.qk_gain, ws.d_att_y, A.att, A.qhat, A.khat, A.v,
                         P.qk_gain, B, TT, H, D, ws.scratch_a, ws.scratch_b, first);
      const HeadRows q_rows{B, TT, first};
      for (int b = 0; b < B; ++b) {
        const long at = q_rows.row(b, first), from = static_cast<long>(b) * TT + first;
        headnorm_backward(ws.d_q + at * C, ws.d_qhat + at * C, A.qhat + from * C, A.q_rnorm + from * H,
                          q_rows.per_sequence(), H, D);
      }
      headnorm_backward(ws.d_k, ws.d_khat, A.khat, A.k_rnorm, N, H, D);
    } else {
      attention_backward(ws.d_q, ws.d_k, ws.d_v, static_cast<T*>(nullptr), ws.d_att_y, A.att, A.q, A.k, A.v,
                         fixed_scale_.data(), B, TT, H, D, ws.scratch_a, ws.scratch_b, first);
    }
    // q, k, v = ln1 Wq + bq, ln1 Wk + bk, ln1 Wv + bv  (their gradients into ln1 add up)
    if (first > 0) {
      // q's gradient is on the head rows only: ln1's head rows gathered into d_att_y (read by the attention's
      // backward, free now), d(ln1) written on them and spread to every row (0 on the others).
      gather_head_rows(ws.d_att_y, A.ln1, head, C);
      linear_backward(ws.d_ln, G.wq, G.bq, ws.d_q, ws.d_att_y, P.wq, rows, C, C);
      expand_head_rows(ws.d_ln, head, C);
    } else {
      linear_backward(ws.d_ln, G.wq, G.bq, ws.d_q, A.ln1, P.wq, N, C, C);
    }
    linear_backward(ws.d_ln, G.wk, G.bk, ws.d_k, A.ln1, P.wk, N, C, C, /*accumulate_dx=*/true);
    linear_backward(ws.d_ln, G.wv, G.bv, ws.d_v, A.ln1, P.wv, N, C, C, /*accumulate_dx=*/true);
    // x_mid = x_in + ...: x_in's gradient through the residual, on the head rows, spread to every row
    if (first > 0) expand_head_rows(ws.d_x, head, C);
    // ln1 = LN1(x_in)  (adds into d_x, which now holds d(loss)/d(x_in) = the previous layer's d(x_out))
    layernorm_backward(ws.d_x, G.ln1_g, G.ln1_b, ws.d_ln, A.x_in, A.ln1_mean, A.ln1_rstd, P.ln1_g, N, C);
  }
  // x0[n] = wte[token] + wpe[position]
  for (int n = 0; n < N; ++n) {
    const T* d = ws.d_x + static_cast<long>(n) * C;
    T* de = g_.wte + static_cast<long>(ws.inputs[n]) * C;
    T* dp = g_.wpe + static_cast<long>(n % TT) * C;
    for (int c = 0; c < C; ++c) {
      de[c] += d[c];
      dp[c] += d[c];
    }
  }
}

template <typename T>
void Model<T>::zero_grad() {
  std::fill(grads_.begin(), grads_.end(), T(0));
}

template struct ParamView<float>;
template struct ParamView<double>;
template struct Workspace<float>;
template struct Workspace<double>;
template class Model<float>;
template class Model<double>;

}  // namespace sqrtdk
