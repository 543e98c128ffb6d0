// Every layer's backward against central finite differences in double precision.
// Each check uses loss = sum(G .* out) for a random upstream gradient G, so d loss / d out = G.
#include <catch2/catch.hpp>

#include "core/nn/layers.hpp"
#include "gradcheck.hpp"

using namespace sqrtdk;
using namespace sqrtdk::testing;
using Catch::Matchers::WithinAbs;

TEST_CASE("layernorm backward matches finite differences for input, gain and bias", "[layers][grad]") {
  const int N = 5, C = 7;
  Rng rng(1);
  std::vector<double> x = random_vector(N * C, rng, 2.0), g = random_vector(C, rng), b = random_vector(C, rng);
  const std::vector<double> G = random_vector(N * C, rng);
  std::vector<double> out(N * C), mean(N), rstd(N);
  auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), N, C);
    return dot(G, out);
  };
  loss();
  std::vector<double> dx(N * C, 0.0), dg(C, 0.0), db(C, 0.0);
  layernorm_backward(dx.data(), dg.data(), db.data(), G.data(), x.data(), mean.data(), rstd.data(), g.data(), N, C);
  CHECK(relative_error(dx, numeric_gradient(x, loss)) < kTolerance);
  CHECK(relative_error(dg, numeric_gradient(g, loss)) < kTolerance);
  CHECK(relative_error(db, numeric_gradient(b, loss)) < kTolerance);
}

TEST_CASE("layernorm backward adds into the input gradient so the residual passes through", "[layers]") {
  const int N = 2, C = 3;
  std::vector<double> x{1, 2, 4, -1, 0, 3}, g(C, 1.0), b(C, 0.0), out(N * C), mean(N), rstd(N);
  layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), N, C);
  std::vector<double> zero_upstream(N * C, 0.0), dx(N * C, 0.5), dg(C, 0.0), db(C, 0.0);
  layernorm_backward(dx.data(), dg.data(), db.data(), zero_upstream.data(), x.data(), mean.data(), rstd.data(),
                     g.data(), N, C);
  for (double v : dx) CHECK_THAT(v, WithinAbs(0.5, 1e-15));
}

TEST_CASE("linear backward matches finite differences for input, weight and bias", "[layers][grad]") {
  const int N = 4, I = 5, O = 3;
  Rng rng(2);
  std::vector<double> x = random_vector(N * I, rng), w = random_vector(I * O, rng), b = random_vector(O, rng);
  const std::vector<double> G = random_vector(N * O, rng);
  std::vector<double> out(N * O);
  auto loss = [&] {
    linear_forward(out.data(), x.data(), w.data(), b.data(), N, I, O);
    return dot(G, out);
  };
  loss();
  std::vector<double> dx(N * I, 0.0), dw(I * O, 0.0), db(O, 0.0);
  linear_backward(dx.data(), dw.data(), db.data(), G.data(), x.data(), w.data(), N, I, O);
  CHECK(relative_error(dx, numeric_gradient(x, loss)) < kTolerance);
  CHECK(relative_error(dw, numeric_gradient(w, loss)) < kTolerance);
  CHECK(relative_error(db, numeric_gradient(b, loss)) < kTolerance);
}

TEST_CASE("gelu matches PyTorch's tanh approximation and its backward matches finite differences", "[layers][grad]") {
  // torch.nn.functional.gelu(torch.tensor([-3., -1., 0., 0.5, 2.]), approximate="tanh")
  const std::vector<double> x0{-3.0, -1.0, 0.0, 0.5, 2.0};
  const std::vector<double> expected{-0.003637392082, -0.158808009392, 0.0, 0.345714009825, 1.954597694088};
  std::vector<double> y(5);
  gelu_forward(y.data(), x0.data(), 5);
  for (int i = 0; i < 5; ++i) CHECK_THAT(y[i], WithinAbs(expected[i], 1e-11));

  const int n = 300;  // more than one backward chunk
  Rng rng(3);
  std::vector<double> x = random_vector(n, rng, 2.0);
  const std::vector<double> G = random_vector(n, rng);
  std::vector<double> out(n);
  auto loss = [&] {
    gelu_forward(out.data(), x.data(), n);
    return dot(G, out);
  };
  std::vector<double> dx(n);
  gelu_backward(dx.data(), G.data(), x.data(), n);
  CHECK(relative_error(dx, numeric_gradient(x, loss)) < kTolerance);
}

