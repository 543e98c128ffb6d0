// The products of core/arith/gemm.hpp against a naive triple loop in double.
//
// sqrtdk::gemm_*<float> (the 4-lane kernels of gemm_f32x4.hpp, natively and in wasm) is checked, and
// eigen_ref::gemm_*<double> alongside it.
// Shapes: every small size around the register tiles (M 1..9 x N 1..17, so every row and column
// remainder), sizes on both sides of the packing blocks (K 64, N 64 in the 4-lane kernels), random
// sizes in 1..67, and the training shapes of the lesson's models; leading dimensions larger than the
// sub-matrix, operands at unaligned addresses, accumulate on and off.
//
// Tolerance: each element must satisfy |c - c_ref| <= rel_tol * (|c_0| + sum_k |a_ik b_kj|), c_0 the
// value of C before an accumulating call (0 otherwise), with rel_tol = 64 eps of the type (7.6e-6 for
// float).  Rounding of float sums over K <= 672 terms stays far inside it in practice (worst seen with
// the 4-lane kernels: 2.9e-7; the worst-case bound K eps is not reached by blocked random-sign sums),
// while an indexing or edge bug produces an error of the order of the terms themselves.
// Elements of C outside the M x N sub-matrix must be untouched, and with accumulate off the old
// contents of C (NaN here) must not leak into the result.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/arith/gemm.hpp"

