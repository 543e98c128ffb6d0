// The float products of gemm.hpp on fixed 4-lane vectors: one source compiled to wasm simd128 and, natively, to
// SSE (x86-64) or NEON (arm64).  The same blocking and the same order of every sum on every target, so a float
// product gives bit-identical results natively (any CPU, any -march) and in WebAssembly.
//
// Same contract as sqrtdk::eigen_ref (row-major, leading dimensions in elements, any m, k, n >= 0,
// any alignment, `accumulate` chooses C = ... or C += ...):
//
//   gemm_nn: C[M,N] (+)= A[M,K]   * B[K,N]
//   gemm_nt: C[M,N] (+)= A[M,K]   * B[N,K]^T
//   gemm_tn: C[M,N] (+)= A[K,M]^T * B[K,N]
//
// With accumulate == false C is only written, never read (stale NaNs in C do not leak through).
// No heap allocation and no state: each call packs B into a fixed 16 KiB of stack (gemm_f32x4.cpp).
#pragma once

namespace sqrtdk {
namespace f32x4 {

void gemm_nn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate);
void gemm_nt(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate);
void gemm_tn(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
             bool accumulate);

}  // namespace f32x4
}  // namespace sqrtdk
