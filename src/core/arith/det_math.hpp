// exp, log and pow in double from +, -, *, / and exact bit operations only, so they return the same bits on every
// CPU and in WebAssembly.  The C library's versions may differ in the last bit between glibc, musl (Emscripten)
// and their versions, and one last bit is enough to send a training run down another trajectory.
// Accuracy: within a few ulp of the exact value (tests/cpp/test_det_math.cpp compares with std::).
#pragma once

namespace sqrtdk::det {

double exp(double x);    // 0 below -745.2, inf above 709.8, NaN for NaN
double log(double x);    // -inf at 0, NaN below 0 or for NaN, inf at inf
double log1p(double x);  // log(1 + x), accurate for small x
double pow(double x, double y);  // x > 0: exp(y log x); the error grows with |y log x| (~1e-15 relative at 10)

}  // namespace sqrtdk::det
