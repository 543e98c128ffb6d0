// Dispatch of the products in gemm.hpp: double on Eigen (the reference), float on the portable 4-lane kernels
// (gemm_f32x4.hpp), which give the same bits on every CPU and in WebAssembly.  A build that defines
// SQRTDK_EIGEN_FLOAT runs float on Eigen instead: faster natively (AVX2/AVX-512 under -march=native) but its
// results depend on the CPU's vector width, so only the benchmark's `sqrtdk_bench_eigen` is built that way.
#include "core/arith/gemm.hpp"

#if defined(SQRTDK_EIGEN_FLOAT)
#define SQRTDK_FLOAT_KERNELS eigen_ref
#define SQRTDK_FLOAT_KERNELS_NAME "eigen (machine-dependent)"
#else
#include "core/arith/gemm_f32x4.hpp"
#define SQRTDK_FLOAT_KERNELS f32x4
#define SQRTDK_FLOAT_KERNELS_NAME "f32x4"
#endif

namespace sqrtdk {

template <>
void gemm_nn<double>(double* c, int ldc, const double* a, int lda, const double* b, int ldb, int m, int k, int n,
                     bool acc) {
  eigen_ref::gemm_nn(c, ldc, a, lda, b, ldb, m, k, n, acc);
}
template <>
void gemm_nt<double>(double* c, int ldc, const double* a, int lda, const double* b, int ldb, int m, int k, int n,
                     bool acc) {
  eigen_ref::gemm_nt(c, ldc, a, lda, b, ldb, m, k, n, acc);
}
template <>
void gemm_tn<double>(double* c, int ldc, const double* a, int lda, const double* b, int ldb, int m, int k, int n,
                     bool acc) {
  eigen_ref::gemm_tn(c, ldc, a, lda, b, ldb, m, k, n, acc);
}
template <>
void gemm_nn<float>(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
                    bool acc) {
  SQRTDK_FLOAT_KERNELS::gemm_nn(c, ldc, a, lda, b, ldb, m, k, n, acc);
}
template <>
void gemm_nt<float>(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
                    bool acc) {
  SQRTDK_FLOAT_KERNELS::gemm_nt(c, ldc, a, lda, b, ldb, m, k, n, acc);
}
template <>
void gemm_tn<float>(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int m, int k, int n,
                    bool acc) {
  SQRTDK_FLOAT_KERNELS::gemm_tn(c, ldc, a, lda, b, ldb, m, k, n, acc);
}

const char* gemm_backend_name() { return SQRTDK_FLOAT_KERNELS_NAME; }

}  // namespace sqrtdk
