// sqrtdk::Rng: golden values (any change to the generator changes every seeded result in the lab, natively and
// in WebAssembly, and the JS ports that reproduce it), and the statistics of its normals.
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>

#include "core/arith/rng.hpp"

using Catch::Matchers::WithinAbs;
using sqrtdk::Rng;

TEST_CASE("SplitMix64 seeded 0 gives the published first output", "[rng]") {
  Rng rng(0);
  CHECK(rng.next_u64() == 0xE220A8397B1DCDAFull);  // the reference splitmix64.c, x = 0
}

TEST_CASE("Rng reproduces its golden u64 sequences for seeds 0 and 42", "[rng]") {
  Rng zero(0);
  CHECK(zero.next_u64() == 0xE220A8397B1DCDAFull);
  CHECK(zero.next_u64() == 0x6E789E6AA1B965F4ull);
  CHECK(zero.next_u64() == 0x06C45D188009454Full);
  CHECK(zero.next_u64() == 0xF88BB8A8724C81ECull);
  Rng answer(42);
  CHECK(answer.next_u64() == 0xBDD732262FEB6E95ull);
  CHECK(answer.next_u64() == 0x28EFE333B266F103ull);
  CHECK(answer.next_u64() == 0x47526757130F9F52ull);
  CHECK(answer.next_u64() == 0x581CE1FF0E4AE394ull);
}

TEST_CASE("Rng reproduces its golden uniforms and normals for seeds 0 and 42", "[rng]") {
  // Uniforms are exact (53 bits of an integer).  The golden normals come from an independent Python
  // implementation of the same polar method with math.log (the C library's log): det::log agrees with it to a few
  // ulp, hence the tolerance; the build's own normals are bit-identical natively and in wasm (the fingerprint).
  Rng uniform0(0);
  CHECK(uniform0.uniform() == 0.88331080821364261);
  CHECK(uniform0.uniform() == 0.43152799704850997);
  const double normals0[] = {0.9845279121083984,  -0.17586928586197706, -0.712066156240293,
                             -0.3123445852505078, -0.6223807147869015,  0.5182112468766095};
  const double normals42[] = {0.49295065581737485, -0.6940056672160174, -1.2810773478777024,
                              -0.901557193497174,  -0.6018779810957331, 0.6425676289796471};
  Rng zero(0);
  for (const double expected : normals0) CHECK_THAT(zero.normal(), WithinAbs(expected, 1e-14));
  Rng answer(42);
  for (const double expected : normals42) CHECK_THAT(answer.normal(), WithinAbs(expected, 1e-14));
}

TEST_CASE("100k normals have mean 0 and variance 1 within sampling error", "[rng]") {
  const int n = 100000;
  Rng rng(7);
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.normal();
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / n;
  const double variance = (sum2 - n * mean * mean) / (n - 1);
  // Standard errors: mean 1/sqrt(n) = 0.0032, variance sqrt(2/n) = 0.0045; bounds at about 4.5 of them.
  CHECK_THAT(mean, WithinAbs(0.0, 0.015));
  CHECK_THAT(variance, WithinAbs(1.0, 0.02));
}

TEST_CASE("uniform stays within 0 inclusive and 1 exclusive and below(n) under n", "[rng]") {
  Rng rng(3);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    REQUIRE(rng.below(7) < 7u);
  }
}

TEST_CASE("derive gives reproducible streams that differ by label, by seed and from the parent", "[rng]") {
  CHECK(Rng::derive(0, 1).next_u64() == Rng::derive(0, 1).next_u64());
  const std::set<uint64_t> firsts = {Rng::derive(0, 1).next_u64(), Rng::derive(0, 2).next_u64(),
                                     Rng::derive(1, 1).next_u64(), Rng(0).next_u64(), Rng(1).next_u64()};
  CHECK(firsts.size() == 5);
  // Streams, not just first values, differ: no shared value in their first 1000 outputs.
  Rng a = Rng::derive(5, 1), b = Rng::derive(5, 2);
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(a.next_u64());
  int shared = 0;
  for (int i = 0; i < 1000; ++i) shared += static_cast<int>(seen.count(b.next_u64()));
  CHECK(shared == 0);
}
