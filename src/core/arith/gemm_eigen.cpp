// Eigen implementations of the products in gemm.hpp (the reference, and the opt-in fast native backend).
#include <Eigen/Core>

#include "core/arith/gemm.hpp"

namespace sqrtdk {
namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Map = Eigen::Map<RowMat<T>, Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename T>
using ConstMap = Eigen::Map<const RowMat<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

}  // namespace

namespace eigen_ref {

template <typename T>
void gemm_nn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate) {
  Map<T> C(c, m, n, Eigen::OuterStride<>(ldc));
  ConstMap<T> A(a, m, k, Eigen::OuterStride<>(lda));
  ConstMap<T> B(b, k, n, Eigen::OuterStride<>(ldb));
  if (accumulate) C.noalias() += A * B;
  else C.noalias() = A * B;
}

template <typename T>
void gemm_nt(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate) {
  Map<T> C(c, m, n, Eigen::OuterStride<>(ldc));
  ConstMap<T> A(a, m, k, Eigen::OuterStride<>(lda));
  ConstMap<T> B(b, n, k, Eigen::OuterStride<>(ldb));
  if (accumulate) C.noalias() += A * B.transpose();
  else C.noalias() = A * B.transpose();
}

template <typename T>
void gemm_tn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate) {
  Map<T> C(c, m, n, Eigen::OuterStride<>(ldc));
  ConstMap<T> A(a, k, m, Eigen::OuterStride<>(lda));
  ConstMap<T> B(b, k, n, Eigen::OuterStride<>(ldb));
  if (accumulate) C.noalias() += A.transpose() * B;
  else C.noalias() = A.transpose() * B;
}

#define SQRTDK_INSTANTIATE(T)                                                          \
  template void gemm_nn<T>(T*, int, const T*, int, const T*, int, int, int, int, bool); \
  template void gemm_nt<T>(T*, int, const T*, int, const T*, int, int, int, int, bool); \
  template void gemm_tn<T>(T*, int, const T*, int, const T*, int, int, int, int, bool);
SQRTDK_INSTANTIATE(float)
SQRTDK_INSTANTIATE(double)
#undef SQRTDK_INSTANTIATE

}  // namespace eigen_ref
}  // namespace sqrtdk
