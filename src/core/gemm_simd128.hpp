// Hand-written WebAssembly simd128 kernels for the float products of gemm.hpp.
//
// Same contract as sqrtdk::eigen_ref (row-major, leading dimensions in elements, any m, k, n >= 0,
// any alignment, `accumulate` chooses C = ... or C += ...):
//
//   gemm_nn: C[M,N] (+)= A[M,K]   * B[K,N]
//   gemm_nt: C[M,N] (+)= A[M,K]   * B[N,K]^T
//   gemm_tn: C[M,N] (+)= A[K,M]^T * B[K,N]
//
// With accumulate == false C is only written, never read (stale NaNs in C do not leak through).
// No heap allocation and no state: each call packs B into a fixed 16 KiB of stack (gemm_simd128.cpp).
// Only compiled when targeting wasm with -msimd128; gemm.cpp dispatches float to these there.
#pragma once

namespace sqrtdk {
namespace simd128 {

void gemm_nn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate);
void gemm_nt(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate);
void gemm_tn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate);

}  // namespace simd128
}  // namespace sqrtdk