TEST_CASE("per-head normalisation backward matches finite differences", "[layers][grad]") {
  const int N = 3, H = 2, D = 4;
  Rng rng(4);
  std::vector<double> x = random_vector(N * H * D, rng);
  const std::vector<double> G = random_vector(N * H * D, rng);
  std::vector<double> xhat(N * H * D), rnorm(N * H);
  auto loss = [&] {
    headnorm_forward(xhat.data(), rnorm.data(), x.data(), N, H, D);
    return dot(G, xhat);
  };
  loss();
  for (int n = 0; n < N * H; ++n) {
    double ss = 0;
    for (int d = 0; d < D; ++d) ss += xhat[n * D + d] * xhat[n * D + d];
    CHECK_THAT(ss, WithinAbs(1.0, 1e-5));
  }
  std::vector<double> dx(N * H * D);
  headnorm_backward(dx.data(), G.data(), xhat.data(), rnorm.data(), N, H, D);
  CHECK(relative_error(dx, numeric_gradient(x, loss)) < kTolerance);
}

TEST_CASE("causal attention backward matches finite differences for q, k, v and a learned scale", "[layers][grad]") {
  const int B = 2, TT = 4, H = 2, D = 3, C = H * D;
  Rng rng(5);
  std::vector<double> q = random_vector(B * TT * C, rng), k = random_vector(B * TT * C, rng),
                      v = random_vector(B * TT * C, rng), scale{0.7, 1.9};
  const std::vector<double> G = random_vector(B * TT * C, rng);
  std::vector<double> y(B * TT * C), P(B * H * TT * TT), scratch(TT * TT), scratch2(TT * TT);
  auto loss = [&] {
    attention_forward(y.data(), P.data(), q.data(), k.data(), v.data(), scale.data(), B, TT, H, D, scratch.data(),
                      AttentionStats<double>{});
    return dot(G, y);
  };
  loss();
  std::vector<double> dq(q.size()), dk(k.size()), dv(v.size()), dscale(H, 0.0);
  attention_backward(dq.data(), dk.data(), dv.data(), dscale.data(), G.data(), P.data(), q.data(), k.data(), v.data(),
                     scale.data(), B, TT, H, D, scratch.data(), scratch2.data());
  CHECK(relative_error(dq, numeric_gradient(q, loss)) < kTolerance);
  CHECK(relative_error(dk, numeric_gradient(k, loss)) < kTolerance);
  CHECK(relative_error(dv, numeric_gradient(v, loss)) < kTolerance);
  CHECK(relative_error(dscale, numeric_gradient(scale, loss)) < kTolerance);
}

TEST_CASE("causal attention puts no weight on future positions and rows sum to one", "[layers]") {
  const int B = 1, TT = 5, H = 1, D = 2;
  Rng rng(6);
  std::vector<double> q = random_vector(TT * D, rng, 3.0), k = random_vector(TT * D, rng, 3.0),
                      v = random_vector(TT * D, rng), scale{1.0}, y(TT * D), P(TT * TT), scratch(TT * TT);
  double entropy = 0, top = 0, max_logit = 0;
  attention_forward(y.data(), P.data(), q.data(), k.data(), v.data(), scale.data(), B, TT, H, D, scratch.data(),
                    AttentionStats<double>{&entropy, &top, &max_logit});
  for (int i = 0; i < TT; ++i) {
    double sum = 0;
    for (int j = 0; j < TT; ++j) {
      if (j > i) CHECK(P[i * TT + j] == 0.0);
      sum += P[i * TT + j];
    }
    CHECK_THAT(sum, WithinAbs(1.0, 1e-12));
  }
  // Row 0 attends to itself only: weight 1, entropy 0, so the mean top weight is at least 1/T.
  CHECK_THAT(P[0], WithinAbs(1.0, 1e-15));
  CHECK(entropy >= 0.0);
  CHECK(entropy <= std::log(double(TT)));
  CHECK(top >= 1.0 / TT);
  CHECK(top <= 1.0);
}

