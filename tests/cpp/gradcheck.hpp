// Central finite differences in double precision, shared by the gradient tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/arith/rng.hpp"

namespace sqrtdk::testing {

constexpr double kStep = 1e-6;       // central difference step (error O(h^2) ~ 1e-12, rounding ~ 1e-10)
constexpr double kTolerance = 1e-6;  // max |analytic - numeric| relative to max |numeric|

// d f / d x[i] for every i, by (f(x + h e_i) - f(x - h e_i)) / 2h; x is restored.
inline std::vector<double> numeric_gradient(std::vector<double>& x, const std::function<double()>& f) {
  std::vector<double> g(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + kStep;
    const double up = f();
    x[i] = saved - kStep;
    const double down = f();
    x[i] = saved;
    g[i] = (up - down) / (2 * kStep);
  }
  return g;
}

// max_i |a_i - n_i| / max(max_i |n_i|, 1e-12)
inline double relative_error(const std::vector<double>& analytic, const std::vector<double>& numeric) {
  double err = 0, scale = 1e-12;
  for (std::size_t i = 0; i < analytic.size(); ++i) {
    err = std::max(err, std::abs(analytic[i] - numeric[i]));
    scale = std::max(scale, std::abs(numeric[i]));
  }
  return err / scale;
}

inline std::vector<double> random_vector(std::size_t n, Rng& rng, double std = 1.0) {
  std::vector<double> v(n);
  for (double& x : v) x = std * rng.normal();
  return v;
}

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace sqrtdk::testing
