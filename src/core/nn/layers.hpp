// The Transformer's layers as forward/backward pairs on raw row-major buffers (after llm.c).
//
// Size letters: B batch, T positions, C d_model, H heads, D = C/H head dim (d_k), F d_ff, V vocab,
// N = B*T rows.  Conventions: outputs first, sizes last; a backward *adds* into parameter gradients
// (one zero_grad clears them) and *writes* activation gradients unless its comment says "+=".
// Templated on the scalar: float trains, double checks gradients.
#pragma once

namespace sqrtdk {

inline constexpr double kLayerNormEps = 1e-5;  // PyTorch's nn.LayerNorm default
inline constexpr double kHeadNormEps = 1e-6;   // QK-norm's x / sqrt(|x|^2 + eps)

// y = (x - mean) * rstd * g + b per row.   out, x: (N, C); mean, rstd: (N); g, b: (C)
template <typename T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* x, const T* g, const T* b, int N, int C);
// dx += ..., dg += ..., db += ...  (dx += lets the residual stream's gradient pass through unchanged)
template <typename T>
void layernorm_backward(T* dx, T* dg, T* db, const T* dout, const T* x, const T* mean, const T* rstd, const T* g,
                        int N, int C);

// out = x W + b, or residual + x W + b when residual is not null (the residual add in the same pass; residual may
// be out itself).
// x: (N, I); W: (I, O) row-major (PyTorch's weight transposed); b: (O); out, residual: (N, O)
template <typename T>
void linear_forward(T* out, const T* x, const T* w, const T* b, int N, int I, int O, const T* residual = nullptr);
// dx = dout W^T (skipped when dx is null; += when accumulate_dx), dW += x^T dout, db += colsum(dout)
template <typename T>
void linear_backward(T* dx, T* dw, T* db, const T* dout, const T* x, const T* w, int N, int I, int O,
                     bool accumulate_dx = false);

// GELU, tanh approximation (PyTorch's gelu(approximate="tanh")).   out, x: (n)
template <typename T>
void gelu_forward(T* out, const T* x, int n);
// y (n), optional: the forward's output gelu(x), from which the backward gets 1 + tanh u = 2 y / x without a tanh.
template <typename T>
void gelu_backward(T* dx, const T* dout, const T* x, int n, const T* y = nullptr);

// Per-head L2 normalisation for QK-norm: xhat = x / sqrt(|x|^2 + eps) on each D-slice.
// x, xhat: (N, C); rnorm: (N, H) = 1 / sqrt(|x|^2 + eps)
template <typename T>
void headnorm_forward(T* xhat, T* rnorm, const T* x, int N, int H, int D);
// dx = rnorm * (dxhat - xhat (xhat . dxhat))
template <typename T>
void headnorm_backward(T* dx, const T* dxhat, const T* xhat, const T* rnorm, int N, int H, int D);

// Summary statistics of one attention layer, gathered in the forward pass.
template <typename T>
struct AttentionStats {
  T* entropy_per_head = nullptr;  // (H) mean over query rows of -sum p log p, nats; may be null
  T* top_weight = nullptr;        // (1) mean over rows and heads of max_j p_ij; may be null
  T* max_logit = nullptr;         // (1) largest pre-softmax logit (after scaling); may be null
  // (1) mean over rows and heads of (max_j s_ij - mean_j s_ij) over the causal logits s (after scaling):
  // a shift-invariant spread; may be null
  T* logit_spread = nullptr;
  // (1) mean over rows and heads of |diag(p) - p p^T|_F, the softmax Jacobian's Frobenius norm; may be null
  T* jacobian_norm = nullptr;
};

// Causal multi-head attention core (attention.cpp).  q, k, v: (N, C) with head h in columns h*D .. h*D+D-1;
// scale: (H) factor on q.k per head; P: (B, H, T, T) softmax weights, zero above the diagonal;
// scratch: (T, T).  y holds the output rows of positions first .. T-1 of each sequence only: (B * (T - first), C)
// (first = 0: every row; P and the statistics always cover every row).
//   S = scale_h * Q_bh K_bh^T,  P = softmax(S masked to j <= i),  Y_bh = P V_bh
template <typename T>
void attention_forward(T* y, T* P, const T* q, const T* k, const T* v, const T* scale, int B, int TT, int H, int D,
                       T* scratch, const AttentionStats<T>& stats, int first = 0);
// dP = dY V^T;  dV = P^T dY;  dS = P .* (dP - rowsum(P .* dP));  dQ = scale dS K;  dK = scale dS^T Q;
// dscale_h += sum(dS .* Q K^T) when dscale is not null (QK-norm's learned gain).
// dy, dq: (B * (T - first), C), the rows first .. T-1 as the forward's y (the other rows' dy is 0, and so their
// dq); dk, dv: (N, C), written.  scratch_a, scratch_b: (T, T).
template <typename T>
void attention_backward(T* dq, T* dk, T* dv, T* dscale, const T* dy, const T* P, const T* q, const T* k, const T* v,
                        const T* scale, int B, int TT, int H, int D, T* scratch_a, T* scratch_b, int first = 0);

// Softmax over V and the mean negative log-likelihood over the rows with mask[row] != 0 (every row when mask is
// null).  logits, probs, dlogits: (N, V); targets: (N).  Returns the loss; count is the number of scored rows.
template <typename T>
T cross_entropy_forward(T* probs, const T* logits, const int* targets, const unsigned char* mask, int N, int V);
// dlogits = (probs - onehot(target)) / count on scored rows, 0 elsewhere.
template <typename T>
void cross_entropy_backward(T* dlogits, const T* probs, const int* targets, const unsigned char* mask, int N, int V);

}  // namespace sqrtdk