namespace {

enum class Op { nn, nt, tn };

struct Case {
  Op op;
  int m, k, n;
  int lda, ldb, ldc;
  int off_a, off_b, off_c;  // elements between an allocation's start and the operand: misaligns it
  bool accumulate;
};

std::string describe(const Case& c) {
  std::ostringstream s;
  s << (c.op == Op::nn ? "gemm_nn" : c.op == Op::nt ? "gemm_nt" : "gemm_tn") << " m=" << c.m << " k=" << c.k
    << " n=" << c.n << " lda=" << c.lda << " ldb=" << c.ldb << " ldc=" << c.ldc << " offsets=" << c.off_a << ","
    << c.off_b << "," << c.off_c << " accumulate=" << c.accumulate;
  return s.str();
}

// Stored extents: A is [M,K] (nn, nt) or [K,M] (tn); B is [K,N] (nn, tn) or [N,K] (nt).
int a_rows(const Case& c) { return c.op == Op::tn ? c.k : c.m; }
int a_cols(const Case& c) { return c.op == Op::tn ? c.m : c.k; }
int b_rows(const Case& c) { return c.op == Op::nt ? c.n : c.k; }
int b_cols(const Case& c) { return c.op == Op::nt ? c.k : c.n; }

// A case with dense or padded leading dimensions and random misalignment.
Case make_case(Op op, int m, int k, int n, bool accumulate, std::mt19937& rng, int max_pad = 5) {
  std::uniform_int_distribution<int> pad(0, max_pad), off(0, 3);
  Case c{op, m, k, n, 0, 0, 0, off(rng), off(rng), off(rng), accumulate};
  c.lda = a_cols(c) + pad(rng);
  c.ldb = b_cols(c) + pad(rng);
  c.ldc = n + pad(rng);
  return c;
}

template <typename T>
using GemmFn = void (*)(T*, int, const T*, int, const T*, int, int, int, int, bool);

template <typename T>
GemmFn<T> dispatched(Op op) {
  return op == Op::nn ? sqrtdk::gemm_nn<T> : op == Op::nt ? sqrtdk::gemm_nt<T> : sqrtdk::gemm_tn<T>;
}

template <typename T>
GemmFn<T> eigen(Op op) {
  return op == Op::nn ? sqrtdk::eigen_ref::gemm_nn<T>
                      : op == Op::nt ? sqrtdk::eigen_ref::gemm_nt<T> : sqrtdk::eigen_ref::gemm_tn<T>;
}

template <typename T>
constexpr double rel_tol() {
  return 64 * std::numeric_limits<T>::epsilon();
}

struct Outcome {
  double worst_error = 0.0;  // max over elements of |c - c_ref| / (|c_0| + sum_k |a_ik b_kj|)
  bool padding_untouched = true;
};

// Runs one case through fn on random U(-1, 1) operands and measures it against the double loop.
template <typename T>
Outcome run_case(const Case& cs, GemmFn<T> fn, std::mt19937& rng) {
  constexpr T kSentinel = T(12345);  // C outside the sub-matrix
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> a(cs.off_a + std::size_t(a_rows(cs)) * cs.lda), b(cs.off_b + std::size_t(b_rows(cs)) * cs.ldb);
  std::vector<T> c(cs.off_c + std::size_t(cs.m) * cs.ldc, kSentinel);
  for (T& x : a) x = T(u(rng));
  for (T& x : b) x = T(u(rng));
  const T* pa = a.data() + cs.off_a;
  const T* pb = b.data() + cs.off_b;
  T* pc = c.data() + cs.off_c;
  for (int i = 0; i < cs.m; ++i)
    for (int j = 0; j < cs.n; ++j)
      pc[i * cs.ldc + j] = cs.accumulate ? T(u(rng)) : std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> c0 = c;

  fn(pc, cs.ldc, pa, cs.lda, pb, cs.ldb, cs.m, cs.k, cs.n, cs.accumulate);

  const auto at_a = [&](int i, int p) {
    return double(cs.op == Op::tn ? pa[p * cs.lda + i] : pa[i * cs.lda + p]);
  };
  const auto at_b = [&](int p, int j) {
    return double(cs.op == Op::nt ? pb[j * cs.ldb + p] : pb[p * cs.ldb + j]);
  };
  Outcome out;
  for (int i = 0; i < cs.m; ++i) {
    for (int j = 0; j < cs.n; ++j) {
      const double old = cs.accumulate ? double(c0[cs.off_c + i * cs.ldc + j]) : 0.0;
      double sum = old, scale = std::fabs(old);
      for (int p = 0; p < cs.k; ++p) {
        const double t = at_a(i, p) * at_b(p, j);
        sum += t;
        scale += std::fabs(t);
      }
      const double got = double(pc[i * cs.ldc + j]);
      const double err = std::isfinite(got) ? std::fabs(got - sum) / std::max(scale, 1e-300)
                                            : std::numeric_limits<double>::infinity();
      out.worst_error = std::max(out.worst_error, err);
    }
  }
  for (std::size_t e = 0; e < c.size(); ++e) {
    const bool inside = e >= std::size_t(cs.off_c) && int((e - cs.off_c) % cs.ldc) < cs.n;
    if (!inside && !(c[e] == kSentinel)) out.padding_untouched = false;
  }
  return out;
}

// Checks one case on both the dispatched float path and Eigen in double.
void check(const Case& cs, std::mt19937& rng) {
  INFO(describe(cs));
  const Outcome f = run_case<float>(cs, dispatched<float>(cs.op), rng);
  INFO("float (" << sqrtdk::gemm_backend_name() << "): worst scaled error " << f.worst_error << ", tolerance "
                 << rel_tol<float>());
  CHECK(f.worst_error <= rel_tol<float>());
  CHECK(f.padding_untouched);
  const Outcome d = run_case<double>(cs, eigen<double>(cs.op), rng);
  INFO("double (eigen_ref): worst scaled error " << d.worst_error << ", tolerance " << rel_tol<double>());
  CHECK(d.worst_error <= rel_tol<double>());
  CHECK(d.padding_untouched);
}

constexpr Op kOps[] = {Op::nn, Op::nt, Op::tn};

}  // namespace

TEST_CASE("gemm: float dispatches to the portable 4-lane kernels in every build", "[gemm]") {
  CHECK(std::string(sqrtdk::gemm_backend_name()) == "f32x4");
}

TEST_CASE("gemm: every small shape around the register tiles matches the double loop", "[gemm]") {
  std::mt19937 rng(1);
  for (Op op : kOps)
    for (int m = 1; m <= 9; ++m)
      for (int n = 1; n <= 17; ++n)
        for (int k : {1, 2, 3, 4, 5, 7, 13})
          for (bool acc : {false, true}) check(make_case(op, m, k, n, acc, rng), rng);
}

