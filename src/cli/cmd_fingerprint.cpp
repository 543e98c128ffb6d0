// sqrtdk fingerprint: the hash of the float arithmetic (core/train/fingerprint.hpp), to compare across machines and builds.
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/train/fingerprint.hpp"

namespace sqrtdk {

int run_fingerprint(const Args& args) {
  if (args.wants_help())
    return emit(
        "usage: sqrtdk fingerprint\n"
        "\n"
        "Prints a hash of short training curves of a few configurations (every layer, scale mode, init and\n"
        "optimizer).  Every build on every machine, and the WebAssembly module, must print the value committed in\n"
        "tests/fixtures/fingerprint.txt.\n");
  args.accept({});
  return emit(fingerprint_hex(curves_fingerprint()) + "\n");
}

}  // namespace sqrtdk
