// sqrtdk fingerprint: the hash of the float arithmetic (core/train/fingerprint.hpp), to compare across machines and builds.
#include <string>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/arith/gemm.hpp"
#include "core/train/fingerprint.hpp"

namespace sqrtdk {

namespace {

// What a build whose float products run on Eigen (preset native-fast) prints under its hash: Eigen sums in an
// order that depends on the CPU's vector width, so its curves, and this hash, are the CPU's, not the lab's.
std::string machine_dependent_note() {
#if defined(SQRTDK_EIGEN_FLOAT)
  return std::string("not the committed fingerprint: this build's float products run on ") + gemm_backend_name() +
         ", whose sums depend on the CPU's vector width, so its bits, and every curve it trains, depend on the CPU "
         "(the native-release build and the page print tests/fixtures/fingerprint.txt on every machine)\n";
#else
  return "";
#endif
}

}  // namespace

int run_fingerprint(const Args& args) {
  if (args.wants_help())
    return emit(
        "usage: sqrtdk fingerprint\n"
        "\n"
        "Prints a hash of short training curves of a few configurations (every layer, scale mode, init and\n"
        "optimizer).  Every build on every machine, and the WebAssembly module, must print the value committed in\n"
        "tests/fixtures/fingerprint.txt; a build whose float products run on Eigen (preset native-fast) prints\n"
        "its own hash and a line saying that its bits depend on the CPU.\n");
  args.accept({});
  return emit(fingerprint_hex(curves_fingerprint()) + "\n" + machine_dependent_note());
}

}  // namespace sqrtdk
