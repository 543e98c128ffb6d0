// One float arithmetic: this build (native release, ASan + UBSan, or WebAssembly; any CPU and -march) reproduces
// the committed fingerprint of short training curves bit for bit.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "core/claims/claims.hpp"
#include "core/train/fingerprint.hpp"

TEST_CASE("the curves' fingerprint equals the committed one (tests/fixtures/fingerprint.txt)", "[fingerprint]") {
  std::ifstream file(SQRTDK_FIXTURE_DIR "/fingerprint.txt");
  REQUIRE(file.good());
  std::string committed;
  file >> committed;
  CHECK(sqrtdk::fingerprint_hex(sqrtdk::curves_fingerprint()) == committed);
}

// The claims table is a record of curves: measured with another arithmetic, every count in it may be stale, whatever
// the re-measured first seeds (test_scenarios.cpp) say.  Re-measure with scripts/measure-claims.sh.
TEST_CASE("the claims table was measured with this arithmetic (its recorded fingerprint is the current one)", "[fingerprint]") {
  CHECK(std::string(sqrtdk::measured_with_fingerprint()) == sqrtdk::fingerprint_hex(sqrtdk::curves_fingerprint()));
}
