// A fingerprint of the float arithmetic: one 64-bit hash of the short training curves of a few configurations that
// between them use every layer, scale mode, init scheme and optimizer.  The same value on every machine (any CPU,
// any -march, compiler, sanitizer) and in WebAssembly is what "one float arithmetic" means; the committed value is
// tests/fixtures/fingerprint.txt, checked by the Catch2 suite in every build and by scripts/test.sh on a CLI built
// at a baseline -march (`sqrtdk fingerprint`).
#pragma once
#include <cstdint>
#include <string>

namespace sqrtdk {

// FNV-1a over the bits of every per-step metric and evaluation of each configuration's run.
uint64_t curves_fingerprint();
std::string fingerprint_hex(uint64_t fingerprint);  // 16 lowercase hex digits

}  // namespace sqrtdk
