// The last layer's head rows: gathered compactly, spread back with zeros in the rows before them.
#include <catch2/catch.hpp>

#include <vector>

#include "core/nn/head_rows.hpp"

using namespace sqrtdk;

TEST_CASE("head rows are gathered in order and spread back in place with zeros before them", "[head_rows]") {
  const HeadRows rows{3, 5, 2};  // 3 sequences of 5 positions, positions 2..4 computed
  const int C = 2;
  REQUIRE(rows.count() == 9);
  CHECK(rows.row(1, 2) == 3);
  CHECK(rows.row(2, 4) == 8);
  std::vector<int> x(3 * 5 * C);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int>(i) + 1;
  std::vector<int> compact(rows.count() * C);
  gather_head_rows(compact.data(), x.data(), rows, C);
  for (int b = 0; b < 3; ++b)
    for (int p = 2; p < 5; ++p)
      for (int c = 0; c < C; ++c) CHECK(compact[rows.row(b, p) * C + c] == x[(b * 5 + p) * C + c]);

  std::vector<double> y(x.size(), -1.0);  // stale values in the rows the spread must clear
  for (std::size_t i = 0; i < compact.size(); ++i) y[i] = compact[i];
  expand_head_rows(y.data(), rows, C);
  for (int b = 0; b < 3; ++b)
    for (int p = 0; p < 5; ++p)
      for (int c = 0; c < C; ++c) CHECK(y[(b * 5 + p) * C + c] == (p < 2 ? 0.0 : x[(b * 5 + p) * C + c]));
}

TEST_CASE("all rows are head rows when the first is 0: spreading leaves them", "[head_rows]") {
  const HeadRows rows{2, 3, 0};
  CHECK(rows.all());
  std::vector<float> x{1, 2, 3, 4, 5, 6};
  expand_head_rows(x.data(), rows, 1);
  CHECK(x == std::vector<float>{1, 2, 3, 4, 5, 6});
}