TEST_CASE("gemm: shapes across the packing blocks match the double loop", "[gemm]") {
  std::mt19937 rng(2);
  for (Op op : kOps)
    for (int m : {1, 5, 12, 13})
      for (int k : {63, 64, 65, 127, 129, 257})
        for (int n : {12, 63, 64, 65, 131})
          for (bool acc : {false, true}) check(make_case(op, m, k, n, acc, rng), rng);
}

TEST_CASE("gemm: random shapes in 1..67 match the double loop", "[gemm]") {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> dim(1, 67), coin(0, 1);
  for (int trial = 0; trial < 300; ++trial)
    for (Op op : kOps) check(make_case(op, dim(rng), dim(rng), dim(rng), coin(rng) == 1, rng, 9), rng);
}

TEST_CASE("gemm: the training shapes match the double loop", "[gemm]") {
  // Rows 672 = batch 32 x T 21; d_model 64 (d_ff 256, vocab 12, one head) and d_model 128 (d_ff 512,
  // 4 heads of 32).  Projections are dense; attention reads head slices of wider buffers.
  constexpr int R = 32 * 21, T = 21;
  struct Shape {
    Op op;
    int m, k, n, lda, ldb, ldc;  // 0: dense
  };
  const Shape shapes[] = {
      {Op::nn, R, 64, 64, 0, 0, 0},     {Op::nn, R, 64, 256, 0, 0, 0},    {Op::nn, R, 256, 64, 0, 0, 0},
      {Op::nn, R, 64, 12, 0, 0, 0},     {Op::nt, R, 64, 64, 0, 0, 0},     {Op::nt, R, 64, 256, 0, 0, 0},
      {Op::nt, R, 256, 64, 0, 0, 0},    {Op::nt, R, 12, 64, 0, 0, 0},     {Op::tn, 64, R, 64, 0, 0, 0},
      {Op::tn, 64, R, 256, 0, 0, 0},    {Op::tn, 256, R, 64, 0, 0, 0},    {Op::tn, 64, R, 12, 0, 0, 0},
      {Op::nt, T, 64, T, 64, 64, 0},    {Op::nt, T, 64, T, 192, 192, 0},  {Op::nn, T, T, 64, 0, 64, 64},
      {Op::nn, T, T, 64, 0, 192, 192},  {Op::tn, T, T, 64, 0, 64, 64},    {Op::nn, R, 128, 512, 0, 0, 0},
      {Op::nt, R, 512, 128, 0, 0, 0},   {Op::tn, 128, R, 512, 0, 0, 0},   {Op::tn, 512, R, 128, 0, 0, 0},
      {Op::nt, T, 32, T, 128, 128, 0},  {Op::nn, T, T, 32, 0, 128, 128},  {Op::tn, T, T, 32, 0, 128, 128},
  };
  std::mt19937 rng(4);
  for (const Shape& s : shapes) {
    for (bool acc : {false, true}) {
      Case c = make_case(s.op, s.m, s.k, s.n, acc, rng, 0);
      if (s.lda) c.lda = s.lda;
      if (s.ldb) c.ldb = s.ldb;
      if (s.ldc) c.ldc = s.ldc;
      check(c, rng);
    }
  }
}

TEST_CASE("gemm: nn and tn with few rows and whole 8-column panels (B read in place) match the double loop",
          "[gemm]") {
  // The 4-lane kernels read B [K,N] without packing it when M <= 32 and N is a multiple of 8; several column
  // blocks (N > 64) and K blocks (K > 64) included, leading dimensions padded.
  std::mt19937 rng(7);
  for (Op op : {Op::nn, Op::tn})
    for (int m : {1, 5, 21, 32, 33})
      for (int n : {8, 72, 136})
        for (int k : {5, 64, 130})
          for (bool acc : {false, true}) check(make_case(op, m, k, n, acc, rng, 9), rng);
}
