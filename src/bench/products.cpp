#include "bench/products.hpp"

#include <cstddef>

#include "core/arith/gemm.hpp"
#include "core/arith/rng.hpp"

namespace sqrtdk::bench {

const char* to_string(Op op) { return op == Op::nn ? "nn" : op == Op::nt ? "nt" : "tn"; }

std::vector<Product> training_products(const TrainConfig& config) {
  const ModelConfig& m = config.model;
  const int L = m.n_layers, C = m.d_model, F = m.ff(), D = m.d_k(), V = config.task.vocab();
  const int T = config.task.seq_len(), N = config.task.batch * T, BH = config.task.batch * m.n_heads;
  // Past its scores the last layer computes the scored rows only: S of each sequence's T, R in all.
  const int S = config.task.copy_length, R = config.task.batch * S;
  const int below = L - 1;  // layers on every row
  const char* fwd = "forward";
  const char* bwd = "backward";
  std::vector<Product> all = {
      // linear_forward: out[N,O] += x[N,I] W[I,O]
      {fwd, "x Wq,Wk,Wv,Wo", Op::nn, N, C, C, C, C, C, true, 3 * L + below},
      {fwd, "x Wo (last layer)", Op::nn, R, C, C, C, C, C, true, 1},
      {fwd, "x W1", Op::nn, N, C, F, C, F, F, true, below},
      {fwd, "x W1 (last layer)", Op::nn, R, C, F, C, F, F, true, 1},
      {fwd, "h W2", Op::nn, N, F, C, F, C, C, true, below},
      {fwd, "h W2 (last layer)", Op::nn, R, F, C, F, C, C, true, 1},
      {fwd, "x W_head", Op::nn, R, C, V, C, V, V, true, 1},
      // attention_forward, per (batch, head): S = Q K^T, Y = P V
      {fwd, "Q K^T (per head)", Op::nt, T, D, T, C, C, T, false, L * BH},
      {fwd, "P V (per head)", Op::nn, T, T, D, T, C, C, false, below * BH},
      {fwd, "P V (per head, last layer)", Op::nn, S, T, D, T, C, C, false, BH},
      // linear_backward: dx[N,I] = dout[N,O] W[I,O]^T
      {bwd, "dY Wq,Wk,Wv,Wo^T", Op::nt, N, C, C, C, C, C, false, 4 * below + 2},
      {bwd, "dY Wq,Wo^T (last layer)", Op::nt, R, C, C, C, C, C, false, 2},
      {bwd, "dY W2^T", Op::nt, N, C, F, C, C, F, false, below},
      {bwd, "dY W2^T (last layer)", Op::nt, R, C, F, C, C, F, false, 1},
      {bwd, "dH W1^T", Op::nt, N, F, C, F, F, C, false, below},
      {bwd, "dH W1^T (last layer)", Op::nt, R, F, C, F, F, C, false, 1},
      {bwd, "dY W_head^T", Op::nt, R, V, C, V, V, C, false, 1},
      // linear_backward: dW[I,O] += x[N,I]^T dout[N,O]
      {bwd, "X^T dY (Wq,Wk,Wv,Wo)", Op::tn, C, N, C, C, C, C, true, 4 * below + 2},
      {bwd, "X^T dY (Wq,Wo, last layer)", Op::tn, C, R, C, C, C, C, true, 2},
      {bwd, "X^T dH (W1)", Op::tn, C, N, F, C, F, F, true, below},
      {bwd, "X^T dH (W1, last layer)", Op::tn, C, R, F, C, F, F, true, 1},
      {bwd, "H^T dY (W2)", Op::tn, F, N, C, F, C, C, true, below},
      {bwd, "H^T dY (W2, last layer)", Op::tn, F, R, C, F, C, C, true, 1},
      {bwd, "X^T dY (W_head)", Op::tn, C, R, V, C, V, V, true, 1},
      // attention_backward, per (batch, head): dP = dY V^T, dV = P^T dY, dQ = dS K, dK = dS^T Q
      {bwd, "dY V^T (per head)", Op::nt, T, D, T, C, C, T, false, below * BH},
      {bwd, "dY V^T (per head, last layer)", Op::nt, S, D, T, C, C, T, false, BH},
      {bwd, "P^T dY, dS^T Q (per head)", Op::tn, T, T, D, T, C, C, false, 2 * below * BH},
      {bwd, "P^T dY, dS^T Q (per head, last layer)", Op::tn, T, S, D, T, C, C, false, 2 * BH},
      {bwd, "dS K (per head)", Op::nn, T, T, D, T, C, C, false, below * BH},
      {bwd, "dS K (per head, last layer)", Op::nn, S, T, D, T, C, C, false, BH},
  };
  // QK-norm's learned gain needs the raw scores again in backward.
  if (m.scale == ScaleMode::qknorm) {
    all.push_back({bwd, "Q K^T again (qk_gain)", Op::nt, T, D, T, C, C, T, false, below * BH});
    all.push_back({bwd, "Q K^T again (qk_gain, last layer)", Op::nt, S, D, T, C, C, T, false, BH});
  }
  std::vector<Product> p;  // without the layers' rows of a one-layer model
  for (const Product& product : all)
    if (product.calls > 0) p.push_back(product);
  return p;
}

namespace {

using GemmFn = void (*)(float*, int, const float*, int, const float*, int, int, int, int, bool);

GemmFn gemm_for(Op op, bool reference) {
  switch (op) {
    case Op::nn: return reference ? eigen_ref::gemm_nn<float> : gemm_nn<float>;
    case Op::nt: return reference ? eigen_ref::gemm_nt<float> : gemm_nt<float>;
    default: return reference ? eigen_ref::gemm_tn<float> : gemm_tn<float>;
  }
}

// Stored extents of the operands: rows x leading dimension.
std::size_t a_elements(const Product& p) { return std::size_t(p.op == Op::tn ? p.k : p.m) * p.lda; }
std::size_t b_elements(const Product& p) { return std::size_t(p.op == Op::nt ? p.n : p.k) * p.ldb; }

std::vector<float> uniform_block(std::size_t n, Rng& rng) {
  std::vector<float> x(n);
  for (float& v : x) v = static_cast<float>(rng.uniform(-1.0, 1.0));
  return x;
}

}  // namespace

ProductOperands::ProductOperands(const Product& p) : p_(p) {
  Rng rng(static_cast<uint64_t>(p.m) * 1000003u + static_cast<uint64_t>(p.k) * 1009u + static_cast<uint64_t>(p.n));
  a_ = uniform_block(a_elements(p), rng);
  b_ = uniform_block(b_elements(p), rng);
  c_ = uniform_block(std::size_t(p.m) * p.ldc, rng);
}

void ProductOperands::run_with(long calls, bool reference) {
  const GemmFn gemm = gemm_for(p_.op, reference);
  for (long i = 0; i < calls; ++i)
    gemm(c_.data(), p_.ldc, a_.data(), p_.lda, b_.data(), p_.ldb, p_.m, p_.k, p_.n, p_.accumulate);
}

void ProductOperands::run(long calls) { run_with(calls, false); }
void ProductOperands::run_reference(long calls) { run_with(calls, true); }

}  // namespace sqrtdk::bench
