// Two places where native and wasm builds could differ without care: a median over values that may hold NaN
// (sorting with < over a NaN is undefined behaviour, and libstdc++ and libc++ may order it differently), and
// C's printf writing -0 as "-0" where JavaScript writes "0".
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/arith/median.hpp"
#include "core/text/json.hpp"
#include "core/text/number_text.hpp"

using namespace sqrtdk;

namespace {
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("the median orders NaN after every number, whatever the input order", "[median]") {
  CHECK(std::isnan(median({})));
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  // NaN counts as a value larger than +inf: one NaN of five moves the middle, it never poisons a middle it is not.
  const std::vector<std::vector<double>> orders = {
      {kNan, 5, 1, kInf, 3}, {5, kNan, 3, 1, kInf}, {kInf, 3, 1, 5, kNan}, {1, 3, 5, kInf, kNan}};
  for (const auto& v : orders) CHECK(median(v) == 5);
  CHECK(median({kNan, 2, kNan, 1}) != median({kNan, 2, kNan, 1}));  // the middle two are 2 and NaN: NaN
  CHECK(median({kNan, 2, 1, kNan, 0}) == 2);
  CHECK(std::isnan(median({kNan, kNan, kNan, 1, 2})));
  CHECK(median({-0.0, 0.0, -1.0}) == 0);
}

TEST_CASE("negative zero is written 0 in text and JSON, as JavaScript writes it", "[median]") {
  CHECK(format_number(-0.0) == "0");
  CHECK(format_given(-0.0) == "0");
  CHECK(format_whole(-0.0) == "0");
  CHECK(format_steps(-0.0) == "0");
  CHECK(format_roundtrip(-0.0) == "0");
  CHECK(format_number(-0.25) == "-0.25");  // only zero loses its sign
  JsonWriter json;
  json.begin_array().value(-0.0).value(0.0).end_array();
  CHECK(json.str() == "[0,0]");
}
