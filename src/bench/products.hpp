// The matrix products of one training step (Trainer::step) for a configuration, and operands to time them on.
//
// The list mirrors the gemm_* calls of Model::forward / Model::backward (src/core/nn/model.cpp) and of the
// layers they call (src/core/nn/layers.cpp, attention.cpp): same shapes, same leading dimensions (a head is a
// column slice of an (N, C) buffer), same number of calls per step; the last layer's products past its scores
// have the scored rows only (R = batch * copy_length).  Identical shapes are merged into one entry whose `calls`
// is the sum.  Keep it in step with those files when they change.
#pragma once
#include <string>
#include <vector>

#include "core/settings/config.hpp"

namespace sqrtdk::bench {

enum class Op { nn, nt, tn };  // gemm_nn, gemm_nt, gemm_tn of core/arith/gemm.hpp
const char* to_string(Op op);

struct Product {
  const char* phase;  // "forward" or "backward"
  std::string name;   // what it computes, e.g. "dY W1^T"
  Op op;
  int m, k, n;
  int lda, ldb, ldc;
  bool accumulate;
  int calls;  // per training step

  double flop() const { return 2.0 * m * k * n; }  // per call
};

std::vector<Product> training_products(const TrainConfig& config);

// Random operands of a product; run(n) makes n calls of sqrtdk::gemm_* <float> on them (Eigen natively, the
// simd128 kernels in wasm), run_reference(n) of sqrtdk::eigen_ref::gemm_* <float> (Eigen in both builds: in wasm,
// what the simd128 kernels replace).
class ProductOperands {
 public:
  explicit ProductOperands(const Product& product);
  void run(long calls);
  void run_reference(long calls);

 private:
  void run_with(long calls, bool reference);
  Product p_;
  std::vector<float> a_, b_, c_;
};

struct ProductTiming {
  Product product;
  double seconds_per_call;
  double reference_seconds_per_call = 0;  // eigen_ref, timed only when the build's kernels are not Eigen's
  double gflops() const { return product.flop() / seconds_per_call * 1e-9; }
  double reference_gflops() const {
    return reference_seconds_per_call > 0 ? product.flop() / reference_seconds_per_call * 1e-9 : 0;
  }
};

}  // namespace sqrtdk::bench