TEST_CASE("masked cross-entropy scores only masked rows and its backward matches finite differences",
          "[layers][grad]") {
  const int N = 4, V = 5;
  Rng rng(7);
  std::vector<double> logits = random_vector(N * V, rng, 2.0), probs(N * V);
  const std::vector<int> targets{1, 4, 0, 2};
  const std::vector<unsigned char> mask{0, 1, 1, 0};
  auto loss = [&] { return cross_entropy_forward(probs.data(), logits.data(), targets.data(), mask.data(), N, V); };
  const double l = loss();
  double expected = 0;
  for (int n : {1, 2}) expected -= std::log(probs[n * V + targets[n]]);
  CHECK_THAT(l, WithinAbs(expected / 2, 1e-12));
  std::vector<double> dlogits(N * V);
  cross_entropy_backward(dlogits.data(), probs.data(), targets.data(), mask.data(), N, V);
  CHECK(relative_error(dlogits, numeric_gradient(logits, loss)) < kTolerance);
}

TEST_CASE("cross-entropy stays finite for logits of 1e4", "[layers]") {
  const int N = 1, V = 3;
  std::vector<double> logits{1e4, -1e4, 0}, probs(3);
  const std::vector<int> targets{1};
  const std::vector<unsigned char> mask{1};
  const double l = cross_entropy_forward(probs.data(), logits.data(), targets.data(), mask.data(), N, V);
  CHECK(std::isfinite(l));
  CHECK_THAT(l, WithinAbs(2e4, 1e-6));
}

TEST_CASE("attention from a first row on gives every row's outputs and gradients from there, and P for all", "[layers]") {
  // With dY = 0 before `first`, the rows from first on carry everything: y and dq on them, dk, dv and dscale.
  // In float the same bits: the skipped rows add exact zeros to sums that start at zero.
  const int B = 2, TT = 7, H = 2, D = 4, C = H * D, first = 3, S = TT - first;
  Rng rng(8);
  auto as_float = [](const std::vector<double>& x) { return std::vector<float>(x.begin(), x.end()); };
  const std::vector<float> q = as_float(random_vector(B * TT * C, rng)), k = as_float(random_vector(B * TT * C, rng)),
                           v = as_float(random_vector(B * TT * C, rng)), scale{0.7f, 1.9f};
  std::vector<float> dy_all = as_float(random_vector(B * TT * C, rng)), dy(B * S * C);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < TT; ++i)
      for (int c = 0; c < C; ++c) {
        float& g = dy_all[(b * TT + i) * C + c];
        if (i < first) g = 0;
        else dy[(b * S + i - first) * C + c] = g;
      }
  std::vector<float> y_all(B * TT * C), y(B * S * C), P_all(B * H * TT * TT), P(P_all.size()), scratch(TT * TT),
      scratch2(TT * TT);
  attention_forward(y_all.data(), P_all.data(), q.data(), k.data(), v.data(), scale.data(), B, TT, H, D,
                    scratch.data(), AttentionStats<float>{});
  attention_forward(y.data(), P.data(), q.data(), k.data(), v.data(), scale.data(), B, TT, H, D, scratch.data(),
                    AttentionStats<float>{}, first);
  CHECK(P == P_all);
  std::vector<float> dq_all(q.size()), dk_all(k.size()), dv_all(v.size()), ds_all(H, 0.0f);
  std::vector<float> dq(B * S * C), dk(k.size()), dv(v.size()), ds(H, 0.0f);
  attention_backward(dq_all.data(), dk_all.data(), dv_all.data(), ds_all.data(), dy_all.data(), P.data(), q.data(),
                     k.data(), v.data(), scale.data(), B, TT, H, D, scratch.data(), scratch2.data());
  attention_backward(dq.data(), dk.data(), dv.data(), ds.data(), dy.data(), P.data(), q.data(), k.data(), v.data(),
                     scale.data(), B, TT, H, D, scratch.data(), scratch2.data(), first);
  for (int b = 0; b < B; ++b)
    for (int i = first; i < TT; ++i)
      for (int c = 0; c < C; ++c) {
        CHECK(y[(b * S + i - first) * C + c] == y_all[(b * TT + i) * C + c]);
        CHECK(dq[(b * S + i - first) * C + c] == dq_all[(b * TT + i) * C + c]);
      }
  CHECK(dk == dk_all);
  CHECK(dv == dv_all);
  CHECK(ds == ds_all);
}
