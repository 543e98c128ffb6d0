// Row-major matrix products on raw pointers: the only place the hot loops live.
//
// All matrices are row-major with a leading dimension (distance between rows, in elements), so a
// head's slice of a (N, C) buffer is addressed without copying.  `accumulate` chooses C = ... or C += ....
//
//   gemm_nn: C[M,N] (+)= A[M,K]   * B[K,N]      (forward:  y = x W)
//   gemm_nt: C[M,N] (+)= A[M,K]   * B[N,K]^T    (backward: dx = dy W^T, scores = Q K^T)
//   gemm_tn: C[M,N] (+)= A[K,M]^T * B[K,N]      (backward: dW = x^T dy)
//
// `double` always runs on Eigen (it is the reference and the gradient-check type).  `float` runs on the
// portable 4-lane kernels of gemm_f32x4.hpp, natively and in WebAssembly alike, so that training gives the same
// bits everywhere (Eigen's float products sum in an order that depends on the CPU's vector width).
#pragma once

namespace sqrtdk {

template <typename T>
void gemm_nn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_nt(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_tn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);

// The Eigen versions, always available: the reference the kernel tests compare to, and the opt-in fast native
// backend (the benchmark's sqrtdk_bench_eigen), whose float bits depend on the CPU.
namespace eigen_ref {
template <typename T>
void gemm_nn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_nt(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
template <typename T>
void gemm_tn(T* c, int ldc, const T* a, int lda, const T* b, int ldb, int m, int k, int n, bool accumulate);
}  // namespace eigen_ref

// Name of the float path compiled into this build: "f32x4", or "eigen (machine-dependent)" in the benchmark's
// Eigen build; every output that ran on the latter says so.
const char* gemm_backend_name();

}  // namespace sqrtdk
