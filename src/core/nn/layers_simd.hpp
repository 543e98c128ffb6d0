// The float kernels of layers.hpp on simd_math.hpp's vectors: layers.cpp calls these for float in every build; its
// scalar loops run for double only (the gradient checks), the reference tests/cpp/test_kernels.cpp compares these
// kernels to.
// Same arguments and shapes as the functions of the same name in layers.hpp.
#pragma once

namespace sqrtdk::simd {

void layernorm_forward(float* out, float* mean, float* rstd, const float* x, const float* g, const float* b, int N,
                       int C);
void layernorm_backward(float* dx, float* dg, float* db, const float* dout, const float* x, const float* mean,
                        const float* rstd, const float* g, int N, int C);
void headnorm_forward(float* xhat, float* rnorm, const float* x, int N, int H, int D);
void headnorm_backward(float* dx, const float* dxhat, const float* xhat, const float* rnorm, int N, int H, int D);
// out (N, O) = each row b (O), or residual + b when residual (N, O) is not null
void bias_rows(float* out, const float* b, const float* residual, int N, int O);
// db (O) += colsum(dout (N, O))
void add_colsum(float* db, const float* dout, int N, int O);
// p (n) = softmax(logits (n)); returns the sum of exp(logit - max) and stores the max in *max_out
float softmax_row(float* p, const float* logits, int n, float* max_out);

}  // namespace sqrtdk::simd
