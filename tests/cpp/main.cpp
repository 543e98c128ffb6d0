// Catch2 v2 entry point of the C++ test suite.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
