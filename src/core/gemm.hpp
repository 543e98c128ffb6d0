// Row-major matrix products on raw pointers: the only place the hot loops live.
//
// All matrices are row-major with a leading dimension (distance between rows, in elements), so a
// head's slice of a (N, C) buffer is addressed without copying.  `accumulate` chooses C = ... or C += ....
//
//   gemm_nn: C[M,N] (+)= A[M,K]   * B[K,N]      (forward:  y = x W)
//   gemm_nt: C[M,N] (+)= A[M,K]   * B[N,K]^T    (backward: dx = dy W^T, scores = Q K^T)
//   gemm_tn: C[M,N] (+)= A[K,M]^T * B[K,N]      (backward: dW = x^T dy)
//
// `double` always runs on Eigen (it is the reference and the gradient-check type).  `float` runs on
// Eigen natively and on hand-written simd128 kernels when compiled for WebAssembly with -msimd128,
// because Eigen 3.4 does not vectorise for wasm.
#pragma once

namespace sqrtdk {

template <typename T>
void gemm_nn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_nt(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_tn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);

// The Eigen versions, always available: the native path and the reference that kernel tests compare to.
namespace eigen_ref {
template <typename T>
void gemm_nn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_nt(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_tn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
}  // namespace eigen_ref

// Name of the float path compiled into this build ("eigen_ref" or "simd128"), for benchmarks and logs.
const char* gemm_backend_name();

}  // namespace sqrtdk
