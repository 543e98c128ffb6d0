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
  const char* fwd = "forward";
  const char* bwd = "backward";
  std::vector<Product> p = {
      // linear_forward: out[N,O] += x[N,I] W[I,O]
      {fwd, "x Wq,Wk,Wv,Wo", Op::nn, N, C, C, C, C, C, true, 4 * L},
      {fwd, "x W1", Op::nn, N, C, F, C, F, F, true, L},
      {fwd, "h W2", Op::nn, N, F, C, F, C, C, true, L},
      {fwd, "x W_head", Op::nn, N, C, V, C, V, V, true, 1},
      // attention_forward, per (batch, head): S = Q K^T, Y = P V
      {fwd, "Q K^T (per head)", Op::nt, T, D, T, C, C, T, false, L * BH},
      {fwd, "P V (per head)", Op::nn, T, T, D, T, C, C, false, L * BH},
      // linear_backward: dx[N,I] = dout[N,O] W[I,O]^T
      {bwd, "dY Wq,Wk,Wv,Wo^T", Op::nt, N, C, C, C, C, C, false, 4 * L},
      {bwd, "dY W2^T", Op::nt, N, C, F, C, C, F, false, L},
      {bwd, "dH W1^T", Op::nt, N, F, C, F, F, C, false, L},
      {bwd, "dY W_head^T", Op::nt, N, V, C, V, V, C, false, 1},
      // linear_backward: dW[I,O] += x[N,I]^T dout[N,O]
      {bwd, "X^T dY (Wq,Wk,Wv,Wo)", Op::tn, C, N, C, C, C, C, true, 4 * L},
      {bwd, "X^T dH (W1)", Op::tn, C, N, F, C, F, F, true, L},
      {bwd, "H^T dY (W2)", Op::tn, F, N, C, F, C, C, true, L},
      {bwd, "X^T dY (W_head)", Op::tn, C, N, V, C, V, V, true, 1},
      // attention_backward, per (batch, head): dP = dY V^T, dV = P^T dY, dQ = dS K, dK = dS^T Q
      {bwd, "dY V^T (per head)", Op::nt, T, D, T, C, C, T, false, L * BH},
      {bwd, "P^T dY, dS^T Q (per head)", Op::tn, T, T, D, T, C, C, false, 2 * L * BH},
      {bwd, "dS K (per head)", Op::nn, T, T, D, T, C, C, false, L * BH},
  };
  // QK-norm's learned gain needs the raw scores again in backward.
  if (m.scale == ScaleMode::qknorm)
    p.push_back({bwd, "Q K^T again (qk_gain)", Op::nt, T, D, T, C, C, T, false, L * BH});
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
