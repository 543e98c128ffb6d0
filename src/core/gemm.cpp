// Dispatch of the products in gemm.hpp: Eigen everywhere, except float on wasm simd128.
#include "core/gemm.hpp"

#if defined(__wasm_simd128__) && !defined(SQRTDK_FORCE_EIGEN)
#include "core/gemm_simd128.hpp"
#define SQRTDK_FLOAT_KERNELS simd128
#else
#define SQRTDK_FLOAT_KERNELS eigen_ref
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

#define SQRTDK_STR2(x) #x
#define SQRTDK_STR(x) SQRTDK_STR2(x)
const char* gemm_backend_name() { return SQRTDK_STR(SQRTDK_FLOAT_KERNELS); }

}  // namespace sqrtdk
