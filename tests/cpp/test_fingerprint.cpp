// One float arithmetic: this build (native release, ASan + UBSan, or WebAssembly; any CPU and -march) reproduces
// the committed fingerprint of short training curves bit for bit.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "core/train/fingerprint.hpp"

TEST_CASE("the curves' fingerprint equals the committed one (tests/fixtures/fingerprint.txt)", "[fingerprint]") {
  std::ifstream file(SQRTDK_FIXTURE_DIR "/fingerprint.txt");
  REQUIRE(file.good());
  std::string committed;
  file >> committed;
  CHECK(sqrtdk::fingerprint_hex(sqrtdk::curves_fingerprint()) == committed);
}
